// Which files a python file's resolution may read: the module files its imports can reach. The
// resolver crosses into another file only through a module lookup (lookupModule): an import
// (`import a.b`, `from .x import y`, `from x import *`), or an attribute of a module value, which
// only names modules under one an import reached. So, over-approximating: `import a.b.c` may
// read every module under `a` (it binds `a`), `import a.b as z` every module under `a.b`, and
// `from D import n` the module D and every module under `D.n` (a submodule imported by name);
// `from D import *` every module under D. Roots are ignored (any file claiming the dotted name).
// A fold re-resolves a file only when a file it may read (transitively) changed its interface.
import type { Partial } from "../../model/partial.js";
import type { FileDependencies } from "../types.js";
import { moduleFiles } from "./modules.js";

/** For each path of `partials`, the paths its resolution may read directly (itself excluded). */
export function pythonDependencies(partials: Partial[], _manifests: Map<string, string>, treeName: string): FileDependencies {
  const mods = moduleFiles(partials, treeName);
  /** Dotted name → paths of the modules named so or below it. */
  const under = new Map<string, string[]>();
  /** Dotted name → paths of the modules named exactly so. */
  const exact = new Map<string, string[]>();
  const add = (m: Map<string, string[]>, k: string, path: string) => {
    const l = m.get(k);
    if (l) l.push(path);
    else m.set(k, [path]);
  };
  for (const m of mods) {
    add(exact, m.dotted, m.p.path);
    const parts = m.dotted.split(".");
    for (let i = 1; i <= parts.length; i++) add(under, parts.slice(0, i).join("."), m.p.path);
  }
  const out = new Map<string, Set<string>>();
  for (const m of mods) {
    const deps = new Set<string>();
    const all = (dotted: string) => {
      for (const p of under.get(dotted) ?? []) deps.add(p);
    };
    const one = (dotted: string) => {
      for (const p of exact.get(dotted) ?? []) deps.add(p);
    };
    const parts = m.dotted.split(".");
    const pkg = m.isPackage ? parts : parts.slice(0, -1);
    for (const imp of m.p.imports) {
      if (imp.form === "module") {
        all(imp.local ? imp.source : imp.source.split(".")[0]!);
        continue;
      }
      const rel = /^(\.+)(.*)$/.exec(imp.source);
      let base = imp.source;
      if (rel) {
        const up = rel[1]!.length - 1;
        if (up > pkg.length) continue; // the resolver leaves it unresolved
        base = [...pkg.slice(0, pkg.length - up), ...(rel[2] ? rel[2].split(".") : [])].join(".");
      }
      if (base === "") continue;
      if (imp.wildcard || imp.imported === "*") {
        all(base);
        continue;
      }
      one(base);
      all(`${base}.${imp.imported}`);
    }
    deps.delete(m.p.path);
    out.set(m.p.path, deps);
  }
  return { reads: out };
}
