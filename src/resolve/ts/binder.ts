// The semantics of the ts family: what a name, a receiver expression or a type annotation denotes,
// found only through proofs the source gives (lexical scope, import/re-export chains, `this` in a
// class, declared types, `new` initialisers, declared return types). Where no proof exists the
// answer is `unknown` with the reason the site will carry as an UnresolvedRef.
import type { Import } from "../../model/partial.js";
import { BUILTIN_TYPE_NAMES, FUNCTION_MEMBERS, GLOBAL_VALUES, PROMISE_GENERICS, TRANSPARENT_GENERICS } from "./globals.js";
import { type DefInfo, type LocalInfo, type Mod, TYPE_KINDS, isNarrowing, isOwnBody, normaliseExpr } from "./module.js";
import type { Project } from "./project.js";
import { type Head, type PathExpr, matchingClose, parsePath, parseType, splitTop } from "./syntax.js";

/** Unresolved reasons (plugins/ts/README.md documents them). */
export const REASON = {
  receiver: "receiver type unknown",
  dynamic: "dynamic call",
  builtin: "builtin",
  notInScope: "not defined in scope",
  ambiguous: (n: number) => `ambiguous: ${n} candidates`,
  notExported: (key: string) => `not exported by ${key}`,
  unresolvedImport: (spec: string) => `unresolved import ${spec}`,
  notMember: (key: string) => `not a member of ${key}`,
  overloads: "ambiguous: overloads",
} as const;

/** What a name means where it is used. */
export type Binding =
  | { k: "def"; d: DefInfo }
  | { k: "import"; imp: Import }
  | { k: "local"; locals: LocalInfo[]; scope: number }
  | { k: "ambiguous"; n: number }
  | { k: "none" };

/** What an import or an export leads to. */
export type Resolved =
  | { k: "def"; d: DefInfo }
  | { k: "local"; mod: Mod; locals: LocalInfo[] }
  | { k: "mod"; mod: Mod; cjs: boolean }
  | { k: "ext"; key: string; isModule: boolean }
  | { k: "fail"; reason: string };

/** What an expression evaluates to, as far as member lookup needs. */
export type Val =
  | { k: "def"; d: DefInfo }
  | { k: "inst"; types: DefInfo[] }
  | { k: "shape"; key: string }
  /** An object literal a const holds, its properties recorded as locals `X.name` / `X.*` (spreads). */
  | { k: "obj"; mod: Mod; local: LocalInfo }
  | { k: "mod"; mod: Mod; cjs: boolean }
  | { k: "ext"; key: string; isModule: boolean }
  | { k: "builtin" }
  | { k: "unknown"; reason: string };

/** The outcome of looking a member up. */
export type Member =
  | { k: "found"; d: DefInfo; medium: boolean }
  | { k: "ext"; key: string }
  | { k: "builtin" }
  | { k: "fail"; reason: string };

type Super = { k: "def"; d: DefInfo } | { k: "ext"; key: string } | { k: "unknown" };

const UNKNOWN: Val = { k: "unknown", reason: REASON.receiver };
const BUILTIN: Val = { k: "builtin" };
const MAX_DEPTH = 12;
/** Locals the queries record for what a function returns: return statements and an arrow's expression body. */
const RETURN_LOCALS = ["return", "=>"] as const;
const CALLABLE: ReadonlySet<string> = new Set(["function", "method", "constructor", "getter", "setter", "class"]);

export class Binder {
  private readonly exportMemo = new Map<string, Resolved>();
  private readonly exportBusy = new Set<string>();
  private cycleHit = false;
  private readonly importMemo = new Map<Import, Resolved>();
  private readonly superMemo = new Map<DefInfo, Super[]>();
  /** evalText's answers: per module (by idx), scope, position (-1: any), then text. */
  private readonly valMemo: Map<number, Map<number, Map<string, Val>>>[] = [];
  private readonly localMemo = new Map<LocalInfo, Val>();
  private readonly localBusy = new Set<LocalInfo>();
  /** parseSignature's answers by signature text (an interface's are read for every callback passed to it). */
  /** callbackParam's answers: callee declaration → `argIndex/argCount/paramIndex` → value. */
  private readonly callbackMemo = new Map<DefInfo, Map<string, Val>>();
  private readonly sigMemo = new Map<string, ReturnType<typeof parseSignature> | null>();
  /** Byte offset of the use being resolved, for block-scoped locals (-1: any position). */
  private pos = -1;

  constructor(
    readonly project: Project,
    readonly mods: Mod[],
    readonly byPath: Map<string, Mod>,
    readonly byKey: Map<string, DefInfo>,
    readonly members: Map<string, Map<string, DefInfo[]>>,
  ) {}

  // ------------------------------------------------------------------ names and scopes

  /** Resolve what follows as seen from byte offset `pos` of the current file. */
  at(pos: number): void {
    this.pos = pos;
  }

  private within<T>(pos: number, f: () => T): T {
    const prev = this.pos;
    this.pos = pos;
    try {
      return f();
    } finally {
      this.pos = prev;
    }
  }

  /** Locals of a scope visible at the current position (block-scoped ones only inside their block). */
  private visibleLocals(mod: Mod, s: number, name: string): LocalInfo[] | undefined {
    const all = mod.locals.get(s)?.get(name);
    if (!all || !mod.scopedNames.has(name)) return all;
    if (this.pos < 0) {
      // With no position (an export, an import of the module's name) a block's bindings are
      // not seen, as definitions declared in a block are not (lookup).
      const outer = all.filter((l) => l.end === undefined);
      return outer.length > 0 ? outer : undefined;
    }
    const seen = all.filter((l) => l.end === undefined || (this.pos >= (l.from ?? l.at) && this.pos < l.end));
    if (seen.length > 1) {
      // A declaration of an inner block shadows outer blocks' (`const app` in a test's callback
      // beside the suite's `const app`); the rest (narrowings, parameters) still count.
      let inner = -1;
      for (const l of seen) if (l.end !== undefined && (l.from ?? l.at) > inner) inner = l.from ?? l.at;
      if (inner >= 0) return seen.filter((l) => l.end === undefined || (l.from ?? l.at) === inner);
    }
    return seen.length > 0 ? seen : undefined;
  }

  /** The innermost binding of `name` visible from `scope` (definitions, locals, imports). */
  lookup(mod: Mod, scope: number, name: string, valuesOnly = true): Binding {
    let s = scope;
    for (;;) {
      let defs = mod.bindings.get(s)?.get(name);
      let locals = this.visibleLocals(mod, s, name);
      let imp = mod.imports.get(s)?.get(name);
      if (defs?.some((d) => d.end !== undefined)) {
        // Definitions declared in a block are seen only inside it, and there they shadow the
        // scope's other bindings of the name (the innermost block's); with no position, none is seen.
        const pos = this.pos;
        const seen = defs.filter((d) => d.end === undefined || (pos >= 0 && pos >= d.from! && pos < d.end));
        let inner = -1;
        for (const d of seen) if (d.end !== undefined && d.from! > inner) inner = d.from!;
        if (inner >= 0) {
          defs = seen.filter((d) => d.from === inner);
          imp = undefined;
          locals = locals?.filter((l) => l.end !== undefined && (l.from ?? l.at) >= inner);
          if (locals?.length === 0) locals = undefined;
        } else defs = seen.length > 0 ? seen : undefined;
      }
      // Interfaces and type aliases live in the type namespace only; beside a value of the same
      // name (`interface X` + `const X = ...`) the value is what a value use or an export means.
      if (defs?.some((d) => d.d.kind === "interface" || d.d.kind === "type")) {
        const values = defs.filter((d) => d.d.kind !== "interface" && d.d.kind !== "type");
        if (valuesOnly || values.length > 0 || locals || imp) defs = values.length > 0 ? values : undefined;
      }
      const nDefs = defs ? distinct(defs) : 0;
      const n = nDefs + (locals ? 1 : 0) + (imp ? 1 : 0);
      if (n > 0) {
        if (n > 1) return { k: "ambiguous", n };
        // One symbol declared more than once (a merged interface and class): the value declaration.
        if (defs) return { k: "def", d: defs.find((d) => d.d.kind !== "interface" && d.d.kind !== "type") ?? defs[0]! };
        if (imp) return { k: "import", imp };
        return { k: "local", locals: locals!, scope: s };
      }
      if (s < 0) return { k: "none" };
      s = mod.p.defs[s]!.parent;
    }
  }

  /** Like `lookup`, in the type namespace: a local of that name (a type parameter) shadows. */
  lookupType(mod: Mod, scope: number, name: string): Binding {
    let s = scope;
    for (;;) {
      const defs = mod.bindings.get(s)?.get(name)?.filter((d) => TYPE_KINDS.has(d.d.kind));
      const locals = this.visibleLocals(mod, s, name);
      const imp = mod.imports.get(s)?.get(name);
      const nDefs = defs && defs.length > 0 ? distinct(defs) : 0;
      if (nDefs > 0 || imp) {
        if (nDefs + (imp ? 1 : 0) > 1) return { k: "ambiguous", n: nDefs + (imp ? 1 : 0) };
        return defs && defs.length > 0 ? { k: "def", d: defs[0]! } : { k: "import", imp: imp! };
      }
      if (locals) return { k: "local", locals, scope: s };
      if (s < 0) return { k: "none" };
      s = mod.p.defs[s]!.parent;
    }
  }

  // ------------------------------------------------------------------ imports and exports

  resolveImport(mod: Mod, imp: Import): Resolved {
    const memo = this.importMemo.get(imp);
    if (memo) return memo;
    const r = this.resolveImportUncached(mod, imp);
    this.importMemo.set(imp, r);
    return r;
  }

  private resolveImportUncached(mod: Mod, imp: Import): Resolved {
    const t = this.project.resolve(mod.path, imp.source);
    if (t.kind === "unresolved") return { k: "fail", reason: REASON.unresolvedImport(imp.source) };
    if (t.kind === "external")
      return imp.imported === "*" || imp.imported === "default"
        ? { k: "ext", key: t.key, isModule: true }
        : { k: "ext", key: `${t.key}/${imp.imported}`, isModule: false };
    const target = this.byPath.get(t.path);
    if (!target) return { k: "fail", reason: REASON.unresolvedImport(imp.source) };
    if (imp.imported === "*") return { k: "mod", mod: target, cjs: imp.form === "require" };
    const r = this.exportOf(target, imp.imported);
    if (r.k === "fail" && imp.imported === "default" && this.isCommonJs(target)) return { k: "mod", mod: target, cjs: true };
    return r;
  }

  private isCommonJs(mod: Mod): boolean {
    return (
      mod.cjsMembers.size > 0 ||
      (mod.cjsReexport === undefined && mod.exportLocal.size === 0 && mod.reexports.size === 0 && mod.stars.length === 0)
    );
  }

  /** What module `mod` exports as `name`, through re-export chains and `export *` (cycle-safe). */
  exportOf(mod: Mod, name: string): Resolved {
    const id = `${mod.idx}\u0000${name}`;
    const memo = this.exportMemo.get(id);
    if (memo) return memo;
    if (this.exportBusy.has(id)) {
      this.cycleHit = true;
      return { k: "fail", reason: REASON.notExported(mod.key) };
    }
    this.exportBusy.add(id);
    const outer = this.cycleHit;
    this.cycleHit = false;
    let r: Resolved;
    try {
      r = this.exportUncached(mod, name);
    } finally {
      this.exportBusy.delete(id);
    }
    // An answer that met a re-export cycle depends on where the walk started: not memoised.
    if (!this.cycleHit) this.exportMemo.set(id, r);
    this.cycleHit ||= outer;
    return r;
  }

  private exportUncached(mod: Mod, name: string): Resolved {
    const local = mod.exportLocal.get(name);
    if (local?.includes(".")) {
      // `exports.json = bodyParser.json`: whatever that path denotes at module level.
      const v = this.evalText(mod, -1, local);
      if (v.k === "def") return { k: "def", d: v.d };
      if (v.k === "ext") return { k: "ext", key: v.key, isModule: v.isModule };
      if (v.k === "mod") return { k: "mod", mod: v.mod, cjs: v.cjs };
      return { k: "fail", reason: v.k === "unknown" ? v.reason : REASON.dynamic };
    }
    if (local !== undefined) {
      // What the module exports, not what a block of it sees (the position is another file's).
      const b = this.within(-1, () => this.lookup(mod, -1, local, false));
      if (b.k === "def") return { k: "def", d: b.d };
      if (b.k === "import") return this.resolveImport(mod, b.imp);
      if (b.k === "local") return { k: "local", mod, locals: b.locals };
      if (b.k === "ambiguous") return { k: "fail", reason: REASON.ambiguous(b.n) };
    }
    if (name === "default") {
      const d = mod.bindings.get(-1)?.get("default");
      if (d && d.length === 1) return { k: "def", d: d[0]! };
    }
    const re = mod.reexports.get(name);
    if (re) {
      const t = this.project.resolve(mod.path, re.source);
      if (t.kind === "unresolved") return { k: "fail", reason: REASON.unresolvedImport(re.source) };
      if (t.kind === "external")
        return re.imported === "*" || re.imported === "default"
          ? { k: "ext", key: re.imported === "*" ? t.key : `${t.key}/default`, isModule: re.imported === "*" }
          : { k: "ext", key: `${t.key}/${re.imported}`, isModule: false };
      const target = this.byPath.get(t.path);
      if (!target) return { k: "fail", reason: REASON.unresolvedImport(re.source) };
      return re.imported === "*" ? { k: "mod", mod: target, cjs: false } : this.exportOf(target, re.imported);
    }
    const cjs = mod.cjsMembers.get(name);
    if (cjs) return { k: "def", d: cjs };
    if (mod.cjsReexport !== undefined) {
      const t = this.project.resolve(mod.path, mod.cjsReexport);
      if (t.kind === "unresolved") return { k: "fail", reason: REASON.unresolvedImport(mod.cjsReexport) };
      if (t.kind === "external")
        return name === "default" ? { k: "ext", key: t.key, isModule: true } : { k: "ext", key: `${t.key}/${name}`, isModule: false };
      const target = this.byPath.get(t.path);
      if (target) return this.exportOf(target, name);
    }
    if (name !== "default" && mod.stars.length > 0) {
      const found: Resolved[] = [];
      let ext: string | undefined;
      for (const source of mod.stars) {
        const t = this.project.resolve(mod.path, source);
        if (t.kind === "external") {
          ext ??= t.key;
          continue;
        }
        if (t.kind !== "file") continue;
        const target = this.byPath.get(t.path);
        if (!target) continue;
        const r = this.exportOf(target, name);
        if (r.k !== "fail" && !found.some((f) => sameResolved(f, r))) found.push(r);
      }
      if (found.length === 1) return found[0]!;
      if (found.length > 1) return { k: "fail", reason: REASON.ambiguous(found.length) };
      if (ext !== undefined) return { k: "ext", key: `${ext}/${name}`, isModule: false };
    }
    return { k: "fail", reason: REASON.notExported(mod.key) };
  }

  // ------------------------------------------------------------------ values

  toVal(r: Resolved): Val {
    switch (r.k) {
      case "def":
        return { k: "def", d: r.d };
      case "local":
        return this.localVal(r.mod, r.locals, -1);
      case "mod":
        return { k: "mod", mod: r.mod, cjs: r.cjs };
      case "ext":
        return { k: "ext", key: r.key, isModule: r.isModule };
      case "fail":
        return { k: "unknown", reason: r.reason };
    }
  }

  /** The value a bare name denotes at a scope. */
  nameVal(mod: Mod, scope: number, name: string, depth = 0): Val {
    const b = this.lookup(mod, scope, name);
    switch (b.k) {
      case "def":
        return { k: "def", d: b.d };
      case "import":
        return this.toVal(this.resolveImport(mod, b.imp));
      case "local":
        return this.localVal(mod, b.locals, b.scope, depth);
      case "ambiguous":
        return { k: "unknown", reason: REASON.ambiguous(b.n) };
      case "none":
        if (name === "exports") return { k: "mod", mod, cjs: true };
        if (GLOBAL_VALUES.has(name)) return BUILTIN;
        return { k: "unknown", reason: REASON.notInScope };
    }
  }

  /** A variable or parameter: its declared type, else what initialises it (`new C()`, a typed call, an alias). */
  localVal(mod: Mod, locals: LocalInfo[], scope: number, depth = 0): Val {
    if (scope === -1) {
      const shape = `${mod.key}.${locals[0]!.name}`;
      if (this.members.has(shape) && !this.byKey.has(shape)) return { k: "shape", key: shape };
    }
    const sig = (l: LocalInfo) => `${l.type}|${l.newOf}|${l.callReceiver}|${l.callOf}|${l.aliasOf}|${l.prop}`;
    const first = locals[0]!;
    if (locals.some((l) => sig(l) !== sig(first))) return UNKNOWN;
    const memo = this.localMemo.get(first);
    if (memo) return memo;
    if (this.localBusy.has(first) || depth > MAX_DEPTH) return UNKNOWN;
    this.localBusy.add(first);
    let v: Val;
    try {
      v = this.within(first.at, () => this.localValUncached(mod, first, depth));
    } finally {
      this.localBusy.delete(first);
    }
    this.localMemo.set(first, v);
    return v;
  }

  private localValUncached(mod: Mod, l: LocalInfo, depth: number): Val {
    if (isNarrowing(l)) return UNKNOWN;
    if (l.type !== undefined) return this.typeVal(mod, l.scope, l.type, false, depth + 1);
    if (l.isParam) return this.contextualParam(mod, l, depth);
    if (l.prop !== undefined) return this.destructured(mod, l, l.prop, depth);
    const init = this.initVal(mod, l, depth);
    if (init === UNKNOWN && l.isConst && this.objProps(mod, l).length > 0) return { k: "obj", mod, local: l };
    return init;
  }

  private readonly objPropsMemo = new Map<LocalInfo, LocalInfo[]>();

  /** The property locals (`X.name`, `X.*`) of the object literal const `l` holds, in source order. */
  private objProps(mod: Mod, l: LocalInfo): LocalInfo[] {
    let out = this.objPropsMemo.get(l);
    if (out === undefined) this.objPropsMemo.set(l, (out = this.objPropsUncached(mod, l)));
    return out;
  }

  private objPropsUncached(mod: Mod, l: LocalInfo): LocalInfo[] {
    const byName = mod.locals.get(l.scope);
    if (!byName) return [];
    // The literal follows the declaration; a later declaration of the name in the scope ends it.
    let until = Number.POSITIVE_INFINITY;
    for (const x of byName.get(l.name) ?? []) if (x.at > l.at && x.at < until) until = x.at;
    const out: LocalInfo[] = [];
    const prefix = `${l.name}.`;
    for (const [name, list] of byName) {
      if (!name.startsWith(prefix) || name.indexOf(".", prefix.length) >= 0) continue;
      for (const x of list) if (x.at > l.at && x.at < until && x.aliasOf !== undefined) out.push(x);
    }
    return out.sort((a, b) => a.at - b.at);
  }

  /**
   * Property `name` of an object literal const: the last property or spread that provides it
   * (`{ ...schemas, iso: isoSchemas }`). A spread whose value is not known, after the provider,
   * could override it: unknown then; a name no part provides is not a member.
   */
  private objMember(v: { mod: Mod; local: LocalInfo }, name: string, depth: number): Val {
    if (depth > MAX_DEPTH) return UNKNOWN;
    const props = this.objProps(v.mod, v.local);
    const own = `${v.local.name}.${name}`;
    const spread = `${v.local.name}.*`;
    for (let i = props.length - 1; i >= 0; i--) {
      const p = props[i]!;
      if (p.name !== own && p.name !== spread) continue;
      const path = parsePath(p.aliasOf!);
      if (!path) return UNKNOWN;
      const pv = this.within(p.at, () => this.evalPath(v.mod, p.scope, path, depth + 1));
      if (p.name === own) return pv;
      // A spread provides the name when its value is known to have it.
      if (pv.k === "mod") {
        const r = this.exportOf(pv.mod, name);
        if (r.k === "fail" && r.reason === REASON.notExported(pv.mod.key)) continue;
        return this.toVal(r);
      }
      if (pv.k === "obj") {
        const r = this.objMember(pv, name, depth + 1);
        if (r.k === "unknown" && r.reason === REASON.notMember(pv.local.name)) continue;
        return r;
      }
      return UNKNOWN;
    }
    return { k: "unknown", reason: REASON.notMember(v.local.name) };
  }

  /**
   * A name destructured from a value (`const { status } = this._process(input)`, `const { jsx } =
   * await loadIndex()`, `const { sign } = Jwt`): that member of the value. A callee declaring an
   * object type literal as its return type (`): { status: ParseStatus; ctx: Ctx }`) gives the
   * member's declared type; anything else is read as a member of the call's value.
   */
  private destructured(mod: Mod, l: LocalInfo, prop: string, depth: number): Val {
    if (depth > MAX_DEPTH) return UNKNOWN;
    if (l.callOf !== undefined) {
      const path = parsePath(l.callReceiver !== undefined ? `${l.callReceiver}.${l.callOf}` : l.callOf);
      const callee = path ? this.evalPath(mod, l.scope, path, depth + 1) : UNKNOWN;
      if (callee.k === "def" && (callee.d.d.kind === "function" || callee.d.d.kind === "method")) {
        const d = this.overloadFor(callee.d, undefined, true);
        const returns = d?.d.returns?.trim();
        if (d !== undefined && returns !== undefined) {
          const lit = literalMemberType(unwrapPromise(returns), prop);
          if (lit === null) return UNKNOWN;
          if (lit !== undefined) return this.within(d.d.start, () => this.typeVal(d.mod, d.d.parent, lit, false, depth + 1));
        }
      }
    }
    const base = this.initVal(mod, l, depth);
    return base.k === "unknown" ? base : this.memberVal(base, prop, depth + 1);
  }

  /** What initialises a variable: `new C()`, a call's result, another name's value. */
  private initVal(mod: Mod, l: LocalInfo, depth: number): Val {
    if (l.importOf !== undefined) return this.importedModule(mod, l.importOf);
    if (l.newOf !== undefined) {
      const path = parsePath(l.newOf);
      return path ? this.newVal(this.evalPath(mod, l.scope, path, depth + 1)) : UNKNOWN;
    }
    if (l.callOf !== undefined) {
      const path = parsePath(l.callReceiver !== undefined ? `${l.callReceiver}.${l.callOf}()` : `${l.callOf}()`);
      // The local records the callee, not the arguments: their count and any type arguments are
      // not known (typeArgs set: no overload is taken on trust).
      const last = path?.steps[path.steps.length - 1];
      if (last?.k === "call") {
        delete last.args;
        last.typeArgs = true;
      }
      return path ? this.evalPath(mod, l.scope, path, depth + 1) : UNKNOWN;
    }
    if (l.aliasOf !== undefined) {
      const path = parsePath(l.aliasOf);
      return path ? this.evalPath(mod, l.scope, path, depth + 1) : UNKNOWN;
    }
    return UNKNOWN;
  }

  /**
   * What a `const` alias of a function holds (`const objectType = ZodObject.create`,
   * `const applyEdits = TextDocument.applyEdits`): the function, method or class it names, or a
   * dependency's stand-in. Only a const initialised by a name or member path qualifies (a `let`
   * may be reassigned; a parameter holds whatever is passed).
   */
  constAlias(mod: Mod, locals: LocalInfo[], scope: number): Val | undefined {
    // A const destructured from a value (`const { sign } = await load()`) holds that member.
    const named = (l: LocalInfo) => l.aliasOf !== undefined || l.prop !== undefined;
    if (!locals.every((l) => l.isConst === true && named(l) && !l.isParam && l.type === undefined)) return undefined;
    const first = locals[0]!;
    if (locals.some((l) => l.aliasOf !== first.aliasOf || l.prop !== first.prop || l.callOf !== first.callOf || l.callReceiver !== first.callReceiver))
      return undefined;
    const v = this.localVal(mod, locals, scope);
    if (v.k === "def" && CALLABLE.has(v.d.d.kind) && v.d.d.kind !== "getter" && v.d.d.kind !== "setter") return v;
    if (v.k === "ext") return v;
    return undefined;
  }

  /**
   * An unannotated parameter of a function whose own declaration is typed by a function type
   * (`const h: NotFoundHandler = (c) => c.text()`, `text: Respond = (t) => ...` in a class):
   * the compiler types it contextually, by that type's parameter at the same position. Read
   * through type aliases (generic arguments ignored) and unions whose members agree.
   */
  private contextualParam(mod: Mod, l: LocalInfo, depth: number): Val {
    if (l.argOf !== undefined) return this.callbackParam(mod, l, depth);
    if (l.scope < 0 || depth > MAX_DEPTH) return UNKNOWN;
    const d = mod.p.defs[l.scope]!;
    if (d.type === undefined || (d.valueKind !== "arrow_function" && d.valueKind !== "function_expression")) return UNKNOWN;
    let index = 0;
    if (d.params === undefined) {
      // `c => ...`: only the definition's own arrow's parameter (the first, spanning to its end),
      // not one of an arrow nested in its body (`c => x => x.m()`, `c => list.map(x => ...)`).
      let first: LocalInfo | undefined;
      for (const list of mod.locals.get(l.scope)?.values() ?? []) for (const x of list) if (x.isParam && (!first || x.at < first.at)) first = x;
      if (first !== l || l.end !== d.end) return UNKNOWN;
    } else {
      const names = paramList(d.params).map((p) => /^(?:\.\.\.)?([A-Za-z_$][\w$]*)\??\s*(?:[:=]|$)/.exec(p)?.[1]);
      index = names.indexOf(l.name);
      if (index < 0) return UNKNOWN;
    }
    const type = d.type;
    return this.within(d.start, () => this.fnParamType(mod, d.parent, type, index, depth + 1));
  }

  /**
   * An unannotated parameter of a function passed to a call (`app.get('/', (c) => c.json())`,
   * `router.use((req, next) => …)`): the compiler types it by the callee's parameter at that
   * argument. Every signature of the callee the call's argument count fits (a function's or
   * method's overloads, an interface's call signatures) must give the parameter one class, the
   * same; a signature whose parameter is not written, a spread, or any disagreement is unknown.
   */
  private callbackParam(mod: Mod, l: LocalInfo, depth: number): Val {
    if (depth > MAX_DEPTH || l.argIndex === undefined || l.argCount === undefined || l.paramIndex === undefined) return UNKNOWN;
    const callee = this.evalText(mod, l.scope, l.argOf!);
    // The answer depends only on the callee's declaration and the positions: memoised by both.
    const owner = callee.k === "def" ? callee.d : callee.k === "inst" && callee.types.length === 1 ? callee.types[0]! : undefined;
    if (owner === undefined) return UNKNOWN;
    const memoKey = `${l.argIndex}/${l.argCount}/${l.paramIndex}`;
    let byPos = this.callbackMemo.get(owner);
    if (byPos === undefined) this.callbackMemo.set(owner, (byPos = new Map()));
    const memo = byPos.get(memoKey);
    if (memo !== undefined) return memo;
    const v = this.callbackParamUncached(callee, l.argIndex, l.argCount, l.paramIndex, depth);
    byPos.set(memoKey, v);
    return v;
  }

  private callbackParamUncached(callee: Val, argIndex: number, argCount: number, paramIndex: number, depth: number): Val {
    const sigs = this.signaturesOf(callee);
    if (sigs === undefined) return UNKNOWN;
    let out: Val | undefined;
    for (const sig of sigs) {
      let parsed = this.sigMemo.get(sig.text);
      if (parsed === undefined) this.sigMemo.set(sig.text, (parsed = parseSignature(sig.text) ?? null));
      if (parsed === null) return UNKNOWN;
      const type = paramTypeAt(parsed.params, argIndex, argCount);
      if (type === undefined) continue; // the call's argument count does not fit this signature
      if (type === null) return UNKNOWN;
      // A parameter of a primitive type cannot take the function: the compiler passes over that signature.
      if (primitiveType(type, parsed.typeParams)) continue;
      const typeParams = parsed.typeParams;
      const v = this.within(sig.at, () => this.fnParamType(sig.mod, sig.scope, type, paramIndex, depth + 1, typeParams));
      if (v.k !== "inst" || v.types.length !== 1) return UNKNOWN;
      if (out !== undefined && (out.k !== "inst" || out.types[0] !== v.types[0])) return UNKNOWN;
      out = v;
    }
    return out ?? UNKNOWN;
  }

  /**
   * The signatures a callee value is called through, each as written with where its names are
   * read: a function's or method's (its overload signatures when it has them), or the call
   * signatures of an interface that extends nothing. Undefined when that is not known.
   */
  private signaturesOf(callee: Val): { text: string; mod: Mod; scope: number; at: number }[] | undefined {
    if (callee.k === "def" && (callee.d.d.kind === "function" || callee.d.d.kind === "method")) {
      const group = callee.d.key !== undefined ? this.overloads().get(callee.d.key) : undefined;
      const list = group ? (group.some((x) => x.d.bodyless === true) ? group.filter((x) => x.d.bodyless === true) : group) : [callee.d];
      const out: { text: string; mod: Mod; scope: number; at: number }[] = [];
      for (const x of list) {
        if (x.d.params === undefined || x.d.params.endsWith("…")) return undefined;
        out.push({ text: `${typeParamsOf(x.d.signature ?? "")}${x.d.params}`, mod: x.mod, scope: x.d.id, at: x.d.start });
      }
      return out;
    }
    if (callee.k === "inst" && callee.types.length === 1) {
      const ifc = callee.types[0]!;
      if (ifc.d.kind !== "interface" || (ifc.d.extends?.length ?? 0) > 0) return undefined;
      const sigs = ifc.mod.locals.get(ifc.d.id)?.get("(");
      if (!sigs || sigs.some((x) => x.aliasOf === undefined || x.aliasOf.endsWith("…"))) return undefined;
      return sigs.map((x) => ({ text: x.aliasOf!, mod: ifc.mod, scope: ifc.d.id, at: x.at }));
    }
    return undefined;
  }

  /**
   * The declared type of parameter `index` of function type `text` (as written at `scope` of `mod`).
   * `typeParams`: the type parameters of the signature the text is from (name → constraint), read
   * as their constraint — what the compiler checks a function argument against.
   */
  private fnParamType(mod: Mod, scope: number, text: string, index: number, depth: number, typeParams?: ReadonlyMap<string, string | undefined>): Val {
    if (depth > MAX_DEPTH) return UNKNOWN;
    const s = text.trim().replace(/^:\s*/, "");
    const both = splitTop(s, "&");
    if (both.length > 1) {
      // An intersection of function types: every part must agree.
      let out: Val | undefined;
      for (const part of both) {
        const v = this.fnParamType(mod, scope, part, index, depth + 1, typeParams);
        if (v.k !== "inst" || v.types.length !== 1 || (out !== undefined && out.k === "inst" && out.types[0] !== v.types[0])) return UNKNOWN;
        out = v;
      }
      return out ?? UNKNOWN;
    }
    if (typeParams?.has(s)) {
      const constraint = typeParams.get(s);
      return constraint === undefined ? UNKNOWN : this.fnParamType(mod, scope, constraint, index, depth + 1, typeParams);
    }
    if (s.startsWith("(")) {
      const params = functionTypeParams(s);
      if (params === undefined) return UNKNOWN;
      const p = params[index];
      if (p === undefined || p.startsWith("...")) return UNKNOWN;
      const colon = p.indexOf(":");
      if (colon < 0) return UNKNOWN;
      return this.typeVal(mod, scope, p.slice(colon + 1), false, depth + 1);
    }
    const t = parseType(s);
    if (t.k === "union") {
      const vals = t.parts.map((part) => this.fnParamType(mod, scope, typeText(part), index, depth + 1, typeParams));
      const first = vals[0];
      if (first?.k === "inst" && first.types.length === 1 && vals.every((v) => v.k === "inst" && v.types.length === 1 && v.types[0] === first.types[0]))
        return first;
      return UNKNOWN;
    }
    if (t.k !== "named" || t.name.includes(".")) return UNKNOWN;
    const b = this.lookupType(mod, scope, t.name);
    let alias: DefInfo | undefined;
    if (b.k === "def") alias = b.d;
    else if (b.k === "import") {
      const r = this.resolveImport(mod, b.imp);
      if (r.k === "def") alias = r.d;
    }
    if (alias?.d.kind !== "type" || alias.d.type === undefined) return UNKNOWN;
    const rhs = alias.d.type;
    // At the alias's own scope: its type parameters (locals there) shadow same-named types.
    return this.within(alias.d.start, () => this.fnParamType(alias.mod, alias.d.id, rhs, index, depth + 1));
  }

  /** The instance `new` makes from a constructor value. */
  newVal(ctor: Val): Val {
    if (ctor.k === "mod" && ctor.cjs) {
      // `const C = require("./c"); new C()`: the module's `module.exports = C`.
      const dflt = this.exportOf(ctor.mod, "default");
      return dflt.k === "def" ? this.newVal({ k: "def", d: dflt.d }) : UNKNOWN;
    }
    if (ctor.k === "def" && (ctor.d.d.kind === "class" || ctor.d.d.kind === "function")) return { k: "inst", types: [ctor.d] };
    if (ctor.k === "ext") return { k: "ext", key: ctor.key, isModule: false };
    if (ctor.k === "builtin") return BUILTIN;
    return ctor.k === "unknown" ? ctor : UNKNOWN;
  }

  /** What calling a value returns: the declared return type of the function or method (`this`:
   * the receiver the method was called on). */
  callResult(callee: Val, depth: number, receiver?: Val, args?: number, typeArgs?: boolean): Val {
    if (callee.k === "def") {
      const d = this.overloadFor(callee.d, args, typeArgs === true);
      if (d === undefined) return { k: "unknown", reason: REASON.overloads };
      if (d.d.kind !== "function" && d.d.kind !== "method") return UNKNOWN;
      if (d.d.returns === undefined) return this.inferredReturn(d, depth, receiver);
      if (d.d.returns.trim() === "this" || d.d.returns.trim() === "Promise<this>")
        return receiver && (receiver.k === "inst" || receiver.k === "def") ? receiver : UNKNOWN;
      const returns = d.d.returns;
      return this.within(d.d.start, () => this.typeVal(d.mod, d.d.parent, returns, true, depth + 1));
    }
    if (callee.k === "inst" && args !== undefined && !typeArgs) return this.callSignatureResult(callee, args, depth);
    if (callee.k === "builtin") return BUILTIN;
    return callee.k === "unknown" ? callee : UNKNOWN;
  }

  /**
   * Calling a value typed by an interface with call signatures (`app.get(…)` where `get:
   * HandlerInterface<…>`): every signature the argument count fits must return the same class
   * (a chain `app.get(…).post(…)` reads on); a signature returning one of its own type
   * parameters, `this`, a predicate or anything unreadable makes the result unknown.
   */
  private callSignatureResult(callee: Val, args: number, depth: number): Val {
    const sigs = this.signaturesOf(callee);
    if (sigs === undefined || callee.k !== "inst" || callee.types[0]!.d.kind !== "interface") return UNKNOWN;
    let out: Val | undefined;
    for (const sig of sigs) {
      let parsed = this.sigMemo.get(sig.text);
      if (parsed === undefined) this.sigMemo.set(sig.text, (parsed = parseSignature(sig.text) ?? null));
      if (parsed === null) return UNKNOWN;
      const fits = argCountFits(parsed.params, args);
      if (fits === null) return UNKNOWN;
      if (!fits) continue;
      const returns = parsed.returns;
      if (returns === undefined || /^(?:this\b|asserts\b|[A-Za-z_$][\w$]*\s+is\b)/.test(returns)) return UNKNOWN;
      const head = /^[A-Za-z_$][\w$.]*/.exec(returns)?.[0];
      if (head === undefined || parsed.typeParams.has(head.split(".")[0]!)) return UNKNOWN;
      const v = this.within(sig.at, () => this.typeVal(sig.mod, sig.scope, returns, true, depth + 1));
      if (v.k !== "inst" || v.types.length !== 1) return UNKNOWN;
      if (out !== undefined && (out.k !== "inst" || out.types[0] !== v.types[0])) return UNKNOWN;
      out = v;
    }
    return out ?? UNKNOWN;
  }

  private readonly returnBusy = new Set<DefInfo>();

  /** The module a dynamic `import(source)` in `mod` loads: in the tree, or unknown. */
  private importedModule(mod: Mod, source: string): Val {
    const t = this.project.resolve(mod.path, source);
    const target = t.kind === "file" ? this.byPath.get(t.path) : undefined;
    return target ? { k: "mod", mod: target, cjs: false } : UNKNOWN;
  }

  /**
   * The return type of a function or method that declares none, read off its return statements:
   * known only when every one proves the same value (`return new X()`, `return this._add(c)` with
   * `_add` typed, `return this`), none is bare or anything else, and the function is neither
   * async nor a generator (their result is a Promise / iterator). `this` is the receiver the
   * method was called on, as a declared `: this` return is.
   */
  private inferredReturn(d: DefInfo, depth: number, receiver: Val | undefined): Val {
    const sig = d.d.signature ?? "";
    if (d.d.isAsync || /^(?:[\w\s]*\bfunction\s*\*|(?:static\s+|async\s+|public\s+|private\s+|protected\s+)*\*)/.test(sig)) return UNKNOWN;
    if (depth > MAX_DEPTH || this.returnBusy.has(d)) return UNKNOWN;
    const mod = d.mod;
    const scopes = [d.d.id];
    for (const h of mod.defs) if (h.hidden && h.d.parent === d.d.id && isOwnBody(h.d, d.d)) scopes.push(h.d.id);
    const rets: LocalInfo[] = [];
    for (const s of scopes) for (const name of RETURN_LOCALS) rets.push(...(mod.locals.get(s)?.get(name) ?? []));
    if (rets.length === 0) return UNKNOWN;
    this.returnBusy.add(d);
    try {
      let out: Val | undefined;
      for (const r of rets) {
        let v: Val;
        if (r.importOf !== undefined) {
          // `() => import("./index")`: the module (read through the `await` its caller writes).
          v = this.importedModule(mod, r.importOf);
          if (v.k !== "mod" || (out !== undefined && (out.k !== "mod" || out.mod !== v.mod))) return UNKNOWN;
          out = v;
          continue;
        }
        if (r.aliasOf === "this") v = receiver && (receiver.k === "inst" || receiver.k === "def") ? receiver : this.thisVal(mod, r.scope);
        else if (r.newOf === undefined && r.callOf === undefined && r.aliasOf === undefined) return UNKNOWN;
        else if (r.callOf !== undefined) v = this.within(r.at, () => this.returnedCall(mod, r, depth + 1));
        else v = this.within(r.at, () => this.localValUncached(mod, r, depth + 1));
        if (v.k !== "inst" || v.types.length !== 1) return UNKNOWN;
        if (out === undefined) out = v;
        else if (out.k !== "inst" || out.types[0] !== v.types[0]) return UNKNOWN;
      }
      return out ?? UNKNOWN;
    } finally {
      this.returnBusy.delete(d);
    }
  }

  /**
   * What `return f(...)` / `return this.m(...)` returns: the callee must be declared in the same
   * file, so a fold that re-reads the callers of a changed file's functions sees every change
   * an inferred type depends on (incremental.ts touches those names).
   */
  private returnedCall(mod: Mod, r: LocalInfo, depth: number): Val {
    const path = parsePath(r.callReceiver !== undefined ? `${r.callReceiver}.${r.callOf}` : r.callOf!);
    if (!path) return UNKNOWN;
    let receiver: Val | undefined;
    let callee: Val;
    if (path.steps.length > 0 && path.steps[path.steps.length - 1]!.k === "prop") {
      const last = path.steps.pop() as { k: "prop"; name: string };
      receiver = this.evalPath(mod, r.scope, path, depth + 1);
      callee = this.memberVal(receiver, last.name, depth + 1);
    } else callee = this.evalPath(mod, r.scope, path, depth + 1);
    if (callee.k !== "def" || callee.d.mod !== mod) return UNKNOWN;
    // The arguments and type arguments are not recorded: no overload is chosen by them.
    return this.callResult(callee, depth + 1, receiver, undefined, true);
  }

  /**
   * The declaration whose return type a call of `d` has. Overloads (signatures sharing one key)
   * agree on it, or the argument count chooses exactly one of them (none taking optional, default
   * or rest parameters); otherwise undefined: the compiler chooses by argument types, which this
   * reader does not see, and the first overload is not a proof. The implementation beside
   * overload signatures is not what callers see.
   */
  private overloadFor(d: DefInfo, args: number | undefined, typeArgs = false): DefInfo | undefined {
    const group = d.key !== undefined ? this.overloads().get(d.key) : undefined;
    if (group === undefined) return d;
    const sigs = group.filter((x) => x.d.bodyless === true);
    const list = sigs.length > 0 ? sigs : group;
    const first = (list[0]!.d.returns ?? "").trim();
    if (list.every((x) => (x.d.returns ?? "").trim() === first)) return list[0];
    // The compiler takes the first overload the arguments fit: with every parameter list the same
    // (`string(p?: P): ZodString; string<T>(p?: P): $ZodType<T>`), that is the first, unless the
    // call passes type arguments (a non-generic overload cannot take them).
    if (!typeArgs && list.every((x) => x.d.params !== undefined && x.d.params === list[0]!.d.params)) return list[0];
    if (args === undefined || typeArgs) return undefined;
    const plain = list.every((x) => x.d.params !== undefined && x.d.arity !== undefined && !/[?=]|\.\.\./.test(x.d.params));
    if (!plain) return undefined;
    const fit = list.filter((x) => x.d.arity === args);
    return fit.length === 1 ? fit[0] : undefined;
  }

  /** Keys declared by more than one function / method definition (overloads), built on first use. */
  private overloadMemo?: Map<string, DefInfo[]>;
  private overloads(): Map<string, DefInfo[]> {
    if (this.overloadMemo) return this.overloadMemo;
    const all = new Map<string, DefInfo[]>();
    for (const mod of this.mods)
      for (const info of mod.defs) {
        if (info.key === undefined || (info.d.kind !== "function" && info.d.kind !== "method")) continue;
        const list = all.get(info.key);
        if (list) list.push(info);
        else all.set(info.key, [info]);
      }
    for (const [k, list] of all) if (list.length < 2) all.delete(k);
    this.overloadMemo = all;
    return all;
  }

  /** Evaluate a receiver chain (`this.svc`, `a.b.c`, `make().x`, `new C()`, `(x as T)`). */
  evalPath(mod: Mod, scope: number, path: PathExpr, depth = 0): Val {
    if (depth > MAX_DEPTH) return UNKNOWN;
    let v = this.evalHead(mod, scope, path.head, depth);
    let receiver: Val | undefined;
    for (const step of path.steps) {
      if (v.k === "unknown") return v;
      if (step.k === "call") {
        v = this.callResult(v, depth, receiver, step.args, step.typeArgs);
        receiver = undefined;
      } else {
        receiver = v;
        v = this.memberVal(v, step.name, depth);
      }
    }
    return v;
  }

  /** Evaluate receiver text at a scope, memoised per module, scope and text. */
  evalText(mod: Mod, scope: number, text: string): Val {
    const head = /^(?:await\s+)?([A-Za-z_$][\w$]*)/.exec(text)?.[1];
    const where = head !== undefined && mod.scopedNames.has(head) ? this.pos : -1;
    let byScope = this.valMemo[mod.idx];
    if (byScope === undefined) this.valMemo[mod.idx] = byScope = new Map();
    let byWhere = byScope.get(scope);
    if (byWhere === undefined) byScope.set(scope, (byWhere = new Map()));
    let byText = byWhere.get(where);
    if (byText === undefined) byWhere.set(where, (byText = new Map()));
    const memo = byText.get(text);
    if (memo) return memo;
    const path = this.isNarrowed(mod, scope, text) ? undefined : parsePath(text);
    const v = path ? this.evalPath(mod, scope, path) : UNKNOWN;
    byText.set(text, v);
    return v;
  }

  /** Whether the receiver (or a member expression it starts with) is narrowed in a scope around the site. */
  private isNarrowed(mod: Mod, scope: number, text: string): boolean {
    if (mod.narrowed.size === 0) return false;
    const norm = normaliseExpr(text);
    let s = scope;
    for (;;) {
      const set = mod.narrowed.get(s);
      if (set) for (const n of set) if (norm === n || norm.startsWith(`${n}.`) || norm.startsWith(`${n}(`)) return true;
      if (s < 0) return false;
      s = mod.p.defs[s]!.parent;
    }
  }

  private evalHead(mod: Mod, scope: number, head: Head, depth: number): Val {
    switch (head.k) {
      case "this":
        return this.thisVal(mod, scope);
      case "super":
        return this.superVal(mod, scope);
      case "ident":
        return this.nameVal(mod, scope, head.name, depth);
      case "new":
        return this.newVal(this.evalPath(mod, scope, head.ctor, depth + 1));
      case "cast":
        return this.typeVal(mod, scope, head.type, false, depth + 1);
    }
  }

  /** The value of reading property `name` (fields give their declared type; methods themselves). */
  memberVal(v: Val, name: string, depth: number): Val {
    if (v.k === "obj") return this.objMember(v, name, depth);
    if (v.k === "ext") return { k: "ext", key: v.isModule ? `${v.key}/${name}` : `${v.key}.${name}`, isModule: false };
    if (v.k === "builtin") return BUILTIN;
    if (v.k === "unknown") return v;
    if (v.k === "mod") return this.toVal(this.exportOf(v.mod, name));
    const m = this.member(v, name);
    if (m.k === "builtin") return BUILTIN;
    if (m.k === "ext") return { k: "ext", key: m.key, isModule: false };
    if (m.k === "fail") {
      if (v.k === "inst" && v.types.length === 1) {
        const assigned = this.thisPropVal(v.types[0]!, name, depth);
        if (assigned) return assigned;
      }
      return { k: "unknown", reason: m.reason };
    }
    const d = m.d;
    const scope = d.d.parent;
    switch (d.d.kind) {
      case "field":
      case "variable":
        if (d.d.type !== undefined) {
          const type = d.d.type;
          return this.within(d.d.start, () => this.typeVal(d.mod, scope, type, false, depth + 1));
        }
        if (d.d.valueKind === "new_expression" && d.d.valueCallee !== undefined) {
          const path = parsePath(d.d.valueCallee);
          return path ? this.newVal(this.evalPath(d.mod, scope, path, depth + 1)) : UNKNOWN;
        }
        return UNKNOWN;
      case "getter":
        if (d.d.returns === undefined) return UNKNOWN;
        {
          const returns = d.d.returns;
          return this.within(d.d.start, () => this.typeVal(d.mod, scope, returns, false, depth + 1));
        }
      default:
        return { k: "def", d };
    }
  }

  /** A property no member declares, assigned `this.x = new C()` in the constructor (JS classes and
   * constructor functions): instances of C, when every such assignment agrees. */
  private thisPropVal(t: DefInfo, prop: string, depth: number): Val | undefined {
    const mod = t.mod;
    const scopes: number[] = [];
    if (t.d.kind === "function") scopes.push(t.d.id);
    else if (t.d.kind === "class" && t.key !== undefined)
      for (const c of this.members.get(t.key)?.get("constructor") ?? []) if (c.mod === mod) scopes.push(c.d.id);
    const found: LocalInfo[] = [];
    for (const s of scopes) found.push(...(mod.locals.get(s)?.get(`this.${prop}`) ?? []));
    if (found.length === 0 || found.some((l) => l.newOf === undefined || l.newOf !== found[0]!.newOf)) return undefined;
    const path = parsePath(found[0]!.newOf!);
    return path ? this.newVal(this.evalPath(mod, found[0]!.scope, path, depth + 1)) : undefined;
  }

  // ------------------------------------------------------------------ this / super

  /** What `this` is at a scope: the class instance (or the class, in a static member), the object
   * literal or JS object a function was assigned to, or unknown where a function rebinds it. */
  thisVal(mod: Mod, scope: number): Val {
    let s = scope;
    while (s >= 0) {
      const info = mod.defs[s]!;
      const d = info.d;
      if (info.hidden) {
        const p = d.parent;
        if (p >= 0 && isOwnBody(d, mod.p.defs[p]!)) {
          s = p;
          continue;
        }
        return UNKNOWN;
      }
      if (d.object !== undefined) {
        if (d.valueKind === "arrow_function") return UNKNOWN;
        // A function that assigns `this.x` may be a constructor (the compiler reads it so in JS):
        // `this` is not proven to be the object it was assigned to.
        if (!info.proto && mod.thisAssigned.has(s)) return UNKNOWN;
        const path = info.objectPath ?? "";
        if (path === "") return UNKNOWN;
        const owner = this.byKey.get(info.container!);
        if (owner) {
          if (info.proto) return owner.d.kind === "function" || owner.d.kind === "class" ? { k: "inst", types: [owner] } : UNKNOWN;
          return { k: "def", d: owner };
        }
        if (info.proto) {
          const ctor = this.nameVal(mod, -1, path);
          return ctor.k === "def" && (ctor.d.d.kind === "function" || ctor.d.d.kind === "class") ? { k: "inst", types: [ctor.d] } : UNKNOWN;
        }
        return { k: "shape", key: info.container! };
      }
      const ownerInfo = info.owner >= 0 ? mod.defs[info.owner] : undefined;
      const memberKind = d.kind === "method" || d.kind === "constructor" || d.kind === "getter" || d.kind === "setter" || d.kind === "field";
      if (memberKind && ownerInfo && !ownerInfo.hidden) {
        const ok = ownerInfo.d.kind;
        if (ok === "class") return d.isStatic ? { k: "def", d: ownerInfo } : { k: "inst", types: [ownerInfo] };
        if (ok === "interface") return { k: "inst", types: [ownerInfo] };
        if (ok === "constant") {
          if (d.valueKind === "arrow_function") {
            s = ownerInfo.d.parent;
            continue;
          }
          return { k: "def", d: ownerInfo };
        }
        return UNKNOWN;
      }
      if (d.kind === "function") {
        if (d.valueKind === "arrow_function") {
          s = d.parent;
          continue;
        }
        if (info.key !== undefined && this.hasProtoMembers(info.key)) return { k: "inst", types: [info] };
        return UNKNOWN;
      }
      if (d.kind === "class") return { k: "inst", types: [info] };
      return UNKNOWN;
    }
    return UNKNOWN;
  }

  private hasProtoMembers(key: string): boolean {
    const byName = this.members.get(key);
    if (!byName) return false;
    for (const list of byName.values()) if (list.some((m) => m.proto)) return true;
    return false;
  }

  /** The class `this` belongs to at a scope (for `super`), and whether the member is static. */
  enclosingClass(mod: Mod, scope: number): { cls: DefInfo; isStatic: boolean } | undefined {
    const t = this.thisVal(mod, scope);
    if (t.k === "inst" && t.types.length === 1 && t.types[0]!.d.kind === "class") return { cls: t.types[0]!, isStatic: false };
    if (t.k === "def" && t.d.d.kind === "class") return { cls: t.d, isStatic: true };
    return undefined;
  }

  superVal(mod: Mod, scope: number): Val {
    const c = this.enclosingClass(mod, scope);
    if (!c) return UNKNOWN;
    const sup = this.supertypes(c.cls)[0];
    if (!sup || sup.k === "unknown") return UNKNOWN;
    if (sup.k === "ext") return { k: "ext", key: sup.key, isModule: false };
    return c.isStatic ? { k: "def", d: sup.d } : { k: "inst", types: [sup.d] };
  }

  /** Supertypes of a class (its `extends`) or interface (each `extends`), resolved where it is declared. */
  supertypes(t: DefInfo): Super[] {
    const memo = this.superMemo.get(t);
    if (memo) return memo;
    this.superMemo.set(t, []);
    const out: Super[] = [];
    const scope = t.d.parent;
    for (const text of t.d.extends ?? []) out.push(this.within(t.d.start, () => this.heritage(t.mod, scope, text, t.d.kind === "interface")));
    this.superMemo.set(t, out);
    return out;
  }

  /** Resolve an `extends` / `implements` clause entry. */
  heritage(mod: Mod, scope: number, text: string, typeSpace: boolean): Super {
    const name = text.replace(/<[\s\S]*$/, "").trim();
    if (typeSpace) {
      const v = this.typeNameVal(mod, scope, name, 0);
      if (v.k === "inst" && v.types.length === 1) return { k: "def", d: v.types[0]! };
      if (v.k === "ext") return { k: "ext", key: v.key };
      return { k: "unknown" };
    }
    const path = parsePath(name);
    if (!path || path.steps.some((s) => s.k === "call")) return { k: "unknown" };
    const v = this.evalPath(mod, scope, path);
    if (v.k === "def" && (v.d.d.kind === "class" || v.d.d.kind === "function" || v.d.d.kind === "interface")) return { k: "def", d: v.d };
    if (v.k === "ext") return { k: "ext", key: v.key };
    return { k: "unknown" };
  }

  // ------------------------------------------------------------------ types

  /** The value an annotation declares. `unwrap` reads through Promise<T> (a call's result). */
  typeVal(mod: Mod, scope: number, text: string, unwrap: boolean, depth: number): Val {
    if (depth > MAX_DEPTH) return UNKNOWN;
    const t = parseType(text);
    switch (t.k) {
      case "builtin":
        return BUILTIN;
      case "unknown":
        return UNKNOWN;
      case "union": {
        const vals = t.parts.map((p) => this.typeVal(mod, scope, typeText(p), unwrap, depth + 1));
        if (vals.every((v) => v.k === "inst")) {
          const types: DefInfo[] = [];
          for (const v of vals) for (const x of (v as { types: DefInfo[] }).types) if (!types.includes(x)) types.push(x);
          return { k: "inst", types };
        }
        if (vals.every((v) => v.k === "builtin")) return BUILTIN;
        return UNKNOWN;
      }
      case "named": {
        const head = t.name;
        if ((TRANSPARENT_GENERICS.has(head) || (unwrap && PROMISE_GENERICS.has(head))) && t.args.length > 0) {
          const shadow = this.lookupType(mod, scope, head);
          if (shadow.k === "none") return this.typeVal(mod, scope, t.args[0]!, unwrap, depth + 1);
        }
        return this.typeNameVal(mod, scope, head, depth);
      }
    }
  }

  /** A (possibly dotted) type name. */
  typeNameVal(mod: Mod, scope: number, name: string, depth: number): Val {
    const dot = name.lastIndexOf(".");
    if (dot > 0) {
      const path = parsePath(name.slice(0, dot));
      if (!path) return UNKNOWN;
      const ns = this.evalPath(mod, scope, path, depth + 1);
      const last = name.slice(dot + 1);
      if (ns.k === "mod") return this.typeOfResolved(this.exportOf(ns.mod, last), depth);
      if (ns.k === "ext") return { k: "ext", key: ns.isModule ? `${ns.key}/${last}` : `${ns.key}.${last}`, isModule: false };
      if (ns.k === "def" && ns.d.key !== undefined) {
        const m = this.members.get(ns.d.key)?.get(last);
        if (m && m.length === 1) return this.typeOfDef(m[0]!, depth);
      }
      return UNKNOWN;
    }
    const b = this.lookupType(mod, scope, name);
    switch (b.k) {
      case "def":
        return this.typeOfDef(b.d, depth);
      case "import":
        return this.typeOfResolved(this.resolveImport(mod, b.imp), depth);
      case "none":
        return BUILTIN_TYPE_NAMES.has(name) ? BUILTIN : UNKNOWN;
      default:
        return UNKNOWN;
    }
  }

  private typeOfResolved(r: Resolved, depth: number): Val {
    if (r.k === "def") return this.typeOfDef(r.d, depth);
    if (r.k === "ext") return { k: "ext", key: r.key, isModule: false };
    if (r.k === "local") {
      // A variable merged with a type of its name (`interface ZodType` beside `const ZodType = …`).
      const l = r.locals[0]!;
      const merged = this.mergedType(r.mod, l.scope, l.name);
      if (merged) return this.typeOfDef(merged, depth + 1);
    }
    return UNKNOWN;
  }

  /** The one type (interface, alias, class, enum) declared as `name` in a scope, beside a value of that name. */
  private mergedType(mod: Mod, scope: number, name: string): DefInfo | undefined {
    const types = mod.bindings.get(scope)?.get(name)?.filter((x) => TYPE_KINDS.has(x.d.kind) && x.d.kind !== "module");
    return types && types.length > 0 && distinct(types) === 1 ? types[0] : undefined;
  }

  private typeOfDef(d: DefInfo, depth: number): Val {
    switch (d.d.kind) {
      case "class":
      case "interface":
        return { k: "inst", types: [d] };
      case "type":
        if (d.d.type === undefined) return UNKNOWN;
        {
          const type = d.d.type;
          return this.within(d.d.start, () => this.typeVal(d.mod, d.d.parent, type, false, depth + 1));
        }
      default: {
        // A value merged with a type of its name (`interface $constructor` beside `function
        // $constructor`): an export or import names both, and a type position means the type.
        const merged = d.binding ? this.mergedType(d.mod, d.d.parent, d.d.name) : undefined;
        return merged && merged !== d ? this.typeOfDef(merged, depth + 1) : UNKNOWN;
      }
    }
  }

  // ------------------------------------------------------------------ members

  /** Member `name` of a value: class members (inherited through in-tree `extends`), object and
   * namespace members, JS shapes, module exports, dependency stand-ins. */
  member(v: Val, name: string): Member {
    switch (v.k) {
      case "builtin":
        return { k: "builtin" };
      case "unknown":
        return { k: "fail", reason: v.reason };
      case "ext":
        return { k: "ext", key: v.isModule ? `${v.key}/${name}` : `${v.key}.${name}` };
      case "mod": {
        const r = this.exportOf(v.mod, name);
        if (r.k === "def") return { k: "found", d: r.d, medium: false };
        if (r.k === "ext") return { k: "ext", key: r.key };
        if (r.k === "mod" && r.cjs) {
          // `exports.Route = require("./route")`: the required module's own `module.exports` value.
          const dflt = this.exportOf(r.mod, "default");
          if (dflt.k === "def") return { k: "found", d: dflt.d, medium: false };
        }
        if (r.k === "local") {
          const a = this.constAlias(r.mod, r.locals, -1);
          if (a?.k === "def") return { k: "found", d: a.d, medium: false };
          if (a?.k === "ext") return { k: "ext", key: a.key };
        }
        if (r.k === "fail") {
          if (v.cjs) {
            // A member of what `module.exports = x` assigned (a function, class or JS object).
            const dflt = this.exportOf(v.mod, "default");
            if (dflt.k === "def" || dflt.k === "local") {
              const m = this.member(this.toVal(dflt), name);
              if (m.k !== "fail") return m;
            }
          }
          return { k: "fail", reason: r.reason };
        }
        return { k: "fail", reason: REASON.dynamic };
      }
      case "shape":
        return this.ownMember(v.key, name, undefined) ?? { k: "fail", reason: REASON.notMember(v.key) };
      case "obj": {
        const m = this.objMember(v, name, 1);
        if (m.k === "def") return { k: "found", d: m.d, medium: false };
        if (m.k === "ext") return { k: "ext", key: m.key };
        if (m.k === "builtin") return { k: "builtin" };
        return { k: "fail", reason: m.k === "unknown" ? m.reason : REASON.dynamic };
      }
      case "inst":
        return this.instMember(v.types, name);
      case "def": {
        const d = v.d;
        const kind = d.d.kind;
        if (kind === "class") return this.typeMember(d, name, true);
        if (kind === "function" && (d.d.valueKind === undefined || d.d.valueKind === "function_expression") && d.key !== undefined) {
          const own = this.ownMember(d.key, name, true);
          if (own) return own;
          if (FUNCTION_MEMBERS.has(name)) return { k: "builtin" };
          return { k: "fail", reason: REASON.notMember(d.key) };
        }
        if (kind === "constant" && d.d.type !== undefined) {
          // `const ws: Handler = { open() {} }`: the compiler reads members off the declared type.
          const type = d.d.type;
          return this.member(
            this.within(d.d.start, () => this.typeVal(d.mod, d.d.parent, type, false, 1)),
            name,
          );
        }
        if ((kind === "constant" || kind === "module") && d.key !== undefined)
          return this.ownMember(d.key, name, undefined) ?? { k: "fail", reason: REASON.notMember(d.key) };
        if (CALLABLE.has(kind) && FUNCTION_MEMBERS.has(name)) return { k: "builtin" };
        return { k: "fail", reason: REASON.receiver };
      }
    }
  }

  /** Members declared directly under a container key; `isStatic` filters class/constructor members. */
  private ownMember(key: string, name: string, isStatic: boolean | undefined): Member | undefined {
    const list = this.members.get(key)?.get(name);
    if (!list) return undefined;
    const fit = isStatic === undefined ? list : list.filter((m) => memberIsStatic(m) === isStatic);
    if (fit.length === 0) return undefined;
    if (fit.length > 1) return { k: "fail", reason: REASON.ambiguous(fit.length) };
    const d = fit[0]!;
    return { k: "found", d, medium: d.mod.defs[d.owner]?.d.kind === "interface" };
  }

  private instMember(types: DefInfo[], name: string): Member {
    let out: Member | undefined;
    for (const t of types) {
      const m = this.typeMember(t, name, false);
      if (m.k !== "found") return m;
      if (out && out.k === "found" && out.d.key !== m.d.key) return { k: "fail", reason: REASON.ambiguous(types.length) };
      out = m;
    }
    return out ?? { k: "fail", reason: REASON.receiver };
  }

  /** Member of a class / interface / constructor function, searching in-tree supertypes breadth first. */
  typeMember(t: DefInfo, name: string, isStatic: boolean): Member {
    const seen = new Set<DefInfo>([t]);
    let frontier: DefInfo[] = [t];
    let ext: string | undefined;
    let incomplete = false;
    while (frontier.length > 0) {
      const found: Member[] = [];
      const next: DefInfo[] = [];
      for (const x of frontier) {
        const own = x.key !== undefined ? this.ownMember(x.key, name, x.d.kind === "interface" ? undefined : isStatic) : undefined;
        if (own) {
          found.push(own);
          continue;
        }
        for (const s of this.supertypes(x)) {
          if (s.k === "def") {
            if (!seen.has(s.d)) {
              seen.add(s.d);
              next.push(s.d);
            }
          } else if (s.k === "ext") ext ??= s.key;
          else incomplete = true;
        }
      }
      if (found.length > 0) {
        const fail = found.find((f) => f.k === "fail");
        if (fail) return fail;
        const keys = new Set(found.map((f) => (f as { d: DefInfo }).d.key));
        if (keys.size > 1) return { k: "fail", reason: REASON.ambiguous(keys.size) };
        const f = found[0] as { k: "found"; d: DefInfo; medium: boolean };
        return { k: "found", d: f.d, medium: f.medium || t.d.kind === "interface" };
      }
      frontier = next;
    }
    if (ext !== undefined) return { k: "ext", key: `${ext}.${name}` };
    if (incomplete) return { k: "fail", reason: REASON.receiver };
    return { k: "fail", reason: REASON.notMember(t.key ?? t.mod.key) };
  }
}

function memberIsStatic(m: DefInfo): boolean {
  if (m.d.object !== undefined) return !m.proto;
  return m.d.isStatic === true;
}

function distinct(defs: DefInfo[]): number {
  if (defs.length === 1) return 1;
  const keys = new Set<string | DefInfo>();
  for (const d of defs) keys.add(d.key ?? d);
  return keys.size;
}

function sameResolved(a: Resolved, b: Resolved): boolean {
  if (a.k === "def" && b.k === "def") return a.d === b.d;
  if (a.k === "mod" && b.k === "mod") return a.mod === b.mod;
  if (a.k === "ext" && b.k === "ext") return a.key === b.key;
  if (a.k === "local" && b.k === "local") return a.locals[0] === b.locals[0];
  return false;
}

/** The parameters of a parameter list as written (`(a: A, b?: B)`), split at top-level commas. */
function paramList(text: string): string[] {
  const s = text.trim();
  const inner = s.startsWith("(") && s.endsWith(")") ? s.slice(1, -1) : s;
  return splitParams(inner);
}

/** `(c: Context<E>, next: Next) => R` → its parameters; undefined when it is not a function type. */
function functionTypeParams(s: string): string[] | undefined {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === "(" || c === "<" || c === "{" || c === "[") depth++;
    else if (c === ")" || c === ">" || c === "}" || c === "]") {
      if (c === ">" && s[i - 1] === "=") continue;
      depth--;
      if (depth === 0 && c === ")") {
        const rest = s.slice(i + 1).trim();
        return rest.startsWith("=>") ? splitParams(s.slice(1, i)) : undefined;
      }
    }
  }
  return undefined;
}

function splitParams(inner: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i]!;
    if (c === "=" && inner[i + 1] === ">") {
      i++;
      continue;
    }
    if (c === "(" || c === "<" || c === "{" || c === "[") depth++;
    else if (c === ")" || c === ">" || c === "}" || c === "]") depth--;
    else if (c === "," && depth === 0) {
      out.push(inner.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = inner.slice(start).trim();
  if (last !== "") out.push(last);
  return out;
}

function typeText(t: import("./syntax.js").TypeExpr): string {
  if (t.k === "named") return t.args.length > 0 ? `${t.name}<${t.args.join(", ")}>` : t.name;
  if (t.k === "builtin") return "string";
  if (t.k === "union") return t.parts.map(typeText).join(" | ");
  return "any";
}

/**
 * A signature as written (`<T extends X = D, U>(a: T, ...b: [H, H]): R`, or a parameter list alone):
 * its type parameters (name → constraint) and its parameters. Undefined when it cannot be read.
 */
export function parseSignature(
  text: string,
): { typeParams: Map<string, string | undefined>; params: string[]; returns?: string } | undefined {
  const s = text.trim();
  const typeParams = new Map<string, string | undefined>();
  let at = 0;
  if (s.startsWith("<")) {
    const close = matchingClose(s, 0);
    if (close < 0) return undefined;
    for (const tp of splitTop(s.slice(1, close), ",")) {
      if (tp.trim() === "") continue;
      // `T extends C = D`: the default goes (`=>` inside a constraint is not a default).
      const m = /^\s*(?:const\s+|in\s+|out\s+)*([A-Za-z_$][\w$]*)(?:\s+extends\s+([\s\S]*))?$/.exec(splitTop(tp, "=")[0]!);
      if (!m) return undefined;
      typeParams.set(m[1]!, m[2]?.trim() || undefined);
    }
    at = close + 1;
  }
  const open = s.indexOf("(", at);
  if (open < 0 || s.slice(at, open).trim() !== "") return undefined;
  const close = matchingClose(s, open);
  if (close < 0) return undefined;
  const params = splitParams(s.slice(open + 1, close)).filter((p) => p.trim() !== "");
  const tail = s.slice(close + 1).trim();
  const returns = tail.startsWith(":") ? tail.slice(1).trim().replace(/;$/, "").trim() : "";
  return returns !== "" ? { typeParams, params, returns } : { typeParams, params };
}


/** `<T extends X>` of a function's or method's signature (text up to its body), or "". */
function typeParamsOf(signature: string): string {
  const open = signature.indexOf("(");
  if (open < 0) return "";
  const head = signature.slice(0, open).trimEnd();
  if (!head.endsWith(">")) return "";
  const lt = head.indexOf("<");
  if (lt < 0 || matchingClose(head, lt) !== head.length - 1) return "";
  return head.slice(lt);
}

/**
 * The declared type of the parameter argument `argIndex` of a call with `argCount` arguments is
 * passed to: undefined when that count does not fit the parameters, null when the parameter (or
 * the rest tuple's shape) is not written plainly.
 */
export function paramTypeAt(params: string[], argIndex: number, argCount: number): string | null | undefined {
  const shape = paramShape(params);
  if (shape === null) return null;
  const { list, required, max, rest } = shape;
  if (argCount < required || argCount > max) return undefined;
  if (rest !== undefined && argIndex >= rest.at) {
    const k = argIndex - rest.at;
    if (rest.elems && k < rest.elems.length) return rest.elems[k];
    return rest.elem !== undefined && rest.elem.trim() !== "" ? rest.elem : undefined;
  }
  const p = list[argIndex]?.trim();
  if (p === undefined) return undefined;
  const colon = topColon(p);
  if (colon < 0) return null;
  const t = p.slice(colon + 1);
  const eq = topEquals(t);
  return (eq >= 0 ? t.slice(0, eq) : t).trim() || null;
}

/** Whether a call with `argCount` arguments fits the parameters; null when that is not readable. */
export function argCountFits(params: string[], argCount: number): boolean | null {
  const shape = paramShape(params);
  return shape === null ? null : argCount >= shape.required && argCount <= shape.max;
}

/** The parameters (a `this` parameter dropped), how many are required, how many fit, the rest parameter. */
function paramShape(
  params: string[],
): { list: string[]; required: number; max: number; rest?: { at: number; elems?: string[]; elem?: string } } | null {
  const list = params[0] !== undefined && /^this\s*:/.test(params[0].trim()) ? params.slice(1) : params;
  let required = 0;
  let max = list.length;
  let rest: { at: number; elems?: string[]; elem?: string } | undefined;
  for (let i = 0; i < list.length; i++) {
    const p = list[i]!.trim();
    const colon = topColon(p);
    const name = colon < 0 ? p : p.slice(0, colon).trim();
    if (name.startsWith("...")) {
      if (i !== list.length - 1 || colon < 0) return null;
      const t = p.slice(colon + 1).trim();
      if (t.startsWith("[") && matchingClose(t, 0) === t.length - 1) {
        const elems = splitTop(t.slice(1, -1), ",").map((e) => e.trim().replace(/^(\.\.\.)?[A-Za-z_$][\w$]*\s*:\s*/, "$1")).filter((e) => e !== "");
        if (elems.some((e) => /^[A-Za-z_$][\w$]*\?\s*:/.test(e) || e.endsWith("?"))) return null;
        // `[A, B, ...C[]]`: a rest element may close the tuple only.
        const tail = elems[elems.length - 1]?.startsWith("...") ? arrayElement(elems.pop()!.slice(3).trim()) : undefined;
        if (tail === null || elems.some((e) => e.startsWith("..."))) return null;
        rest = { at: i, elems, ...(tail !== undefined ? { elem: tail } : {}) };
        max = tail !== undefined ? Number.POSITIVE_INFINITY : i + elems.length;
        required = Math.max(required, i + elems.length);
      } else {
        const elem = arrayElement(t);
        if (elem === null) return null;
        rest = { at: i, elem };
        max = Number.POSITIVE_INFINITY;
      }
      break;
    }
    const optional = name.endsWith("?") || (colon < 0 ? p.includes("=") : topEquals(p.slice(colon + 1)) >= 0);
    if (!optional) required = i + 1;
  }
  return rest !== undefined ? { list, required, max, rest } : { list, required, max };
}

/** Index of the first top-level `:` of a parameter (after its name or pattern), or -1. */
function topColon(p: string): number {
  let depth = 0;
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === "{" || c === "[" || c === "(" || c === "<") depth++;
    else if (c === "}" || c === "]" || c === ")" || c === ">") depth--;
    else if (c === ":" && depth === 0) return i;
  }
  return -1;
}

/** Index of a top-level `=` that is a default (not `=>`, `==`), or -1. */
function topEquals(t: string): number {
  let depth = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t[i]!;
    if (c === "{" || c === "[" || c === "(" || c === "<") depth++;
    else if (c === "}" || c === "]" || c === ")" || (c === ">" && t[i - 1] !== "=")) depth--;
    else if (c === "=" && depth === 0 && t[i + 1] !== ">" && t[i + 1] !== "=" && t[i - 1] !== "=" && t[i - 1] !== "!") return i;
  }
  return -1;
}

/** `Promise<T>` → `T`; anything else as it is. */
function unwrapPromise(t: string): string {
  const m = /^Promise\s*<([\s\S]*)>$/.exec(t);
  return m && matchingClose(t, t.indexOf("<")) === t.length - 1 ? m[1]!.trim() : t;
}

/**
 * The declared type of member `prop` of an object type literal (`{ status: ParseStatus; ctx: C }`):
 * undefined when `text` is not one, null when it is but the member is not written as `prop: T`
 * (absent, optional, a method, an index signature could hold it).
 */
export function literalMemberType(text: string, prop: string): string | null | undefined {
  const t = text.trim();
  if (!t.startsWith("{") || matchingClose(t, 0) !== t.length - 1) return undefined;
  let found: string | null = null;
  for (const raw of splitTop(t.slice(1, -1).replace(/;/g, ","), ",")) {
    const m = raw.trim();
    if (m === "") continue;
    if (m.startsWith("[")) return null;
    const colon = topColon(m);
    if (colon < 0) continue;
    const name = m.slice(0, colon).trim().replace(/^readonly\s+/, "").replace(/^(["'])(.*)\1$/, "$2");
    if (name !== prop) continue;
    if (found !== null) return null;
    found = m.slice(colon + 1).trim() || null;
  }
  return found;
}

/** A type no function is assignable to (`string`, a literal, a type parameter constrained to one). */
function primitiveType(text: string, typeParams: ReadonlyMap<string, string | undefined>, depth = 0): boolean {
  const t = text.trim();
  if (depth < 4 && typeParams.has(t)) {
    const c = typeParams.get(t);
    return c !== undefined && primitiveType(c, typeParams, depth + 1);
  }
  if (/^(?:string|number|boolean|bigint|symbol|undefined|null|void|never)$/.test(t) || /^["'`\d-]/.test(t)) return true;
  const parts = splitTop(t, "|");
  return parts.length > 1 && parts.every((p) => primitiveType(p, typeParams, depth + 1));
}

/** The element type of `T[]`, `Array<T>`, `ReadonlyArray<T>`; null for anything else. */
function arrayElement(t: string): string | null {
  const s = t.trim();
  if (s.endsWith("[]")) {
    const e = s.slice(0, -2).trim();
    return e.startsWith("(") && matchingClose(e, 0) === e.length - 1 ? e.slice(1, -1) : e;
  }
  const arr = /^(?:Readonly)?Array\s*<([\s\S]*)>$/.exec(s);
  return arr ? arr[1]! : null;
}
