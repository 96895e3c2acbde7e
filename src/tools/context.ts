// context: one symbol's whole neighbourhood — definition, container, callers with call-site
// lines, callees (unresolved ones with their reason), references and every other edge.
import * as z from "../model/zod.js";
import { siteLines } from "../graph/view.js";
import { readEdgesById, readNodeKeys, readNodeKeysFirst } from "../store/reader.js";
import type { Reader, StoredEdge, StoredNode } from "../store/types.js";
import { LIST_CAP, LOWER_BOUND_NOTE, type Section, headerLines, oneLine, PAGE_INPUT, renderSections, requirePlane, resolveOne, withMatchNote } from "./common.js";
import { AS_OF_INPUT } from "./asof.js";
import { describeBlock } from "./describe.js";
import { AGENT_MARK, agentFact, callSites } from "./graph_lines.js";
import { defineTool } from "./tool.js";

function siteOf(e: StoredEdge): string {
  const line = typeof e.props.line === "number" ? e.props.line : undefined;
  const count = typeof e.props.count === "number" ? e.props.count : undefined;
  const s = callSites(line, count, siteLines(e.props.sites));
  return s ? `  ${s}` : "";
}

/** One edge of a listing: its type, its other end, whether an agent wrote it, and, once read, the edge itself. */
interface Entry {
  id: number;
  type: string;
  other: number;
  agent: boolean;
  edge?: StoredEdge;
}

export function edgeLine(r: Reader, plane: string, e: StoredEdge, other: StoredNode | undefined, self: number, agent = false): string {
  if (!other) return `#${e.src === self ? e.dst : e.src}  (missing node)`;
  let line = oneLine(other);
  if (e.type === "CALLS") {
    line += siteOf(e);
    if (e.src === e.dst) line += "  (self)";
    if (typeof e.props._reason === "string") line += `  [${e.props._reason}]`;
  } else if (typeof e.props.line === "number" && e.type !== "CONTAINS") line += `  @${e.props.line}`;
  void r;
  void plane;
  return agent ? `${line}${AGENT_MARK}` : line;
}

export const context = defineTool({
  name: "context",
  description:
    "A symbol's whole neighbourhood in one call: its definition and properties, the container, callers with call-site lines, callees (unresolved ones with the reason they could not be bound), what it contains, references, inheritance and type uses. Start here before reading files. `name` is a key, a key suffix (e.g. Cart.addItem) or a substring; ambiguous names return candidates.",
  input: z.strictObject({ plane: z.string().check(z.minLength(1), z.maxLength(200)), name: z.string().check(z.minLength(1), z.maxLength(1000)), ...PAGE_INPUT, as_of: AS_OF_INPUT }),
  readOnly: true,
  pure: true,
  cli: { positionals: ["name"] },
  run(ctx, { plane, name, offset, limit }) {
    const p = requirePlane(ctx.store, plane);
    const r = resolveOne(ctx, p, name);
    if ("text" in r) return r.text;
    const n = r.node;
    const st = ctx.store;
    const mirrored = typeof p.props.synced_commit === "string";
    // A hub has thousands of callers and shows a page of them: its incoming edges are read as
    // links (type, source, whether an agent wrote it; from indexes alone), sorted by the keys of
    // their sources, and only the page's edges and nodes are read whole.
    const full = (e: StoredEdge, dir: "in" | "out"): Entry => ({ id: e.id, type: e.type, other: dir === "in" ? e.src : e.dst, agent: agentFact(p, e.props), edge: e });
    const outgoing = st.edgesOut(plane, n.id).map((e) => full(e, "out"));
    const incoming: Entry[] = st.linksIn
      ? st
          .linksIn(plane, [n.id])
          .sort((a, b) => a.id - b.id)
          .map((l) => ({ id: l.id, type: l.type, other: l.src, agent: mirrored && l.agentWritten }))
      : st.edgesIn(plane, n.id).map((e) => full(e, "in"));
    const keys = new Map<number, string>();
    const edges = new Map<number, StoredEdge>();
    for (const e of outgoing) edges.set(e.id, e.edge!);
    /** Read whole the edges of `entries` not read yet. */
    const readWhole = (entries: Entry[]) => {
      const ids = entries.filter((e) => !e.edge).map((e) => e.id);
      if (ids.length > 0) for (const e of readEdgesById(st, plane, ids)) edges.set(e.id, e);
      for (const e of entries) e.edge ??= edges.get(e.id);
    };
    // The page each list shows (renderSections shows at most `limit` lines from `offset`): only
    // those entries' edges and other ends are read whole.
    const from = offset ?? 0;
    const to = from + (limit ?? LIST_CAP);
    // Each list sorted by the other end's key, then its line as text, then edge id (a stable
    // sort of edges in id order). Only its first `to` entries are shown, and they come from the
    // first `to` other ends by key: where a list has more, the store chooses those (a hub's
    // 5,000 callers read 20 keys) and the rest follow unsorted. Keys are unique in a plane, so a
    // line decides only between edges from one node: only those are read for it.
    const sorted = (entries: Entry[]) => {
      const count = new Map<number, number>();
      for (const e of entries) count.set(e.other, (count.get(e.other) ?? 0) + 1);
      const chosen = count.size > to ? readNodeKeysFirst(st, plane, [...count.keys()], to) : undefined;
      for (const k of chosen ?? []) keys.set(k.id, k.key);
      const pick = chosen && new Set(chosen.map((k) => k.id));
      const first = pick ? entries.filter((e) => pick.has(e.other)) : entries;
      const rest = pick ? entries.filter((e) => !pick.has(e.other)) : [];
      const unread = [...new Set(first.map((e) => e.other))].filter((id) => !keys.has(id));
      for (let i = 0; i < unread.length; i += 10_000) for (const k of readNodeKeys(st, plane, unread.slice(i, i + 10_000))) keys.set(k.id, k.key);
      readWhole(first.filter((e) => count.get(e.other)! > 1));
      const keyOf = (e: Entry) => keys.get(e.other) ?? "";
      const lineOf = (e: Entry) => `${e.edge?.props.line ?? ""}`;
      first.sort((a, b) => {
        const ka = keyOf(a);
        const kb = keyOf(b);
        if (ka !== kb) return ka < kb ? -1 : 1;
        const la = lineOf(a);
        const lb = lineOf(b);
        return la < lb ? -1 : la > lb ? 1 : 0;
      });
      return rest.length === 0 ? first : first.concat(rest);
    };
    const lists: { title: string; entries: Entry[] }[] = [];
    const add = (title: string, entries: Entry[]) => {
      if (entries.length > 0) lists.push({ title, entries: sorted(entries) });
    };
    const byType = (entries: Entry[], t: string) => entries.filter((e) => e.type === t);
    add("contained by", byType(incoming, "CONTAINS"));
    // Callers an agent wrote are listed apart: "callers" holds only what the parser proved.
    add("callers", byType(incoming, "CALLS").filter((e) => !e.agent));
    add("callers an agent wrote (not proved by the parser)", byType(incoming, "CALLS").filter((e) => e.agent));
    // Outgoing edges are read whole (a symbol calls a few things; thousands call a hub).
    const callees = byType(outgoing, "CALLS");
    const unbound = (e: Entry) => typeof e.edge!.props._reason === "string";
    const unresolvedCallees = callees.filter(unbound);
    add("callees", callees.filter((e) => !unbound(e)));
    add("unresolved callees", unresolvedCallees);
    add("contains", byType(outgoing, "CONTAINS"));
    const otherTypes = (entries: Entry[]) => [...new Set(entries.map((e) => e.type))].filter((t) => t !== "CONTAINS" && t !== "CALLS").sort();
    for (const t of otherTypes(incoming)) add(`${t} ←`, byType(incoming, t));
    for (const t of otherTypes(outgoing)) add(`${t} →`, byType(outgoing, t));

    const shown = lists.flatMap((l) => l.entries.slice(from, to));
    readWhole(shown);
    const near = new Map<number, StoredNode>();
    const ends = [...new Set(shown.map((e) => e.other))];
    if (st.nodesById) for (const x of st.nodesById(plane, ends)) near.set(x.id, x);
    else for (const id of ends) {
      const x = st.getNode(plane, id);
      if (x) near.set(id, x);
    }
    const sections: Section[] = lists.map((l) => {
      const lines: string[] = new Array<string>(Math.min(l.entries.length, to)).fill("");
      for (let i = from; i < lines.length; i++) {
        const e = l.entries[i]!;
        lines[i] = e.edge ? edgeLine(st, plane, e.edge, near.get(e.other), n.id, e.agent) : `#${e.other}  (missing edge ${e.id})`;
      }
      return { title: l.title, total: l.entries.length, lines };
    });

    const block = describeBlock(n);
    // The synced line (and the drift line) first, as on every answer (issue 18 §3).
    const head = [...headerLines(ctx, p), ...block];
    const tail: string[] = [];
    const hasCalls = callees.length > 0 || byType(incoming, "CALLS").length > 0 || ["Function", "Method"].includes(n.labels[0] ?? "");
    if (hasCalls) {
      const unresolvedSites = unresolvedCallees.reduce((s, e) => {
        const count = e.edge!.props.count;
        return s + (typeof count === "number" ? count : 1);
      }, 0);
      tail.push(
        `${unresolvedSites} call site(s) inside this symbol are unresolved${unresolvedSites > 0 ? " (listed above with their reason)" : ""}; callers are those the parser could prove.`,
      );
      tail.push(LOWER_BOUND_NOTE);
    }
    tail.push(`next: impact ${n.key} for what breaks if it changes; snippet ${n.key} for its source`);
    return withMatchNote(ctx, p, r, renderSections(head, sections, tail, undefined, { offset, limit }));
  },
});
