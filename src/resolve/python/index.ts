// The python resolver family: module keys from packages (`__init__.py`), import binding through
// re-export chains, `self` / `cls` / `super()` through the MRO of in-tree classes, receivers typed
// by annotations, constructors and declared return types. Everything the source does not prove
// is an UnresolvedRef with a reason (plugins/python/README.md lists keys, rules and reasons).
import type { ResolveInput, ResolveOutput } from "../types.js";
import { PythonResolver } from "./resolver.js";

export function resolvePython(input: ResolveInput): ResolveOutput {
  return new PythonResolver(input).run();
}
