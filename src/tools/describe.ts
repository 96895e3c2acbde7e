// describe: one symbol's properties.
import * as z from "../model/zod.js";
import type { StoredNode } from "../store/types.js";
import { AS_OF_INPUT } from "./asof.js";
import { headerLines, oneLine, requirePlane, resolveOne, withMatchNote } from "./common.js";
import { defineTool } from "./tool.js";

const VALUE_CAP = 500;

function render(v: unknown): string {
  if (Array.isArray(v)) {
    if (v.length > 0 && v.every((x) => typeof x === "number")) return `$vector(${v.length} dims, omitted)`;
    return v.map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join(", ");
  }
  if (v !== null && typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/** The describe block: head line, extra labels, then each shown property as `key: value`. */
export function describeBlock(n: StoredNode): string[] {
  const lines = [oneLine(n)];
  if (n.labels.length > 1) lines.push(`labels: ${n.labels.join(", ")}`);
  for (const k of Object.keys(n.props).sort()) {
    if (k === "file" || k === "path" || k === "line") continue;
    if (k.startsWith("_") && k !== "_generated_by") continue;
    const v = n.props[k];
    if (v === null || v === "" || (Array.isArray(v) && v.length === 0)) continue;
    let text = render(v);
    if (text.length > VALUE_CAP) text = `${text.slice(0, VALUE_CAP)}…`;
    lines.push(`${k}: ${text.replace(/\n/g, "\n  ")}`);
  }
  return lines;
}

export const describe = defineTool({
  name: "describe",
  description: "One symbol's properties (signature, doc comment, visibility, extent, provenance). `name` is a key, a key suffix or a substring.",
  input: z.strictObject({ plane: z.string().check(z.minLength(1), z.maxLength(200)), name: z.string().check(z.minLength(1), z.maxLength(1000)), as_of: AS_OF_INPUT }),
  readOnly: true,
  pure: true,
  cli: { positionals: ["name"] },
  run(ctx, { plane, name }) {
    const p = requirePlane(ctx.store, plane);
    const r = resolveOne(ctx, p, name);
    if ("text" in r) return r.text;
    return withMatchNote(ctx, p, r, [...headerLines(ctx, p), ...describeBlock(r.node)].join("\n"));
  },
});
