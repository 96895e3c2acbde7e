// fathom: the makeup of the region around a symbol — walked both ways to a depth within a node
// budget — as counts: nodes per hop, labels, edge types (walked out / in), the hubs by edges
// inside the region, and which bound stopped the walk.
import * as z from "../model/zod.js";
import { region } from "../graph/walk.js";
import type { PlaneRead } from "../graph/view.js";
import type { PlaneInfo, StoredNode } from "../store/types.js";
import { LOWER_BOUND_NOTE, clipLines, headerLines, oneLine, resolveOne, withMatchNote } from "./common.js";
import { byKeyOf, nodeLine, planeOf } from "./graph_lines.js";
import { defineTool, type ToolContext } from "./tool.js";

/** Nodes one region may hold. */
export const FATHOM_BUDGET = 5_000;
const GROUPS = 8;
const HUBS = 5;

/** `A 3 · B 2`, biggest first (ties by name), capped at GROUPS with the rest summed. */
function groups<T>(counts: Map<string, T>, size: (t: T) => number, show: (name: string, t: T) => string): string {
  const all = [...counts.entries()].sort((a, b) => size(b[1]) - size(a[1]) || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const parts = all.slice(0, GROUPS).map(([k, t]) => show(k, t));
  const rest = all.slice(GROUPS);
  if (rest.length > 0) parts.push(`${rest.reduce((s, [, t]) => s + size(t), 0)} more in ${rest.length} other(s)`);
  return parts.join(" · ");
}

export function fathomText(ctx: ToolContext, p: PlaneInfo, node: StoredNode, depth: number, budget = FATHOM_BUDGET): string {
  const g: PlaneRead = ctx.views.read(p.name);
  const start = String(node.id);
  const r = region(g, start, depth, budget);
  const labels = new Map<string, number>();
  for (const id of r.nodes.keys()) {
    const l = g.getNodeAttribute(id, "label") || "<unlabelled>";
    labels.set(l, (labels.get(l) ?? 0) + 1);
  }
  const types = new Map<string, { out: number; in: number }>();
  const degree = new Map<string, number>();
  let unresolved = 0;
  for (const [e, dir] of r.edges) {
    const a = g.getEdgeAttributes(e);
    const t = types.get(a.type) ?? { out: 0, in: 0 };
    t[dir]++;
    types.set(a.type, t);
    if (a.type === "CALLS" && a.reason !== undefined) unresolved += a.count ?? 1;
    const s = g.source(e);
    const d = g.target(e);
    degree.set(s, (degree.get(s) ?? 0) + 1);
    if (d !== s) degree.set(d, (degree.get(d) ?? 0) + 1);
  }
  const cmp = byKeyOf(g);
  const hubs = [...degree.entries()].sort((a, b) => b[1] - a[1] || cmp(a[0], b[0])).slice(0, HUBS);

  const out = [...headerLines(ctx, p), oneLine(node)];
  out.push(`region: ${depth} hop(s) out and in — ${r.nodes.size} nodes, ${r.edges.size} edges`);
  out.push(`per hop: ${r.perHop.length ? r.perHop.map((n, i) => `${i + 1}:${n}`).join(" · ") : "none (nothing is connected to it)"}`);
  out.push(`labels: ${groups(labels, (n) => n, (k, n) => `${k} ${n}`)}`);
  if (types.size > 0)
    out.push(`edges: ${groups(types, (t) => t.out + t.in, (k, t) => `${k} ${t.out + t.in} (${t.out} out, ${t.in} in)`)}`);
  if (hubs.length > 0) {
    out.push("hubs (by edges inside the region):");
    for (const [id, n] of hubs) out.push(`  ${String(n).padStart(4)}  ${nodeLine(ctx, p.name, g, id)}`);
  }
  const hopsWalked = r.perHop.length;
  if (r.stop === "budget")
    out.push(`stopped by the node budget (${budget} nodes) at hop ${hopsWalked} of ${depth}: the region is larger than shown; fathom a narrower symbol or lower depth`);
  else if (r.stop === "ended") out.push(`the region ended at hop ${hopsWalked}, before depth ${depth}: nothing further is connected`);
  else out.push(`walked to full depth ${depth}; a deeper region may hold more`);
  if (types.has("CALLS")) {
    out.push(`${unresolved} unresolved call site(s) inside the region`);
    out.push(LOWER_BOUND_NOTE);
  }
  out.push(`next: context ${node.key} for its own edges; impact ${node.key} for what reaches it`);
  return clipLines(out.join("\n"));
}

export const fathom = defineTool({
  name: "fathom",
  description:
    "The makeup of the region around a symbol, walked both ways up to `depth` hops (1–6, default 2) within a budget of 5,000 nodes: nodes per hop, labels, edge types with how many were walked out and in, the hubs by edges inside the region, and which bound stopped the walk. `name` is a key, a key suffix or a substring; ambiguous names return candidates.",
  input: z.strictObject({
    plane: z.string().check(z.minLength(1), z.maxLength(200)),
    name: z.string().check(z.minLength(1), z.maxLength(1000)),
    depth: z._default(z.int().check(z.minimum(1), z.maximum(6)), 2),
  }),
  readOnly: true,
  pure: true,
  cli: { positionals: ["name"], summary: "The makeup of the region around a symbol: labels, edge types, hubs." },
  run(ctx, { plane, name, depth }) {
    const p = planeOf(ctx, plane);
    const r = resolveOne(ctx, p, name);
    if ("text" in r) return r.text;
    return withMatchNote(ctx, p, r, fathomText(ctx, p, r.node, depth));
  },
});
