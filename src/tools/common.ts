// What every verb shares: finding the plane, the opening lines (commit, rebuild, plugin
// drift), name matching that never guesses, one-line rendering, and capped listings that fit
// a character budget.
import * as z from "../model/zod.js";
import { DrsgError } from "../model/errors.js";
import { keyName } from "../model/facts.js";
import { driftLine } from "../plugin/registry.js";
import { interruptedRebuild } from "../sync/marker.js";
import type { PlaneInfo, Reader, StoredNode } from "../store/types.js";
import type { ToolContext } from "./tool.js";

/** The default character budget of one answer. */
export const BUDGET = 24_000;

export function requirePlane(r: Reader, name: string): PlaneInfo {
  const p = r.getPlane(name);
  if (p) return p;
  const names = r.listPlanes().map((x) => x.name);
  throw new DrsgError(
    "PLANE_NOT_FOUND",
    `no plane '${name}' in this database — planes: ${names.length ? names.join(", ") : "none (drsg digest <dir> --apply builds one)"}`,
    { plane: name, planes: names },
  );
}

/** The freshness line: the commit the answer is true for, or what stands in for it. */
export function freshnessLine(p: PlaneInfo): string | undefined {
  const interrupted = interruptedRebuild(p.props);
  if (interrupted)
    return `a rebuild started ${interrupted} was interrupted (its process is gone) — these answers may be incomplete; drsg rebuild --plane ${p.name} redoes it (serve watch redoes it when it starts)`;
  if (p.props.rebuilding_since !== undefined && p.props.rebuilding_since !== null)
    return "being rebuilt — a miss may mean not yet";
  const c = p.props.synced_commit;
  if (typeof c === "string" && c.length > 0) return `synced: commit ${c.slice(0, 12)}`;
  if (typeof p.props.synced_root === "string") return "synced: working tree (no commit)";
  return undefined;
}

/** The drift line, when the installed plugins differ from those that built the plane. */
export function pluginDrift(ctx: ToolContext, p: PlaneInfo): string | undefined {
  if (p.props.built_by === undefined) return undefined;
  try {
    return driftLine(p.props.built_by, ctx.pluginBuilds ? ctx.pluginBuilds() : ctx.plugins().builtBy);
  } catch (e) {
    return `plugins could not be loaded to compare with this plane's builders: ${(e as Error).message}`;
  }
}

/** Opening lines of every answer on a plane. */
export function headerLines(ctx: ToolContext, p: PlaneInfo): string[] {
  return [freshnessLine(p), pluginDrift(ctx, p)].filter((x): x is string => x !== undefined);
}

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

/** `key  Label  file:line` */
export function oneLine(n: StoredNode): string {
  const label = n.labels[0] ?? "";
  const file = str(n.props.file) ?? str(n.props.path);
  const line = typeof n.props.line === "number" ? n.props.line : undefined;
  const site = file ? `  ${file}${line !== undefined && n.props.file !== undefined ? `:${line}` : ""}` : "";
  return `${n.key || "<keyless>"}  ${label}${site}`;
}

/**
 * How a name matched: `substring` when no key is the name or ends in it, and the matches only
 * contain it — a different name than asked, which the answer says (issue 18 §3).
 */
export type NameMatch =
  | { kind: "one"; node: StoredNode; substring?: boolean }
  | { kind: "many"; nodes: StoredNode[]; total: number; substring?: boolean }
  | { kind: "none" };

const CANDIDATE_SCAN = 200;

function preferReal(nodes: StoredNode[]): StoredNode[] {
  const real = nodes.filter((n) => !n.labels.includes("UnresolvedRef"));
  return real.length > 0 ? real : nodes;
}

/** Exact key; else keys ending in `.name`, `::name`, `/name`; else keys containing it. Never a guess. */
export function matchName(r: Reader, plane: string, name: string): NameMatch {
  const exact = r.getNodeByKey(plane, name);
  if (exact) return { kind: "one", node: exact };
  const last = keyName(name);
  const suffixes = [`.${name}`, `::${name}`, `/${name}`, `#${name}`];
  const byName = r.nodesByName(plane, last, 5000).filter((n) => {
    const bare = n.key.replace(/\([^()]*\)$/, "");
    return suffixes.some((s) => n.key.endsWith(s) || bare.endsWith(s)) || n.key === name;
  });
  const suffix = preferReal(byName);
  if (suffix.length === 1) return { kind: "one", node: suffix[0]! };
  if (suffix.length > 1) return { kind: "many", nodes: suffix.sort(byKey), total: suffix.length };
  const containing = preferReal(r.nodesKeyContaining(plane, name, CANDIDATE_SCAN + 1));
  if (containing.length === 1) return { kind: "one", node: containing[0]!, substring: true };
  if (containing.length > 1) return { kind: "many", nodes: containing.sort(byKey), total: containing.length, substring: true };
  return { kind: "none" };
}

function byKey(a: StoredNode, b: StoredNode): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

const prefixCache = new Map<string, { seq: number; prefixes: [string, number][] }>();

/** The plane's key prefixes by count (first two segments of each key), by scanning. */
export function keyPrefixes(ctx: ToolContext, plane: string, limit = 12): [string, number][] {
  const seq = ctx.store.currentSeq();
  const id = `${ctx.store.path}\u0000${plane}`;
  const hit = prefixCache.get(id);
  if (hit && hit.seq === seq) return hit.prefixes.slice(0, limit);
  const counts = new Map<string, number>();
  for (const n of ctx.store.allNodes(plane)) {
    if (n.labels.includes("UnresolvedRef")) continue;
    const p = prefixOf(n.key);
    counts.set(p, (counts.get(p) ?? 0) + 1);
  }
  const prefixes = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  prefixCache.set(id, { seq, prefixes });
  return prefixes.slice(0, limit);
}

/** First two segments of a key, separators kept: `acme/src/cart.Cart.add` → `acme/src/`, `pkg.mod.f` → `pkg.mod.` */
export function prefixOf(key: string): string {
  const parts = key.split(/(::|[./])/);
  let segs = 0;
  let out = "";
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    out += p;
    if (p === "::" || p === "." || p === "/") {
      segs++;
      if (segs === 2) return out;
    }
  }
  return out;
}

/** Keys close to a missed name: same last segment case-insensitively, or sharing its start. */
export function closestKeys(r: Reader, plane: string, name: string, limit = 5): string[] {
  const last = keyName(name);
  const out = new Set<string>();
  for (const n of r.nodesKeyContaining(plane, last.slice(0, Math.max(3, Math.min(last.length, 6))), 50)) {
    if (n.labels.includes("UnresolvedRef")) continue;
    out.add(n.key);
    if (out.size >= limit) break;
  }
  return [...out];
}

/** The answer for a name that matched nothing: what the plane's keys look like. */
export function missText(ctx: ToolContext, p: PlaneInfo, name: string, extra: string[] = []): string {
  const lines = headerLines(ctx, p);
  lines.push(`no symbol matches \`${name}\` in plane '${p.name}'`);
  const near = closestKeys(ctx.store, p.name, name);
  if (near.length > 0) lines.push(`closest keys: ${near.join(", ")}`);
  const prefixes = keyPrefixes(ctx, p.name);
  if (prefixes.length > 0)
    lines.push(`key prefixes in this plane: ${prefixes.map(([k, n]) => `${k} (${n})`).join(", ")}`);
  lines.push(...extra);
  return lines.join("\n");
}

/** The note for a name matched only as a substring of a key: it is not the name asked for. */
export function substringNote(name: string, n: StoredNode): string {
  return `note: no symbol named '${name}'; '${keyName(n.key)}' contains it (${n.key}) — a different name than asked`;
}

/**
 * `text` (an answer opening with the plane's header lines) with the substring note, when the
 * name matched that way, right after those lines.
 */
export function withMatchNote(ctx: ToolContext, p: PlaneInfo, r: { note?: string }, text: string): string {
  if (r.note === undefined) return text;
  const lines = text.split("\n");
  lines.splice(headerLines(ctx, p).length, 0, r.note);
  return lines.join("\n");
}

/** The answer for an ambiguous name: the candidates, never a guess. */
export function candidatesText(
  ctx: ToolContext,
  p: PlaneInfo,
  name: string,
  m: { nodes: StoredNode[]; total: number; substring?: boolean },
): string {
  const lines = headerLines(ctx, p);
  if (m.substring)
    lines.push(`no symbol is named \`${name}\`; ${m.total} key(s) contain it — call again with an exact key:`);
  else lines.push(`\`${name}\` is ambiguous — ${m.total} matches; call again with an exact key:`);
  for (const n of m.nodes.slice(0, 20)) lines.push(`  ${oneLine(n)}`);
  if (m.total > 20) lines.push(`  … and ${m.total - 20} more`);
  return lines.join("\n");
}

/**
 * Resolve a name to one node, or return the text that answers instead (candidates / miss). A
 * node found only as a substring match carries the note to show (withMatchNote).
 */
export function resolveOne(
  ctx: ToolContext,
  p: PlaneInfo,
  name: string,
  missExtra: string[] = [],
): { node: StoredNode; note?: string } | { text: string } {
  if (name.trim() === "") throw new DrsgError("BAD_INPUT", "name is empty — pass a symbol name or key");
  const m = matchName(ctx.store, p.name, name);
  if (m.kind === "one") return m.substring ? { node: m.node, note: substringNote(name, m.node) } : { node: m.node };
  if (m.kind === "many") return { text: candidatesText(ctx, p, name, m) };
  return { text: missText(ctx, p, name, missExtra) };
}

/** A section of an answer: a header with the true count and its lines (capped later). */
export interface Section {
  title: string;
  total: number;
  lines: string[];
}

/** A page of a listing: skip `offset` lines, show at most `limit` (default LIST_CAP). */
export interface Page {
  offset?: number;
  limit?: number;
}

/** Lines a listing shows by default. */
export const LIST_CAP = 20;
export const MAX_LIMIT = 200;

/** The `offset` / `limit` inputs of a verb that lists (spread into its zod schema). */
export const PAGE_INPUT = {
  offset: z.optional(z.int().check(z.minimum(0), z.maximum(1_000_000))).check(z.describe("skip this many entries of each list (paging: the elision line names the next offset)")),
  limit: z.optional(z.int().check(z.minimum(1), z.maximum(MAX_LIMIT))).check(z.describe(`entries shown per list (default ${LIST_CAP}, at most ${MAX_LIMIT})`)),
};

/**
 * How many of a list's lines to build for a page: one past its end, so the elision line is
 * written whenever the list runs on.
 */
export function pageEnd(page: Page = {}): number {
  return (page.offset ?? 0) + (page.limit ?? LIST_CAP) + 1;
}

/**
 * Render sections, each showing its page of lines (`offset` on, at most `limit`, default 20);
 * halve the page (→10→5→3) until the answer fits the budget. A section that runs on says how
 * many more and the offset that reads the next page.
 */
export function renderSections(head: string[], sections: Section[], tail: string[], budget = BUDGET, page: Page = {}): string {
  const offset = page.offset ?? 0;
  const first = page.limit ?? LIST_CAP;
  const caps = [first, ...[10, 5, 3].filter((c) => c < first)];
  for (const cap of caps) {
    const out = [...head];
    for (const s of sections) {
      if (offset >= s.total) {
        out.push(`${s.title} (${s.total}, all before offset ${offset}: offset: 0 lists them)`);
        continue;
      }
      const shown = s.lines.slice(offset, offset + cap);
      const range = offset > 0 ? `, showing ${offset + 1}–${offset + shown.length}` : "";
      out.push(`${s.title} (${s.total}${range}):`);
      for (const l of shown) out.push(`  ${l}`);
      const rest = s.total - offset - shown.length;
      if (rest > 0) out.push(`  … and ${rest} more — offset: ${offset + shown.length} reads the next page`);
    }
    out.push(...tail);
    const text = out.join("\n");
    if (text.length <= budget || cap === caps[caps.length - 1]) return clipLines(text, budget);
  }
  return "";
}

/** Keep whole lines within the budget, saying how many were cut. */
export function clipLines(text: string, budget = BUDGET): string {
  if (text.length <= budget) return text;
  const lines = text.split("\n");
  const out: string[] = [];
  let size = 0;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (size + l.length + 1 > budget - 80) {
      out.push(`… ${lines.length - i} more line(s) cut to stay within ${budget} characters`);
      break;
    }
    out.push(l);
    size += l.length + 1;
  }
  return out.join("\n");
}

export const LOWER_BOUND_NOTE =
  "note: only recorded call edges are listed — calls the parser could not resolve (dynamic dispatch, untyped receivers) are missing or listed as unresolved, so treat this as a lower bound.";
