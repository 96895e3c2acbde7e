// Module keys: a directory holding `__init__.py(i)` is a package (and so is any directory below
// one: a namespace subpackage); the first directory up that is not one is the import root, so `src/pkg/mod.py` is `pkg.mod`, `pkg/__init__.py` is `pkg`, and a
// loose script keys by its stem. When several files claim one dotted name (two loose `utils.py`
// under different roots, or `m.py` beside `m.pyi`), the one under the shallowest root (a `.py`
// before a `.pyi`, a package before a same-named module) keeps the dotted key and the others are keyed by their path.
import type { Partial } from "../../model/partial.js";

export interface ModuleFile {
  p: Partial;
  /** Dotted module name below its import root (`pkg.mod`). */
  dotted: string;
  /** The import root directory ("" = the tree's top; ".." when the top itself is a package). */
  root: string;
  /** An `__init__` file: the module is the package itself. */
  isPackage: boolean;
  isStub: boolean;
  /** The node key: `dotted`, or the path when another file holds the dotted name. */
  key: string;
}

function dirOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

function baseOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? path : path.slice(i + 1);
}

function stemOf(path: string): string {
  return baseOf(path).replace(/\.pyi?$/, "");
}

export function moduleFiles(partials: Partial[], treeName: string): ModuleFile[] {
  const initDirs = new Set<string>();
  for (const p of partials) if (stemOf(p.path) === "__init__") initDirs.add(dirOf(p.path));
  // A directory without `__init__.py` inside a package is a namespace subpackage (PEP 420):
  // nobody puts an import root inside a package.
  const packageDirs = new Set<string>();
  for (const p of partials) {
    const chain: string[] = [];
    for (let d = dirOf(p.path); ; d = dirOf(d)) {
      chain.push(d);
      if (d === "") break;
    }
    let inPackage = false;
    for (let i = chain.length - 1; i >= 0; i--) {
      const d = chain[i]!;
      if (initDirs.has(d)) inPackage = true;
      if (inPackage) packageDirs.add(d);
    }
  }
  const out: ModuleFile[] = [];
  for (const p of partials) {
    const stem = stemOf(p.path);
    const isPackage = stem === "__init__";
    const segs: string[] = isPackage ? [] : [stem];
    let d = dirOf(p.path);
    let root = d;
    for (;;) {
      if (!packageDirs.has(d)) {
        root = d;
        break;
      }
      if (d === "") {
        segs.unshift(treeName);
        root = "..";
        break;
      }
      segs.unshift(baseOf(d));
      d = dirOf(d);
    }
    const dotted = segs.join(".");
    out.push({ p, dotted, root, isPackage, isStub: p.path.endsWith(".pyi"), key: dotted });
  }
  // Collisions: one file keeps the dotted key, chosen by the files alone (never their order).
  const byDotted = new Map<string, ModuleFile[]>();
  for (const m of out) {
    const list = byDotted.get(m.dotted);
    if (list) list.push(m);
    else byDotted.set(m.dotted, [m]);
  }
  for (const list of byDotted.values()) {
    if (list.length < 2) continue;
    list.sort(precedence);
    for (const m of list.slice(1)) m.key = m.p.path;
  }
  return out;
}

function depth(root: string): number {
  if (root === "..") return -1;
  if (root === "") return 0;
  return root.split("/").length;
}

/** Which of two files claiming one dotted name keeps it: shallowest root, a package before a module beside it, `.py` before `.pyi`, then path. */
export function precedence(a: ModuleFile, b: ModuleFile): number {
  return (
    depth(a.root) - depth(b.root) ||
    (a.root < b.root ? -1 : a.root > b.root ? 1 : 0) ||
    Number(b.isPackage) - Number(a.isPackage) ||
    Number(a.isStub) - Number(b.isStub) ||
    (a.p.path < b.p.path ? -1 : a.p.path > b.p.path ? 1 : 0)
  );
}
