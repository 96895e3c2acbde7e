// impact: everything that reaches a symbol through incoming CALLS / INSTANTIATES / REFERENCES /
// EXTENDS / IMPLEMENTS / USES_TYPE / IMPORTS edges, grouped by distance, each entry tagged with the
// edge type that reached it. Unresolved call sites that might reach the symbol (calls with its
// name the parser could not bind) are counted beside the total, never in it. computeImpact and
// renderImpact are apart so an `across` input (other repositories the radius reaches) can add its
// sections to the same answer.
import * as z from "../model/zod.js";
import { IMPACT_TYPES, type Reached, impactLevels } from "../graph/walk.js";
import { type PlaneRead, isWhole, perView, prefetchIn } from "../graph/view.js";
import { keyName } from "../model/facts.js";
import type { PlaneInfo, StoredNode } from "../store/types.js";
import { LOWER_BOUND_NOTE, type Section, headerLines, oneLine, PAGE_INPUT, type Page, pageEnd, renderSections, resolveOne, withMatchNote } from "./common.js";
import { AGENT_MARK, byKeyOf, callSites, firstByKey, nodeLine, planeOf, prefetchLines, SECTION_LINES } from "./graph_lines.js";
import { AS_OF_INPUT } from "./asof.js";
import { danglingAttachments, declaredCoordinates, mapExternal, otherCodePlanes, relatedPlanes } from "./across.js";
import { attachmentsOf } from "./attachments.js";
import { defineTool, type ToolContext } from "./tool.js";

/** Call sites the parser left unbound whose callee name equals the symbol's name. */
export interface UnresolvedSites {
  name: string;
  /** Sites (an edge stands for `count` sites when a caller repeats the call). */
  sites: number;
  /** The callers holding them, with the first site's line and the reason: the first UNRESOLVED_SHOWN by caller key (then line), then the rest. */
  callers: { id: string; line?: number; lines?: number[]; reason?: string; count: number }[];
  /** Sites with the name that are proven not to reach it (calls on builtin objects). */
  excluded: number;
}

/** Reasons that prove a call cannot reach a symbol of the tree (a method of a builtin object). */
export const CANNOT_REACH = new Set(["builtin"]);

/** How many nodes named alike `unresolvedNamed` looks at (the store's name lookup limit). */
const NAMED_SCAN = 10_000;

/**
 * The plane's UnresolvedRef stand-ins by name, per state of the graph view (perView: a commit
 * that patches the view brings a new index): the ids, in id order, of those among the
 * first NAMED_SCAN nodes of each name — what a name lookup limited to NAMED_SCAN would return.
 */
function unresolvedRefsNamed(ctx: ToolContext, plane: string, g: PlaneRead, name: string): string[] {
  // Walking the store: the name lookup itself (ids in id order, the first NAMED_SCAN).
  if (!isWhole(g))
    return ctx.store
      .nodesByName(plane, name, NAMED_SCAN)
      .filter((n) => n.labels.includes("UnresolvedRef"))
      .map((n) => String(n.id));
  const byName = perView(g, "impact.refsByName", () => {
    const refs = new Set<string>();
    for (const n of ctx.store.nodesByLabel(plane, "UnresolvedRef")) refs.add(String(n.id));
    // The view holds every node of the plane, inserted in id order.
    const seen = new Map<string, number>();
    const byName = new Map<string, string[]>();
    for (const id of g.nodes()) {
      const nm = keyName(g.getNodeAttribute(id, "key"));
      const k = (seen.get(nm) ?? 0) + 1;
      seen.set(nm, k);
      if (k > NAMED_SCAN || !refs.has(id)) continue;
      const list = byName.get(nm);
      if (list) list.push(id);
      else byName.set(nm, [id]);
    }
    return byName;
  });
  return byName.get(name) ?? [];
}

/** Callers of unbound calls named alike an answer lists. */
const UNRESOLVED_SHOWN = 5;

/** The unbound calls named like `node` anywhere in the plane (a per-view index, then the view). */
export function unresolvedNamed(ctx: ToolContext, plane: string, g: PlaneRead, node: StoredNode): UnresolvedSites {
  const name = keyName(node.key);
  const out: UnresolvedSites = { name, sites: 0, callers: [], excluded: 0 };
  const refs = unresolvedRefsNamed(ctx, plane, g, name);
  prefetchIn(g, refs);
  for (const id of refs) {
    g.forEachInEdge(id, (_e, a, src) => {
      if (a.type !== "CALLS") return;
      const count = a.count ?? 1;
      if (a.reason !== undefined && CANNOT_REACH.has(a.reason)) {
        out.excluded += count;
        return;
      }
      out.sites += count;
      out.callers.push({ id: src, line: a.line, lines: a.lines, reason: a.reason, count });
    });
  }
  // The answer lists the first few by key: their sites come from as many callers at most, the
  // first by key (firstByKey: chosen by the store where it can); the rest follow unsorted.
  const first = new Set(firstByKey(g, [...new Set(out.callers.map((c) => c.id))], UNRESOLVED_SHOWN));
  const cmp = byKeyOf(g);
  const shown = out.callers.filter((c) => first.has(c.id)).sort((a, b) => cmp(a.id, b.id) || (a.line ?? 0) - (b.line ?? 0));
  out.callers = shown.concat(out.callers.filter((c) => !first.has(c.id)));
  return out;
}

export interface ImpactResult {
  /** Each depth's nodes, in id order. */
  levels: Reached[][];
  /** Each depth's first nodes by key (as many as the answer may list): its lines. */
  first: Reached[][];
  total: number;
  unresolved: UnresolvedSites;
}

/** The radius of `node` on the plane's graph view, up to `depth`, each depth's first `shown` by key. */
export function computeImpact(ctx: ToolContext, p: PlaneInfo, node: StoredNode, depth: number, shown: number): ImpactResult {
  const g = ctx.views.read(p.name);
  const levels = impactLevels(g, String(node.id), depth, IMPACT_TYPES);
  const first = levels.map((l) => {
    const chosen = firstByKey(g, l.map((x) => x.id), shown);
    const at = new Map(chosen.map((id, i) => [id, i]));
    const out: Reached[] = new Array(chosen.length);
    for (const x of l) {
      const i = at.get(x.id);
      if (i !== undefined) out[i] = x;
    }
    return out;
  });
  return {
    levels,
    first,
    total: levels.reduce((s, l) => s + l.length, 0),
    unresolved: unresolvedNamed(ctx, p.name, g, node),
  };
}

/** How many of a depth's nodes an answer with `page` may list (renderSections shows the page of them). */
function impactShown(page: Page): number {
  return Math.max(SECTION_LINES, pageEnd(page));
}

/** A direct caller's call sites into the symbol (`  call@12,40`), so every site to edit is listed. */
function directSites(g: PlaneRead, from: string, to: string): string {
  let out = "";
  g.forEachOutEdge(from, to, (_e, a) => {
    if (a.type === "CALLS" && out === "") out = callSites(a.line, a.count, a.lines);
  });
  return out ? `  ${out}` : "";
}

/** The answer's text: head, one section per depth, the total, the unresolved sites beside it. */
export function renderImpact(
  ctx: ToolContext,
  p: PlaneInfo,
  node: StoredNode,
  depth: number,
  r: ImpactResult,
  cross?: CrossResult,
  page: Page = {},
): string {
  const g = ctx.views.read(p.name);
  prefetchLines(ctx, p.name, g, r.first.flat().map((x) => x.id));
  const head = [...headerLines(ctx, p), oneLine(node)];
  const sections: Section[] = r.levels.map((level, i) => ({
    title: `depth ${i + 1}`,
    total: level.length,
    lines: r.first[i]!.map((x) => `${nodeLine(ctx, p.name, g, x.id)}  [${x.via}]${i === 0 ? directSites(g, x.id, String(node.id)) : ""}${x.agent ? AGENT_MARK : ""}`),
  }));
  if (sections.length === 0) head.push(`nothing reaches it through recorded ${IMPACT_TYPES.join("/")} edges`);
  const byAgent = r.levels.reduce((s, l) => s + l.filter((x) => x.agent).length, 0);
  const tail = [`total affected within depth ${depth}: ${r.total}${byAgent > 0 ? ` (${byAgent} reached only through edges an agent wrote, marked [agent-written]: not proved by the parser)` : ""}`];
  if (cross) sections.push(...cross.sections);
  const crossTail = (): string[] => {
    if (!cross) return [];
    return [
      cross.total > 0
        ? `in other repositories: ${cross.total} symbol(s) in ${cross.sections.length > 0 ? new Set(cross.planes).size : 0} plane(s) reach it through their External stand-ins (not in the total above)`
        : `in other repositories: nothing reaches it (searched ${cross.searched.length ? cross.searched.join(", ") : "no other plane"})`,
      ...cross.notes,
    ];
  };
  const u = r.unresolved;
  const builtin = u.excluded > 0 ? `; ${u.excluded} more on builtin objects cannot reach it` : "";
  if (u.sites === 0)
    tail.push(
      u.excluded === 0
        ? `unresolved call sites that might also reach it: 0 (no call named \`${u.name}\` is left unbound)`
        : `unresolved call sites that might also reach it: 0 (the ${u.excluded} unbound call(s) named \`${u.name}\` are on builtin objects, which cannot reach it)`,
    );
  else {
    tail.push(
      `unresolved call sites that might also reach it, not in the total: ${u.sites} (calls named \`${u.name}\` the parser could not bind${builtin}) — look in:`,
    );
    for (const c of u.callers.slice(0, UNRESOLVED_SHOWN)) {
      const site = callSites(c.line, c.count, c.lines);
      tail.push(`  ${nodeLine(ctx, p.name, g, c.id)}${site ? `  ${site}` : ""}${c.reason ? `  [${c.reason}]` : ""}`);
    }
    if (u.callers.length > UNRESOLVED_SHOWN) tail.push(`  … and ${u.callers.length - UNRESOLVED_SHOWN} more caller(s)`);
  }
  tail.push(...crossTail());
  tail.push(LOWER_BOUND_NOTE);
  tail.push(`next: context <key> on any entry for its call sites; trace <key> ${node.key} for the path`);
  return renderSections(head, sections, tail, undefined, page);
}

export interface CrossResult {
  sections: Section[];
  total: number;
  planes: string[];
  searched: string[];
  notes: string[];
}

/**
 * The other repositories the radius reaches: planes whose External stand-ins map (through the
 * coordinates this plane's build declares) onto the symbol or anything in its radius.
 */
export async function crossImpact(
  ctx: ToolContext,
  p: PlaneInfo,
  node: StoredNode,
  depth: number,
  r: ImpactResult,
  across: "attached" | "all",
): Promise<CrossResult> {
  const out: CrossResult = { sections: [], total: 0, planes: [], searched: [], notes: [] };
  const planes = across === "all" ? otherCodePlanes(ctx, p.name) : relatedPlanes(ctx, p.name);
  out.searched = planes;
  for (const n of danglingAttachments(ctx, p.name)) out.notes.push(`note: ${n}`);
  const remotes = attachmentsOf(p).filter((a) => a.kind === "remote");
  if (remotes.length > 0)
    out.notes.push(`note: ${remotes.length} remote attachment(s) not crossed by impact (${remotes.map((a) => `${a.plane} at ${a.url}`).join(", ")}); ask them directly`);
  if (planes.length === 0) {
    if (across === "attached") out.notes.push("note: no plane is attached to this one — attach {plane, target} links repositories, or use across: all");
    return out;
  }
  const coords = await declaredCoordinates(ctx, p.name);
  if (coords.length === 0) {
    out.notes.push(`note: plane '${p.name}' declares no package coordinate (package.json name, go.mod module, pom.xml, Cargo.toml, pyproject) drsg can read, so no other repository can be matched to it`);
    return out;
  }
  const radius = new Set<string>([String(node.id), ...r.levels.flat().map((x) => x.id)]);
  for (const other of planes) {
    const hits: { ext: StoredNode; target: StoredNode }[] = [];
    for (const ext of ctx.store.nodesByLabel(other, "External", 200_000)) {
      const target = mapExternal(ctx, ext.key, p.name, coords);
      if (target && radius.has(String(target.id))) hits.push({ ext, target });
    }
    if (hits.length === 0) continue;
    const g = ctx.views.read(other);
    for (const h of hits.sort((a, b) => (a.ext.key < b.ext.key ? -1 : 1))) {
      const levels = impactLevels(g, String(h.ext.id), depth, IMPACT_TYPES);
      const cmp = byKeyOf(g);
      const reached = levels.flatMap((l) => l.sort((a, b) => cmp(a.id, b.id)));
      out.total += reached.length;
      out.planes.push(other);
      out.sections.push({
        title: `across plane '${other}': via ${h.ext.key} → ${h.target.key}`,
        total: reached.length,
        lines: reached.slice(0, SECTION_LINES).map((x) => `${nodeLine(ctx, other, g, x.id)}  [depth ${x.depth}, ${x.via}]`),
      });
    }
  }
  return out;
}

export const impact = defineTool({
  name: "impact",
  description:
    "What breaks if a symbol changes: everything that reaches it through incoming CALLS, INSTANTIATES, REFERENCES, EXTENDS, IMPLEMENTS, USES_TYPE and IMPORTS edges, grouped by distance (depth 1–6, default 3), each tagged with the edge type that reached it, with a true total. Calls with its name that the parser could not bind are counted beside the total (never in it), naming where they are. `across: attached | all` also names the other repositories the radius reaches (planes whose dependencies resolve to this one by its package coordinate). `name` is a key, a key suffix or a substring; ambiguous names return candidates.",
  input: z.strictObject({
    plane: z.string().check(z.minLength(1), z.maxLength(200)),
    name: z.string().check(z.minLength(1), z.maxLength(1000)),
    as_of: AS_OF_INPUT,
    depth: z._default(z.int().check(z.minimum(1), z.maximum(6)), 3),
    across: z._default(z.enum(["none", "attached", "all"]), "none"),
    ...PAGE_INPUT,
  }),
  readOnly: true,
  // Crossing repositories reads their trees from git: only the plain radius is kept.
  pure: (input) => input.across === "none",
  cli: { positionals: ["name"], summary: "What reaches a symbol, by distance: the blast radius of changing it." },
  async run(ctx, { plane, name, depth, across, offset, limit }) {
    const p = planeOf(ctx, plane);
    const r = resolveOne(ctx, p, name);
    if ("text" in r) return r.text;
    const result = computeImpact(ctx, p, r.node, depth, impactShown({ offset, limit }));
    const cross = across === "none" ? undefined : await crossImpact(ctx, p, r.node, depth, result, across);
    return withMatchNote(ctx, p, r, renderImpact(ctx, p, r.node, depth, result, cross, { offset, limit }));
  },
});
