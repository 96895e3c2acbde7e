// Which files a TypeScript/JavaScript file's resolution may read: the files its module specifiers
// lead to. The binder crosses into another file only by resolving a specifier the file writes
// (Project.resolve) — an import, a re-export (`export … from`, `export * from`), a CommonJS
// `module.exports = require(…)`, a dynamic `import(…)` a function returns — and by nothing else:
// no globals, no ambient merging across files. The same Project answers, so the same files.
// Another file reads only what a module exports.
import type { Partial } from "../../model/partial.js";
import type { FileDependencies } from "../types.js";
import { Project } from "./project.js";

export function tsDependencies(partials: Partial[], manifests: Map<string, string>, treeName: string): FileDependencies {
  const project = new Project(
    partials.map((p) => p.path),
    manifests,
    treeName,
  );
  const reads = new Map<string, Set<string>>();
  const exported = new Map<string, Set<string>>();
  for (const p of partials) {
    // A module shows its exports; CommonJS (`exports.x = …`, `module.exports = …`) or a star
    // re-export can show anything.
    if (!p.exports.some((e) => e.star || e.name.startsWith("module.exports")) && !p.defs.some((d) => d.object !== undefined))
      exported.set(p.path, new Set(p.exports.map((e) => e.name)));
    const specs = new Set<string>();
    for (const i of p.imports) specs.add(i.source);
    for (const e of p.exports) if (e.source !== undefined) specs.add(e.source);
    for (const l of p.locals) if (l.importOf !== undefined) specs.add(l.importOf);
    const out = new Set<string>();
    for (const spec of specs) {
      const t = project.resolve(p.path, spec);
      if (t.kind === "file" && t.path !== p.path) out.add(t.path);
    }
    reads.set(p.path, out);
  }
  return { reads, exported };
}
