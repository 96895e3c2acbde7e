// trace: the shortest recorded call path from one symbol to another — or, when none runs that
// way, the reverse, said so. A missing path is explained: unresolved calls break chains.
import { z } from "zod";
import { shortestPath } from "../graph/walk.js";
import type { PlaneGraph } from "../graph/view.js";
import type { PlaneInfo, StoredNode } from "../store/types.js";
import { LOWER_BOUND_NOTE, clipLines, headerLines, oneLine, resolveOne } from "./common.js";
import { nodeLine, planeOf } from "./graph_lines.js";
import { defineTool, type ToolContext } from "./tool.js";

/** Nodes one search may dequeue. */
export const TRACE_VISIT_LIMIT = 20_000;

function pathLines(ctx: ToolContext, p: PlaneInfo, g: PlaneGraph, nodes: string[], edges: string[]): string[] {
  const lines = [nodeLine(ctx, p.name, g, nodes[0]!)];
  for (let i = 1; i < nodes.length; i++) {
    const line = g.getEdgeAttribute(edges[i - 1]!, "line");
    lines.push(`  -> ${nodeLine(ctx, p.name, g, nodes[i]!)}${line !== undefined ? `  call@${line}` : ""}`);
  }
  return lines;
}

export function traceText(ctx: ToolContext, p: PlaneInfo, from: StoredNode, to: StoredNode): string {
  const out = headerLines(ctx, p);
  if (from.id === to.id) {
    out.push(`from and to are the same symbol: ${oneLine(from)}`);
    return out.join("\n");
  }
  const g = ctx.views.get(p.name);
  const a = String(from.id);
  const b = String(to.id);
  const fwd = shortestPath(g, a, b, "CALLS", TRACE_VISIT_LIMIT);
  const rev = fwd.nodes ? undefined : shortestPath(g, b, a, "CALLS", TRACE_VISIT_LIMIT);
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
    plane: z.string().min(1).max(200),
    from: z.string().min(1).max(1000),
    to: z.string().min(1).max(1000),
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
    return traceText(ctx, p, a.node, b.node);
  },
});
