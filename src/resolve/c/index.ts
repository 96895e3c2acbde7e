// The c resolver family. Until it has rules of its own it resolves like the generic family.
import { resolveGeneric } from "../generic.js";
import type { ResolveInput, ResolveOutput } from "../types.js";

export function resolveC(input: ResolveInput): ResolveOutput {
  return resolveGeneric(input);
}
