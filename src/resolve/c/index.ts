// The C resolver family. Keys `path/file.c::name` (tags that share a name with an ordinary
// identifier of the same file: `path::struct name`); a File node per file. A reference binds
// only when its translation unit — the file and the in-tree headers it includes, transitively —
// proves the target: a definition in the file (`scope`), a macro / static inline / type in an
// included header (`include`), or a prototype in an included header naming the one non-static
// definition the tree has, or the one whose own file shares that header (`include`). Rules and
// reasons: plugins/c/README.md.
import type { Props } from "../../model/facts.js";
import type { Def, Partial, Ref } from "../../model/partial.js";
import { type Confidence, FactBuilder, defProps } from "../common.js";
import type { ResolveInput, ResolveOutput } from "../types.js";
import { IncludeGraph } from "./includes.js";
import { LIBC } from "./libc.js";

/**
 * What a captured definition is in C terms.
 * function: a definition with a body; proto: a prototype (no body; not a node); var: a global;
 * extern: an `extern` global without initialiser (a declaration; not a node); macro / constant:
 * `#define`; tag: struct / union / enum with a body; typedef; local: a variable inside a function
 * (not a node, shadows globals); inner: nothing of its own — a type or function nested in a
 * function, an ERROR region, the bogus half of a misparse (not a node).
 */
type Role = "function" | "proto" | "var" | "extern" | "macro" | "constant" | "tag" | "typedef" | "local" | "inner";

/** C has two name spaces at file scope: tags (`struct S`) and ordinary identifiers. */
type Ns = "tag" | "ordinary";

interface Entry {
  file: number;
  /** The C name (the captured name, corrected for a misparsed `MACRO type name (…)`). */
  name: string;
  def: Def;
  role: Role;
  ns: Ns;
  /** Node key this entry stands for (a merged typedef stands for its struct); absent for declarations. */
  key?: string;
  isStatic: boolean;
}

interface FileInfo {
  p: Partial;
  index: number;
  roles: Role[];
  /** C name per definition (see realName). */
  names: string[];
  /** Key per definition (absent for declarations, locals, inner types). */
  keys: (string | undefined)[];
  /** Definitions that create the node of their key (the first one of each key). */
  owner: boolean[];
  /** Function definition id → local names (parameters, local variables) → offset from which they shadow. */
  locals: Map<number, Map<string, number>>;
  /** Entries of this file by name. */
  byName: Map<string, Entry[]>;
}

const NODE_ROLES: ReadonlySet<Role> = new Set<Role>(["function", "var", "macro", "constant", "tag", "typedef"]);
const TAG_KINDS: ReadonlySet<string> = new Set(["struct", "union", "enum"]);
/** What a parenthesised callee `(f)(x)` may name for the site to be a call rather than a cast. */
const CALLABLE: ReadonlySet<Role> = new Set<Role>(["function", "proto", "macro", "var", "extern"]);

function isHeader(path: string): boolean {
  return path.endsWith(".h") || path.endsWith(".H");
}

/**
 * `LUAI_FUNC lua_Integer luaV_idiv (…)`: an unknown macro before the return type makes the grammar
 * take the type for the declarator and put the real name in an ERROR node. In C a function's name
 * is followed by `(` or `)`, never by another identifier, so `<name> <ident> (` in the signature
 * means the real name is <ident>.
 */
function realName(d: Def): string {
  if (d.kind !== "function" || !d.signature) return d.name;
  const sig = d.signature;
  for (let at = sig.indexOf(d.name); at >= 0; at = sig.indexOf(d.name, at + 1)) {
    if (at > 0 && /\w/.test(sig[at - 1]!)) continue;
    const m = /^\s+([A-Za-z_]\w*)\s*\(/.exec(sig.slice(at + d.name.length));
    if (m) return m[1]!;
  }
  return d.name;
}

function analyse(p: Partial, index: number): FileInfo {
  const n = p.defs.length;
  const roles: Role[] = new Array(n);
  const names = p.defs.map(realName);
  const fnDef = (d: Def) => d.kind === "function" && d.valueKind !== undefined;
  const enclosingFn = (d: Def): number => {
    for (let s = d.parent; s >= 0; s = p.defs[s]!.parent) if (fnDef(p.defs[s]!)) return s;
    return -1;
  };
  const inDeclaration = (d: Def): boolean => {
    for (let s = d.parent; s >= 0; s = p.defs[s]!.parent) if (p.defs[s]!.kind === "function") return !fnDef(p.defs[s]!);
    return false;
  };
  const inError = (d: Def): boolean => {
    for (let s = d.parent; s >= 0; s = p.defs[s]!.parent) if (p.defs[s]!.kind === "module") return true;
    return false;
  };
  const fnOf: number[] = p.defs.map(enclosingFn);
  const hasChild = new Set<number>();
  for (const d of p.defs) if (d.parent >= 0) hasChild.add(d.parent);
  p.defs.forEach((d, i) => {
    const inFn = fnOf[i]! >= 0;
    switch (d.kind) {
      case "function":
        roles[i] = d.valueKind === undefined ? "proto" : inFn ? "inner" : "function";
        break;
      case "variable":
        // A variable inside a prototype's range is a misparse (`MACRO type name (…);` read as a
        // declaration); one in an ERROR region outside any function is most likely a lost body's local.
        // A variable holding a variable is `API_DATA T name;` misread: the outer is the declaration
        // of name, the inner (T) is nothing.
        if (inFn) roles[i] = "local";
        else if (inDeclaration(d) || inError(d) || (d.parent >= 0 && p.defs[d.parent]!.kind === "variable")) roles[i] = "inner";
        else if (hasChild.has(i)) roles[i] = "extern";
        else roles[i] = d.visibility === "extern" && d.valueKind === undefined ? "extern" : "var";
        break;
      case "macro":
      case "constant":
        // A macro never holds a definition: one that does is the bogus outer reading of a misparse.
        roles[i] = hasChild.has(i) ? "inner" : d.kind === "macro" ? "macro" : "constant";
        break;
      case "struct":
      case "union":
      case "enum":
        roles[i] = inFn ? "inner" : "tag";
        break;
      case "type":
        roles[i] = inFn ? "inner" : "typedef";
        break;
      default:
        roles[i] = "inner";
    }
  });

  // Name spaces: a tag named by `typedef struct {…} N;` lives in the ordinary space; a typedef with
  // the name of a tag of the same file (`typedef struct S {…} S;`) is merged into that tag.
  const fromTypedef = (d: Def) => TAG_KINDS.has(d.kind) && (d.signature ?? "").startsWith("typedef");
  const namedTags = new Map<string, number>();
  p.defs.forEach((d, i) => {
    if (roles[i] === "tag" && !fromTypedef(d) && !namedTags.has(names[i]!)) namedTags.set(names[i]!, i);
  });
  // Merged only when the typedef is of that very tag (`typedef int S;` beside `struct S` is not).
  const merged = (i: number) => {
    if (roles[i] !== "typedef") return false;
    const t = namedTags.get(names[i]!);
    if (t === undefined) return false;
    const sig = p.defs[i]!.signature ?? "";
    return sig.includes(`${p.defs[t]!.kind} ${names[i]!}`);
  };
  const ordinary = new Set<string>();
  p.defs.forEach((d, i) => {
    const r = roles[i]!;
    if (r === "local" || r === "inner" || merged(i)) return;
    if (r !== "tag" || fromTypedef(d)) ordinary.add(names[i]!);
  });

  const keys: (string | undefined)[] = new Array(n).fill(undefined);
  const tagKey = (i: number) => {
    const name = names[i]!;
    return ordinary.has(name) ? `${p.path}::${p.defs[i]!.kind} ${name}` : `${p.path}::${name}`;
  };
  p.defs.forEach((d, i) => {
    const r = roles[i]!;
    if (!NODE_ROLES.has(r)) return;
    if (r === "tag" && !fromTypedef(d)) keys[i] = tagKey(i);
    else if (merged(i)) keys[i] = tagKey(namedTags.get(names[i]!)!);
    else keys[i] = `${p.path}::${names[i]!}`;
  });
  const owner: boolean[] = new Array(n).fill(false);
  const seen = new Set<string>();
  p.defs.forEach((_, i) => {
    const k = keys[i];
    if (k !== undefined && !merged(i) && !seen.has(k)) {
      seen.add(k);
      owner[i] = true;
    }
  });

  // Locals: parameters (from the start of their function) and local variables (from their declarator).
  const locals = new Map<number, Map<string, number>>();
  const addLocal = (fn: number, name: string, at: number) => {
    let m = locals.get(fn);
    if (!m) locals.set(fn, (m = new Map()));
    const prior = m.get(name);
    if (prior === undefined || at < prior) m.set(name, at);
  };
  for (const l of p.locals)
    if (l.isParam && l.scope >= 0 && roles[l.scope] === "function") addLocal(l.scope, l.name, -1);
  p.defs.forEach((d, i) => {
    if (roles[i] === "local" || (roles[i] === "inner" && fnDef(d))) addLocal(fnOf[i]!, names[i]!, d.start);
  });

  const byName = new Map<string, Entry[]>();
  p.defs.forEach((d, i) => {
    const role = roles[i]!;
    if (role === "local" || role === "inner") return;
    const ns: Ns = role === "tag" && !fromTypedef(d) ? "tag" : "ordinary";
    const name = names[i]!;
    const e: Entry = { file: index, name, def: d, role, ns, isStatic: d.visibility === "static" };
    const k = keys[i];
    if (k !== undefined) e.key = k;
    const list = byName.get(name);
    if (list) list.push(e);
    else byName.set(name, [e]);
  });
  return { p, index, roles, names, keys, owner, locals, byName };
}

type Outcome =
  | { kind: "bind"; key: string; by: string; confidence: Confidence }
  | { kind: "unresolved"; reason: string }
  | { kind: "none" };

const NONE: Outcome = { kind: "none" };

function distinctKeys(entries: Entry[]): Entry[] {
  const seen = new Set<string>();
  const out: Entry[] = [];
  for (const e of entries) {
    if (e.key === undefined || seen.has(e.key)) continue;
    seen.add(e.key);
    out.push(e);
  }
  return out;
}

class CResolver {
  private readonly fb = new FactBuilder();
  private readonly graph: IncludeGraph;
  private readonly files: FileInfo[];
  private readonly byName = new Map<string, Entry[]>();

  constructor(partials: Partial[]) {
    this.graph = new IncludeGraph(partials);
    this.files = partials.map((p, i) => analyse(p, i));
    for (const f of this.files)
      for (const [name, list] of f.byName) {
        const all = this.byName.get(name);
        if (all) all.push(...list);
        else this.byName.set(name, [...list]);
      }
  }

  run(): ResolveOutput {
    for (const f of this.files) this.emitFile(f);
    for (const f of this.files) this.emitRefs(f);
    return this.fb.finish();
  }

  // ------------------------------------------------------------------ nodes and includes

  private emitFile(f: FileInfo): void {
    const { p } = f;
    const fb = this.fb;
    fb.node(p.path, ["File"], { file: p.path, path: p.path, line: 1, end_line: p.lines });
    p.defs.forEach((d, i) => {
      if (!f.owner[i]) return;
      const key = f.keys[i]!;
      fb.node(key, [this.labelOf(f.roles[i]!, d)], this.propsOf(f, i));
      fb.edge("CONTAINS", p.path, key);
    });
    for (const inc of this.graph.inTree[f.index]!)
      fb.edge("IMPORTS", p.path, this.graph.paths[inc.to]!, {
        line: inc.line,
        _ref: inc.text,
        _resolved_by: inc.by,
        _confidence: inc.by === "basename" ? "medium" : "high",
      });
    for (const inc of this.graph.outside[f.index]!)
      fb.edge("IMPORTS", p.path, fb.external(inc.key), {
        line: inc.line,
        _ref: inc.text,
        _resolved_by: "external",
        _confidence: inc.system ? "high" : "medium",
      });
  }

  private labelOf(role: Role, d: Def): string {
    switch (role) {
      case "function":
      case "macro":
        return "Function";
      case "constant":
        return "Const";
      case "var":
        return "Var";
      case "typedef":
        return "TypeAlias";
      default:
        return d.kind === "enum" ? "Enum" : "Struct";
    }
  }

  private propsOf(f: FileInfo, i: number): Props {
    const d = f.p.defs[i]!;
    const role = f.roles[i]!;
    const props = defProps(f.p, d);
    delete props.visibility;
    delete props.type;
    if (role === "function" || role === "var") props.visibility = d.visibility === "static" ? "static" : "public";
    if (role === "macro" || role === "constant") props.kind = "macro";
    if (role === "macro" && !String(props.signature ?? "").startsWith("#")) props.signature = `#define ${f.names[i]!}(…)`;
    if (d.kind === "union") props.kind = "union";
    if (role === "var") {
      const decl = (d.signature ?? d.name).split(" = ")[0]!;
      const parts = [d.visibility === "static" ? "static" : "", d.type ?? "", decl].filter((s) => s.length > 0);
      props.signature = parts.join(" ");
    }
    if (role === "function" || role === "var") {
      const decls = this.declaredIn(f.index, f.names[i]!, role === "function" ? "proto" : "extern", d.visibility === "static");
      if (decls.length > 0) {
        props.declared_in = decls.map((e) => this.graph.paths[e.file]!);
        if (props.doc_comment === undefined) {
          const doc = decls.find((e) => e.def.doc !== undefined)?.def.doc;
          if (doc !== undefined) props.doc_comment = doc;
        }
      }
    }
    return props;
  }

  /**
   * Headers whose prototype (or `extern` declaration) stands for this definition: those its own
   * translation unit includes; for the tree's only non-static definition of the name, every header
   * declaring it. One entry per header, sorted by path.
   */
  private declaredIn(file: number, name: string, declRole: Role, isStatic: boolean): Entry[] {
    const all = this.byName.get(name) ?? [];
    const decls = all.filter(
      (e) => e.role === declRole && e.file !== file && isHeader(this.graph.paths[e.file]!) && e.isStatic === isStatic,
    );
    if (decls.length === 0) return [];
    const tu = this.graph.closure(file);
    let chosen = decls.filter((e) => tu.has(e.file));
    if (!isStatic && chosen.length < decls.length) {
      const defRole = declRole === "proto" ? "function" : "var";
      const defs = distinctKeys(all.filter((e) => e.role === defRole && !e.isStatic));
      if (defs.length === 1) chosen = decls;
    }
    const out: Entry[] = [];
    const files = new Set<number>();
    for (const e of chosen)
      if (!files.has(e.file)) {
        files.add(e.file);
        out.push(e);
      }
    const path = (e: Entry) => this.graph.paths[e.file]!;
    return out.sort((a, b) => (path(a) < path(b) ? -1 : path(a) > path(b) ? 1 : a.def.start - b.def.start));
  }

  // ------------------------------------------------------------------ references

  private emitRefs(f: FileInfo): void {
    for (const r of f.p.refs) {
      const src = this.sourceOf(f, r.scope);
      if (src === undefined) continue;
      if (r.kind === "call") this.emitCall(f, src, r);
      else if (r.kind === "value") this.emitBound("REFERENCES", src, r, this.value(f, r));
      else if (r.kind === "type") this.emitBound("USES_TYPE", src, r, this.type(f, r));
    }
  }

  /**
   * The innermost enclosing node: a function, a global (its initialiser), a type (its members).
   * None inside a declaration (prototype, `extern`) or outside every definition: valid C has no
   * code at file scope, so a reference there comes from a misparse (a macro the grammar cannot see).
   */
  private sourceOf(f: FileInfo, scope: number): string | undefined {
    for (let s = scope; s >= 0; s = f.p.defs[s]!.parent) {
      const role = f.roles[s]!;
      if (role === "proto" || role === "extern") return undefined;
      const k = f.keys[s];
      if (k !== undefined) return k;
    }
    return undefined;
  }

  private emitBound(type: string, src: string, r: Ref, o: Outcome): void {
    if (o.kind === "bind" && o.key !== src) this.fb.bound(type, src, o.key, r, o.by, o.confidence);
  }

  private emitCall(f: FileInfo, src: string, r: Ref): void {
    const o = this.call(f, r);
    if (o.kind === "bind") this.fb.bound("CALLS", src, o.key, r, o.by, o.confidence);
    else if (o.kind === "unresolved") this.fb.unresolved(src, f.p.path, r, o.reason);
  }

  /** Is `name` a parameter or a local variable of the function enclosing the reference? */
  private isLocal(f: FileInfo, r: Ref): boolean {
    for (let s = r.scope; s >= 0; s = f.p.defs[s]!.parent) {
      if (f.roles[s] !== "function") continue;
      const at = f.locals.get(s)?.get(r.name);
      return at !== undefined && at < r.at;
    }
    return false;
  }

  /** Entries named `name` in the translation unit of file `fi`. */
  private visible(fi: number, name: string): Entry[] {
    const all = this.byName.get(name);
    if (!all) return [];
    const tu = this.graph.closure(fi);
    if (all.length <= tu.size) return all.filter((e) => tu.has(e.file));
    const out: Entry[] = [];
    for (const g of this.graph.closureList(fi)) {
      const own = this.files[g]!.byName.get(name);
      if (own) out.push(...own);
    }
    return out;
  }

  /** One of several keys in the translation unit: the file's own first, then the headers'. */
  private pick(fi: number, entries: Entry[]): Outcome {
    const keys = distinctKeys(entries);
    if (keys.length === 0) return NONE;
    const own = keys.filter((e) => e.file === fi);
    if (own.length === 1) return { kind: "bind", key: own[0]!.key!, by: "scope", confidence: "high" };
    if (own.length > 1) return { kind: "unresolved", reason: `ambiguous: ${own.length} candidates` };
    if (keys.length === 1) return { kind: "bind", key: keys[0]!.key!, by: "include", confidence: "high" };
    return { kind: "unresolved", reason: `ambiguous: ${keys.length} candidates` };
  }

  /**
   * A name the translation unit only declares (prototype / `extern`): the non-static definition
   * elsewhere in the tree. Unique ⇒ bound (high when its own file includes a header that declares
   * the name for the caller too, else medium); several ⇒ the one whose file shares a declaring
   * header with the caller, else ambiguous; none ⇒ undefined.
   */
  private link(fi: number, name: string, decls: Entry[], defRole: Role): Outcome | undefined {
    const tu = this.graph.closure(fi);
    const defs = distinctKeys((this.byName.get(name) ?? []).filter((e) => e.role === defRole && !e.isStatic && !tu.has(e.file)));
    if (defs.length === 0) return undefined;
    const shared = [...new Set(decls.filter((e) => e.file !== fi && !e.isStatic).map((e) => e.file))];
    const proven = defs.filter((d) => {
      const its = this.graph.closure(d.file);
      return shared.some((h) => its.has(h));
    });
    if (defs.length === 1)
      return { kind: "bind", key: defs[0]!.key!, by: "include", confidence: proven.length === 1 ? "high" : "medium" };
    if (proven.length === 1) return { kind: "bind", key: proven[0]!.key!, by: "include", confidence: "high" };
    return { kind: "unresolved", reason: `ambiguous: ${proven.length > 1 ? proven.length : defs.length} candidates` };
  }

  private call(f: FileInfo, r: Ref): Outcome {
    if (!r.name || r.receiver !== undefined) return { kind: "unresolved", reason: "dynamic call" };
    const name = r.name;
    if (this.isLocal(f, r)) return { kind: "unresolved", reason: "dynamic call" };
    if (name.startsWith("__builtin_")) return { kind: "bind", key: this.fb.external(`c:${name}`), by: "builtin", confidence: "high" };
    const vis = this.visible(f.index, name).filter((e) => e.ns === "ordinary");
    // `(T)(x)` is a cast the grammar read as a call unless the unit declares T as something callable
    // (`(f)(x)` calls f, bypassing a function-like macro f).
    if (r.text.startsWith("(") && !vis.some((e) => CALLABLE.has(e.role))) return NONE;
    const macros = vis.filter((e) => e.role === "macro" || e.role === "constant");
    if (macros.length > 0) return this.pick(f.index, macros);
    const fns = vis.filter((e) => e.role === "function");
    if (fns.length > 0) return this.pick(f.index, fns);
    if (vis.some((e) => e.role === "var" || e.role === "extern")) return { kind: "unresolved", reason: "dynamic call" };
    const protos = vis.filter((e) => e.role === "proto");
    if (protos.length > 0) {
      const linked = this.link(f.index, name, protos, "function");
      if (linked) return linked;
      return this.outside(f, name, "not defined in the tree");
    }
    const definedSomewhere = (this.byName.get(name) ?? []).some(
      (e) => e.role === "function" || e.role === "macro" || e.role === "constant" || e.role === "var",
    );
    if (!definedSomewhere) return this.outside(f, name, "not defined in the tree");
    if (LIBC.has(name)) return this.outside(f, name, "not declared in the translation unit");
    return { kind: "unresolved", reason: "not declared in the translation unit" };
  }

  /** A name the tree does not define: External `c:<name>` when the translation unit includes a header from outside the tree. */
  private outside(f: FileInfo, name: string, reason: string): Outcome {
    if (this.graph.includesOutside(f.index))
      return { kind: "bind", key: this.fb.external(`c:${name}`), by: "external", confidence: "medium" };
    return { kind: "unresolved", reason };
  }

  /** A function, global or macro named as a value; nothing when it is a local or not proven. */
  private value(f: FileInfo, r: Ref): Outcome {
    if (!r.name || this.isLocal(f, r)) return NONE;
    const vis = this.visible(f.index, r.name).filter((e) => e.ns === "ordinary");
    const macros = vis.filter((e) => e.role === "macro" || e.role === "constant");
    if (macros.length > 0) return this.pick(f.index, macros);
    const defs = vis.filter((e) => e.role === "function" || e.role === "var");
    if (defs.length > 0) return this.pick(f.index, defs);
    const protos = vis.filter((e) => e.role === "proto");
    if (protos.length > 0) return this.link(f.index, r.name, protos, "function") ?? NONE;
    const externs = vis.filter((e) => e.role === "extern");
    if (externs.length > 0) return this.link(f.index, r.name, externs, "var") ?? NONE;
    return NONE;
  }

  /** A type name: a typedef (or a typedef'd anonymous tag), or `struct/union/enum N` in the tag space. */
  private type(f: FileInfo, r: Ref): Outcome {
    if (!r.name) return NONE;
    const tagKind = r.receiver !== undefined && TAG_KINDS.has(r.receiver) ? r.receiver : undefined;
    const vis = this.visible(f.index, r.name).filter((e) =>
      tagKind ? e.ns === "tag" && e.def.kind === tagKind : e.ns === "ordinary" && (e.role === "typedef" || e.role === "tag"),
    );
    const o = this.pick(f.index, vis);
    return o.kind === "bind" ? o : NONE;
  }
}

export function resolveC(input: ResolveInput): ResolveOutput {
  return new CResolver(input.partials).run();
}
