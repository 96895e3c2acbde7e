// trace: the shortest recorded call path from one symbol to another — or, when none runs that
// way, the reverse, said so. A missing path is explained: unresolved calls break chains.
import * as z from "../model/zod.js";
import { type PathResult, shortestPath } from "../graph/walk.js";
import { type PlaneGraph, type PlaneRead, isWhole, perView } from "../graph/view.js";
import type { PlaneInfo, StoredNode } from "../store/types.js";
import { LOWER_BOUND_NOTE, clipLines, headerLines, oneLine, resolveOne, withMatchNote } from "./common.js";
import { AGENT_MARK, callSites, nodeLine, planeOf } from "./graph_lines.js";
import { defineTool, type ToolContext } from "./tool.js";

/** Nodes one search may dequeue. */
export const TRACE_VISIT_LIMIT = 20_000;

/**
 * One graph view's CALLS edges as integer adjacency, each node's out-edges in the view's own
 * order, with the unbound-call sites each node holds. Built once per view (a view is one
 * commit's state: a new commit brings a new view, and a new index), so a search walks arrays
 * instead of every edge of every type through the graph's iterators.
 */
interface CallIndex {
  ids: string[];
  index: Map<string, number>;
  /** Node i's CALLS edges are targets[offsets[i] .. offsets[i + 1]). */
  offsets: Int32Array;
  targets: Int32Array;
  edges: string[];
  /** Sites of CALLS edges carrying a reason, out of node i. */
  unresolved: Float64Array;
  /** Scratch of one search (searches run one at a time): visit marks by epoch, parents. */
  mark: Int32Array;
  epoch: number;
  parent: Int32Array;
  queue: Int32Array;
}

function callIndex(g: PlaneGraph): CallIndex {
  return perView(g, "trace.calls", () => buildCallIndex(g));
}

function buildCallIndex(g: PlaneGraph): CallIndex {
  const ids = g.nodes();
  const index = new Map<string, number>();
  for (let i = 0; i < ids.length; i++) index.set(ids[i]!, i);
  const offsets = new Int32Array(ids.length + 1);
  const targets: number[] = [];
  const edges: string[] = [];
  const unresolved = new Float64Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    offsets[i] = targets.length;
    g.forEachOutEdge(ids[i]!, (e, a, _s, v) => {
      if (a.type !== "CALLS") return;
      if (a.reason !== undefined) unresolved[i]! += a.count ?? 1;
      targets.push(index.get(v)!);
      edges.push(e);
    });
  }
  offsets[ids.length] = targets.length;
  const n = ids.length;
  const ix: CallIndex = {
    ids,
    index,
    offsets,
    targets: Int32Array.from(targets),
    edges,
    unresolved,
    mark: new Int32Array(n),
    epoch: 0,
    parent: new Int32Array(n),
    queue: new Int32Array(n),
  };
  return ix;
}

/** `shortestPath(g, from, to, "CALLS", maxVisited)` — the same answer — over the view's CALLS index. */
export function shortestCallPath(g: PlaneRead, from: string, to: string, maxVisited: number): PathResult {
  // A walk of the store has no index to build: it reads the edges it dequeues.
  if (!isWhole(g)) return shortestPath(g, from, to, "CALLS", maxVisited);
  const ix = callIndex(g);
  const f = ix.index.get(from);
  const t = ix.index.get(to);
  if (f === undefined || t === undefined || f === t) return shortestPath(g, from, to, "CALLS", maxVisited);
  const { offsets, targets, unresolved, mark, parent, queue } = ix;
  // A parent entry is the edge slot that reached the node; the start has none.
  if (++ix.epoch >= 0x7fffffff) {
    mark.fill(0);
    ix.epoch = 1;
  }
  const epoch = ix.epoch;
  mark[f] = epoch;
  queue[0] = f;
  let head = 0;
  let tail = 1;
  let unresolvedSites = 0;
  while (head < tail) {
    if (head >= maxVisited) return { visited: head, capped: true, unresolvedSites };
    const u = queue[head++]!;
    unresolvedSites += unresolved[u]!;
    const end = offsets[u + 1]!;
    for (let k = offsets[u]!; k < end; k++) {
      const v = targets[k]!;
      if (mark[v] === epoch) continue;
      mark[v] = epoch;
      parent[v] = k;
      if (v === t) {
        const nodes = [ix.ids[t]!];
        const edges: string[] = [];
        for (let at = t; at !== f; ) {
          const slot = parent[at]!;
          edges.push(ix.edges[slot]!);
          // The edge slot's source: the node whose range holds it.
          at = sourceOf(offsets, slot);
          nodes.push(ix.ids[at]!);
        }
        return { nodes: nodes.reverse(), edges: edges.reverse(), visited: head, capped: false, unresolvedSites };
      }
      queue[tail++] = v;
    }
  }
  return { visited: head, capped: false, unresolvedSites };
}

/** The node whose slice of `offsets` holds edge slot `k` (binary search; empty ranges skipped). */
function sourceOf(offsets: Int32Array, k: number): number {
  let lo = 0;
  let hi = offsets.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid]! <= k) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function pathLines(ctx: ToolContext, p: PlaneInfo, g: PlaneRead, nodes: string[], edges: string[]): string[] {
  const lines = [nodeLine(ctx, p.name, g, nodes[0]!)];
  for (let i = 1; i < nodes.length; i++) {
    const a = g.getEdgeAttributes(edges[i - 1]!);
    const sites = callSites(a.line, a.count, a.lines);
    lines.push(`  -> ${nodeLine(ctx, p.name, g, nodes[i]!)}${sites ? `  ${sites}` : ""}${a.agent ? AGENT_MARK : ""}`);
  }
  return lines;
}

export function traceText(ctx: ToolContext, p: PlaneInfo, from: StoredNode, to: StoredNode): string {
  const out = headerLines(ctx, p);
  if (from.id === to.id) {
    out.push(`from and to are the same symbol: ${oneLine(from)}`);
    return out.join("\n");
  }
  const g = ctx.views.read(p.name);
  const a = String(from.id);
  const b = String(to.id);
  const fwd = shortestCallPath(g, a, b, TRACE_VISIT_LIMIT);
  const rev = fwd.nodes ? undefined : shortestCallPath(g, b, a, TRACE_VISIT_LIMIT);
  const found = fwd.nodes ? fwd : rev?.nodes ? rev : undefined;
  if (found?.nodes && found.edges) {
    if (found === rev) out.push("no forward path; the call flow runs the other way:");
    out.push(...pathLines(ctx, p, g, found.nodes, found.edges));
    out.push(`${found.edges.length} hop(s) through recorded CALLS edges — the shortest such path, not necessarily the only one`);
  } else {
    const searched = `searched ${fwd.visited} symbol(s) from ${from.key} and ${rev?.visited ?? 0} from ${to.key}`;
    const capped = fwd.capped || rev?.capped ? `, stopping at ${TRACE_VISIT_LIMIT}` : "";
    out.push(`no recorded call path from ${from.key} to ${to.key}, nor the other way (${searched}${capped})`);
    out.push(
      `${fwd.unresolvedSites + (rev?.unresolvedSites ?? 0)} unresolved call site(s) inside the symbols searched — any of them could be the missing hop`,
    );
    out.push(
      "calls the parser could not resolve (dynamic dispatch, untyped receivers, callbacks) break chains, so no path here is not proof that none runs",
    );
    out.push(`next: impact ${to.key} lists everything that reaches it by any recorded edge, and the unbound calls named like it`);
  }
  out.push(LOWER_BOUND_NOTE);
  return clipLines(out.join("\n"));
}

export const trace = defineTool({
  name: "trace",
  description:
    "The shortest recorded call path from one symbol to another (CALLS edges only), one hop per line with call-site lines; if none runs forward, the reverse path, said so; if neither, why (unresolved calls break chains). `from` and `to` are keys, key suffixes or substrings; ambiguous names return candidates.",
  input: z.strictObject({
    plane: z.string().check(z.minLength(1), z.maxLength(200)),
    from: z.string().check(z.minLength(1), z.maxLength(1000)),
    to: z.string().check(z.minLength(1), z.maxLength(1000)),
  }),
  readOnly: true,
  pure: true,
  cli: { positionals: ["from", "to"], summary: "The shortest recorded call path from one symbol to another." },
  run(ctx, { plane, from, to }) {
    const p = planeOf(ctx, plane);
    const a = resolveOne(ctx, p, from);
    if ("text" in a) return a.text;
    const b = resolveOne(ctx, p, to);
    if ("text" in b) return b.text;
    return withMatchNote(ctx, p, { note: [a.note, b.note].filter(Boolean).join("\n") || undefined }, traceText(ctx, p, a.node, b.node));
  },
});
