// neighbourhood: a symbol's surroundings as a JSON subgraph — the nodes reached within `hops`
// (callers, callees, containment, inheritance, imports; any edge types asked for), each with its
// hop, and every edge among them — for drawing (the dashboard's explorer) or for an agent that
// wants structure rather than prose. Names match as every verb matches them: one answer, or the
// candidates, never a guess. Unresolved call sites come as UnresolvedRef nodes with the reason.
import * as z from "../model/zod.js";
import { reach } from "../graph/walk.js";
import { DrsgError } from "../model/errors.js";
import type { StoredNode } from "../store/types.js";
import { freshnessLine, matchName, pluginDrift } from "./common.js";
import { byKeyOf, planeOf } from "./graph_lines.js";
import { defineTool } from "./tool.js";

export const NEIGHBOURHOOD_MAX_NODES = 5000;

const brief = (n: StoredNode) => ({
  id: n.id,
  key: n.key,
  label: n.labels[0] ?? "",
  file: typeof n.props.file === "string" ? n.props.file : null,
  line: typeof n.props.line === "number" ? n.props.line : null,
});

export const neighbourhood = defineTool({
  name: "neighbourhood",
  description:
    "A symbol's neighbourhood as a JSON subgraph: `nodes` (id, key, label, file, line, hop, reason for unresolved call sites) reached from `name` (key, key suffix or substring) or `id` within `hops` (1–6, default 1) going `direction` out, in or both (default), over `edge_types` (default all), capped at `max_nodes` (default 300, up to 5000; `capped` and `total` say so), and `edges` (id, src, dst, type, line, reason) among them. An ambiguous name returns `candidates`, never a guess.",
  input: z.strictObject({
    plane: z.string().check(z.minLength(1), z.maxLength(200)),
    name: z.optional(z.string().check(z.minLength(1), z.maxLength(1000))),
    id: z.optional(z.int().check(z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER))),
    hops: z._default(z.int().check(z.minimum(1), z.maximum(6)), 1),
    direction: z._default(z.enum(["out", "in", "both"]), "both"),
    edge_types: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(100))).check(z.maxLength(32))),
    max_nodes: z._default(z.int().check(z.minimum(1), z.maximum(NEIGHBOURHOOD_MAX_NODES)), 300),
  }),
  readOnly: true,
  pure: true,
  run(ctx, input) {
    const p = planeOf(ctx, input.plane);
    if ((input.name === undefined) === (input.id === undefined)) throw new DrsgError("BAD_INPUT", "neighbourhood: pass exactly one of name and id");
    const head: Record<string, unknown> = { plane: p.name, synced: freshnessLine(p)?.replace(/^synced: /, "") ?? null };
    const drift = pluginDrift(ctx, p);
    if (drift) head.plugin_drift = drift;
    let start: StoredNode | undefined;
    if (input.id !== undefined) {
      start = ctx.store.getNode(p.name, input.id);
      if (!start) return { ...head, found: "none", note: `no node #${input.id} in plane '${p.name}'` };
    } else {
      const m = matchName(ctx.store, p.name, input.name!);
      if (m.kind === "none") return { ...head, found: "none", note: `no symbol matches \`${input.name}\` in plane '${p.name}'` };
      if (m.kind === "many") return { ...head, found: "many", total: m.total, candidates: m.nodes.slice(0, 50).map(brief) };
      start = m.node;
    }
    const g = ctx.views.read(p.name);
    const sid = String(start.id);
    const types = input.edge_types?.length ? new Set(input.edge_types) : undefined;
    const { reached, capped } = reach(g, sid, { dir: input.direction, types, min: 1, max: input.hops });
    // Nearest first, then by key: a cap keeps the closest nodes, the same ones every time.
    const cmp = byKeyOf(g);
    reached.sort((a, b) => a.hop - b.hop || cmp(a.id, b.id));
    const kept = reached.slice(0, input.max_nodes - 1);
    const hopOf = new Map<string, number>([[sid, 0], ...kept.map((x) => [x.id, x.hop] as [string, number])]);
    const reasonOf = new Map<string, string>();
    const edges: { id: number; src: number; dst: number; type: string; line: number | null; reason: string | null; count: number }[] = [];
    for (const id of hopOf.keys()) {
      g.forEachOutEdge(id, (e, a, _s, t) => {
        if (!hopOf.has(t) || (types && !types.has(a.type))) return;
        if (a.reason !== undefined && !reasonOf.has(t)) reasonOf.set(t, a.reason);
        edges.push({ id: Number(e), src: Number(id), dst: Number(t), type: a.type, line: a.line ?? null, reason: a.reason ?? null, count: a.count ?? 1 });
      });
    }
    const nodes = [...hopOf].map(([id, hop]) => {
      const a = g.getNodeAttributes(id);
      const n: Record<string, unknown> = { id: Number(id), key: a.key, label: a.label, file: a.file ?? null, line: a.line ?? null, hop };
      if (a.label === "UnresolvedRef") n.reason = reasonOf.get(id) ?? null;
      return n;
    });
    // Compact JSON (the registrar would indent it): a 2,000-node answer is a third of the size.
    return JSON.stringify({
      ...head,
      found: "one",
      center: brief(start),
      hops: input.hops,
      direction: input.direction,
      total: reached.length + 1,
      capped: capped || kept.length < reached.length,
      nodes,
      edges,
    });
  },
});
