// The rust resolver family: keys `crate::module::item` (crate name from the nearest Cargo.toml,
// `-` → `_`), the mod tree, `use` paths and re-exports, impl / trait methods, and calls bound
// only when the source proves the target. Rules and reasons: plugins/rust/README.md.
import { FactBuilder } from "../common.js";
import type { ResolveInput, ResolveOutput } from "../types.js";
import { emitFacts } from "./bind.js";
import { RustResolver } from "./resolver.js";

export function resolveRust(input: ResolveInput): ResolveOutput {
  const fb = new FactBuilder();
  const r = new RustResolver(input);
  emitFacts(r, fb);
  for (const n of r.notes) fb.notes.push(n);
  return fb.finish();
}
