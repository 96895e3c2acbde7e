// One file's partial read as a module: the key of every definition, which definitions are lexical
// bindings (and in which scope), which are members (and of which container), the locals each
// scope declares, the import bindings and the export table. Nothing here looks at another file.
import type { Def, Import, Local, Partial } from "../../model/partial.js";
import { normaliseObjectPath } from "./syntax.js";

/** Kinds that introduce a lexical binding named after the definition. */
const BINDING_KINDS: ReadonlySet<string> = new Set(["function", "class", "interface", "type", "enum", "constant", "variable", "module"]);
/** Kinds that live in the type namespace. */
export const TYPE_KINDS: ReadonlySet<string> = new Set(["class", "interface", "type", "enum", "module"]);
/** Kinds a container holds as members. */
const MEMBER_KINDS: ReadonlySet<string> = new Set(["method", "constructor", "getter", "setter", "field"]);
/** Containers whose children are members (`C.m`, `svc.m`, `N.f`). */
const CONTAINER_KINDS: ReadonlySet<string> = new Set(["class", "interface", "constant", "module"]);

/** The marker name of a hidden scope (a function expression's or object method's body). */
export const HIDDEN = "{";

export interface DefInfo {
  mod: Mod;
  d: Def;
  /** Node key; undefined for hidden scopes and for a definition whose key another one took. */
  key?: string;
  hidden: boolean;
  /** The definition that owns this one as a member or binding (-1: the module); fields declared as
   * constructor parameter properties are owned by the class, not the constructor. */
  owner: number;
  /** Introduces a lexical binding named `d.name` in scope `d.parent`. */
  binding: boolean;
  /** Key of the container this definition is a member of (class, interface, object, namespace, JS shape). */
  container?: string;
  /** Assigned as `X.prototype.m` (instance member of a constructor function). */
  proto?: boolean;
  /** For a property-assigned definition: the object path, `.prototype` removed, "" for `exports`. */
  objectPath?: string;
  /** A definition declared in a block (`const encode = () => …` inside a callback's body): the
   * byte range it is visible in, from its block's `{` to the block's end. */
  from?: number;
  end?: number;
}

/** A local as the ts family reads it: the extracted fields (module.ts merges the readings of one site). */
export type LocalInfo = Omit<Local, "iterOf" | "iterMethod" | "bound">;

export class Mod {
  readonly defs: DefInfo[] = [];
  /** Key to attribute a reference made in scope `i` to (the nearest keyed definition, or the module). */
  readonly srcKeys: string[] = [];
  /** scope → name → binding definitions. */
  readonly bindings = new Map<number, Map<string, DefInfo[]>>();
  /** scope → name → locals (parameters, variables) that are not definitions. */
  readonly locals = new Map<number, Map<string, LocalInfo[]>>();
  /** scope → local name → import binding. */
  readonly imports = new Map<number, Map<string, Import>>();
  /** Exported name → local binding name. */
  readonly exportLocal = new Map<string, string>();
  /** Exported name → `{ source, imported }` (`imported` "*" for `export * as ns`). */
  readonly reexports = new Map<string, { source: string; imported: string }>();
  /** `module.exports = require(source)`: every name (default included) is that module's. */
  cjsReexport?: string;
  /** `export * from` sources, in order. */
  readonly stars: string[] = [];
  /** Names some block-scoped local binds (their meaning depends on the position of the use). */
  readonly scopedNames = new Set<string>();
  /** scope → member expressions (normalised text) a type guard or `instanceof` narrows there. */
  readonly narrowed = new Map<number, Set<string>>();
  /** Definitions (ids) whose own body assigns `this.x = ...` (JS treats such a function as a constructor). */
  readonly thisAssigned = new Set<number>();
  /** CommonJS: definitions assigned to `exports.x` / `module.exports.x` / `module.exports = { m() {} }`. */
  readonly cjsMembers = new Map<string, DefInfo>();

  constructor(
    readonly idx: number,
    readonly p: Partial,
    readonly key: string,
  ) {}

  get path(): string {
    return this.p.path;
  }

  /** Innermost non-hidden definition id at or above `scope` (-1: module). */
  keyedScope(scope: number): number {
    let s = scope;
    while (s >= 0 && this.defs[s]!.key === undefined) s = this.p.defs[s]!.parent;
    return s;
  }
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const l = m.get(k);
  if (l) l.push(v);
  else m.set(k, [v]);
}

function scoped<V>(m: Map<number, Map<string, V[]>>, scope: number, name: string, v: V): void {
  let inner = m.get(scope);
  if (!inner) m.set(scope, (inner = new Map()));
  push(inner, name, v);
}

/**
 * Build a module: keys for its definitions (unique across the plane through `taken`), bindings,
 * locals, imports and exports. `members` receives container key → name → member definitions.
 */
export function buildModule(
  idx: number,
  p: Partial,
  key: string,
  taken: Map<string, DefInfo>,
  members: Map<string, Map<string, DefInfo[]>>,
): Mod {
  const mod = new Mod(idx, p, key);
  // Definitions whose own declarator is block-scoped (the local the queries record for it has a range).
  const blockRange = new Map<number, { from: number; end: number }>();
  for (const l of p.locals) {
    if (l.end === undefined || l.scope < 0) continue;
    const own = p.defs[l.scope]!;
    if (own.start === l.at && own.name === l.name) blockRange.set(l.scope, { from: l.from ?? l.at, end: l.end });
  }
  // Keys handed out for same-named definitions of sibling blocks or hidden scopes: `k(2)`, `k(3)` …
  // A module-level definition keeps the plain key even when a block's same-named one comes first.
  const siblingKeys = new Map<string, number>();
  const topNames = new Set<string>();
  for (const d of p.defs) if (d.parent === -1 && !blockRange.has(d.id)) topNames.add(d.name);
  for (const d of p.defs) {
    const hidden = d.name === HIDDEN;
    let owner = d.parent;
    if (d.kind === "field" && owner >= 0 && p.defs[owner]!.kind === "constructor") owner = p.defs[owner]!.parent;
    const info: DefInfo = { mod, d, hidden, owner, binding: false };
    mod.defs.push(info);
    if (hidden) {
      mod.srcKeys.push(d.parent >= 0 ? mod.srcKeys[d.parent]! : key);
      continue;
    }
    let k: string;
    if (d.object !== undefined) {
      const norm = normaliseObjectPath(d.object);
      info.objectPath = norm.path;
      info.proto = norm.proto;
      info.container = norm.path === "" ? key : `${key}.${norm.path}`;
      k = `${info.container}.${d.name}`;
    } else {
      const ks = owner >= 0 ? mod.keyedScope(owner) : -1;
      const parentKey = ks >= 0 ? mod.defs[ks]!.key! : key;
      k = `${parentKey}.${d.name}`;
      const o = owner >= 0 ? p.defs[owner]! : undefined;
      if (o && o.name !== HIDDEN && CONTAINER_KINDS.has(o.kind) && (MEMBER_KINDS.has(d.kind) || o.kind === "module"))
        info.container = mod.defs[owner]!.key;
      info.binding = BINDING_KINDS.has(d.kind) && !(o && (o.kind === "class" || o.kind === "interface"));
    }
    const range = info.binding ? blockRange.get(d.id) : undefined;
    if (range) {
      info.from = range.from;
      info.end = range.end;
    }
    const prior = taken.get(k);
    const yields = range !== undefined && k === `${key}.${d.name}` && topNames.has(d.name);
    if (info.binding && (yields || (prior && prior.mod === mod && (range !== undefined || prior.end !== undefined || prior.d.parent !== d.parent)))) {
      // Same-named functions of sibling blocks (`const encode = …` in each of several `it(…)`
      // callbacks) or sibling hidden scopes are different symbols, each bound lexically: each gets
      // a node, the later ones keyed by their order in the file.
      let n = (siblingKeys.get(k) ?? 1) + 1;
      while (taken.has(`${k}(${n})`)) n++;
      siblingKeys.set(k, n);
      info.key = `${k}(${n})`;
      taken.set(info.key, info);
    } else if (prior) {
      // Accessor pairs and overload signatures of one member share their node; anything else
      // that would collide is folded into its container (its references go there).
      const sameMember = prior.mod === mod && prior.container !== undefined && prior.container === info.container;
      // Declaration merging: an interface / type alias and a value of the same name are one symbol.
      const typeOnly = (x: Def) => x.kind === "interface" || x.kind === "type";
      const merged = prior.mod === mod && prior.d.parent === d.parent && typeOnly(prior.d) !== typeOnly(d);
      // Overload signatures of a function and its implementation: one symbol.
      const overload = prior.mod === mod && prior.d.parent === d.parent && prior.d.kind === "function" && d.kind === "function" && prior.d.bodyless === true;
      if (sameMember || merged || overload) info.key = k;
    } else {
      info.key = k;
      taken.set(k, info);
    }
    mod.srcKeys.push(info.key ?? (d.parent >= 0 ? mod.srcKeys[d.parent]! : key));
    if (info.key !== undefined && info.container !== undefined) {
      let byName = members.get(info.container);
      if (!byName) members.set(info.container, (byName = new Map()));
      const list = byName.get(d.name);
      if (!list) byName.set(d.name, [info]);
      else if (!list.some((x) => x.key === info.key)) list.push(info);
    }
    if (info.binding) scoped(mod.bindings, d.parent, d.name, info);
    if (d.object !== undefined && info.objectPath === "") mod.cjsMembers.set(d.name, info);
  }

  // Imports: bindings by scope (the first binding of a name in a scope wins).
  // Local name → (scope, line) of each import binding it (keyed by the name string itself: no
  // per-local id string is built).
  const importLines = new Map<string, number[]>();
  for (const imp of p.imports) {
    if (imp.local === "") continue;
    let inner = mod.imports.get(imp.scope);
    if (!inner) mod.imports.set(imp.scope, (inner = new Map()));
    if (!inner.has(imp.local)) inner.set(imp.local, imp);
    const at = importLines.get(imp.local);
    if (at) at.push(imp.scope, imp.line);
    else importLines.set(imp.local, [imp.scope, imp.line]);
  }
  const isImportLine = (l: LocalInfo): boolean => {
    const at = importLines.get(l.name);
    if (at === undefined) return false;
    for (let i = 0; i < at.length; i += 2) if (at[i] === l.scope && at[i + 1] === l.line) return true;
    return false;
  };

  // Locals: one per (scope, name, position), fields merged; a definition's own declarator and an
  // import's own `const x = require(...)` are not separate locals. Found by position first (a
  // number key), then scope and name among the few at that position; kept in first-seen order.
  const merged: LocalInfo[] = [];
  const byAt = new Map<number, LocalInfo | LocalInfo[]>();
  for (const l of p.locals) {
    const here = byAt.get(l.at);
    let prior: LocalInfo | undefined;
    if (here !== undefined) {
      if (Array.isArray(here)) {
        for (const x of here)
          if (x.scope === l.scope && x.name === l.name) {
            prior = x;
            break;
          }
      } else if (here.scope === l.scope && here.name === l.name) prior = here;
    }
    if (prior) mergeLocal(prior, l);
    else {
      const info = localOf(l);
      merged.push(info);
      if (here === undefined) byAt.set(l.at, info);
      else if (Array.isArray(here)) here.push(info);
      else byAt.set(l.at, [here, info]);
    }
  }
  for (const l of merged) {
    if (l.scope >= 0) {
      const own = p.defs[l.scope]!;
      if (own.start === l.at && own.name === l.name) {
        if (mod.defs[l.scope]!.binding) continue;
        l.scope = own.parent;
      }
    }
    if (isImportLine(l)) continue;
    if (isNarrowing(l)) {
      if (l.name.includes(".")) {
        // A member expression narrowed in this scope: its declared type does not hold everywhere here.
        let set = mod.narrowed.get(l.scope);
        if (!set) mod.narrowed.set(l.scope, (set = new Set()));
        set.add(normaliseExpr(l.name));
        continue;
      }
    } else if (l.name.startsWith("this.") && l.scope >= 0) {
      const h = p.defs[l.scope]!;
      const owner = h.name === HIDDEN && h.parent >= 0 && isOwnBody(h, p.defs[h.parent]!) ? h.parent : l.scope;
      mod.thisAssigned.add(owner);
      l.scope = owner;
    }
    scoped(mod.locals, l.scope, l.name, l);
    if (l.end !== undefined) mod.scopedNames.add(l.name);
  }

  for (const e of p.exports) {
    if (e.star) {
      if (e.source) mod.stars.push(e.source);
    } else if (e.source !== undefined && e.name === "module.exports") mod.cjsReexport ??= e.source;
    else if (e.source !== undefined) {
      if (!mod.reexports.has(e.name)) mod.reexports.set(e.name, { source: e.source, imported: e.imported ?? e.name });
    } else if (e.local !== undefined && !mod.exportLocal.has(e.name)) mod.exportLocal.set(e.name, e.local);
  }
  return mod;
}

/** A local recorded for a type guard or `instanceof` test (its @alias_of is the parenthesised guard). */
export function isNarrowing(l: { aliasOf?: string }): boolean {
  return l.aliasOf?.startsWith("(") === true;
}

/** Receiver text normalised for comparison: no whitespace, `?.` as `.`, no `!`. */
export function normaliseExpr(text: string): string {
  return text.replace(/\s+/g, "").replace(/\?\./g, ".").replace(/!/g, "");
}

function localOf(l: Local): LocalInfo {
  const out: LocalInfo = { name: l.name, scope: l.scope, line: l.line, at: l.at };
  mergeLocal(out, l);
  return out;
}

function mergeLocal(into: LocalInfo, l: Local): void {
  if (l.type !== undefined) into.type ??= l.type;
  if (l.newOf !== undefined) into.newOf ??= l.newOf;
  if (l.callOf !== undefined) {
    if (into.callOf === undefined) {
      into.callOf = l.callOf;
      if (l.callReceiver !== undefined) into.callReceiver = l.callReceiver;
    }
  }
  if (l.aliasOf !== undefined) into.aliasOf ??= l.aliasOf;
  if (l.prop !== undefined) into.prop ??= l.prop;
  if (l.importOf !== undefined) into.importOf ??= l.importOf;
  if (l.isParam) into.isParam = true;
  if (l.isConst) into.isConst = true;
  if (l.end !== undefined) into.end ??= l.end;
  if (l.from !== undefined) into.from ??= l.from;
  if (l.argOf !== undefined && into.argOf === undefined) {
    into.argOf = l.argOf;
    into.argIndex = l.argIndex;
    into.argCount = l.argCount;
    into.paramIndex = l.paramIndex;
  }
}

/** True when hidden scope `h` is the body of the function that `p` itself is (its value or method body). */
export function isOwnBody(h: Def, p: Def): boolean {
  if (h.end !== p.end || h.start <= p.start) return false;
  return (
    p.kind === "method" ||
    p.kind === "constructor" ||
    p.kind === "getter" ||
    p.kind === "setter" ||
    p.valueKind === "function_expression" ||
    p.valueKind === "generator_function" ||
    (p.kind === "function" && p.valueKind === undefined && p.object !== undefined)
  );
}
