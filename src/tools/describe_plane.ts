// describe_plane: the plane's soft schema, found by scanning — labels with their properties,
// edge types with endpoint labels, and the key prefixes its keys start with.
import * as z from "../model/zod.js";
import { keyPrefixes, requirePlane } from "./common.js";
import { AS_OF_INPUT, AS_OF_OUTPUT } from "./asof.js";
import { defineTool } from "./tool.js";

/**
 * A map keyed by names an agent may choose (labels, property names, edge types): no prototype,
 * so `constructor` or `__proto__` is a key like any other, not Object's own.
 */
function dict<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

function typeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return v.length > 0 && v.every((x) => typeof x === "number") ? "vector" : "list";
  return typeof v === "object" ? "map" : typeof v;
}

export const describePlane = defineTool({
  name: "describe_plane",
  description:
    "Describe a plane: its properties (synced commit, tree, builders), labels with counts and the properties they carry, edge types with the labels they connect, and key_prefixes (how keys start here — learn the key grammar in one call).",
  input: z.strictObject({ plane: z.string().check(z.minLength(1), z.maxLength(200)), as_of: AS_OF_INPUT }),
  output: z.object({
    name: z.string(),
    node_count: z.int(),
    edge_count: z.int(),
    properties: z.record(z.string(), z.unknown()),
    labels: z.record(z.string(), z.object({ count: z.int(), properties: z.record(z.string(), z.unknown()) })),
    edge_types: z.record(z.string(), z.object({ count: z.int(), connections: z.array(z.unknown()) })),
    key_prefixes: z.record(z.string(), z.int()),
    as_of: AS_OF_OUTPUT,
  }),
  readOnly: true,
  pure: true,
  cli: { positionals: ["plane"] },
  run(ctx, { plane }) {
    const p = requirePlane(ctx.store, plane);
    const labels = dict<{ count: number; properties: Record<string, { count: number; types: Record<string, number> }> }>();
    const labelOf = new Map<number, string>();
    for (const n of ctx.store.allNodes(plane)) {
      const l = n.labels[0] ?? "<unlabelled>";
      labelOf.set(n.id, l);
      const entry = (labels[l] ??= { count: 0, properties: dict() });
      entry.count++;
      for (const [k, v] of Object.entries(n.props)) {
        if (k.startsWith("_") && k !== "_generated_by") continue;
        const pe = (entry.properties[k] ??= { count: 0, types: dict() });
        pe.count++;
        const t = typeOf(v);
        pe.types[t] = (pe.types[t] ?? 0) + 1;
      }
    }
    const edgeTypes = dict<{ count: number; connections: { src_label: string; dst_label: string; count: number }[] }>();
    const conn = new Map<string, number>();
    for (const e of ctx.store.allEdges(plane)) {
      const et = (edgeTypes[e.type] ??= { count: 0, connections: [] });
      et.count++;
      const id = `${e.type}\u0000${labelOf.get(e.src) ?? "?"}\u0000${labelOf.get(e.dst) ?? "?"}`;
      conn.set(id, (conn.get(id) ?? 0) + 1);
    }
    for (const [id, count] of conn) {
      const [type, s, d] = id.split("\u0000") as [string, string, string];
      edgeTypes[type]!.connections.push({ src_label: s, dst_label: d, count });
    }
    for (const et of Object.values(edgeTypes)) et.connections.sort((a, b) => b.count - a.count);
    const { ledger: _ledger, ...props } = p.props;
    return {
      name: p.name,
      node_count: p.nodeCount,
      edge_count: p.edgeCount,
      properties: props,
      labels,
      edge_types: edgeTypes,
      key_prefixes: Object.fromEntries(keyPrefixes(ctx, plane, 30)),
    };
  },
});
