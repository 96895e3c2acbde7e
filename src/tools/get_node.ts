// get_node: one node, by store id or exact key, as JSON (id, key, labels, properties) with the
// commit it is true for; vectors and very long values are elided so the answer fits the budget.
import * as z from "../model/zod.js";
import { DrsgError } from "../model/errors.js";
import type { PropValue } from "../model/facts.js";
import { BUDGET, freshnessLine, headerLines, missText, pluginDrift } from "./common.js";
import { planeOf } from "./graph_lines.js";
import { AS_OF_INPUT, AS_OF_OUTPUT } from "./asof.js";
import { defineTool, structured } from "./tool.js";

const VALUE_CAP = 2_000;

function lean(v: PropValue): PropValue {
  if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "number")) return `$vector(${v.length} dims, omitted)`;
  if (typeof v === "string" && v.length > VALUE_CAP) return `${v.slice(0, VALUE_CAP)}… (${v.length} chars)`;
  return v;
}

export const getNode = defineTool({
  name: "get_node",
  description:
    "One node as JSON — id, key, labels and every property — by `id` (as traverse lists them) or exact `key`; says clearly when there is none (with the plane's key prefixes and the closest keys). For a readable view of a symbol prefer describe or context.",
  input: z.strictObject({
    plane: z.string().check(z.minLength(1), z.maxLength(200)),
    id: z.optional(z.int().check(z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER))),
    key: z.optional(z.string().check(z.minLength(1), z.maxLength(1000))),
    as_of: AS_OF_INPUT,
  }),
  output: z.object({
    plane: z.string(),
    synced: z.nullable(z.string()),
    plugin_drift: z.optional(z.string()),
    node: z.nullable(z.object({ id: z.int(), key: z.string(), labels: z.array(z.string()), properties: z.record(z.string(), z.unknown()) })),
    as_of: AS_OF_OUTPUT,
  }),
  readOnly: true,
  pure: true,
  run(ctx, { plane, id, key }) {
    const p = planeOf(ctx, plane);
    if ((id === undefined) === (key === undefined)) throw new DrsgError("BAD_INPUT", "get_node: pass exactly one of id and key");
    const n = id !== undefined ? ctx.store.getNode(p.name, id) : ctx.store.getNodeByKey(p.name, key!);
    if (!n) {
      const none = { plane: p.name, synced: freshnessLine(p)?.replace(/^synced: /, "") ?? null, node: null };
      if (id !== undefined)
        return structured([...headerLines(ctx, p), `no node #${id} in plane '${p.name}' — traverse and search list node ids`].join("\n"), none);
      return structured(missText(ctx, p, key!, ["get_node matches keys exactly; context and describe also match a key suffix or substring"]), none);
    }
    const properties: Record<string, PropValue> = {};
    for (const k of Object.keys(n.props).sort()) properties[k] = lean(n.props[k]!);
    const answer: Record<string, unknown> = { plane: p.name, synced: freshnessLine(p)?.replace(/^synced: /, "") ?? null };
    const drift = pluginDrift(ctx, p);
    if (drift) answer.plugin_drift = drift;
    answer.node = { id: n.id, key: n.key, labels: n.labels, properties };
    // Still too long (many long values): elide the longest until it fits.
    while (JSON.stringify(answer, null, 2).length > BUDGET) {
      const longest = Object.keys(properties).sort((a, b) => JSON.stringify(properties[b]).length - JSON.stringify(properties[a]).length)[0];
      if (longest === undefined || String(properties[longest]).startsWith("$omitted")) break;
      properties[longest] = `$omitted(${JSON.stringify(n.props[longest]).length} chars)`;
    }
    return answer;
  },
});
