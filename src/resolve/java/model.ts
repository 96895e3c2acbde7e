// The Java program model the binder works on: one JFile per partial (package, imports, keys of its
// definitions, locals by scope), one JType per class-like definition (members by name, nested
// types, supertypes resolved lazily), and the global tables (types by qualified name, packages).
// Keys are Java qualified names; overloads are told apart by arity, then by parameter types.
import type { Def, Local, Partial, Ref } from "../../model/partial.js";
import { cleanType, lastSegment, splitTop, stripAnnotations } from "./text.js";

export type TypeKind = "class" | "interface" | "enum" | "record" | "annotation" | "anonymous" | "constant";

/** What a definition is to the resolver. */
export type Role = "package" | "typeparam" | "type" | "member" | "param" | "none";

export interface JMember {
  key: string;
  file: JFile;
  def: Def;
  owner: JType;
  /** method | constructor | field | constant */
  kind: "method" | "constructor" | "field" | "constant";
  arity: number;
  varargs: boolean;
  /** Erased simple parameter types as written (`*` for a type variable). */
  params: string[];
  isStatic: boolean;
  isAbstract: boolean;
}

export interface JType {
  key: string;
  file: JFile;
  def: Def;
  kind: TypeKind;
  /** Lexically enclosing type, if any. */
  outer?: JType;
  /** Methods, constructors, fields and enum constants by simple name. */
  members: Map<string, JMember[]>;
  /** Member types by simple name. */
  nested: Map<string, JType>;
  /** Supertypes as written: the superclass first (when declared), then interfaces. */
  superTexts: string[];
  /** Index of the superclass in superTexts, -1 when none is declared. */
  superclassAt: number;
  /** Resolved supertypes, filled lazily by the model. */
  supers?: SuperRef[];
}

/** A supertype as resolved; `text` is the supertype as written. */
export type SuperRef =
  | { k: "tree"; t: JType; isClass: boolean; by: string; text: string }
  | { k: "ext"; fqn: string; isClass: boolean; by: string; conf: "high" | "medium"; text: string }
  | { k: "none"; isClass: boolean; text: string };

/** A binding merged from the local captures at one declarator. */
export interface JLocal {
  name: string;
  scope: number;
  at: number;
  line: number;
  end?: number;
  type?: string;
  newOf?: string;
  callOf?: string;
  callReceiver?: string;
  isParam: boolean;
}

export interface JImport {
  /** Dotted name as written, whitespace removed (without `.*`). */
  name: string;
  wildcard: boolean;
  isStatic: boolean;
  line: number;
}

export interface JFile {
  idx: number;
  p: Partial;
  pkg: string;
  role: Role[];
  /** Node key per definition; undefined for definitions that are not nodes. */
  keys: (string | undefined)[];
  /** Parent used for keys and containment: further declarators of `int a, b;` move up to the type. */
  parent: number[];
  children: number[][];
  /** Type parameters (definition indexes) declared by a definition (`<T, U>`). */
  typeParams: Map<number, number[]>;
  /** Class-like definition → its type. */
  types: Map<number, JType>;
  imports: JImport[];
  /** Single-type imports: simple name → qualified name. */
  single: Map<string, string>;
  /** On-demand imports: package or type names. */
  wild: string[];
  /** Single static imports: member name → owner type names. */
  staticSingle: Map<string, string[]>;
  /** Static on-demand imports: owner type names. */
  staticWild: string[];
  /** Locals by `${scope}\0${name}`, ordered by position. */
  locals: Map<string, JLocal[]>;
  /** Parameter definitions by method / constructor, in order. */
  params: Map<number, Def[]>;
  /** Call references by scope, ordered by position (to find the call that initialises a `var`). */
  callsByScope: Map<number, number[]>;
}

/** Per-file preparation: roles, parents, imports, locals. Keys come later, once types are known. */
export function prepareFile(p: Partial, idx: number): JFile {
  const n = p.defs.length;
  const role: Role[] = new Array(n).fill("none");
  let pkg = "";
  for (const d of p.defs) {
    if (d.kind === "module") {
      role[d.id] = "package";
      if (d.parent < 0 && !pkg) pkg = d.name.replace(/\s+/g, "");
    } else if (d.kind === "type") role[d.id] = "typeparam";
    else if (d.kind === "class" || d.kind === "interface" || d.kind === "enum") role[d.id] = "type";
    else if (d.kind === "method" || d.kind === "constructor" || d.kind === "field" || d.kind === "constant")
      role[d.id] = "member";
  }
  // Parameters are definitions (so a partial without locals still has them), never nodes.
  for (const d of p.defs) {
    const k = d.kind === "variable" && d.parent >= 0 ? p.defs[d.parent]!.kind : undefined;
    if (k === "method" || k === "constructor") role[d.id] = "param";
  }
  const parent = p.defs.map((d) => d.parent);
  for (const d of p.defs) {
    // `int a, b;`: the second declarator's range lies inside the first's.
    if (d.kind === "field" && d.parent >= 0 && p.defs[d.parent]!.kind === "field") parent[d.id] = p.defs[d.parent]!.parent;
  }
  const children: number[][] = p.defs.map(() => []);
  for (const d of p.defs) if (parent[d.id]! >= 0) children[parent[d.id]!]!.push(d.id);
  const typeParams = new Map<number, number[]>();
  for (const d of p.defs) {
    if (role[d.id] !== "typeparam" || d.parent < 0) continue;
    const list = typeParams.get(d.parent);
    if (list) list.push(d.id);
    else typeParams.set(d.parent, [d.id]);
  }

  const imports: JImport[] = [];
  const single = new Map<string, string>();
  const wild: string[] = [];
  const staticSingle = new Map<string, string[]>();
  const staticWild: string[] = [];
  for (const imp of p.imports) {
    const name = imp.source.replace(/\s+/g, "").replace(/\.\*$/, "");
    if (!name) continue;
    const wildcard = imp.wildcard === true;
    const isStatic = imp.isStatic === true;
    imports.push({ name, wildcard, isStatic, line: imp.line });
    if (isStatic) {
      if (wildcard) staticWild.push(name);
      else {
        const i = name.lastIndexOf(".");
        if (i > 0) {
          const member = name.slice(i + 1);
          const list = staticSingle.get(member) ?? [];
          list.push(name.slice(0, i));
          staticSingle.set(member, list);
        }
      }
    } else if (wildcard) wild.push(name);
    else single.set(lastSegment(name), name);
  }

  const merged = new Map<string, JLocal>();
  for (const l of p.locals) {
    // A parameter's own definition encloses its binding: the binding belongs to the method.
    if (l.scope >= 0 && role[l.scope] === "param") mergeLocal(merged, { ...l, scope: p.defs[l.scope]!.parent });
    else mergeLocal(merged, l);
  }
  const locals = new Map<string, JLocal[]>();
  for (const l of merged.values()) {
    const k = `${l.scope}\u0000${l.name}`;
    const list = locals.get(k) ?? [];
    list.push(l);
    locals.set(k, list);
  }
  for (const list of locals.values()) list.sort((a, b) => a.at - b.at);
  const params = new Map<number, Def[]>();
  for (const d of p.defs) {
    if (role[d.id] !== "param") continue;
    const list = params.get(d.parent) ?? [];
    list.push(d);
    params.set(d.parent, list);
  }

  const callsByScope = new Map<number, number[]>();
  p.refs.forEach((r: Ref, i) => {
    if (r.kind !== "call") return;
    const list = callsByScope.get(r.scope) ?? [];
    list.push(i);
    callsByScope.set(r.scope, list);
  });

  return {
    idx,
    p,
    pkg,
    role,
    keys: new Array(n).fill(undefined),
    parent,
    children,
    typeParams,
    types: new Map(),
    imports,
    single,
    wild,
    staticSingle,
    staticWild,
    locals,
    params,
    callsByScope,
  };
}

function mergeLocal(into: Map<string, JLocal>, l: Local): void {
  const k = `${l.scope}\u0000${l.at}\u0000${l.name}`;
  let m = into.get(k);
  if (!m) {
    m = { name: l.name, scope: l.scope, at: l.at, line: l.line, isParam: l.isParam === true };
    into.set(k, m);
  }
  if (l.end !== undefined) m.end = m.end === undefined ? l.end : Math.min(m.end, l.end);
  if (l.type && l.type !== "var" && !m.type) m.type = l.type;
  if (l.newOf && !m.newOf) m.newOf = l.newOf;
  if (l.callOf && !m.callOf) {
    m.callOf = l.callOf;
    if (l.callReceiver) m.callReceiver = l.callReceiver;
  }
  if (l.isParam) m.isParam = true;
}

/** Modifier keywords and annotations captured as `@decorator`. */
export interface Modifiers {
  annotations: string[];
  visibility?: string;
  isStatic: boolean;
  isAbstract: boolean;
  isDefault: boolean;
}

export function modifiersOf(d: Def): Modifiers {
  const m: Modifiers = { annotations: [], isStatic: false, isAbstract: false, isDefault: false };
  for (const x of d.decorators ?? []) {
    if (x.startsWith("@")) m.annotations.push(x);
    else if (x === "public" || x === "private" || x === "protected") m.visibility = x;
    else if (x === "static") m.isStatic = true;
    else if (x === "abstract") m.isAbstract = true;
    else if (x === "default") m.isDefault = true;
  }
  return m;
}

export function typeKindOf(d: Def): TypeKind {
  if (d.kind === "interface") return d.type === "@interface" ? "annotation" : "interface";
  if (d.kind === "enum") return "enum";
  if (d.type === "record") return "record";
  if (d.type === "new") return "anonymous";
  return "class";
}

/** Parameter types of a method or constructor as written, from its parameter definitions. */
export function paramTypes(f: JFile, d: Def): string[] {
  return (f.params.get(d.id) ?? []).map((x) => x.type ?? "?");
}

/** Erased simple name of a parameter type as written, for overload keys and override checks. */
export function paramKey(t: string, typeVars: ReadonlySet<string>): string {
  // A spread parameter is captured whole (`final String... args`): drop its name.
  let s = t.includes("...") ? t.slice(0, t.lastIndexOf("...") + 3) : t;
  s = cleanType(stripAnnotations(s));
  const arr = /(\[\]|\.\.\.)+$/.exec(s)?.[0] ?? "";
  const base = lastSegment(s.slice(0, s.length - arr.length));
  return `${typeVars.has(base) ? "*" : base}${arr}`;
}

/** Supertypes as written for a type definition: superclass first, then interfaces. */
export function superTextsOf(d: Def, kind: TypeKind): { texts: string[]; superclassAt: number } {
  const texts: string[] = [];
  let superclassAt = -1;
  const ext = (d.extends ?? []).flatMap((x) => splitTop(x));
  const impl = (d.implements ?? []).flatMap((x) => splitTop(x));
  if (kind === "interface" || kind === "annotation") texts.push(...ext);
  else if (kind === "anonymous") texts.push(...ext);
  else {
    if (ext.length > 0) {
      superclassAt = 0;
      texts.push(ext[0]!);
    }
    texts.push(...impl);
  }
  return { texts, superclassAt };
}
