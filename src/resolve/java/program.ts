// The Java program over all partials of a plane: key assignment, type-name resolution (scope,
// imports, package, java.lang, qualified names), member lookup through the in-tree hierarchy with
// overload choice by arity, and the binding of every call, `new`, value and type reference.
// Every lookup is a map access or a walk bounded by nesting depth / hierarchy height, so the whole
// pass is linear in the number of references. Memo tables only cache pure results.
import type { Props } from "../../model/facts.js";
import type { Def, Partial, Ref } from "../../model/partial.js";
import { type Confidence, type FactBuilder, LABEL_OF_KIND, defProps } from "../common.js";
import {
  type JFile,
  type JLocal,
  type JMember,
  type JType,
  type SuperRef,
  modifiersOf,
  paramKey,
  paramTypes,
  prepareFile,
  superTextsOf,
  typeKindOf,
} from "./model.js";
import { isListedPackage, jdkDeclares } from "./jdk.js";
import { hasLombokAccessors, logFieldName, loggerType, lombokLogNames } from "./lombok.js";
import {
  ENUM_METHODS,
  JAVA_LANG,
  OBJECT_METHODS,
  PRIMITIVES,
  cleanType,
  identPath,
  isCapitalised,
  lastSegment,
  typeNamesIn,
} from "./text.js";

/** A type as the source proves it. `by` is the rule that resolved the name. */
export type RType =
  | { k: "tree"; t: JType; by: string; conf: Confidence }
  | { k: "ext"; fqn: string; by: string; conf: Confidence }
  | { k: "var"; bound?: string; f: JFile; scope: number }
  | { k: "array" }
  | { k: "prim" }
  | { k: "none"; reason: string };

/** The outcome of binding one call site. */
type Outcome =
  | { k: "tree"; key: string; member?: JMember; by: string; conf: Confidence }
  | { k: "ext"; fqn: string; by: string; conf: Confidence }
  | { k: "fail"; reason: string }
  | { k: "skip" };

type Lookup =
  | { k: "member"; m: JMember; conf: Confidence }
  | { k: "ext"; fqn: string; conf: Confidence }
  | { k: "fail"; reason: string };

interface Hier {
  open: boolean;
  /** A supertype whose name did not resolve: which type supplies a missing member is unknown. */
  unknown: boolean;
  /** Nearest external superclass on the superclass chain. */
  extClass?: string;
  /** Every external supertype reached. */
  exts: string[];
}

type VarHit =
  | { k: "local"; f: JFile; l: JLocal }
  | { k: "field"; m: JMember; conf: Confidence }
  | { k: "extfield"; fqn: string; conf: Confidence }
  | { k: "uncertain" }
  | { k: "none" };

const NOT_FOUND = "type not found";
const RECV_UNKNOWN = "receiver type unknown";

function min(a: Confidence, b: Confidence): Confidence {
  return a === "medium" || b === "medium" ? "medium" : "high";
}

/** Marks a call being bound (a cycle through `var` inference or call chains). */
const IN_PROGRESS = Symbol("in progress");

export class JavaProgram {
  readonly files: JFile[] = [];
  /** Named types (top-level and member types) by qualified name; the first file (by path) wins a duplicate. */
  readonly byFqn = new Map<string, JType>();
  /** Top-level types by package, then simple name. */
  readonly pkgTypes = new Map<string, Map<string, JType>>();
  readonly packages = new Set<string>();
  /** Definitions whose key another file already holds: their references are not attributed. */
  private readonly dead = new Set<string>();

  /** Per file (by idx), per ref index: the call's outcome, or IN_PROGRESS while it is being bound. */
  private readonly callMemo: (Outcome | typeof IN_PROGRESS)[][] = [];
  private readonly namesMemo = new Map<string, string[]>();
  /** Resolved types per file, then scope, then text as written. */
  private readonly typeMemo: Map<number, Map<string, RType>>[] = [];
  private readonly methodsMemo = new Map<JType, Map<string, JMember[]>>();
  private readonly hierMemo = new Map<JType, Hier>();
  private readonly varTypeMemo = new Map<JLocal, RType>();

  /** `lombok.log.fieldName` by directory. */
  private readonly logNames: Map<string, string>;

  constructor(
    private readonly partials: Partial[],
    private readonly fb: FactBuilder,
    manifests: Map<string, string> = new Map(),
  ) {
    this.logNames = lombokLogNames(manifests);
  }

  // ------------------------------------------------------------------ phase 1: the model

  build(): void {
    this.partials.forEach((p, i) => {
      const f = prepareFile(p, i);
      this.files.push(f);
      this.packages.add(f.pkg);
    });
    for (const f of this.files) this.assignKeys(f);
    // Supertypes resolved once, in file order, so results never depend on who asked first.
    for (const f of this.files) for (const t of f.types.values()) this.supers(t);
  }

  private nearestKeyed(f: JFile, i: number): number {
    let d = i;
    while (d >= 0 && f.keys[d] === undefined) d = f.parent[d]!;
    return d;
  }

  private nearestType(f: JFile, i: number): JType | undefined {
    for (let d = i; d >= 0; d = f.p.defs[d]!.parent) {
      const t = f.types.get(d);
      if (t) return t;
    }
    return undefined;
  }

  private assignKeys(f: JFile): void {
    const defs = f.p.defs;
    const anonCount = new Map<JType, number>();
    // Members and member types of one name under one parent, for overload keys.
    const groups = new Map<string, number[]>();
    for (const d of defs) {
      const role = f.role[d.id];
      if (role !== "member" && role !== "type") continue;
      const g = `${f.parent[d.id]}\u0000${d.name}`;
      const list = groups.get(g);
      if (list) list.push(d.id);
      else groups.set(g, [d.id]);
    }
    for (const d of defs) {
      const role = f.role[d.id];
      const par = f.parent[d.id]!;
      if (role === "type") {
        const kind = typeKindOf(d);
        let key: string;
        let outer: JType | undefined;
        if (kind === "anonymous") {
          outer = this.nearestType(f, d.parent);
          if (!outer) continue;
          const n = (anonCount.get(outer) ?? 0) + 1;
          anonCount.set(outer, n);
          key = `${outer.key}$${n}`;
        } else if (par < 0) key = f.pkg ? `${f.pkg}.${d.name}` : d.name;
        else {
          const pk = this.nearestKeyed(f, par);
          if (pk < 0) continue;
          outer = this.nearestType(f, par);
          key = `${f.keys[pk]}.${d.name}`;
        }
        const st = superTextsOf(d, kind);
        const t: JType = {
          key,
          file: f,
          def: d,
          kind,
          members: new Map(),
          nested: new Map(),
          superTexts: st.texts,
          superclassAt: st.superclassAt,
        };
        if (outer) t.outer = outer;
        f.keys[d.id] = key;
        f.types.set(d.id, t);
        const direct = par >= 0 ? f.types.get(par) : undefined;
        if (direct && kind !== "anonymous" && !direct.nested.has(d.name)) direct.nested.set(d.name, t);
        const named = kind !== "anonymous" && (par < 0 || (direct !== undefined && this.byFqn.get(direct.key) === direct));
        if (named) {
          if (this.byFqn.has(key)) this.dead.add(`${f.idx}:${d.id}`);
          else this.byFqn.set(key, t);
          if (par < 0) {
            const m = this.pkgTypes.get(f.pkg) ?? new Map<string, JType>();
            if (!m.has(d.name)) m.set(d.name, t);
            this.pkgTypes.set(f.pkg, m);
          }
        }
        if (par >= 0 && this.dead.has(`${f.idx}:${par}`)) this.dead.add(`${f.idx}:${d.id}`);
        continue;
      }
      if (role !== "member" || par < 0) continue;
      let owner = f.types.get(par);
      if (!owner && f.role[par] === "member" && defs[par]!.kind === "constant") owner = this.constantType(f, par);
      if (!owner || f.keys[par] === undefined) continue;
      const key = `${f.keys[par]}.${this.memberName(f, d, owner, groups.get(`${par}\u0000${d.name}`) ?? [d.id])}`;
      f.keys[d.id] = key;
      if (this.dead.has(`${f.idx}:${par}`)) this.dead.add(`${f.idx}:${d.id}`);
      const mods = modifiersOf(d);
      const kind = d.kind === "constructor" ? "constructor" : d.kind === "field" ? "field" : d.kind === "constant" ? "constant" : "method";
      const typeVars = this.typeVarsAt(f, d.id);
      const ptypes = paramTypes(f, d);
      const arity = this.arityOf(f, d, owner);
      const iface = owner.kind === "interface" || owner.kind === "annotation";
      const m: JMember = {
        key,
        file: f,
        def: d,
        owner,
        kind,
        arity,
        varargs: ptypes.length > 0 && ptypes[ptypes.length - 1]!.includes("..."),
        params: ptypes.map((t) => paramKey(t, typeVars)),
        isStatic: mods.isStatic || kind === "constant",
        isAbstract:
          kind === "method" &&
          (mods.isAbstract || (iface && !mods.isDefault && !mods.isStatic && mods.visibility !== "private")),
      };
      const list = owner.members.get(d.name) ?? [];
      list.push(m);
      owner.members.set(d.name, list);
    }
  }

  /** An enum constant with a body is a class of its own (its methods live there). */
  private constantType(f: JFile, i: number): JType | undefined {
    const existing = f.types.get(i);
    if (existing) return existing;
    const enumType = f.types.get(f.parent[i]!);
    const key = f.keys[i];
    if (!enumType || key === undefined) return undefined;
    const t: JType = {
      key,
      file: f,
      def: f.p.defs[i]!,
      kind: "constant",
      outer: enumType,
      members: new Map(),
      nested: new Map(),
      superTexts: [],
      superclassAt: -1,
      supers: [{ k: "tree", t: enumType, isClass: true, by: "scope", text: enumType.def.name }],
    };
    f.types.set(i, t);
    return t;
  }

  private arityOf(f: JFile, d: Def, owner: JType): number {
    if (d.arity !== undefined && d.kind !== "constant") return d.arity;
    if (d.kind === "constructor" && owner.kind === "record") return owner.def.arity ?? 0;
    return f.params.get(d.id)?.length ?? 0;
  }

  /** Type variables visible at a definition: its own and its enclosing definitions'. */
  private typeVarsAt(f: JFile, i: number): Set<string> {
    const out = new Set<string>();
    for (let d = i; d >= 0; d = f.p.defs[d]!.parent) for (const c of f.typeParams.get(d) ?? []) out.add(f.p.defs[c]!.name);
    return out;
  }

  /** `name`, or `name(N)` / `name(T1,T2)` when the type has other members of that name. */
  private memberName(f: JFile, d: Def, owner: JType, sibs: number[]): string {
    if (sibs.length <= 1 || (d.kind !== "method" && d.kind !== "constructor")) return d.name;
    const callables = sibs.filter((c) => {
      const k = f.p.defs[c]!.kind;
      return k === "method" || k === "constructor";
    });
    const arity = this.arityOf(f, d, owner);
    const same = callables.filter((c) => this.arityOf(f, f.p.defs[c]!, owner) === arity);
    if (same.length <= 1) return `${d.name}(${arity})`;
    const types = paramTypes(f, d).map((t) => paramKey(t, new Set()));
    return `${d.name}(${types.join(",")})`;
  }

  // ------------------------------------------------------------------ types

  /** Resolve a type as written at a scope (definition index) of a file. */
  resolveType(f: JFile, scope: number, text: string): RType {
    let byScope = this.typeMemo[f.idx];
    if (!byScope) byScope = this.typeMemo[f.idx] = new Map();
    let byText = byScope.get(scope);
    if (!byText) {
      byText = new Map();
      byScope.set(scope, byText);
    }
    const hit = byText.get(text);
    if (hit) return hit;
    const r = this.resolveTypeUncached(f, scope, text);
    byText.set(text, r);
    return r;
  }

  private resolveTypeUncached(f: JFile, scope: number, text: string): RType {
    let s = cleanType(text);
    if (s.startsWith("?")) s = s.replace(/^\?(extends|super)?/, "");
    if (!s || s === "?") return { k: "none", reason: NOT_FOUND };
    if (/(\[\]|\.\.\.)$/.test(s)) return { k: "array" };
    if (PRIMITIVES.has(s)) return { k: "prim" };
    if (s === "var") return { k: "none", reason: RECV_UNKNOWN };
    const segs = s.split(".").filter((x) => x !== "");
    if (segs.length === 0) return { k: "none", reason: NOT_FOUND };
    const first = this.resolveSimpleType(f, scope, segs[0]!);
    if (first) return this.walkNested(first, segs.slice(1));
    return this.resolveQualified(segs);
  }

  private walkNested(start: RType, rest: string[]): RType {
    let cur = start;
    for (const seg of rest) {
      if (cur.k === "tree") {
        const nt = this.memberType(cur.t, seg, new Set());
        if (!nt) return { k: "none", reason: NOT_FOUND };
        cur = { k: "tree", t: nt, by: cur.by, conf: cur.conf };
      } else if (cur.k === "ext") cur = { k: "ext", fqn: `${cur.fqn}.${seg}`, by: cur.by, conf: cur.conf };
      else return { k: "none", reason: NOT_FOUND };
    }
    return cur;
  }

  /** A qualified name with no simple-name meaning: the longest in-tree prefix, else a dependency. */
  private resolveQualified(segs: string[]): RType {
    for (let j = segs.length; j >= 1; j--) {
      const t = this.byFqn.get(segs.slice(0, j).join("."));
      if (t) return this.walkNested({ k: "tree", t, by: "qualified", conf: "high" }, segs.slice(j));
    }
    if (segs.length < 2 || isCapitalised(segs[0]!)) return { k: "none", reason: NOT_FOUND };
    // The package is the lower-case prefix; an in-tree package without the type is not a dependency.
    let c = segs.findIndex((x) => isCapitalised(x));
    if (c < 0) c = segs.length - 1;
    if (this.packages.has(segs.slice(0, c).join("."))) return { k: "none", reason: NOT_FOUND };
    return { k: "ext", fqn: segs.join("."), by: "qualified", conf: "high" };
  }

  /** A simple type name at a scope, by Java's rules; undefined when nothing declares it. */
  resolveSimpleType(f: JFile, scope: number, name: string): RType | undefined {
    const defs = f.p.defs;
    for (let d = scope; d >= 0; d = defs[d]!.parent) {
      for (const c of f.typeParams.get(d) ?? []) {
        if (defs[c]!.name === name) {
          const bound = defs[c]!.extends?.[0];
          return bound ? { k: "var", bound, f, scope: d } : { k: "var", f, scope: d };
        }
      }
      const t = f.types.get(d);
      if (t) {
        if (t.def.name === name && t.kind !== "anonymous" && t.kind !== "constant")
          return { k: "tree", t, by: "scope", conf: "high" };
        const nt = this.memberType(t, name, new Set());
        if (nt) return { k: "tree", t: nt, by: "scope", conf: "high" };
      } else {
        for (const c of f.children[d]!) {
          const lt = f.types.get(c);
          if (lt && lt.kind !== "anonymous" && lt.def.name === name) return { k: "tree", t: lt, by: "scope", conf: "high" };
        }
      }
    }
    for (const t of f.types.values())
      if (t.def.parent < 0 && t.def.name === name) return { k: "tree", t, by: "scope", conf: "high" };
    const imported = f.single.get(name);
    if (imported !== undefined) return this.importedType(imported);
    const same = this.pkgTypes.get(f.pkg)?.get(name);
    if (same) return { k: "tree", t: same, by: "package", conf: "high" };
    const hits: JType[] = [];
    const extWild: string[] = [];
    for (const w of f.wild) {
      const owner = this.byFqn.get(w);
      if (owner) {
        const nt = this.memberType(owner, name, new Set());
        if (nt && !hits.includes(nt)) hits.push(nt);
        continue;
      }
      const t = this.pkgTypes.get(w)?.get(name);
      if (t) {
        if (!hits.includes(t)) hits.push(t);
      } else if (!this.packages.has(w)) extWild.push(w);
    }
    if (hits.length === 1) return { k: "tree", t: hits[0]!, by: "import", conf: "high" };
    if (hits.length > 1) return { k: "none", reason: `ambiguous: ${hits.length} candidates` };
    // A compiling file sees one type of this name: a listed JDK package or java.lang that declares
    // it settles the question; a package we know nothing about is only a guess.
    const known: string[] = [];
    const unknown: string[] = [];
    for (const w of new Set(extWild)) {
      if (!isListedPackage(w)) unknown.push(w);
      else if (jdkDeclares(w, name)) known.push(w);
    }
    if (known.length === 1) return { k: "ext", fqn: `${known[0]}.${name}`, by: "import", conf: "high" };
    if (known.length > 1) return { k: "none", reason: `ambiguous: ${known.length} candidates` };
    if (JAVA_LANG.has(name)) return { k: "ext", fqn: `java.lang.${name}`, by: "import", conf: "high" };
    // Only a capitalised name is guessed into a package we know nothing about (`com` in
    // `com.acme.X` is a package, not a type of an on-demand import).
    if (!isCapitalised(name)) return undefined;
    if (unknown.length === 1) return { k: "ext", fqn: `${unknown[0]}.${name}`, by: "import", conf: "medium" };
    if (unknown.length > 1) return { k: "none", reason: `ambiguous: ${unknown.length} candidates` };
    return undefined;
  }

  /** The target of a single-type import (`import a.b.C;`, `import a.b.Outer.Inner;`). */
  private importedType(fqn: string): RType {
    const t = this.byFqn.get(fqn);
    if (t) return { k: "tree", t, by: "import", conf: "high" };
    const segs = fqn.split(".");
    const r = this.resolveQualified(segs);
    if (r.k === "tree") return { ...r, by: "import" };
    if (r.k === "ext") return { ...r, by: "import" };
    return { k: "none", reason: `unresolved import ${fqn}` };
  }

  /** A member type of `t` or of its in-tree supertypes. */
  private memberType(t: JType, name: string, seen: Set<JType>): JType | undefined {
    const own = t.nested.get(name);
    if (own) return own;
    if (seen.has(t)) return undefined;
    seen.add(t);
    for (const s of this.supers(t)) {
      if (s.k !== "tree") continue;
      const nt = this.memberType(s.t, name, seen);
      if (nt) return nt;
    }
    return undefined;
  }

  /** Supertypes of a type, resolved once (a cycle, which Java forbids, yields none). */
  supers(t: JType): SuperRef[] {
    if (t.supers) return t.supers;
    t.supers = [];
    const out: SuperRef[] = [];
    const scope = t.def.parent;
    t.superTexts.forEach((text, i) => {
      const r = this.resolveType(t.file, scope, text);
      const declaredClass = i === t.superclassAt;
      if (r.k === "tree") {
        const isClass = t.kind === "anonymous" ? r.t.kind !== "interface" && r.t.kind !== "annotation" : declaredClass;
        out.push({ k: "tree", t: r.t, isClass, by: r.by, text });
      } else if (r.k === "ext") {
        if (r.fqn === "java.lang.Object") return;
        out.push({ k: "ext", fqn: r.fqn, isClass: declaredClass || t.kind === "anonymous", by: r.by, conf: r.conf, text });
      } else out.push({ k: "none", isClass: declaredClass, text });
    });
    t.supers = out;
    return out;
  }

  private superclass(t: JType): SuperRef | undefined {
    return this.supers(t).find((s) => s.isClass);
  }

  /** Whether the hierarchy leaves the tree, and through which external types. */
  hier(t: JType): Hier {
    const hit = this.hierMemo.get(t);
    if (hit) return hit;
    const h: Hier = { open: false, unknown: false, exts: [] };
    const seen = new Set<JType>([t]);
    const queue = [t];
    while (queue.length > 0) {
      const u = queue.shift()!;
      for (const s of this.supers(u)) {
        if (s.k === "tree") {
          if (!seen.has(s.t)) {
            seen.add(s.t);
            queue.push(s.t);
          }
        } else {
          h.open = true;
          if (s.k === "ext" && !h.exts.includes(s.fqn)) h.exts.push(s.fqn);
          if (s.k === "none") h.unknown = true;
        }
      }
    }
    let u: JType | undefined = t;
    const chain = new Set<JType>();
    while (u && !chain.has(u)) {
      chain.add(u);
      const sc = this.superclass(u);
      if (!sc) break;
      if (sc.k === "ext") h.extClass = sc.fqn;
      u = sc.k === "tree" ? sc.t : undefined;
    }
    this.hierMemo.set(t, h);
    return h;
  }

  /** Methods named `name` in `t` and its in-tree supertypes, most derived first, overridden ones dropped. */
  methodsNamed(t: JType, name: string): JMember[] {
    let byName = this.methodsMemo.get(t);
    if (!byName) {
      byName = new Map();
      this.methodsMemo.set(t, byName);
    }
    const hit = byName.get(name);
    if (hit) return hit;
    const out: JMember[] = [];
    const seen = new Set<JType>([t]);
    const queue = [t];
    while (queue.length > 0) {
      const u = queue.shift()!;
      for (const m of u.members.get(name) ?? []) {
        if (m.kind !== "method") continue;
        if (out.some((o) => overrides(o, m))) continue;
        out.push(m);
      }
      for (const s of this.supers(u))
        if (s.k === "tree" && !seen.has(s.t)) {
          seen.add(s.t);
          queue.push(s.t);
        }
    }
    byName.set(name, out);
    return out;
  }

  /** A field or enum constant named `name` in `t` or its in-tree supertypes. */
  fieldOf(t: JType, name: string): JMember | undefined {
    const seen = new Set<JType>([t]);
    const queue = [t];
    while (queue.length > 0) {
      const u = queue.shift()!;
      const f = (u.members.get(name) ?? []).find((m) => m.kind === "field" || m.kind === "constant");
      if (f) return f;
      for (const s of this.supers(u))
        if (s.k === "tree" && !seen.has(s.t)) {
          seen.add(s.t);
          queue.push(s.t);
        }
    }
    return undefined;
  }

  private constructors(t: JType): JMember[] {
    return (t.members.get(t.def.name) ?? []).filter((m) => m.kind === "constructor");
  }

  /** A method of a type by name and argument count. */
  lookupMethod(t: JType, name: string, n: number): Lookup {
    const cands = this.methodsNamed(t, name);
    const h = this.hier(t);
    if (cands.length > 0) {
      const pick = pickByArity(cands, n);
      if (pick.length === 1) {
        const m = pick[0]!;
        return { k: "member", m, conf: m.isAbstract ? "medium" : "high" };
      }
      if (pick.length > 1) return { k: "fail", reason: `ambiguous: ${pick.length} candidates` };
      if (h.open) return this.inherited(h, name);
      return { k: "fail", reason: `no overload with ${n} arguments` };
    }
    if (t.kind === "record" && n === 0) {
      const comp = (t.members.get(name) ?? []).find((m) => m.kind === "field" && !m.isStatic);
      if (comp) return { k: "member", m: comp, conf: "high" };
    }
    const generated = this.lombokAccessor(t, name, n);
    if (generated) return { k: "member", m: generated, conf: "medium" };
    if ((t.kind === "enum" || t.kind === "constant") && ENUM_METHODS.has(name))
      return { k: "ext", fqn: "java.lang.Enum", conf: "high" };
    if (h.open) return this.inherited(h, name);
    if (OBJECT_METHODS.has(name)) return { k: "ext", fqn: "java.lang.Object", conf: "high" };
    return { k: "fail", reason: "member not found" };
  }

  /**
   * A Lombok accessor the source proves: `getX()` / `isX()` / `setX(v)` on a class (or field)
   * annotated `@Data`, `@Getter`, `@Setter` or `@Value`, with a field `x`. Bound to the field.
   */
  private lombokAccessor(t: JType, name: string, n: number): JMember | undefined {
    const m = /^(get|is|set)([A-Z][\w$]*)$/.exec(name);
    if (!m || (m[1] === "set" ? n !== 1 : n !== 0)) return undefined;
    const field = m[2]!.charAt(0).toLowerCase() + m[2]!.slice(1);
    const setter = m[1] === "set";
    // The accessor is generated on the class that declares the field, and inherited from there.
    const seen = new Set<JType>([t]);
    const queue = [t];
    while (queue.length > 0) {
      const u = queue.shift()!;
      const f = (u.members.get(field) ?? []).find((x) => x.kind === "field" && !x.isStatic);
      if (f) return hasLombokAccessors(u.file, u.def, setter) || hasLombokAccessors(u.file, f.def, setter) ? f : undefined;
      for (const s of this.supers(u))
        if (s.k === "tree" && !seen.has(s.t)) {
          seen.add(s.t);
          queue.push(s.t);
        }
    }
    return undefined;
  }

  /** A member the tree does not declare, on a type whose hierarchy leaves the tree. */
  private inherited(h: Hier, name: string): Lookup {
    // With no superclass outside the tree, Object's methods are Object's (interfaces add none).
    if (OBJECT_METHODS.has(name) && !h.extClass && !h.unknown) return { k: "ext", fqn: "java.lang.Object", conf: "high" };
    const fqn = h.unknown ? undefined : (h.extClass ?? (h.exts.length === 1 ? h.exts[0] : undefined));
    if (fqn) return { k: "ext", fqn, conf: "medium" };
    return { k: "fail", reason: "inherited from outside the tree" };
  }

  // ------------------------------------------------------------------ expressions

  /** Types lexically enclosing a scope, innermost first. */
  private enclosingTypes(f: JFile, scope: number): JType[] {
    const out: JType[] = [];
    for (let d = scope; d >= 0; d = f.p.defs[d]!.parent) {
      const t = f.types.get(d);
      if (t) out.push(t);
    }
    return out;
  }

  /** A variable name at a position: locals (block-scoped), then fields of enclosing types, then static imports. */
  lookupVar(f: JFile, scope: number, at: number, name: string): VarHit {
    let passedOpen = false;
    for (let d = scope; d >= 0; d = f.p.defs[d]!.parent) {
      const list = f.locals.get(`${d}\u0000${name}`);
      if (list) {
        for (let i = list.length - 1; i >= 0; i--) {
          const l = list[i]!;
          if (l.at <= at && (l.end === undefined || at < l.end)) return { k: "local", f, l };
        }
      }
      const t = f.types.get(d);
      if (t) {
        const fm = this.fieldOf(t, name);
        if (fm) return { k: "field", m: fm, conf: passedOpen ? "medium" : "high" };
        if (name === logFieldName(this.logNames, f.p.path)) {
          const lt = loggerType(f, t.def);
          if (lt) return { k: "extfield", fqn: lt, conf: passedOpen ? "medium" : "high" };
        }
        if (this.hier(t).open) passedOpen = true;
      }
    }
    for (const owner of f.staticSingle.get(name) ?? []) {
      const ot = this.resolveQualified(owner.split("."));
      if (ot.k === "tree") {
        const fm = this.fieldOf(ot.t, name);
        if (fm) return { k: "field", m: fm, conf: passedOpen ? "medium" : "high" };
      } else if (ot.k === "ext") return { k: "extfield", fqn: `${ot.fqn}.${name}`, conf: passedOpen ? "medium" : "high" };
    }
    for (const owner of f.staticWild) {
      const ot = this.byFqn.get(owner);
      const fm = ot ? this.fieldOf(ot, name) : undefined;
      if (fm) return { k: "field", m: fm, conf: "medium" };
    }
    return passedOpen ? { k: "uncertain" } : { k: "none" };
  }

  /** The declared type of a variable. */
  private typeOfVar(v: VarHit): RType {
    if (v.k === "extfield") return { k: "ext", fqn: v.fqn, by: "import", conf: v.conf };
    if (v.k !== "local" && v.k !== "field") return { k: "none", reason: RECV_UNKNOWN };
    if (v.k === "field") {
      const m = v.m;
      let r: RType;
      if (m.kind === "constant") r = { k: "tree", t: m.owner, by: "scope", conf: "high" };
      else if (m.def.type) r = this.resolveType(m.file, m.file.parent[m.def.id]!, m.def.type);
      else r = { k: "none", reason: RECV_UNKNOWN };
      if ((r.k === "tree" || r.k === "ext") && v.conf === "medium") r = { ...r, conf: "medium" };
      return r;
    }
    const { f, l } = v;
    const hit = this.varTypeMemo.get(l);
    if (hit) return hit;
    let r: RType;
    if (l.type && l.type !== "var") r = this.resolveType(f, l.scope, l.type);
    else if (l.newOf) r = this.resolveType(f, l.scope, l.newOf);
    else if (l.callOf) r = this.typeOfInitCall(f, l);
    else r = { k: "none", reason: RECV_UNKNOWN };
    this.varTypeMemo.set(l, r);
    return r;
  }

  /** `var x = recv.m(..)`: the declared return type of the call it is initialised by. */
  private typeOfInitCall(f: JFile, l: JLocal): RType {
    for (const ri of f.callsByScope.get(l.scope) ?? []) {
      const r = f.p.refs[ri]!;
      if (r.at <= l.at || r.name !== l.callOf || (r.receiver ?? "") !== (l.callReceiver ?? "")) continue;
      return this.returnTypeOf(this.bindCall(f, ri));
    }
    return { k: "none", reason: RECV_UNKNOWN };
  }

  private returnTypeOf(o: Outcome): RType {
    if (o.k !== "tree" || !o.member) return { k: "none", reason: RECV_UNKNOWN };
    const m = o.member;
    const text = m.kind === "method" ? m.def.returns : m.kind === "field" ? m.def.type : undefined;
    if (!text) return { k: "none", reason: RECV_UNKNOWN };
    const r = this.resolveType(m.file, m.def.id, text);
    if (r.k === "tree" || r.k === "ext") return { ...r, conf: min(r.conf, o.conf) };
    return { k: "none", reason: RECV_UNKNOWN };
  }

  /** The type of a receiver expression as written; `isStatic` when it names a type. */
  typeOfExpr(f: JFile, scope: number, at: number, text: string, kind: string | undefined): { t: RType; isStatic: boolean } {
    const none = (reason = RECV_UNKNOWN) => ({ t: { k: "none", reason } as RType, isStatic: false });
    switch (kind) {
      case "string_literal":
      case "text_block":
        return { t: { k: "ext", fqn: "java.lang.String", by: "receiver", conf: "high" }, isStatic: false };
      case "class_literal":
        return { t: { k: "ext", fqn: "java.lang.Class", by: "receiver", conf: "high" }, isStatic: false };
      case "object_creation_expression": {
        const m = /^new\s+([^(]+?)\s*\(/.exec(text);
        if (!m) return none();
        return { t: this.resolveType(f, scope, m[1]!), isStatic: false };
      }
      case "parenthesized_expression": {
        const m = /^\(\s*\(\s*([\w$.<>?,\s[\]]+?)\s*\)\s*[\w$(]/.exec(text);
        if (!m) return none();
        return { t: this.resolveType(f, scope, m[1]!), isStatic: false };
      }
      case "method_invocation":
        return { t: this.typeOfCallReceiver(f, scope, at, text), isStatic: false };
      case "this": {
        const t = this.enclosingTypes(f, scope)[0];
        return t ? { t: { k: "tree", t, by: "self", conf: "high" }, isStatic: false } : none();
      }
      case "identifier":
      case "field_access":
      case "scoped_identifier": {
        const segs = identPath(text);
        return segs ? this.typeOfPath(f, scope, at, segs) : none();
      }
      default:
        return none();
    }
  }

  /** `a.b.c` where `a` is this, a variable, a type or a package. */
  private typeOfPath(f: JFile, scope: number, at: number, segs: string[]): { t: RType; isStatic: boolean } {
    let cur: RType;
    let isStatic = false;
    let i = 1;
    const s0 = segs[0]!;
    if (s0 === "this" || s0 === "super") {
      const t = this.enclosingTypes(f, scope)[0];
      if (!t) return { t: { k: "none", reason: RECV_UNKNOWN }, isStatic };
      if (s0 === "this") cur = { k: "tree", t, by: "self", conf: "high" };
      else cur = this.superRType(t);
    } else {
      const v = this.lookupVar(f, scope, at, s0);
      if (v.k === "local" || v.k === "field" || v.k === "extfield") cur = this.typeOfVar(v);
      else {
        const thisOuter = segs.length > 1 && segs[1] === "this";
        const t = v.k === "uncertain" && !isCapitalised(s0) ? undefined : this.resolveSimpleType(f, scope, s0);
        if (t) {
          cur = t;
          isStatic = true;
          if (thisOuter && t.k === "tree") {
            cur = { ...t, by: "self" };
            isStatic = false;
            i = 2;
          }
        } else {
          let found = false;
          cur = { k: "none", reason: RECV_UNKNOWN };
          for (let j = segs.length; j >= 2 && !found; j--) {
            const qt = this.byFqn.get(segs.slice(0, j).join("."));
            if (qt) {
              cur = { k: "tree", t: qt, by: "qualified", conf: "high" };
              i = j;
              isStatic = true;
              found = true;
            }
          }
          if (!found) {
            const c = segs.findIndex((x) => isCapitalised(x));
            // A package prefix; when `s0` may be a field inherited from a dependency, only a
            // prefix of two or more segments (`java.util.X`) reads as a package.
            if (c >= (v.k === "uncertain" ? 2 : 1) && !isCapitalised(s0)) {
              if (this.packages.has(segs.slice(0, c).join("."))) return { t: { k: "none", reason: NOT_FOUND }, isStatic };
              cur = { k: "ext", fqn: segs.slice(0, c + 1).join("."), by: "qualified", conf: "high" };
              i = c + 1;
              isStatic = true;
            } else if (isCapitalised(s0)) return { t: { k: "none", reason: NOT_FOUND }, isStatic };
            else return { t: { k: "none", reason: RECV_UNKNOWN }, isStatic };
          }
        }
      }
    }
    for (; i < segs.length; i++) {
      const seg = segs[i]!;
      if (cur.k === "tree") {
        if (seg === "this") {
          isStatic = false;
          continue;
        }
        if (seg === "super" && isStatic) {
          // `Iface.super.m()` names the interface; `Outer.super.m()` the outer class's superclass.
          if (cur.t.kind !== "interface") cur = this.superRType(cur.t);
          else cur = { ...cur, by: "super" };
          isStatic = false;
          continue;
        }
        const fm = this.fieldOf(cur.t, seg);
        if (fm) {
          cur = this.typeOfVar({ k: "field", m: fm, conf: cur.conf });
          isStatic = false;
          continue;
        }
        if (isStatic) {
          const nt = this.memberType(cur.t, seg, new Set());
          if (nt) {
            cur = { k: "tree", t: nt, by: cur.by, conf: cur.conf };
            continue;
          }
        }
        return { t: { k: "none", reason: RECV_UNKNOWN }, isStatic: false };
      }
      if (cur.k === "ext") {
        cur = { k: "ext", fqn: `${cur.fqn}.${seg}`, by: cur.by, conf: cur.conf };
        isStatic = isStatic && isCapitalised(seg);
        continue;
      }
      if (cur.k === "none") return { t: cur, isStatic: false };
      return { t: { k: "none", reason: RECV_UNKNOWN }, isStatic: false };
    }
    return { t: cur, isStatic };
  }

  private superRType(t: JType): RType {
    const sc = this.superclass(t);
    if (!sc) return { k: "ext", fqn: "java.lang.Object", by: "super", conf: "high" };
    if (sc.k === "tree") return { k: "tree", t: sc.t, by: "super", conf: "high" };
    if (sc.k === "ext") return { k: "ext", fqn: sc.fqn, by: "super", conf: sc.conf };
    return { k: "none", reason: NOT_FOUND };
  }

  /** `recv.m(..).n(..)`: the receiver is the call written just before; its declared return type. */
  private typeOfCallReceiver(f: JFile, scope: number, at: number, text: string): RType {
    let best: number | undefined;
    for (const ri of f.callsByScope.get(scope) ?? []) {
      const r = f.p.refs[ri]!;
      if (r.at >= at) break;
      if (!text.startsWith(r.text)) continue;
      const rest = text.slice(r.text.length).trimStart();
      if (!rest.startsWith("(") || !balancedWhole(rest)) continue;
      best = ri;
    }
    if (best === undefined) return { k: "none", reason: RECV_UNKNOWN };
    return this.returnTypeOf(this.bindCall(f, best));
  }

  // ------------------------------------------------------------------ binding

  /** Bind the call at `f.p.refs[ri]` (memoised: `var` inference and call chains reuse it). */
  bindCall(f: JFile, ri: number): Outcome {
    let memo = this.callMemo[f.idx];
    if (memo === undefined) this.callMemo[f.idx] = memo = [];
    const hit = memo[ri];
    if (hit === IN_PROGRESS) return { k: "fail", reason: RECV_UNKNOWN };
    if (hit) return hit;
    memo[ri] = IN_PROGRESS;
    const o = this.bindCallUncached(f, f.p.refs[ri]!);
    memo[ri] = o;
    return o;
  }

  private fromLookup(l: Lookup, name: string, by: string, conf: Confidence): Outcome {
    if (l.k === "member") return { k: "tree", key: l.m.key, member: l.m, by, conf: min(conf, l.conf) };
    if (l.k === "ext") return { k: "ext", fqn: `${l.fqn}.${name}`, by, conf: min(conf, l.conf) };
    return { k: "fail", reason: l.reason };
  }

  private fromType(r: RType, name: string, n: number, by: string): Outcome {
    switch (r.k) {
      case "tree":
        return this.fromLookup(this.lookupMethod(r.t, name, n), name, by, r.conf);
      case "ext":
        return { k: "ext", fqn: `${r.fqn}.${name}`, by, conf: r.conf };
      case "var": {
        if (!r.bound) return { k: "fail", reason: RECV_UNKNOWN };
        const b = this.resolveType(r.f, r.scope, r.bound);
        if (b.k === "tree" || b.k === "ext") return this.fromType({ ...b, conf: "medium" }, name, n, by);
        return { k: "fail", reason: RECV_UNKNOWN };
      }
      case "none":
        return { k: "fail", reason: r.reason };
      default:
        return { k: "fail", reason: RECV_UNKNOWN };
    }
  }

  private bindCallUncached(f: JFile, r: Ref): Outcome {
    if (!r.name) return { k: "fail", reason: "dynamic call" };
    const n = r.arity ?? 0;
    if (r.receiver === undefined) {
      if (r.name === "this" || r.name === "super") return this.bindCtorCall(f, r, n);
      return this.bindBare(f, r, n);
    }
    const encl = this.enclosingTypes(f, r.scope)[0];
    if (r.receiverKind === "this") {
      if (!encl) return { k: "fail", reason: RECV_UNKNOWN };
      return this.fromLookup(this.lookupMethod(encl, r.name, n), r.name, "self", "high");
    }
    if (r.receiverKind === "super") {
      if (!encl) return { k: "fail", reason: RECV_UNKNOWN };
      const st = this.superRType(encl);
      if (st.k === "ext" && st.fqn === "java.lang.Object" && !OBJECT_METHODS.has(r.name))
        return { k: "fail", reason: "member not found" };
      return this.fromType(st, r.name, n, "super");
    }
    if (/\.\s*super\s*\.\s*[\w$]+$/.test(r.text) && !/\.\s*super\s*\.\s*[\w$]+$/.test(`${r.receiver}.${r.name}`)) {
      // `Iface.super.m()` (the grammar keeps `super` beside the receiver `Iface`).
      const e = this.typeOfExpr(f, r.scope, r.at, `${r.receiver}.super`, "field_access");
      return this.fromType(e.t, r.name, n, "super");
    }
    const e = this.typeOfExpr(f, r.scope, r.at, r.receiver, r.receiverKind);
    const by = e.isStatic ? "class" : e.t.k === "tree" && (e.t.by === "self" || e.t.by === "super") ? e.t.by : "receiver";
    return this.fromType(e.t, r.name, n, by);
  }

  /** `this(..)` / `super(..)` in a constructor. */
  private bindCtorCall(f: JFile, r: Ref, n: number): Outcome {
    const t = this.enclosingTypes(f, r.scope)[0];
    if (!t) return { k: "fail", reason: RECV_UNKNOWN };
    let target: JType;
    const by = r.name === "this" ? "self" : "super";
    if (r.name === "this") target = t;
    else {
      const sc = this.superclass(t);
      if (!sc) return { k: "skip" };
      if (sc.k === "ext") return { k: "ext", fqn: `${sc.fqn}.${lastSegment(sc.fqn)}`, by, conf: sc.conf };
      if (sc.k === "none") return { k: "fail", reason: NOT_FOUND };
      target = sc.t;
    }
    const ctors = this.constructors(target);
    if (ctors.length === 0) return n === 0 ? { k: "skip" } : { k: "fail", reason: `no overload with ${n} arguments` };
    const pick = pickByArity(ctors, n);
    if (pick.length === 1) return { k: "tree", key: pick[0]!.key, member: pick[0]!, by, conf: "high" };
    if (pick.length > 1) return { k: "fail", reason: `ambiguous: ${pick.length} candidates` };
    return { k: "fail", reason: `no overload with ${n} arguments` };
  }

  /** `m(..)`: enclosing classes (with their in-tree ancestors), then static imports. */
  private bindBare(f: JFile, r: Ref, n: number): Outcome {
    const name = r.name;
    let passedOpen = false;
    let firstOpen: Hier | undefined;
    for (const t of this.enclosingTypes(f, r.scope)) {
      const h = this.hier(t);
      const cands = this.methodsNamed(t, name);
      if (cands.length > 0) {
        const l = this.lookupMethod(t, name, n);
        return this.fromLookup(l, name, l.k === "ext" ? "super" : "scope", passedOpen ? "medium" : "high");
      }
      const l = this.lookupMethod(t, name, n);
      if (l.k === "member") return this.fromLookup(l, name, "scope", passedOpen ? "medium" : "high");
      if (l.k === "ext" && !h.open) return this.fromLookup(l, name, "super", passedOpen ? "medium" : "high");
      if (h.open) {
        passedOpen = true;
        firstOpen ??= h;
      }
    }
    // Static imports: single ones first, then on-demand ones.
    const single = f.staticSingle.get(name) ?? [];
    const outs: Outcome[] = [];
    for (const owner of single) {
      const ot = this.resolveQualified(owner.split("."));
      if (ot.k === "none" || (ot.k === "tree" && !ot.t.members.has(name) && this.methodsNamed(ot.t, name).length === 0))
        return { k: "fail", reason: `unresolved import ${owner}.${name}` };
      if (ot.k === "tree") {
        const pick = pickByArity(this.methodsNamed(ot.t, name), n);
        for (const m of pick) outs.push({ k: "tree", key: m.key, member: m, by: "import", conf: passedOpen ? "medium" : "high" });
      } else if (ot.k === "ext")
        outs.push({ k: "ext", fqn: `${ot.fqn}.${name}`, by: "import", conf: passedOpen ? "medium" : "high" });
    }
    if (outs.length === 1) return outs[0]!;
    if (outs.length > 1) return { k: "fail", reason: `ambiguous: ${outs.length} candidates` };
    const treeHits: JMember[] = [];
    const extOwners: string[] = [];
    for (const owner of f.staticWild) {
      const ot = this.resolveQualified(owner.split("."));
      if (ot.k === "tree") treeHits.push(...pickByArity(this.methodsNamed(ot.t, name), n).filter((m) => m.isStatic));
      else if (ot.k === "ext") extOwners.push(ot.fqn);
    }
    if (treeHits.length === 1) {
      const m = treeHits[0]!;
      return { k: "tree", key: m.key, member: m, by: "import", conf: passedOpen || extOwners.length > 0 ? "medium" : "high" };
    }
    if (treeHits.length > 1) return { k: "fail", reason: `ambiguous: ${treeHits.length} candidates` };
    if (extOwners.length === 1 && !passedOpen) return { k: "ext", fqn: `${extOwners[0]}.${name}`, by: "import", conf: "medium" };
    if (extOwners.length > 1 && !passedOpen) return { k: "fail", reason: `ambiguous: ${extOwners.length} candidates` };
    if (firstOpen) return this.fromLookup(this.inherited(firstOpen, name), name, "super", "medium");
    return { k: "fail", reason: "not defined in scope" };
  }

  // ------------------------------------------------------------------ phase 2: facts

  emit(): void {
    for (const f of this.files) this.emitDefs(f);
    for (const f of this.files) this.emitRefs(f);
  }

  private srcOf(f: JFile, scope: number): string | undefined {
    const d = this.nearestKeyed(f, scope);
    if (d < 0) return f.pkg || undefined;
    if (this.dead.has(`${f.idx}:${d}`)) return undefined;
    return f.keys[d];
  }

  private edge(type: string, src: string, dst: string, line: number, ref: string, by: string, conf: Confidence): void {
    this.fb.edge(type, src, dst, { line, _ref: ref, _resolved_by: by, _confidence: conf });
  }

  private emitDefs(f: JFile): void {
    const p = f.p;
    if (f.pkg && !this.fb.has(f.pkg)) {
      const dir = p.path.includes("/") ? p.path.slice(0, p.path.lastIndexOf("/")) : ".";
      this.fb.node(f.pkg, ["Module"], { path: dir, package: f.pkg });
    }
    for (const d of p.defs) {
      const key = f.keys[d.id];
      if (key === undefined || this.dead.has(`${f.idx}:${d.id}`)) continue;
      const t = f.types.get(d.id);
      const isType = f.role[d.id] === "type";
      const label = isType ? LABEL_OF_KIND[d.kind] : d.kind === "constant" ? "Const" : LABEL_OF_KIND[d.kind];
      const props = this.propsOf(f, d, t);
      if (!this.fb.node(key, [label], props)) {
        this.dead.add(`${f.idx}:${d.id}`);
        continue;
      }
      const par = this.nearestKeyed(f, f.parent[d.id]!);
      const container = par >= 0 ? f.keys[par] : f.pkg || undefined;
      if (container) this.fb.edge("CONTAINS", container, key);
      if (d.kind === "constant") {
        // `RED("r")` runs the enum's constructor of that arity.
        const e = f.types.get(f.parent[d.id]!);
        const pick = e ? pickByArity(this.constructors(e), d.arity ?? 0) : [];
        if (pick.length === 1) this.edge("CALLS", key, pick[0]!.key, d.line, d.name, "class", "high");
      }
      if (isType && t) this.emitSupers(t, key);
      if (d.kind === "field" && d.type) this.usesTypes(f, f.parent[d.id]!, key, d.type, d.line);
      if (d.kind === "method" || d.kind === "constructor") {
        if (d.returns) this.usesTypes(f, d.id, key, d.returns, d.line);
        for (const x of f.params.get(d.id) ?? []) if (x.type) this.usesTypes(f, d.id, key, x.type.replace(/\.\.\.\s*[\w$]+$/, "..."), x.line);
      }
    }
    // IMPORTS, from each top-level type of the file.
    const tops = p.defs.filter((d) => d.parent < 0 && f.role[d.id] === "type" && !this.dead.has(`${f.idx}:${d.id}`));
    const srcs = tops.map((d) => f.keys[d.id]!).filter((k) => k !== undefined);
    if (srcs.length === 0 && f.pkg) srcs.push(f.pkg);
    for (const imp of f.imports) {
      const dst = this.importTarget(imp.name, imp.wildcard, imp.isStatic);
      const ref = `${imp.isStatic ? "static " : ""}${imp.name}${imp.wildcard ? ".*" : ""}`;
      for (const s of srcs) this.edge("IMPORTS", s, dst, imp.line, ref, "import", "high");
    }
  }

  private propsOf(f: JFile, d: Def, t: JType | undefined): Props {
    const props = defProps(f.p, d);
    const mods = modifiersOf(d);
    delete props.decorators;
    delete props.is_static;
    if (mods.annotations.length > 0) props.decorators = mods.annotations;
    const ownerType = f.types.get(f.parent[d.id]!);
    const inInterface = ownerType?.kind === "interface" || ownerType?.kind === "annotation";
    if (mods.visibility) props.visibility = mods.visibility;
    else if (t?.kind === "anonymous" || (f.role[d.id] === "type" && d.parent >= 0 && !ownerType)) delete props.visibility;
    else props.visibility = inInterface || d.kind === "constant" ? "public" : "package";
    if (mods.isStatic || d.kind === "constant") props.is_static = true;
    if (mods.isAbstract || (inInterface && d.kind === "method" && !mods.isDefault && !mods.isStatic && mods.visibility !== "private"))
      props.is_abstract = true;
    if (t) {
      delete props.type;
      if (t.kind === "record" || t.kind === "annotation" || t.kind === "anonymous") props.kind = t.kind;
      if (t.kind === "anonymous") props.signature = `new ${d.name}() {…}`;
      if (t.superTexts.length > 0) {
        const ext = t.superclassAt >= 0 ? [t.superTexts[t.superclassAt]!] : [];
        if (ext.length > 0) props.extends = ext;
      }
    }
    if (d.kind === "field" && typeof props.signature === "string") props.signature = props.signature.replace(/\s*[=;]\s*$/, "");
    if (d.kind === "method" && typeof props.signature === "string") props.signature = props.signature.replace(/\s*;\s*$/, "");
    return props;
  }

  private emitSupers(t: JType, key: string): void {
    const line = t.def.line;
    for (const text of t.superTexts) this.usesTypes(t.file, t.def.parent, key, text, line, true);
    for (const s of this.supers(t)) {
      if (s.k === "none") continue;
      const toInterface = s.k === "tree" ? s.t.kind === "interface" || s.t.kind === "annotation" : !s.isClass;
      let type: string;
      if (t.kind === "interface" || t.kind === "annotation") type = "EXTENDS";
      else if (t.kind === "anonymous") {
        // `new X() {..}` with X outside the tree: class or interface is not known.
        if (s.k === "ext") continue;
        type = toInterface ? "IMPLEMENTS" : "EXTENDS";
      } else if (t.kind === "constant") continue;
      else type = s.isClass ? "EXTENDS" : "IMPLEMENTS";
      const dst = s.k === "tree" ? s.t.key : this.fb.external(`java:${s.fqn}`);
      this.edge(type, key, dst, line, s.text, s.by, s.k === "ext" ? s.conf : "high");
    }
  }

  /** USES_TYPE from a definition to the in-tree types its declared type mentions. */
  private usesTypes(f: JFile, scope: number, src: string, text: string, line: number, argsOnly = false): void {
    let names = this.namesMemo.get(text);
    if (!names) {
      names = typeNamesIn(text);
      this.namesMemo.set(text, names);
    }
    for (const [i, name] of names.entries()) {
      if (argsOnly && i === 0) continue;
      const r = this.resolveType(f, scope, name);
      if (r.k === "tree" && r.t.key !== src) this.edge("USES_TYPE", src, r.t.key, line, text, r.by, r.conf);
    }
  }

  private importTarget(name: string, wildcard: boolean, isStatic: boolean): string {
    if (wildcard) {
      const t = this.byFqn.get(name);
      if (t) return t.key;
      if (this.packages.has(name) && name !== "") return name;
      return this.fb.external(`java:${name}`);
    }
    if (isStatic) {
      const i = name.lastIndexOf(".");
      const owner = this.byFqn.get(name.slice(0, i));
      if (owner) {
        const ms = owner.members.get(name.slice(i + 1)) ?? [];
        return ms.length === 1 ? ms[0]!.key : owner.key;
      }
      return this.fb.external(`java:${name}`);
    }
    const r = this.resolveQualified(name.split("."));
    if (r.k === "tree") return r.t.key;
    return this.fb.external(`java:${name}`);
  }

  private emitRefs(f: JFile): void {
    const p = f.p;
    // Declared local types are type uses of the enclosing definition.
    for (const list of f.locals.values())
      for (const l of list) {
        if (l.isParam || !l.type) continue;
        const src = this.srcOf(f, l.scope);
        if (src) this.usesTypes(f, l.scope, src, l.type, l.line);
      }
    p.refs.forEach((r, ri) => {
      const src = this.srcOf(f, r.scope);
      if (!src) return;
      if (r.kind === "call") this.emitCall(f, ri, r, src);
      else if (r.kind === "new") this.emitNew(f, r, src);
      else if (r.kind === "value") this.emitValue(f, r, src);
      else if (r.kind === "type") this.usesTypes(f, r.scope, src, r.name, r.line);
    });
  }

  private emitCall(f: JFile, ri: number, r: Ref, src: string): void {
    const o = this.bindCall(f, ri);
    if (o.k === "tree") this.fb.bound("CALLS", src, o.key, r, o.by, o.conf);
    else if (o.k === "ext") this.fb.bound("CALLS", src, this.fb.external(`java:${o.fqn}`), r, o.by, o.conf);
    else if (o.k === "fail") this.fb.unresolved(src, f.p.path, r, o.reason);
  }

  private emitNew(f: JFile, r: Ref, src: string): void {
    const rt = this.resolveType(f, r.scope, r.name);
    if (rt.k === "tree") {
      this.fb.bound("INSTANTIATES", src, rt.t.key, r, rt.by, rt.conf);
      const pick = pickByArity(this.constructors(rt.t), r.arity ?? 0);
      if (pick.length === 1)
        this.fb.edge("CALLS", src, pick[0]!.key, { line: r.line, col: r.col ?? 0, _ref: r.text, _resolved_by: rt.by, _confidence: rt.conf });
    } else if (rt.k === "ext") this.fb.bound("INSTANTIATES", src, this.fb.external(`java:${rt.fqn}`), r, rt.by, rt.conf);
    else this.fb.unresolved(src, f.p.path, r, rt.k === "none" ? rt.reason : NOT_FOUND);
  }

  private emitValue(f: JFile, r: Ref, src: string): void {
    if (!r.name || r.receiver === undefined) return;
    const isMethodRef = r.text.includes("::");
    let t: JType | undefined;
    let by = "receiver";
    let conf: Confidence = "high";
    if (r.receiverKind === "this") {
      t = this.enclosingTypes(f, r.scope)[0];
      by = "self";
    } else if (r.receiverKind === "super") {
      const e = this.enclosingTypes(f, r.scope)[0];
      const st = e ? this.superRType(e) : undefined;
      if (st?.k === "tree") t = st.t;
      by = "super";
    } else {
      const e = this.typeOfExpr(f, r.scope, r.at, r.receiver, r.receiverKind);
      if (e.t.k === "tree") {
        t = e.t.t;
        conf = e.t.conf;
        by = e.isStatic ? "class" : "receiver";
      }
    }
    if (!t) return;
    if (isMethodRef) {
      const ms = this.methodsNamed(t, r.name);
      if (ms.length === 1) this.fb.bound("REFERENCES", src, ms[0]!.key, r, by, min(conf, ms[0]!.isAbstract ? "medium" : "high"));
      return;
    }
    const fm = this.fieldOf(t, r.name);
    if (fm) this.fb.bound("REFERENCES", src, fm.key, r, by, conf);
  }
}

/** Java's method-applicability phases, by argument count: fixed arity first, then varargs. */
export function pickByArity(cands: JMember[], n: number): JMember[] {
  const exact = cands.filter((c) => c.arity === n);
  if (exact.length > 0) return exact;
  return cands.filter((c) => c.varargs && n >= c.arity - 1);
}

/** `a` overrides (or re-declares) `b`: same arity and parameter types, a type variable matching any. */
function overrides(a: JMember, b: JMember): boolean {
  if (a.arity !== b.arity || a.varargs !== b.varargs) return false;
  for (let i = 0; i < a.params.length; i++) {
    const x = a.params[i];
    const y = b.params[i];
    if (x === undefined || y === undefined) return a.params.length === b.params.length;
    if (x !== y && !x.startsWith("*") && !y.startsWith("*")) return false;
  }
  return true;
}

/** `(...)` spanning the whole text. */
function balancedWhole(s: string): boolean {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === "(") depth++;
    else if (c === ")") {
      depth--;
      if (depth === 0) return i === s.length - 1;
    }
  }
  return false;
}

