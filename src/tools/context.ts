// context: one symbol's whole neighbourhood — definition, container, callers with call-site
// lines, callees (unresolved ones with their reason), references and every other edge.
import { z } from "zod";
import { siteLines } from "../graph/view.js";
import type { Reader, StoredEdge, StoredNode } from "../store/types.js";
import { LOWER_BOUND_NOTE, type Section, headerLines, oneLine, PAGE_INPUT, renderSections, requirePlane, resolveOne, withMatchNote } from "./common.js";
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
  input: z.strictObject({ plane: z.string().min(1).max(200), name: z.string().min(1).max(1000), ...PAGE_INPUT, as_of: AS_OF_INPUT }),
  readOnly: true,
  pure: true,
  cli: { positionals: ["name"] },
  run(ctx, { plane, name, offset, limit }) {
    const p = requirePlane(ctx.store, plane);
    const r = resolveOne(ctx, p, name);
    if ("text" in r) return r.text;
    const n = r.node;
    const st = ctx.store;
    const outgoing = st.edgesOut(plane, n.id);
    const incoming = st.edgesIn(plane, n.id);
    // Every neighbour in one read where the store can (a hub has thousands of callers).
    const near = new Map<number, StoredNode>();
    if (st.nodesById) {
      const ids = [...new Set([...incoming.map((e) => e.src), ...outgoing.map((e) => e.dst)])];
      for (let i = 0; i < ids.length; i += 10_000) for (const x of st.nodesById(plane, ids.slice(i, i + 10_000))) near.set(x.id, x);
    }
    const load = (id: number) => (st.nodesById ? near.get(id) : st.getNode(plane, id));
    const sortLines = (xs: { line: string; sort: string }[]) =>
      xs.sort((a, b) => (a.sort < b.sort ? -1 : a.sort > b.sort ? 1 : 0)).map((x) => x.line);
    const group = (edges: StoredEdge[], dir: "in" | "out") =>
      sortLines(
        edges.map((e) => {
          const other = load(dir === "in" ? e.src : e.dst);
          return { line: edgeLine(st, plane, e, other, n.id, agentFact(p, e.props)), sort: `${other?.key ?? ""}\u0000${e.props.line ?? ""}` };
        }),
      );
    const sections: Section[] = [];
    const add = (title: string, edges: StoredEdge[], dir: "in" | "out") => {
      if (edges.length === 0) return;
      sections.push({ title, total: edges.length, lines: group(edges, dir) });
    };
    const byType = (edges: StoredEdge[], t: string) => edges.filter((e) => e.type === t);
    add("contained by", byType(incoming, "CONTAINS"), "in");
    // Callers an agent wrote are listed apart: "callers" holds only what the parser proved.
    add("callers", byType(incoming, "CALLS").filter((e) => !agentFact(p, e.props)), "in");
    add("callers an agent wrote (not proved by the parser)", byType(incoming, "CALLS").filter((e) => agentFact(p, e.props)), "in");
    const callees = byType(outgoing, "CALLS");
    const resolvedCallees = callees.filter((e) => typeof e.props._reason !== "string");
    const unresolvedCallees = callees.filter((e) => typeof e.props._reason === "string");
    add("callees", resolvedCallees, "out");
    add("unresolved callees", unresolvedCallees, "out");
    add("contains", byType(outgoing, "CONTAINS"), "out");
    const otherTypes = (edges: StoredEdge[]) =>
      [...new Set(edges.map((e) => e.type))].filter((t) => t !== "CONTAINS" && t !== "CALLS").sort();
    for (const t of otherTypes(incoming)) add(`${t} ←`, byType(incoming, t), "in");
    for (const t of otherTypes(outgoing)) add(`${t} →`, byType(outgoing, t), "out");

    const block = describeBlock(n);
    // The synced line (and the drift line) first, as on every answer (issue 18 §3).
    const head = [...headerLines(ctx, p), ...block];
    const tail: string[] = [];
    const hasCalls = callees.length > 0 || byType(incoming, "CALLS").length > 0 || ["Function", "Method"].includes(n.labels[0] ?? "");
    if (hasCalls) {
      const unresolvedSites = unresolvedCallees.reduce((s, e) => s + (typeof e.props.count === "number" ? e.props.count : 1), 0);
      tail.push(
        `${unresolvedSites} call site(s) inside this symbol are unresolved${unresolvedSites > 0 ? " (listed above with their reason)" : ""}; callers are those the parser could prove.`,
      );
      tail.push(LOWER_BOUND_NOTE);
    }
    tail.push(`next: impact ${n.key} for what breaks if it changes; snippet ${n.key} for its source`);
    return withMatchNote(ctx, p, r, renderSections(head, sections, tail, undefined, { offset, limit }));
  },
});
