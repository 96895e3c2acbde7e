// Agent writes: create_plane, drop_plane (needs confirm), write_nodes, write_edges. Reserved
// `_`-properties are stripped from every write, so an agent can never make a node look
// parser-owned, and every fact written here is stamped `_written_by: "agent"` — which answers
// mark as agent-written. A key the parser owns is refused (PARSER_OWNED); a key the parser takes
// later is the parser's: the fold replaces the agent's node there (src/sync/apply.ts).
import * as z from "../model/zod.js";
import { DrsgError } from "../model/errors.js";
import type { Props } from "../model/facts.js";
import { isOwned } from "../sync/apply.js";
import { requirePlane } from "./common.js";
import { defineTool } from "./tool.js";

const PropsSchema = z.record(z.string().check(z.maxLength(200)), z.unknown());

/** The provenance stamp of every fact an agent writes. */
export const AGENT_STAMP = { _written_by: "agent" } as const;

/**
 * Drop `_`-prefixed keys and anything that is not a plain JSON value. The result has no
 * prototype: a property named `__proto__` or `constructor` is a property like any other.
 */
export function untrustedProps(raw: Record<string, unknown> | undefined): { props: Props; stripped: string[] } {
  const props: Props = Object.create(null) as Props;
  const stripped: string[] = [];
  for (const [k, v] of Object.entries(raw ?? {})) {
    if (k.startsWith("_")) {
      stripped.push(k);
      continue;
    }
    props[k] = JSON.parse(JSON.stringify(v ?? null)) as Props[string];
  }
  return { props, stripped };
}

export const createPlane = defineTool({
  name: "create_plane",
  description: "Create an empty plane (for notes, annotations or an agent's own graph).",
  input: z.strictObject({ name: z.string().check(z.minLength(1), z.maxLength(100)) }),
  readOnly: false,
  run(ctx, { name }) {
    const p = ctx.store.write((w) => {
      if (w.getPlane(name)) throw new DrsgError("PLANE_EXISTS", `create_plane: plane '${name}' exists already`);
      return w.createPlane(name);
    });
    return `created plane '${p.name}' (id ${p.id})`;
  },
});

export const dropPlane = defineTool({
  name: "drop_plane",
  description: "Delete a plane and every fact in it. Destructive: needs confirm: true.",
  input: z.strictObject({ name: z.string().check(z.minLength(1), z.maxLength(100)), confirm: z.optional(z.boolean()) }),
  readOnly: false,
  run(ctx, { name, confirm }) {
    if (confirm !== true)
      throw new DrsgError("CONFIRM_REQUIRED", `drop_plane '${name}' deletes the plane and all its facts — call again with confirm: true`);
    requirePlane(ctx.store, name);
    ctx.store.write((w) => w.dropPlane(name));
    return `dropped plane '${name}'`;
  },
});

export const writeNodes = defineTool({
  name: "write_nodes",
  description:
    "Create nodes (one transaction). Keys must be new in the plane; a key the parser owns is refused (PARSER_OWNED). Properties starting with `_` are reserved and stripped. On a plane that mirrors a repository, your nodes survive folds unless the parser later declares a symbol at the same key (the parser's declaration wins); answers mark what you wrote as [agent-written].",
  input: z.strictObject({
    plane: z.string().check(z.minLength(1), z.maxLength(200)),
    nodes: z
      .array(
        z.strictObject({
          key: z.string().check(z.minLength(1), z.maxLength(1000)),
          labels: z.array(z.string().check(z.minLength(1), z.maxLength(100))).check(z.minLength(1), z.maxLength(10)),
          properties: z.optional(PropsSchema),
        }),
      )
      .check(z.minLength(1), z.maxLength(1000)),
  }),
  readOnly: false,
  run(ctx, { plane, nodes }) {
    requirePlane(ctx.store, plane);
    const stripped = new Set<string>();
    const ids = ctx.store.write((w) =>
      nodes.map((n) => {
        const prior = w.getNodeByKey(plane, n.key);
        if (prior && isOwned(prior.props))
          throw new DrsgError(
            "PARSER_OWNED",
            `write_nodes: key '${n.key}' in plane '${plane}' is the parser's (its declaration comes from the source) — nothing was written; write under a key of your own and link it with write_edges`,
          );
        if (prior) throw new DrsgError("KEY_TAKEN", `write_nodes: key '${n.key}' is taken in plane '${plane}' — nothing was written`);
        const u = untrustedProps(n.properties);
        for (const s of u.stripped) stripped.add(s);
        return w.createNode(plane, { key: n.key, labels: n.labels, props: { ...u.props, ...AGENT_STAMP } });
      }),
    );
    return `created ${ids.length} node(s): ids ${ids.join(", ")}${stripped.size ? ` (reserved properties stripped: ${[...stripped].join(", ")})` : ""}`;
  },
});

export const writeEdges = defineTool({
  name: "write_edges",
  description: "Create edges between existing nodes, named by key (one transaction). `_` properties are stripped. Answers mark these edges [agent-written] and never count them among what the parser proved.",
  input: z.strictObject({
    plane: z.string().check(z.minLength(1), z.maxLength(200)),
    edges: z
      .array(
        z.strictObject({
          src_key: z.string().check(z.minLength(1), z.maxLength(1000)),
          dst_key: z.string().check(z.minLength(1), z.maxLength(1000)),
          type: z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/)),
          properties: z.optional(PropsSchema),
        }),
      )
      .check(z.minLength(1), z.maxLength(1000)),
  }),
  readOnly: false,
  run(ctx, { plane, edges }) {
    requirePlane(ctx.store, plane);
    const n = ctx.store.write((w) => {
      for (const e of edges) {
        const s = w.getNodeByKey(plane, e.src_key);
        const d = w.getNodeByKey(plane, e.dst_key);
        if (!s || !d)
          throw new DrsgError("NODE_NOT_FOUND", `write_edges: no node with key '${!s ? e.src_key : e.dst_key}' in plane '${plane}' — nothing was written`);
        w.createEdge(plane, { type: e.type, src: s.id, dst: d.id, props: { ...untrustedProps(e.properties).props, ...AGENT_STAMP } });
      }
      return edges.length;
    });
    return `created ${n} edge(s)`;
  },
});
