// The go resolver's index over all partials of a plane: modules (go.mod), packages (one per
// directory and package clause), definition keys, package members, methods by receiver type,
// type tables, per-file imports and local bindings. Built once per resolve, linear in the input.
import { posix } from "node:path";
import type { Def, Local, Partial } from "../../model/partial.js";
import { goModModule, importName, isIdent, receiverTypeName } from "./text.js";

export interface Member {
  file: FileCtx;
  def: Def;
  key: string;
}

export interface Pkg {
  /** Node key: the import path; `<path>_test` for an external test package; `<path>#<name>` for a stray package clause. */
  key: string;
  importPath: string;
  name: string;
  dir: string;
  files: FileCtx[];
  /** Top-level definitions other than methods, by name (build variants share a key: the first by path is kept). */
  members: Map<string, Member>;
  /** Methods by receiver type name, then method name. */
  methods: Map<string, Map<string, Member>>;
}

export interface ImportB {
  path: string;
  /** Local name: alias, or the package's own name (in the tree: its package clause; else inferred from the path). */
  local: string;
  /** The package in the tree, when the path names one. */
  pkg?: Pkg;
  /** A path inside a module of the tree that names no package directory. */
  missing: boolean;
  /** The local name is exact (alias, in-tree package clause, or the path's last element as is). */
  exact: boolean;
  dot: boolean;
  blank: boolean;
  line: number;
}

/** A local binding after merging the matches of one declaration. */
export interface LocalB {
  name: string;
  scope: number;
  at: number;
  /** Visible from here (end of its declaration), else from `at`. */
  from: number;
  /** Visible until here (end of its block), else to the end of its scope definition. */
  end?: number;
  type?: string;
  callOf?: string;
  callRecv?: string;
  aliasOf?: string;
  isParam: boolean;
}

export interface FileCtx {
  p: Partial;
  key: string;
  pkg: Pkg;
  /** Node key per definition; undefined when the definition makes no node. */
  keys: (string | undefined)[];
  /** The key a reference inside definition i is attributed to. */
  owner: string[];
  /** Definitions that make no node of their own (folded into their parent or dropped). */
  noNode: boolean[];
  children: number[][];
  imports: Map<string, ImportB>;
  dots: ImportB[];
  allImports: ImportB[];
  /** Local bindings by scope definition (-1: none), then name; each list sorted by `from`. */
  locals: Map<number, Map<string, LocalB[]>>;
  /** Bindings that type package-level variables, by variable name. */
  topVars: Map<string, LocalB>;
  /** Type definitions nested in a function, by parent definition, then name. */
  localTypes: Map<number, Map<string, Def>>;
}

export type TypeKind = "struct" | "interface" | "defined" | "alias";

export interface TypeInfo {
  key: string;
  name: string;
  pkg: Pkg;
  file: FileCtx;
  def: Def;
  kind: TypeKind;
  /** Underlying / aliased type as written (defined types and aliases). */
  underlying?: string;
  /** Struct fields, named and embedded, by name. */
  fields: Map<string, Member>;
  /** Embedded struct fields and interface elements, as written, with the definition that wrote them. */
  embeds: { text: string; def: Def }[];
  /** Interface methods declared in the interface itself. */
  ifaceMethods: Map<string, Member>;
  /** Top-level (only those can have methods). */
  topLevel: boolean;
}

const TYPE_KINDS = new Set(["struct", "interface", "type"]);

export function isTypeDef(d: Def): boolean {
  return TYPE_KINDS.has(d.kind);
}

const ALIAS_SIG = /^[\p{L}_][\p{L}\p{Nd}_]*\s*(\[[^=]*\])?\s*=/u;

export class GoIndex {
  readonly files: FileCtx[] = [];
  readonly pkgs: Pkg[] = [];
  readonly byImportPath = new Map<string, Pkg>();
  readonly types = new Map<string, TypeInfo>();
  /** Module paths declared in the tree (for telling a missing in-tree package from a dependency). */
  readonly modules: string[] = [];
  readonly notes: string[] = [];
  duplicates = 0;

  constructor(partials: Partial[], manifests: Map<string, string>, treeName: string) {
    const modByDir = new Map<string, string>();
    for (const [path, text] of manifests) {
      if (posix.basename(path) !== "go.mod") continue;
      const mod = goModModule(text);
      if (!mod) continue;
      const dir = posix.dirname(path);
      modByDir.set(dir === "." ? "" : dir, mod);
      this.modules.push(mod);
    }
    this.modules.sort((a, b) => b.length - a.length || (a < b ? -1 : 1));

    // Packages: files grouped by directory and package clause.
    const groups = new Map<string, { dir: string; importPath: string; name: string; test: boolean; parts: Partial[] }>();
    for (const p of partials) {
      const dir = posix.dirname(p.path) === "." ? "" : posix.dirname(p.path);
      const importPath = importPathOf(dir, modByDir, treeName);
      const clause = p.defs.find((d) => d.kind === "module" && d.parent < 0);
      const name = clause?.name ?? "";
      const test = name.endsWith("_test") && p.path.endsWith("_test.go");
      const gk = `${importPath}\u0000${test ? "T" : "P"}\u0000${name}`;
      let g = groups.get(gk);
      if (!g) groups.set(gk, (g = { dir, importPath, name, test, parts: [] }));
      g.parts.push(p);
    }
    // The principal package of a directory: most files, then name; others keyed apart.
    const byPath = new Map<string, (typeof groups extends Map<string, infer G> ? G : never)[]>();
    for (const g of groups.values()) {
      if (g.test) continue;
      const list = byPath.get(g.importPath) ?? [];
      list.push(g);
      byPath.set(g.importPath, list);
    }
    const principal = new Set<unknown>();
    for (const list of byPath.values()) {
      list.sort((a, b) => b.parts.length - a.parts.length || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      principal.add(list[0]);
    }
    const sortedGroups = [...groups.values()].sort((a, b) =>
      a.importPath !== b.importPath ? (a.importPath < b.importPath ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    for (const g of sortedGroups) {
      const key = g.test ? `${g.importPath}_test` : principal.has(g) ? g.importPath : `${g.importPath}#${g.name || "_"}`;
      const pkg: Pkg = {
        key,
        importPath: g.importPath,
        name: g.name,
        dir: g.dir,
        files: [],
        members: new Map(),
        methods: new Map(),
      };
      this.pkgs.push(pkg);
      if (!g.test && principal.has(g)) this.byImportPath.set(g.importPath, pkg);
      for (const p of g.parts) pkg.files.push(this.fileCtx(p, pkg));
    }
    this.files.sort((a, b) => (a.p.path < b.p.path ? -1 : a.p.path > b.p.path ? 1 : 0));
    for (const pkg of this.pkgs) pkg.files.sort((a, b) => (a.p.path < b.p.path ? -1 : 1));

    for (const f of this.files) this.indexMembers(f);
    for (const f of this.files) this.indexImports(f);
    if (this.duplicates > 0)
      this.notes.push(`${this.duplicates} definition(s) declared again in another file of their package (build variants): names bind the first by path; each variant keeps its own node, keyed with its file`);
  }

  private fileCtx(p: Partial, pkg: Pkg): FileCtx {
    const fileKey = `${pkg.importPath}/${posix.basename(p.path)}`;
    const n = p.defs.length;
    const keys: (string | undefined)[] = new Array(n);
    const owner: string[] = new Array(n);
    const noNode: boolean[] = new Array(n).fill(false);
    const children: number[][] = Array.from({ length: n }, () => []);
    for (const d of p.defs) {
      if (d.parent >= 0) children[d.parent]!.push(d.id);
      const parent = d.parent >= 0 ? p.defs[d.parent] : undefined;
      const parentOwner = parent ? owner[parent.id]! : fileKey;
      if (d.kind === "module") {
        noNode[d.id] = true;
        owner[d.id] = fileKey;
        continue;
      }
      // A single-name var spec and its per-name definition: one symbol.
      if (
        parent &&
        (d.kind === "variable" || d.kind === "constant") &&
        parent.kind === d.kind &&
        parent.name === d.name &&
        parent.start === d.start
      ) {
        noNode[d.id] = true;
        keys[d.id] = keys[parent.id];
        owner[d.id] = owner[parent.id]!;
        continue;
      }
      // Interface type elements (embedded interfaces, constraints): no node of their own.
      if (d.kind === "field" && parent?.kind === "interface") {
        noNode[d.id] = true;
        owner[d.id] = parentOwner;
        continue;
      }
      if (d.name === "_" || d.name === "") {
        noNode[d.id] = true;
        owner[d.id] = parentOwner;
        continue;
      }
      let key: string;
      if (!parent) {
        if (d.kind === "function" && d.name === "init") key = `${fileKey}.init`;
        else if (d.kind === "method") key = `${pkg.key}.${receiverTypeName(d.owner) ?? "?"}.${d.name}`;
        else key = `${pkg.key}.${d.name}`;
      } else {
        let a: Def | undefined = parent;
        while (a && keys[a.id] === undefined) a = a.parent >= 0 ? p.defs[a.parent] : undefined;
        key = `${a ? keys[a.id]! : pkg.key}.${d.name}`;
      }
      keys[d.id] = key;
      // References inside a field belong to its struct.
      owner[d.id] = d.kind === "field" && parent ? parentOwner : key;
    }
    const ctx: FileCtx = {
      p,
      key: fileKey,
      pkg,
      keys,
      owner,
      noNode,
      children,
      imports: new Map(),
      dots: [],
      allImports: [],
      locals: new Map(),
      topVars: new Map(),
      localTypes: new Map(),
    };
    this.indexLocals(ctx);
    this.files.push(ctx);
    return ctx;
  }

  /**
   * A definition declared again in another file of its package (a build variant:
   * `binding.go` / `binding_nomsgpack.go`): names still bind the first by path, but the variant
   * keeps a node of its own, keyed with its file (`pkg.Default(binding_nomsgpack.go)`), with
   * what it contains, so the calls made in that file are not given the other file's symbol.
   */
  private twin(f: FileCtx, d: Def, key: string): void {
    this.duplicates++;
    const renamed = `${key}(${f.p.path.slice(f.p.path.lastIndexOf("/") + 1)})`;
    const inside = `${key}.`;
    for (let i = 0; i < f.keys.length; i++) {
      const k = f.keys[i];
      if (k !== undefined && (k === key || k.startsWith(inside)) && (i === d.id || isWithin(f, i, d.id))) f.keys[i] = renamed + k.slice(key.length);
      const o = f.owner[i];
      if (o !== undefined && (o === key || o.startsWith(inside)) && (i === d.id || isWithin(f, i, d.id))) f.owner[i] = renamed + o.slice(key.length);
    }
  }

  /**
   * Two build variants of one name: the one a default build selects (`go build` on linux/amd64
   * with no tags: file-name suffixes and `//go:build` lines) is what names bind and keeps the
   * plain key; the first by path when both or neither are selected. The other is keyed with its file.
   */
  private variant(members: Map<string, Member>, prior: Member, f: FileCtx, d: Def, key: string): void {
    if (!defaultBuild(prior.file) && defaultBuild(f) && prior.key === key) {
      this.twin(prior.file, prior.def, key);
      members.set(d.name, { file: f, def: d, key });
      return;
    }
    this.twin(f, d, key);
  }

  private indexMembers(f: FileCtx): void {
    const { p, pkg } = f;
    for (const d of p.defs) {
      const key = f.keys[d.id];
      if (key === undefined || f.noNode[d.id]) continue;
      if (d.parent < 0) {
        if (d.kind === "method") {
          const recv = receiverTypeName(d.owner);
          if (!recv) continue;
          let ms = pkg.methods.get(recv);
          if (!ms) pkg.methods.set(recv, (ms = new Map()));
          const prior = ms.get(d.name);
          if (prior) this.variant(ms, prior, f, d, key);
          else ms.set(d.name, { file: f, def: d, key });
        } else if (!(d.kind === "function" && d.name === "init")) {
          const prior = pkg.members.get(d.name);
          if (prior) this.variant(pkg.members, prior, f, d, key);
          else pkg.members.set(d.name, { file: f, def: d, key });
        }
      } else if (isTypeDef(d)) {
        const parent = p.defs[d.parent]!;
        if (parent.kind === "function" || parent.kind === "method") {
          let m = f.localTypes.get(d.parent);
          if (!m) f.localTypes.set(d.parent, (m = new Map()));
          if (!m.has(d.name)) m.set(d.name, d);
        }
      }
      if (isTypeDef(d) && (!this.types.has(key) || this.types.get(key)!.file !== f && f.keys[d.id] === key && d.parent < 0))
        this.types.set(key, this.typeInfo(f, d, key));
    }
  }

  private typeInfo(f: FileCtx, d: Def, key: string): TypeInfo {
    const kind: TypeKind =
      d.kind === "struct"
        ? "struct"
        : d.kind === "interface"
          ? "interface"
          : d.signature && ALIAS_SIG.test(d.signature)
            ? "alias"
            : "defined";
    const t: TypeInfo = {
      key,
      name: d.name,
      pkg: f.pkg,
      file: f,
      def: d,
      kind,
      fields: new Map(),
      embeds: [],
      ifaceMethods: new Map(),
      topLevel: d.parent < 0,
    };
    if (d.type && (kind === "defined" || kind === "alias")) t.underlying = d.type;
    for (const c of f.children[d.id]!) {
      const cd = f.p.defs[c]!;
      const ck = f.keys[c];
      if (cd.kind === "field") {
        if (kind === "interface") t.embeds.push({ text: cd.name, def: cd });
        else {
          if (ck !== undefined && !t.fields.has(cd.name)) t.fields.set(cd.name, { file: f, def: cd, key: ck });
          if (cd.extends && cd.extends.length > 0) t.embeds.push({ text: cd.type ?? cd.extends[0]!, def: cd });
        }
      } else if (cd.kind === "method" && kind === "interface" && ck !== undefined && !t.ifaceMethods.has(cd.name)) {
        t.ifaceMethods.set(cd.name, { file: f, def: cd, key: ck });
      }
    }
    return t;
  }

  private indexLocals(f: FileCtx): void {
    // Merge the matches of one declaration: same node start, same name.
    const merged = new Map<string, LocalB>();
    const order: LocalB[] = [];
    for (const l of f.p.locals as Local[]) {
      const id = `${l.at}\u0000${l.name}`;
      let b = merged.get(id);
      if (!b) {
        b = { name: l.name, scope: l.scope, at: l.at, from: l.at, isParam: false };
        merged.set(id, b);
        order.push(b);
      }
      if (l.from !== undefined) b.from = Math.max(b.from, l.from);
      if (l.end !== undefined) b.end = b.end === undefined ? l.end : Math.min(b.end, l.end);
      if (l.type && !b.type) b.type = l.type;
      if (l.callOf && !b.callOf) {
        b.callOf = l.callOf;
        if (l.callReceiver) b.callRecv = l.callReceiver;
      }
      // Prefer the initialiser alone (`y`) over the whole declaration (`x := y`).
      if (l.aliasOf && (!b.aliasOf || (b.aliasOf.includes(":=") && !l.aliasOf.includes(":=")))) b.aliasOf = l.aliasOf;
      if (l.isParam) b.isParam = true;
    }
    const defs = f.p.defs;
    for (const b of order) {
      if (b.name === "_") continue;
      // Package-level var declarations (no block scope, not parameters): they type the
      // package variable of that name.
      let top = b.scope;
      while (top >= 0 && defs[top]!.parent >= 0) top = defs[top]!.parent;
      const topDef = top >= 0 ? defs[top] : undefined;
      if (
        topDef &&
        (topDef.kind === "variable" || topDef.kind === "constant") &&
        !b.isParam &&
        b.from === b.at &&
        b.end === undefined
      ) {
        if (!f.topVars.has(b.name)) f.topVars.set(b.name, b);
        continue;
      }
      let byName = f.locals.get(b.scope);
      if (!byName) f.locals.set(b.scope, (byName = new Map()));
      const list = byName.get(b.name) ?? [];
      list.push(b);
      byName.set(b.name, list);
    }
    for (const byName of f.locals.values()) for (const list of byName.values()) list.sort((a, b) => a.from - b.from);
  }

  private indexImports(f: FileCtx): void {
    for (const imp of f.p.imports) {
      if (!imp.source) continue;
      const path = imp.source;
      const pkg = this.byImportPath.get(path);
      const missing = !pkg && this.modules.some((m) => path === m || path.startsWith(`${m}/`));
      const b: ImportB = {
        path,
        local: "",
        missing,
        exact: true,
        dot: imp.wildcard === true,
        blank: imp.local === "_",
        line: imp.line,
      };
      if (pkg) b.pkg = pkg;
      f.allImports.push(b);
      if (b.dot) {
        f.dots.push(b);
        continue;
      }
      if (b.blank) continue;
      if (imp.local && isIdent(imp.local)) b.local = imp.local;
      else if (pkg) b.local = pkg.name;
      else {
        const n = importName(path);
        if (!n) {
          b.exact = false;
          continue;
        }
        b.local = n.name;
        b.exact = n.exact;
      }
      if (b.local && !f.imports.has(b.local)) f.imports.set(b.local, b);
    }
  }
}

function importPathOf(dir: string, modByDir: Map<string, string>, treeName: string): string {
  let d = dir;
  const rest: string[] = [];
  for (;;) {
    const mod = modByDir.get(d);
    if (mod !== undefined) return rest.length > 0 ? `${mod}/${rest.join("/")}` : mod;
    if (d === "") break;
    const i = d.lastIndexOf("/");
    rest.unshift(i < 0 ? d : d.slice(i + 1));
    d = i < 0 ? "" : d.slice(0, i);
  }
  return dir === "" ? treeName : `${treeName}/${dir}`;
}

/** Whether definition `i` of a file lies inside definition `outer` (by parent links). */
function isWithin(f: FileCtx, i: number, outer: number): boolean {
  for (let p = f.p.defs[i]!.parent; p >= 0; p = f.p.defs[p]!.parent) if (p === outer) return true;
  return false;
}

const GOOS = new Set(["aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios", "js", "linux", "nacl", "netbsd", "openbsd", "plan9", "solaris", "wasip1", "windows", "zos"]);
const GOARCH = new Set(["386", "amd64", "arm", "arm64", "loong64", "mips", "mipsle", "mips64", "mips64le", "ppc64", "ppc64le", "riscv64", "s390x", "wasm"]);
/** What a default build on this platform satisfies: linux/amd64, gc, cgo, every go1.N release tag. */
function defaultTag(tag: string): boolean {
  return tag === "linux" || tag === "amd64" || tag === "unix" || tag === "gc" || tag === "cgo" || /^go1\.\d+$/.test(tag);
}

/** Whether a default build selects the file: its name's `_GOOS` / `_GOARCH` suffixes and its `//go:build` line. */
export function defaultBuild(f: FileCtx): boolean {
  const base = f.p.path.slice(f.p.path.lastIndexOf("/") + 1).replace(/\.go$/, "");
  const parts = base.split("_");
  const last = parts[parts.length - 1] === "test" ? parts.length - 2 : parts.length - 1;
  if (last >= 1 && GOARCH.has(parts[last]!) && !defaultTag(parts[last]!)) return false;
  if (last >= 1 && GOOS.has(parts[last]!) && !defaultTag(parts[last]!)) return false;
  if (last >= 2 && GOARCH.has(parts[last]!) && GOOS.has(parts[last - 1]!) && !defaultTag(parts[last - 1]!)) return false;
  const pkgAt = f.p.defs.find((d) => d.kind === "module")?.start ?? Number.POSITIVE_INFINITY;
  for (const l of f.p.locals) {
    if (l.scope >= 0 || l.at > pkgAt || !l.name.startsWith("//go:build ")) continue;
    const v = evalConstraint(l.name.slice("//go:build ".length));
    if (v !== undefined) return v;
  }
  return true;
}

/** A `//go:build` expression (`!a && (b || c)`) under the default tags; undefined when it does not parse. */
export function evalConstraint(text: string): boolean | undefined {
  const toks = text.match(/\(|\)|!|&&|\|\||[\w.]+/g) ?? [];
  if (toks.join("") !== text.replace(/\s+/g, "")) return undefined;
  let i = 0;
  const or = (): boolean | undefined => {
    let v = and();
    while (v !== undefined && toks[i] === "||") {
      i++;
      const r = and();
      v = r === undefined ? undefined : v || r;
    }
    return v;
  };
  const and = (): boolean | undefined => {
    let v = not();
    while (v !== undefined && toks[i] === "&&") {
      i++;
      const r = not();
      v = r === undefined ? undefined : v && r;
    }
    return v;
  };
  const not = (): boolean | undefined => {
    const t = toks[i++];
    if (t === "!") {
      const v = not();
      return v === undefined ? undefined : !v;
    }
    if (t === "(") {
      const v = or();
      return toks[i++] === ")" ? v : undefined;
    }
    return t !== undefined && /^[\w.]+$/.test(t) ? defaultTag(t) : undefined;
  };
  const v = or();
  return i === toks.length ? v : undefined;
}
