// traverse: the nodes reached from one node — following out, in or both directions, over chosen
// edge types, between a minimum and maximum number of hops — grouped by hop, capped, with the
// true total and each node's id for get_node.
import * as z from "../model/zod.js";
import { reach } from "../graph/walk.js";
import { DrsgError } from "../model/errors.js";
import type { StoredNode } from "../store/types.js";
import { AS_OF_INPUT } from "./asof.js";
import { PAGE_INPUT, type Section, headerLines, oneLine, pageEnd, renderSections, resolveOne, withMatchNote } from "./common.js";
import { AGENT_MARK, byKeyOf, nodeLine, planeOf, SECTION_LINES } from "./graph_lines.js";
import { defineTool } from "./tool.js";

export const MAX_HOPS = 10;

export const traverse = defineTool({
  name: "traverse",
  description:
    "Nodes reached from one node (`from_key` — a key, key suffix or substring — or `from_id`) following `direction` out (default), in or both, over `edge_types` (default all), at `min`..`max` hops (1–10, default 1..1), each with the edge type that first reached it and its id; grouped by hop, capped, with true totals.",
  input: z.strictObject({
    plane: z.string().check(z.minLength(1), z.maxLength(200)),
    from_key: z.optional(z.string().check(z.minLength(1), z.maxLength(1000))),
    from_id: z.optional(z.int().check(z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER))),
    direction: z._default(z.enum(["out", "in", "both"]), "out"),
    edge_types: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(100))).check(z.maxLength(32))),
    min: z._default(z.int().check(z.minimum(1), z.maximum(MAX_HOPS)), 1),
    max: z._default(z.int().check(z.minimum(1), z.maximum(MAX_HOPS)), 1),
    ...PAGE_INPUT,
    as_of: AS_OF_INPUT,
  }),
  readOnly: true,
  pure: true,
  run(ctx, input) {
    const p = planeOf(ctx, input.plane);
    if ((input.from_key === undefined) === (input.from_id === undefined))
      throw new DrsgError("BAD_INPUT", "traverse: pass exactly one of from_key and from_id");
    if (input.min > input.max) throw new DrsgError("BAD_INPUT", `traverse: min (${input.min}) is above max (${input.max})`);
    let start: StoredNode;
    let note: string | undefined;
    if (input.from_id !== undefined) {
      const n = ctx.store.getNode(p.name, input.from_id);
      if (!n) return [...headerLines(ctx, p), `no node #${input.from_id} in plane '${p.name}'`].join("\n");
      start = n;
    } else {
      const r = resolveOne(ctx, p, input.from_key!);
      if ("text" in r) return r.text;
      start = r.node;
      note = r.note;
    }
    const g = ctx.views.read(p.name);
    const types = input.edge_types?.length ? new Set(input.edge_types) : undefined;
    const { reached, capped } = reach(g, String(start.id), { dir: input.direction, types, min: input.min, max: input.max });
    const cmp = byKeyOf(g);
    const byHop = new Map<number, typeof reached>();
    for (const x of reached) {
      const list = byHop.get(x.hop);
      if (list) list.push(x);
      else byHop.set(x.hop, [x]);
    }
    const sections: Section[] = [...byHop.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([hop, xs]) => ({
        title: `hop ${hop}`,
        total: xs.length,
        lines: xs
          .sort((a, b) => cmp(a.id, b.id))
          .slice(0, Math.max(SECTION_LINES, pageEnd(input)))
          .map((x) => `${nodeLine(ctx, p.name, g, x.id)}  [${x.via} ${x.dir === "out" ? "→" : "←"}]  #${x.id}${x.agent ? AGENT_MARK : ""}`),
      }));
    const span = input.min === input.max ? `${input.max} hop(s)` : `${input.min}–${input.max} hops`;
    const over = types ? [...types].sort().join(", ") : "every edge type";
    const head = [...headerLines(ctx, p), `${oneLine(start)}  #${start.id}`];
    head.push(`reached at ${span} ${input.direction === "both" ? "out and in" : input.direction} over ${over}: ${reached.length} node(s)`);
    const tail: string[] = [];
    if (capped) tail.push("the walk stopped at 100000 nodes: the totals above are a lower bound");
    if (reached.length === 0 && types) tail.push("describe_plane lists the edge types this plane holds");
    tail.push("next: get_node with an id above for its properties; context <key> for a symbol's neighbourhood");
    return withMatchNote(ctx, p, { note }, renderSections(head, sections, tail, undefined, input));
  },
});
