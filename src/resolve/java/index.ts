// The java resolver family: partials of .java files → facts keyed by Java qualified names.
// Phase 1 builds the program model (model.ts): packages, types, members with overload-aware keys.
// Phase 2 binds every reference by the first rule that proves a target (rules and the reasons
// of what stays unresolved: plugins/java/README.md). Nothing here depends on input order.
import type { Partial } from "../../model/partial.js";
import { FactBuilder } from "../common.js";
import type { ResolveInput, ResolveOutput } from "../types.js";
import { JavaProgram } from "./program.js";

export function resolveJava(input: ResolveInput): ResolveOutput {
  const partials: Partial[] = [...input.partials].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const fb = new FactBuilder();
  const prog = new JavaProgram(partials, fb, input.manifests);
  prog.build();
  prog.emit();
  return fb.finish();
}
