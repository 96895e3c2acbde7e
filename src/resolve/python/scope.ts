// Per-file tables of the python resolver: definition keys (with `self.x` fields re-parented to
// their class), normalised scopes (a reference inside an assignment belongs to the function or
// module around it), and name → bindings indexes for definitions, imports and locals.
import type { Def, Local, Partial } from "../../model/partial.js";
import type { ModuleFile } from "./modules.js";

export interface SelfAttr {
  local: Local;
  /** The method the assignment is in. */
  fn: number;
  /** Assigned in `__init__` (the declaring assignment, as a type checker reads it). */
  init: boolean;
}

export interface FileInfo {
  idx: number;
  m: ModuleFile;
  p: Partial;
  /** Module node key. */
  key: string;
  /** Node key of each definition ("" when it yields no node: docstring carriers, stray fields). */
  keys: string[];
  /** Whether this definition emits the node for its key (one definition per key). */
  owner: boolean[];
  /** Parent after re-parenting (`self.x` fields belong to the class). */
  parent: number[];
  /** Innermost function or class at or above each definition (-1: the module). */
  norm: number[];
  /** Function / class definitions by enclosing scope (a function, a class, or -1) and name. */
  children: Map<number, Map<string, number[]>>;
  /** Field / variable / constant definitions by enclosing scope and name (their node keys). */
  slots: Map<number, Map<string, number>>;
  /** Import indexes by normalised scope and the local name they bind. */
  imports: Map<number, Map<string, number[]>>;
  /** `from x import *` at module level. */
  wildcards: number[];
  /** Locals (merged per site) by normalised scope and name; `self.x` targets excluded. */
  locals: Map<number, Map<string, Local[]>>;
  /** Comprehension variables, visible in their comprehension only (`at` … `end`), by scope and name. */
  ranged: Map<number, Map<string, Local[]>>;
  /** `self.x` assignments by class and attribute. */
  selfAttrs: Map<number, Map<string, SelfAttr[]>>;
  /** First parameter of each function that has parameters. */
  firstParam: Map<number, Local>;
  /** `__all__`, when the module declares it. */
  all?: Set<string>;
  doc?: string;
}

const SLOT_KINDS: ReadonlySet<string> = new Set(["field", "variable", "constant"]);

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const l = m.get(k);
  if (l) l.push(v);
  else m.set(k, [v]);
}

function nested<K1, K2, V>(m: Map<K1, Map<K2, V[]>>, k1: K1, k2: K2, v: V): void {
  let inner = m.get(k1);
  if (!inner) {
    inner = new Map();
    m.set(k1, inner);
  }
  push(inner, k2, v);
}

/** Rank for choosing which of several definitions with one key emits its node. */
function rank(d: Def): number {
  if (d.kind !== "class" && d.kind !== "function") return 2;
  // `@overload` stubs and `if TYPE_CHECKING:` declarations describe; the implementation is the definition.
  return d.typeOnly || decorated(d, ["overload"]) ? 1 : 0;
}

/** How well a reading of an iteration says what it iterates (lower is better). */
function iterRank(l: Local): number {
  const m = l.iterMethod;
  if (m === "values" || m === "keys" || m?.includes(":")) return 0;
  return m === undefined ? 1 : 2;
}

export function buildFileInfo(idx: number, m: ModuleFile): FileInfo {
  const p = m.p;
  const n = p.defs.length;
  const keys: string[] = new Array(n).fill("");
  const parent: number[] = new Array(n).fill(-1);
  const norm: number[] = new Array(n).fill(-1);
  const owner: boolean[] = new Array(n).fill(false);
  const info: FileInfo = {
    idx,
    m,
    p,
    key: m.key,
    keys,
    owner,
    parent,
    norm,
    children: new Map(),
    slots: new Map(),
    imports: new Map(),
    wildcards: [],
    locals: new Map(),
    ranged: new Map(),
    selfAttrs: new Map(),
    firstParam: new Map(),
  };

  // Normalised scopes first (they only need the raw parents).
  const normOf = (s: number): number => {
    while (s >= 0) {
      const d = p.defs[s]!;
      if (d.kind === "function" || d.kind === "class") return s;
      s = d.parent;
    }
    return -1;
  };
  for (let i = 0; i < n; i++) norm[i] = normOf(i);

  // First parameters (real parameters come before anything in the body, lambdas included).
  for (const l of p.locals) {
    if (!l.isParam || l.scope < 0) continue;
    const d = p.defs[l.scope]!;
    if (d.kind !== "function" || !d.arity) continue;
    const prior = info.firstParam.get(l.scope);
    if (!prior || l.at < prior.at) info.firstParam.set(l.scope, l);
  }

  // Locals: merge the several readings of one site; route `self.x` targets to their class.
  // One per (scope, name, position): found by position (a number key), then scope and name
  // among the few there (no id string per local); kept in first-seen order.
  const merged: Local[] = [];
  const byAt = new Map<number, Local[]>();
  for (const l of p.locals) {
    const scope = l.scope >= 0 ? normOf(l.scope) : -1;
    let here = byAt.get(l.at);
    let prior: Local | undefined;
    if (here === undefined) byAt.set(l.at, (here = []));
    else
      for (const x of here)
        if (x.scope === scope && x.name === l.name) {
          prior = x;
          break;
        }
    if (!prior) {
      const m = { ...l, scope };
      merged.push(m);
      here.push(m);
      continue;
    }
    if (l.type && !prior.type) prior.type = l.type;
    if (l.newOf && !prior.newOf) prior.newOf = l.newOf;
    if (l.callOf && !prior.callOf) {
      prior.callOf = l.callOf;
      if (l.callReceiver) prior.callReceiver = l.callReceiver;
    }
    if (l.aliasOf && !prior.aliasOf) prior.aliasOf = l.aliasOf;
    if (l.bound && !prior.bound) prior.bound = l.bound;
    if (l.prop && !prior.prop) prior.prop = l.prop;
    // A mapping's view (`by.values()`: by, values) is read off by's annotation; any other
    // method's result as the call it is (`self.get_params(ctx)`).
    if (l.iterOf && (!prior.iterOf || iterRank(l) < iterRank(prior))) {
      prior.iterOf = l.iterOf;
      if (l.iterMethod) prior.iterMethod = l.iterMethod;
    }
    if (l.isParam) prior.isParam = true;
    if (l.enter) prior.enter = true;
  }
  // `global x` in a function: every binding of x there is the module's.
  const globals = new Set<string>();
  for (const l of merged) if (l.scope >= 0 && l.aliasOf?.startsWith("global")) globals.add(`${l.scope}\u0000${l.name}`);
  const selfAttrSites = new Set<number>();
  for (const l of merged) {
    const dot = l.name.indexOf(".");
    if (l.end !== undefined) {
      nested(info.ranged, l.scope, l.name, l);
      continue;
    }
    if (dot < 0) {
      if (globals.size > 0 && globals.has(`${l.scope}\u0000${l.name}`)) {
        const g: Local = { ...l, scope: -1 };
        delete g.aliasOf;
        delete g.type;
        nested(info.locals, -1, l.name, g);
      } else nested(info.locals, l.scope, l.name, l);
      continue;
    }
    const fn = l.scope;
    if (fn < 0) continue;
    const fd = p.defs[fn]!;
    const cls = fd.parent;
    if (fd.kind !== "function" || cls < 0 || p.defs[cls]!.kind !== "class") continue;
    const first = info.firstParam.get(fn);
    if (!first || first.name !== l.name.slice(0, dot)) continue;
    nested(info.selfAttrs, cls, l.name.slice(dot + 1), { local: l, fn, init: fd.name === "__init__" });
    if (fd.name === "__init__") selfAttrSites.add(l.at);
  }

  // Keys and parents.
  const byKey = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const d = p.defs[i]!;
    if (d.kind === "module") {
      if (d.parent < 0 && d.doc && info.doc === undefined) info.doc = d.doc;
      continue;
    }
    let par = d.parent;
    if (d.kind === "field" && par >= 0 && p.defs[par]!.kind === "function") {
      // `self.x = ...` directly in `__init__`: a field of the class.
      const fn = par;
      const gp = p.defs[fn]!.parent;
      if (!selfAttrSites.has(d.start) || gp < 0 || p.defs[gp]!.kind !== "class") continue;
      par = gp;
    }
    if (par >= 0 && !keys[par]) continue;
    parent[i] = par;
    keys[i] = `${par >= 0 ? keys[par] : m.key}.${d.name}`;
    const prior = byKey.get(keys[i]!);
    if (prior === undefined || rank(d) < rank(p.defs[prior]!)) byKey.set(keys[i]!, i);
    if (d.kind === "function" || d.kind === "class") nested(info.children, par, d.name, i);
    else if (SLOT_KINDS.has(d.kind)) {
      let inner = info.slots.get(par);
      if (!inner) {
        inner = new Map();
        info.slots.set(par, inner);
      }
      if (!inner.has(d.name)) inner.set(d.name, i);
    }
  }
  for (const i of byKey.values()) owner[i] = true;
  // The definition that owns a key answers lookups of its name first.
  for (const byName of info.children.values())
    for (const list of byName.values()) if (list.length > 1) list.sort((a, b) => Number(owner[b]) - Number(owner[a]) || a - b);

  // Imports by the name they bind.
  p.imports.forEach((imp, i) => {
    const scope = imp.scope >= 0 ? normOf(imp.scope) : -1;
    if (imp.wildcard) {
      if (scope < 0) info.wildcards.push(i);
      return;
    }
    const local = imp.local || imp.source.split(".")[0]!;
    if (local) nested(info.imports, scope, local, i);
  });

  if (p.exports.length > 0) info.all = new Set(p.exports.map((e) => e.name));
  return info;
}

/** Definitions of kind function / class named `name` directly in scope `s`. */
export function childDefs(f: FileInfo, s: number, name: string): number[] {
  return f.children.get(s)?.get(name) ?? [];
}

/** The innermost function at or above normalised scope `s`, or -1. */
export function enclosingFunction(f: FileInfo, s: number): number {
  while (s >= 0) {
    if (f.p.defs[s]!.kind === "function") return s;
    s = parentScope(f, s);
  }
  return -1;
}

/** Normalised scope of a raw scope index. */
export function normScope(f: FileInfo, s: number): number {
  return s >= 0 ? f.norm[s]! : -1;
}

/** Parent scope (normalised) of a normalised scope. */
export function parentScope(f: FileInfo, s: number): number {
  if (s < 0) return -1;
  const par = f.p.defs[s]!.parent;
  return par >= 0 ? f.norm[par]! : -1;
}

export function isMethod(f: FileInfo, fn: number): boolean {
  if (fn < 0 || f.p.defs[fn]!.kind !== "function") return false;
  const par = f.p.defs[fn]!.parent;
  return par >= 0 && f.p.defs[par]!.kind === "class";
}

/**
 * A method read as a value, not called: `@property`, `functools.cached_property`, and the
 * descriptors libraries write in their image (`@util.memoized_property`,
 * `@HasMemoized.memoized_attribute`, `@declared_attr`, `@hybrid_property`), and a property's
 * `@x.setter` / `.getter` / `.deleter`. Reading one gives what it returns; calling that is not
 * calling the method.
 */
export function propertyLike(d: Def): boolean {
  return (d.decorators ?? []).some((x) => {
    const t = x.replace(/^@\s*/, "").replace(/\(.*$/s, "").trim();
    const last = t.slice(t.lastIndexOf(".") + 1);
    return /(?:^|_)(?:property|attribute|attr)$/i.test(last) || (t.includes(".") && /^(?:setter|getter|deleter)$/.test(last));
  });
}

export function decorated(d: Def, names: string[]): boolean {
  return (d.decorators ?? []).some((x) => {
    const t = x.replace(/^@\s*/, "").replace(/\(.*$/s, "").trim();
    const last = t.slice(t.lastIndexOf(".") + 1);
    return names.includes(t) || names.includes(last);
  });
}
