// Name lookup, type resolution and receiver-expression typing for the go resolver. Every answer
// is a proof from declarations (a declared type, a composite literal, a declared result type,
// an import) or an explicit "unknown" with the reason an unresolved call will carry.
import type { FileCtx, GoIndex, ImportB, LocalB, Member, TypeInfo } from "./model.js";
import { isTypeDef } from "./model.js";
import {
  BUILTIN_FUNCS,
  BUILTIN_TYPES,
  BUILTIN_VALUES,
  elementType,
  firstResult,
  funcTypeResult,
  isExported,
  type Op,
  namedType,
  nthResult,
  parseChain,
  parseDecl,
  rangeType,
  compositeLiteralType,
  receiverTypeParams,
  STD_INTERFACES,
} from "./text.js";

export type Confidence = "high" | "medium";

/** A type as written, with where it was written (for imports, type parameters, local types). */
export interface TExpr {
  text: string;
  f: FileCtx;
  scope: number;
  at: number;
}

/** A resolved named type. */
export type TRef =
  | { k: "tree"; t: TypeInfo; by: string }
  | { k: "ext"; path: string; name: string; conf: Confidence }
  | { k: "builtin"; name: string };

/** What a bare name denotes at a place. */
export type Found =
  | { k: "local"; l: LocalB }
  | { k: "typeparam" }
  | { k: "def"; m: Member; by: "scope" | "package" }
  | { k: "import"; imp: ImportB }
  | { k: "dot"; m?: Member; ext?: ImportB; n: number }
  | { k: "builtin"; kind: "func" | "type" | "value" }
  | { k: "none" };

/** The state of evaluating a receiver expression. */
export type St =
  | { k: "val"; t?: TExpr; r?: TRef }
  | { k: "pkg"; imp: ImportB }
  | { k: "type"; r: TRef }
  | { k: "fn"; m: Member; iface: boolean; via: string; conf: Confidence }
  | { k: "field"; m: Member; via: string }
  | { k: "var"; m: Member; via: string }
  | { k: "ext"; key: string; conf: Confidence; via: string }
  | { k: "none"; why: string };

/** A member found on a type. */
export type Hit =
  | { k: "method"; m: Member; iface: boolean; depth: number }
  | { k: "field"; m: Member; depth: number }
  | { k: "ext"; key: string; depth: number }
  | { k: "amb"; n: number }
  | { k: "unknown" }
  | { k: "none" };

/** An interface's method set: methods of the tree, methods of known standard interfaces, embedded interfaces not known. */
export interface Flat {
  methods: Map<string, Member>;
  /** Methods of embedded well-known standard-library interfaces: name → External key and parameter count. */
  std: Map<string, { key: string; arity: number }>;
  /** Embedded interfaces outside the tree whose method sets are not known (External keys). */
  ext: string[];
  constraint: boolean;
}

const UNKNOWN = "receiver type unknown";
const MAX_DEPTH = 12;

export class GoTypes {
  private readonly localType = new Map<LocalB, TExpr | null>();
  private readonly busy = new Set<unknown>();
  private readonly flat = new Map<string, Flat>();

  constructor(readonly ix: GoIndex) {}

  // ---- names -------------------------------------------------------------------------------

  /** What `name` denotes at byte `at` inside definition `scope` of file `f` (Go's block scoping). */
  lookup(f: FileCtx, scope: number, at: number, name: string): Found {
    const defs = f.p.defs;
    let s = scope;
    while (s >= 0) {
      const byName = f.locals.get(s)?.get(name);
      if (byName) {
        const d = defs[s]!;
        let best: LocalB | undefined;
        for (const l of byName) {
          if (l.from > at) break;
          if (at < (l.end ?? d.end)) best = l;
        }
        if (best) return best.type || best.callOf || best.aliasOf || best.isParam || best.end !== undefined ? { k: "local", l: best } : { k: "typeparam" };
      }
      const d = defs[s]!;
      if (d.kind === "method" && receiverTypeParams(d.owner).includes(name)) return { k: "typeparam" };
      const lt = f.localTypes.get(s)?.get(name);
      if (lt) {
        const key = f.keys[lt.id];
        if (key !== undefined) return { k: "def", m: { file: f, def: lt, key }, by: "scope" };
      }
      s = d.parent;
    }
    const m = f.pkg.members.get(name);
    if (m) return { k: "def", m, by: "package" };
    const imp = f.imports.get(name);
    if (imp) return { k: "import", imp };
    if (f.dots.length > 0 && isExported(name)) {
      let hit: Member | undefined;
      let ext: ImportB | undefined;
      let n = 0;
      for (const d of f.dots) {
        if (d.pkg) {
          const dm = d.pkg.members.get(name);
          if (dm && isExported(name)) {
            n++;
            hit = dm;
          }
        } else if (!d.missing) {
          n++;
          ext = d;
        }
      }
      if (n > 0) {
        const out: Found = { k: "dot", n };
        if (n === 1 && hit) out.m = hit;
        if (n === 1 && !hit && ext) out.ext = ext;
        return out;
      }
    }
    if (BUILTIN_FUNCS.has(name)) return { k: "builtin", kind: "func" };
    if (BUILTIN_TYPES.has(name)) return { k: "builtin", kind: "type" };
    if (BUILTIN_VALUES.has(name)) return { k: "builtin", kind: "value" };
    return { k: "none" };
  }

  // ---- types -------------------------------------------------------------------------------

  /** Resolve a type as written to a named type: in the tree, outside it, or builtin; undefined if not a provable named type. */
  resolveType(te: TExpr, depth = 0): TRef | undefined {
    const n = namedType(te.text);
    if (!n || depth > MAX_DEPTH) return undefined;
    let r: TRef | undefined;
    if (n.qual !== undefined) {
      const imp = te.f.imports.get(n.qual);
      if (!imp || this.shadowed(te, n.qual)) return undefined;
      if (imp.pkg) {
        const m = imp.pkg.members.get(n.name);
        const t = m ? this.ix.types.get(m.key) : undefined;
        if (!t) return undefined;
        r = { k: "tree", t, by: "import" };
      } else if (imp.missing) return undefined;
      else return { k: "ext", path: imp.path, name: n.name, conf: imp.exact ? "high" : "medium" };
    } else {
      const found = this.lookup(te.f, te.scope, te.at, n.name);
      if (found.k === "def") {
        const t = isTypeDef(found.m.def) ? this.ix.types.get(found.m.key) : undefined;
        if (!t) return undefined;
        r = { k: "tree", t, by: found.by };
      } else if (found.k === "dot" && found.n === 1) {
        if (found.m) {
          const t = this.ix.types.get(found.m.key);
          if (!t) return undefined;
          r = { k: "tree", t, by: "import" };
        } else if (found.ext) return { k: "ext", path: found.ext.path, name: n.name, conf: "medium" };
      } else if (found.k === "builtin" && found.kind === "type") return { k: "builtin", name: n.name };
      if (!r) return undefined;
    }
    return r;
  }

  /** A local of this name in scope shadows a package qualifier. */
  private shadowed(te: TExpr, qual: string): boolean {
    const found = this.lookup(te.f, te.scope, te.at, qual);
    return found.k !== "import";
  }

  /** Follow aliases (`type A = B`) to the type they name. */
  unalias(r: TRef, depth = 0): TRef | undefined {
    if (r.k !== "tree" || r.t.kind !== "alias") return r;
    if (depth > MAX_DEPTH || !r.t.underlying) return undefined;
    const next = this.resolveType(this.ownTExpr(r.t, r.t.underlying), depth + 1);
    return next ? this.unalias(next, depth + 1) : undefined;
  }

  /** A type written inside a type declaration (its fields, underlying type): its type parameters are in scope. */
  ownTExpr(t: TypeInfo, text: string): TExpr {
    return { text, f: t.file, scope: t.def.id, at: t.def.end - 1 };
  }

  /** The struct or interface whose fields / interface methods a named type has (`type X Y` has Y's fields, not Y's methods). */
  bodyOf(t: TypeInfo, depth = 0): TypeInfo | undefined {
    if (depth > MAX_DEPTH) return undefined;
    if (t.kind === "struct" || t.kind === "interface") return t;
    if (!t.underlying) return undefined;
    const r = this.resolveType(this.ownTExpr(t, t.underlying));
    return r?.k === "tree" ? this.bodyOf(r.t, depth + 1) : undefined;
  }

  methodsOf(t: TypeInfo): Map<string, Member> | undefined {
    return t.topLevel ? t.pkg.methods.get(t.name) : undefined;
  }

  /** An interface's full method set (own + embedded interfaces); `ext` lists embedded interfaces outside the tree. */
  flatInterface(t: TypeInfo): Flat {
    const memo = this.flat.get(t.key);
    if (memo) return memo;
    const out: Flat = { methods: new Map(), std: new Map(), ext: [], constraint: false };
    this.flat.set(t.key, out);
    for (const [n, m] of t.ifaceMethods) out.methods.set(n, m);
    for (const e of t.embeds) {
      if (!namedType(e.text)) {
        out.constraint = true;
        continue;
      }
      const r0 = this.resolveType({ text: e.text, f: t.file, scope: t.def.id, at: e.def.start });
      const r = r0 ? this.unalias(r0) : undefined;
      if (!r) out.constraint = true;
      else if (r.k === "ext" || (r.k === "builtin" && r.name === "error")) {
        const id = r.k === "ext" ? `${r.path}.${r.name}` : "builtin.error";
        const known = STD_INTERFACES.get(id);
        if (known) {
          for (const [n, arity] of known) if (!out.std.has(n)) out.std.set(n, { key: `go:${id}.${n}`, arity });
        } else out.ext.push(`go:${id}`);
      } else if (r.k === "builtin") {
        if (r.name !== "any") out.constraint = true;
      } else {
        const body = this.bodyOf(r.t);
        if (body?.kind !== "interface") {
          out.constraint = true;
          continue;
        }
        const sub = this.flatInterface(body);
        for (const [n, m] of sub.methods) if (!out.methods.has(n)) out.methods.set(n, m);
        for (const [n, m] of sub.std) if (!out.std.has(n)) out.std.set(n, m);
        out.ext.push(...sub.ext);
        if (sub.constraint) out.constraint = true;
      }
    }
    return out;
  }

  /**
   * Find `name` on type `t`: its own methods and fields, then members promoted through embedded
   * fields, shallowest depth first (Go's selector rule). An embedded type outside the tree hides
   * what it declares: a member found below one is not proven, and a member found nowhere is
   * attributed to it only when it is the only such type.
   */
  lookupMember(t0: TypeInfo, name: string, methodsOnly = false): Hit {
    type Item = { t?: TypeInfo; ext?: string; own: boolean };
    let level: Item[] = [{ t: t0, own: true }];
    const seen = new Set<string>();
    let unknownBefore = 0;
    const extCands: string[] = [];
    for (let depth = 0; depth <= 8 && level.length > 0; depth++) {
      const hits: Hit[] = [];
      const next: Item[] = [];
      let unknownHere = 0;
      for (const item of level) {
        if (!item.t) {
          unknownHere++;
          if (item.ext) extCands.push(item.ext);
          continue;
        }
        const ti = item.t;
        if (seen.has(ti.key)) continue;
        seen.add(ti.key);
        const own = this.methodsOf(ti)?.get(name);
        if (own) hits.push({ k: "method", m: own, iface: false, depth });
        const body = this.bodyOf(ti);
        if (!body) {
          if (ti.kind === "defined" && !own) unknownHere++;
          continue;
        }
        if (body.kind === "interface") {
          const fl = this.flatInterface(body);
          const im = fl.methods.get(name);
          const sm = im ? undefined : fl.std.get(name);
          if (im) hits.push({ k: "method", m: im, iface: true, depth });
          else if (sm) hits.push({ k: "ext", key: sm.key, depth });
          else if (fl.ext.length > 0) {
            unknownHere += fl.ext.length;
            if (fl.ext.length === 1) extCands.push(fl.ext[0]!);
            else extCands.push("", "");
          }
          continue;
        }
        const field = body.fields.get(name);
        if (field && !methodsOnly) hits.push({ k: "field", m: field, depth });
        for (const e of body.embeds) {
          const r0 = this.resolveType(this.ownTExpr(body, e.text));
          const r = r0 ? this.unalias(r0) : undefined;
          if (r?.k === "tree") next.push({ t: r.t, own: false });
          else if (r?.k === "ext") next.push({ ext: `go:${r.path}.${r.name}`, own: false });
          else if (r?.k === "builtin" && r.name === "error") next.push({ ext: "go:builtin.error", own: false });
          else next.push({ own: false });
        }
      }
      const uniq = new Map<string, Hit>();
      for (const h of hits) uniq.set(h.k === "method" || h.k === "field" ? h.m.key : h.k === "ext" ? h.key : `?${uniq.size}`, h);
      if (uniq.size === 1) {
        const h = [...uniq.values()][0]!;
        return unknownBefore > 0 ? { k: "amb", n: 1 + unknownBefore } : h;
      }
      if (uniq.size > 1) return { k: "amb", n: uniq.size };
      unknownBefore += unknownHere;
      level = next;
    }
    if (unknownBefore === 1 && extCands.length === 1 && extCands[0]) return { k: "ext", key: `${extCands[0]}.${name}`, depth: 1 };
    if (unknownBefore > 1) return { k: "amb", n: unknownBefore };
    // One unknown that is no nameable embedded type (a type defined over a type outside the tree).
    if (unknownBefore === 1) return { k: "unknown" };
    return { k: "none" };
  }

  // ---- values ------------------------------------------------------------------------------

  /** The declared type of a local binding: annotation, composite literal, call result, or the expression it copies. */
  typeOfLocal(f: FileCtx, l: LocalB): TExpr | undefined {
    const memo = this.localType.get(l);
    if (memo !== undefined) return memo ?? undefined;
    if (this.busy.has(l)) return undefined;
    this.busy.add(l);
    let out: TExpr | undefined;
    try {
      const decl = !l.type && !l.callOf && l.aliasOf ? parseDecl(l.aliasOf) : undefined;
      if (l.type) out = { text: l.type, f, scope: l.scope, at: l.at };
      else if (decl) out = this.typeFromDecl(f, l, decl);
      else if (l.callOf || l.aliasOf) {
        const text = l.callOf ? (l.callRecv ? `${l.callRecv}.${l.callOf}` : l.callOf) : l.aliasOf!;
        const ops = parseChain(text);
        if (ops) {
          if (l.callOf) ops.push({ k: "call" });
          const st = this.asValue(this.evalOps(ops, f, l.scope, l.at, 0));
          if (st.k === "val") out = st.t ?? (st.r ? this.texprOfRef(st.r, f, l) : undefined);
        }
      }
    } finally {
      this.busy.delete(l);
    }
    this.localType.set(l, out ?? null);
    return out;
  }

  /** The type of the i-th name of `a, b := rhs` (the i-th result of a call) or `k, v := range rhs`. */
  private typeFromDecl(f: FileCtx, l: LocalB, decl: { names: string[]; rhs: string; range: boolean }): TExpr | undefined {
    const i = decl.names.indexOf(l.name);
    if (i < 0) return undefined;
    // `range []*Logger{a, b}`: the literal's own type.
    const lit = decl.range ? compositeLiteralType(decl.rhs) : undefined;
    if (lit) return this.rangeOf({ k: "val", t: { text: lit, f, scope: l.scope, at: l.at } }, i);
    const ops = parseChain(decl.rhs);
    if (!ops) return undefined;
    if (decl.range) {
      const st = this.asValue(this.evalOps(ops, f, l.scope, l.at, 0));
      return st.k === "val" ? this.rangeOf(st, i) : undefined;
    }
    const last = ops[ops.length - 1]!;
    if (i === 0 || (decl.names.length > 1 && last.k === "call")) {
      if (i > 0) {
        const fn = this.evalOps(ops.slice(0, -1), f, l.scope, l.at, 0);
        if (fn.k !== "fn") return undefined;
        const res = nthResult(fn.m.def.returns, i);
        return res ? { text: res, f: fn.m.file, scope: fn.m.def.id, at: fn.m.def.end - 1 } : undefined;
      }
      const st = this.asValue(this.evalOps(ops, f, l.scope, l.at, 0));
      if (st.k === "val") return st.t ?? (st.r ? this.texprOfRef(st.r, f, l) : undefined);
    }
    return undefined;
  }

  private rangeOf(st: St & { k: "val" }, i: number, depth = 0): TExpr | undefined {
    if (!st.t || depth > MAX_DEPTH) return undefined;
    const el = rangeType(st.t.text, i);
    if (el) return { ...st.t, text: el };
    const r = this.refOf(st);
    if (r?.k === "tree" && r.t.kind === "defined" && r.t.underlying)
      return this.rangeOf({ k: "val", t: this.ownTExpr(r.t, r.t.underlying) }, i, depth + 1);
    return undefined;
  }

  /** A TExpr standing for an already resolved type (conversions): written as the type's own name in its own file. */
  private texprOfRef(r: TRef, f: FileCtx, l: LocalB): TExpr | undefined {
    if (r.k === "tree") return { text: r.t.name, f: r.t.file, scope: r.t.def.parent, at: r.t.def.start };
    if (r.k === "builtin") return { text: r.name, f, scope: l.scope, at: l.at };
    return undefined;
  }

  /** The state a member of a package (or a local type) denotes. */
  memberState(m: Member, via: string, conf: Confidence = "high"): St {
    const d = m.def;
    if (d.kind === "function") return { k: "fn", m, iface: false, via, conf };
    if (isTypeDef(d)) {
      const t = this.ix.types.get(m.key);
      return t ? { k: "type", r: { k: "tree", t, by: via } } : { k: "none", why: UNKNOWN };
    }
    if (d.kind === "variable" || d.kind === "constant") return { k: "var", m, via };
    return { k: "none", why: UNKNOWN };
  }

  /** The value a package-level variable holds: its declared type, or its initialiser's. */
  varValue(m: Member): St {
    const b = m.file.topVars.get(m.def.name);
    const t = b ? this.typeOfLocal(m.file, b) : undefined;
    if (t) return { k: "val", t };
    if (m.def.type) return { k: "val", t: { text: m.def.type, f: m.file, scope: -1, at: m.def.start } };
    return { k: "none", why: UNKNOWN };
  }

  /** A selectable value: variables and fields read as their declared types. */
  asValue(st: St): St {
    if (st.k === "var") return this.varValue(st.m);
    if (st.k === "field") return this.fieldValue(st.m);
    return st;
  }

  evalText(text: string, f: FileCtx, scope: number, at: number): St {
    const ops = parseChain(text);
    if (!ops) return { k: "none", why: UNKNOWN };
    return this.evalOps(ops, f, scope, at, 0);
  }

  evalOps(ops: Op[], f: FileCtx, scope: number, at: number, depth: number): St {
    if (depth > MAX_DEPTH || ops.length === 0) return { k: "none", why: UNKNOWN };
    // A type assertion states the type whatever the operand was: start from the last one.
    let lastAssert = -1;
    for (let i = ops.length - 1; i > 0; i--)
      if (ops[i]!.k === "assert") {
        lastAssert = i;
        break;
      }
    if (lastAssert > 0) {
      let st: St = { k: "val", t: { text: (ops[lastAssert] as { type: string }).type, f, scope, at } };
      for (let i = lastAssert + 1; i < ops.length && st.k !== "none"; i++) st = this.step(st, ops[i]!, f, scope, at);
      return st;
    }
    const head = ops[0]!;
    let st: St;
    if (head.k === "paren") {
      const inner = parseChain(head.inner);
      st = inner ? this.evalOps(inner, f, scope, at, depth + 1) : { k: "none", why: UNKNOWN };
    } else if (head.k === "id") st = this.nameState(f, scope, at, head.name);
    else return { k: "none", why: UNKNOWN };
    for (let i = 1; i < ops.length && st.k !== "none"; i++) st = this.step(st, ops[i]!, f, scope, at);
    return st;
  }

  private nameState(f: FileCtx, scope: number, at: number, name: string): St {
    const found = this.lookup(f, scope, at, name);
    switch (found.k) {
      case "local": {
        const t = this.typeOfLocal(f, found.l);
        return t ? { k: "val", t } : { k: "none", why: UNKNOWN };
      }
      case "typeparam":
        return { k: "none", why: UNKNOWN };
      case "def":
        return this.memberState(found.m, found.by);
      case "import":
        if (found.imp.missing) return { k: "none", why: `unresolved import ${found.imp.path}` };
        return { k: "pkg", imp: found.imp };
      case "dot":
        if (found.n !== 1) return { k: "none", why: `ambiguous: ${found.n} candidates` };
        if (found.m) return this.memberState(found.m, "import");
        return { k: "ext", key: `go:${found.ext!.path}.${name}`, conf: "medium", via: "import" };
      case "builtin":
        return found.kind === "type" ? { k: "type", r: { k: "builtin", name } } : { k: "none", why: UNKNOWN };
      case "none":
        return { k: "none", why: this.undefinedReason(f) };
    }
  }

  /** Why a name is found nowhere: an import whose package name could not be read is the likely source. */
  undefinedReason(f: FileCtx): string {
    const guessed = f.allImports.filter((b) => !b.pkg && !b.dot && !b.blank && !b.exact);
    if (guessed.length === 1) return `unresolved import ${guessed[0]!.path}`;
    return "not defined in scope";
  }

  /** The resolved type of a value state. */
  refOf(st: St & { k: "val" }): TRef | undefined {
    if (st.r) return this.unalias(st.r);
    if (!st.t) return undefined;
    const r = this.resolveType(st.t);
    return r ? this.unalias(r) : undefined;
  }

  /** Select `name` on a state: a package member, a method or field of a value's type, a method expression. */
  select(st: St, name: string): St {
    switch (st.k) {
      case "pkg": {
        const imp = st.imp;
        if (imp.pkg) {
          const m = imp.pkg.members.get(name);
          if (!m) return { k: "none", why: "not defined in scope" };
          return this.memberState(m, "import");
        }
        return { k: "ext", key: `go:${imp.path}.${name}`, conf: imp.exact ? "high" : "medium", via: "import" };
      }
      case "val": {
        if (st.t && /^\*?\s*struct\s*\{/.test(st.t.text.trim())) return this.anonymousField(st.t, name);
        const r = this.refOf(st);
        return this.onType(r, name, false);
      }
      case "type":
        return this.onType(this.unalias(st.r), name, true);
      case "ext":
        return { k: "ext", key: `${st.key}.${name}`, conf: st.conf, via: st.via };
      case "field":
      case "var":
        return this.select(this.asValue(st), name);
      case "fn":
        return { k: "none", why: UNKNOWN };
      case "none":
        return st;
    }
  }

  /**
   * A field of an anonymous struct type written in a function (`tests := []struct{ name string;
   * cl *Client }{…}`, then `tt.cl` for each `tt`): the function's one field definition of that
   * name (the queries make one per field of a struct literal type there), read as its declared
   * type. Two such fields of the name in the function, or none, is unknown.
   */
  private anonymousField(t: TExpr, name: string): St {
    if (t.scope < 0 || !new RegExp(`[{;\\s,]${name}[\\s,]`).test(t.text)) return { k: "none", why: UNKNOWN };
    const fields = (t.f.children[t.scope] ?? []).map((i) => t.f.p.defs[i]!).filter((d) => d.kind === "field" && d.name === name);
    const d = fields[0];
    if (fields.length !== 1 || d?.type === undefined) return { k: "none", why: UNKNOWN };
    return { k: "val", t: { text: d.type, f: t.f, scope: d.parent, at: d.start } };
  }

  private onType(r: TRef | undefined, name: string, methodsOnly: boolean): St {
    if (!r) return { k: "none", why: UNKNOWN };
    if (r.k === "ext") return { k: "ext", key: `go:${r.path}.${r.name}.${name}`, conf: r.conf, via: "receiver" };
    if (r.k === "builtin") {
      if (r.name === "error" && name === "Error") return { k: "ext", key: "go:builtin.error.Error", conf: "high", via: "receiver" };
      return { k: "none", why: UNKNOWN };
    }
    const hit = this.lookupMember(r.t, name, methodsOnly);
    switch (hit.k) {
      case "method":
        return {
          k: "fn",
          m: hit.m,
          iface: hit.iface,
          via: methodsOnly ? "type" : hit.depth > 0 ? "embedding" : "receiver",
          conf: hit.iface ? "medium" : "high",
        };
      case "field":
        return { k: "field", m: hit.m, via: hit.depth > 0 ? "embedding" : "receiver" };
      case "ext":
        return { k: "ext", key: hit.key, conf: "medium", via: "embedding" };
      case "amb":
        return { k: "none", why: `ambiguous: ${hit.n} candidates` };
      case "unknown":
        return { k: "none", why: UNKNOWN };
      case "none":
        return { k: "none", why: "member not found" };
    }
  }

  private step(st: St, op: Op, f: FileCtx, scope: number, at: number): St {
    switch (op.k) {
      case "sel":
        return this.select(st, op.name);
      case "call":
        if (st.k === "fn") {
          const res = firstResult(st.m.def.returns);
          if (!res) return { k: "none", why: UNKNOWN };
          return { k: "val", t: { text: res, f: st.m.file, scope: st.m.def.id, at: st.m.def.end - 1 } };
        }
        if (st.k === "type") return { k: "val", r: st.r };
        if (st.k === "val" || st.k === "var" || st.k === "field") {
          // Calling a value of function type: its declared result.
          const v = this.asValue(st);
          const res = v.k === "val" && v.t ? funcTypeResult(v.t.text) : undefined;
          if (res && v.k === "val" && v.t) return { k: "val", t: { ...v.t, text: res } };
        }
        return { k: "none", why: UNKNOWN };
      case "index": {
        if (st.k === "fn" || st.k === "type") return st;
        const v = this.asValue(st);
        if (v.k === "val") return this.elementOf(v);
        return v.k === "none" ? v : { k: "none", why: UNKNOWN };
      }
      case "assert":
        return { k: "val", t: { text: op.type, f, scope, at } };
      case "lit":
        return st.k === "type" ? { k: "val", r: st.r } : { k: "none", why: UNKNOWN };
      default:
        return { k: "none", why: UNKNOWN };
    }
  }

  /** The value a field holds: its declared type, written in its struct's file. */
  fieldValue(m: Member): St {
    const text = m.def.type;
    if (!text) return { k: "none", why: UNKNOWN };
    return { k: "val", t: { text, f: m.file, scope: m.def.parent, at: m.def.start } };
  }

  private elementOf(st: St & { k: "val" }, depth = 0): St {
    if (!st.t || depth > MAX_DEPTH) return { k: "none", why: UNKNOWN };
    const el = elementType(st.t.text);
    if (el) return { k: "val", t: { ...st.t, text: el } };
    const r = this.refOf(st);
    if (r?.k === "tree" && r.t.kind === "defined" && r.t.underlying)
      return this.elementOf({ k: "val", t: this.ownTExpr(r.t, r.t.underlying) }, depth + 1);
    return { k: "none", why: UNKNOWN };
  }
}
