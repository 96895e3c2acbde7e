// The generic resolver: for languages with no family of their own. Same-file scope binding
// only (a name defined exactly once among the definitions visible from the call site);
// imports recorded as External; everything else unresolved. Keys: `<path>::<Outer.inner>`.
import type { Partial, Ref } from "../model/partial.js";
import { FactBuilder, LABEL_OF_KIND, defProps } from "./common.js";
import type { ResolveInput, ResolveOutput } from "./types.js";

function defKeys(p: Partial): string[] {
  const keys: string[] = [];
  for (const d of p.defs) {
    const parent = d.parent >= 0 ? keys[d.parent] : undefined;
    keys.push(parent ? `${parent}.${d.name}` : `${p.path}::${d.name}`);
  }
  return keys;
}

export function resolveGeneric(input: ResolveInput): ResolveOutput {
  const fb = new FactBuilder();
  for (const p of input.partials) {
    const fileKey = p.path;
    fb.node(fileKey, ["File"], { file: p.path, path: p.path, line: 1, end_line: p.lines });
    const keys = defKeys(p);
    p.defs.forEach((d, i) => {
      fb.node(keys[i]!, [LABEL_OF_KIND[d.kind]], defProps(p, d));
      fb.edge("CONTAINS", d.parent >= 0 ? keys[d.parent]! : fileKey, keys[i]!);
    });
    for (const imp of p.imports) {
      if (!imp.source) continue;
      fb.edge("IMPORTS", fileKey, fb.external(`${p.grammar}:${imp.source}`), { line: imp.line });
    }
    for (const r of p.refs) {
      const src = r.scope >= 0 ? keys[r.scope]! : fileKey;
      bindLocal(fb, p, keys, src, r);
    }
  }
  return fb.finish();
}

function bindLocal(fb: FactBuilder, p: Partial, keys: string[], src: string, r: Ref): void {
  const isCall = r.kind === "call" || r.kind === "new";
  if (!r.name) {
    if (isCall) fb.unresolved(src, p.path, r, "dynamic call");
    return;
  }
  if (r.receiver !== undefined) {
    if (isCall) fb.unresolved(src, p.path, r, "receiver type unknown");
    return;
  }
  // Innermost scope first: the children of each enclosing definition, then the file's top level.
  let s = r.scope;
  for (;;) {
    const candidates = p.defs.filter((d) => d.parent === s && d.name === r.name);
    if (candidates.length === 1) {
      const type = r.kind === "new" ? "INSTANTIATES" : r.kind === "call" ? "CALLS" : r.kind === "type" ? "USES_TYPE" : r.kind === "macro" ? "INVOKES_MACRO" : "REFERENCES";
      fb.bound(type, src, keys[candidates[0]!.id]!, r, "scope");
      return;
    }
    if (candidates.length > 1) {
      if (isCall) fb.unresolved(src, p.path, r, `ambiguous: ${candidates.length} candidates`);
      return;
    }
    if (s < 0) break;
    s = p.defs[s]!.parent;
  }
  if (isCall) fb.unresolved(src, p.path, r, "not defined in this file");
}
