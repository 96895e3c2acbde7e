// What a change to some files of a family can affect (incremental.ts, P2 and P3): a file's
// interface (its partial without refs, positions and docs) as named elements, the names whose
// elements differ between two versions, the identifiers each file writes, and the names typed
// through others — and from them the files a fold must resolve again.
import type { Import, Local, Partial } from "../model/partial.js";
import type { FileDependencies } from "../resolve/types.js";
import type { KnownPartial } from "./incremental.js";

const IDENT = /[A-Za-z_$][\w$]*/g;
function idents(text: string | undefined, out: Set<string>): void {
  if (!text) return;
  for (const m of text.matchAll(IDENT)) out.add(m[0]);
}

/** The identifiers a file writes. */
export interface Tokens {
  /** Every one: what it calls, imports, annotates with, and declares. */
  all: Set<string>;
  /** Those it writes other than as a definition's own name or signature (a member is read only so). */
  used: Set<string>;
  /** It imports every name of a module (`from x import *`, `export * from`). */
  star: boolean;
}

export function tokensOf(p: Partial): Tokens {
  const used = new Set<string>();
  const declared: string[] = [];
  for (const d of p.defs) {
    declared.push(d.name);
    for (const t of [d.returns, d.type, d.owner, d.trait, d.object, d.valueCallee]) idents(t, used);
    for (const xs of [d.extends, d.implements, d.decorators]) for (const t of xs ?? []) idents(t, used);
  }
  for (const r of p.refs) {
    used.add(r.name);
    idents(r.text, used);
    idents(r.receiver, used);
  }
  let star = false;
  for (const i of p.imports) {
    if (i.wildcard) star = true;
    used.add(i.imported);
    used.add(i.local);
    idents(i.source, used);
  }
  for (const e of p.exports) {
    if (e.star) star = true;
    used.add(e.name);
    if (e.local) used.add(e.local);
    if (e.imported) used.add(e.imported);
    idents(e.source, used);
  }
  for (const l of p.locals) {
    idents(l.name, used);
    for (const t of [l.type, l.newOf, l.callOf, l.callReceiver, l.aliasOf, l.prop, l.importOf]) idents(t, used);
  }
  const all = new Set(used);
  for (const n of declared) all.add(n);
  for (const d of p.defs) idents(d.signature, all);
  return { all, used, star };
}

const FUNCTION_KINDS = new Set(["function", "method", "constructor", "getter", "setter"]);
/** Definition kinds whose members are read through a value of the type. */
const CLASS_KINDS = new Set(["class", "interface", "struct", "trait", "enum"]);

/** A return the ts family infers a function's return type from (a call in another file reads it). */
function isReturnLocal(l: Local): boolean {
  return l.name === "return" || l.name === "=>";
}

/**
 * Whether other files' facts may depend on a local: a module-level one, one in a class (or other
 * non-function) body, an attribute target (`self.x = …` in a method types the class's field), a
 * `global`, and the return locals a function's inferred return type comes from.
 */
function seenOutside(p: Partial, l: Local): boolean {
  if (l.scope < 0 || isReturnLocal(l)) return true;
  const kind = p.defs[l.scope]?.kind;
  return kind === undefined || !FUNCTION_KINDS.has(kind) || l.name.includes(".") || (l.aliasOf?.startsWith("global") ?? false);
}

/** What other files may see of a file: the partial without refs, function-private locals, positions, docs. */
export function interfaceOf(p: Partial): string {
  return JSON.stringify({
    g: p.grammar,
    d: p.defs.map(({ line: _l, endLine: _e, start: _s, end: _n, doc: _d, ...rest }) => rest),
    i: p.imports.map(({ line: _l, ...rest }) => rest),
    x: p.exports.map(({ line: _l, ...rest }) => rest),
    l: p.locals.filter((l) => seenOutside(p, l)).map(localShape),
  });
}

/**
 * A local without its positions: where a block binding is visible (`at`, `from`, `end`) is no
 * concern of other files — only that it is one. Positions shift with any edit above them.
 */
function localShape(l: Local): Omit<Local, "line" | "at" | "from" | "end"> & { block?: true } {
  const { line: _l, at: _a, from: _f, end, ...rest } = l;
  return end === undefined ? rest : { ...rest, block: true };
}

/**
 * The interface as elements: definitions by their chain of names (`Cart.add`), imports by local
 * name, exports by name, module-level locals by name — each with everything but positions and
 * docs, and parents named rather than indexed. Two versions of a file differ in the names whose
 * elements differ; only those can change what other files' identifiers mean.
 */
function elementsOf(p: Partial): Map<string, { name: string; value: string; owner?: string }> {
  const chain: string[] = [];
  p.defs.forEach((d, i) => {
    chain[i] = d.parent >= 0 && chain[d.parent] !== undefined ? `${chain[d.parent]}.${d.name}` : d.name;
  });
  const scopeName = (i: number) => (i >= 0 ? (chain[i] ?? "?") : "");
  const ownerAt = (scope: number, attribute: boolean) => memberOf(p, scope, attribute);
  const out = new Map<string, { name: string; value: string; owner?: string }>();
  const add = (id: string, name: string, value: unknown, owner?: string) => {
    const prior = out.get(id);
    const v = JSON.stringify(value);
    out.set(id, { name, value: prior ? `${prior.value}\u0000${v}` : v, ...(owner !== undefined ? { owner } : {}) });
  };
  p.defs.forEach((d, i) => {
    const { line: _l, endLine: _e, start: _s, end: _n, doc: _d, id: _i, parent, ...rest } = d;
    const owner = ownerAt(parent, d.kind === "field");
    // A function's own definitions (a helper nested in it) are no other file's names: they reach
    // other files only through what the function returns (its `r:` element).
    add(`d:${chain[i]}`, d.name, { ...rest, parent: scopeName(parent) }, owner ?? (inFunction(p, parent) ? PRIVATE : undefined));
  });
  for (const imp of p.imports) {
    const { line: _l, scope, ...rest } = imp;
    add(`i:${imp.local}:${imp.imported}`, importedName(imp), { ...rest, scope: scopeName(scope) });
  }
  for (const e of p.exports) {
    const { line: _l, ...rest } = e;
    add(`x:${e.name}`, e.name, rest);
  }
  for (const l of p.locals) {
    if (!seenOutside(p, l)) continue;
    const { scope, ...rest } = localShape(l);
    if (isReturnLocal(l)) {
      const fn = returnsOf(p, l);
      const owner = fn >= 0 ? ownerAt(p.defs[fn]!.parent, false) : undefined;
      add(`r:${scopeName(l.scope)}`, fn >= 0 ? p.defs[fn]!.name : "", rest, owner ?? (fn >= 0 && inFunction(p, p.defs[fn]!.parent) ? PRIVATE : undefined));
    } else {
      // An attribute target (`self.cache`) is seen by the name other files write (`cache`); an
      // interface's call signature (`(`) by the interface's.
      const name = l.name === "(" && l.scope >= 0 ? p.defs[l.scope]!.name : l.name.slice(l.name.lastIndexOf(".") + 1);
      add(`l:${scopeName(scope)}:${l.name}`, name, { ...rest, scope: scopeName(scope) }, l.name === "(" ? undefined : ownerAt(scope, l.name.includes(".")));
    }
  }
  return out;
}

/**
 * The name an import binds: its local name, or for a whole module imported without one
 * (`import a.b`) the module's first name; "*" for a wildcard (every name of the module).
 */
function importedName(imp: Import): string {
  if (imp.local) return imp.local;
  if (imp.imported !== "*" || imp.wildcard) return imp.imported;
  return /[A-Za-z_$][\w$]*/.exec(imp.source)?.[0] ?? "*";
}

/** The owner of an element no other file can name (a definition inside a function). */
const PRIVATE = "\u0000private";

/** Whether a definition under `scope` is inside a function (through blocks and fields, not a class). */
function inFunction(p: Partial, scope: number): boolean {
  for (let i = scope; i >= 0; i = p.defs[i]!.parent) {
    const kind = p.defs[i]!.kind;
    if (CLASS_KINDS.has(kind)) return false;
    if (FUNCTION_KINDS.has(kind)) return true;
  }
  return false;
}

/**
 * The definition a return local returns from: it is that definition's name other files use
 * (`a.make().x()`); a hidden body's returns are its function's. -1 at module level.
 */
function returnsOf(p: Partial, l: Local): number {
  let s = l.scope;
  while (s >= 0 && p.defs[s]!.name === "{") s = p.defs[s]!.parent;
  return s;
}

/**
 * The class a definition or local declared at `scope` is a member of: the class itself, or, for
 * an attribute target (`self.x`), the class of the method it is assigned in. Undefined for a
 * module-level name or one inside a function.
 */
function memberOf(p: Partial, scope: number, attribute: boolean): string | undefined {
  // A field or variable as a scope (a local recorded under its own definition) is its container's.
  const up = (i: number) => {
    while (i >= 0 && !CLASS_KINDS.has(p.defs[i]!.kind) && !FUNCTION_KINDS.has(p.defs[i]!.kind)) i = p.defs[i]!.parent;
    return i;
  };
  const at = up(scope);
  const d = p.defs[at];
  if (!d) return undefined;
  if (CLASS_KINDS.has(d.kind)) return d.name;
  const cls = p.defs[up(d.parent)];
  return attribute && cls && CLASS_KINDS.has(cls.kind) ? cls.name : undefined;
}

/**
 * Names whose interface elements differ between two versions of a file, each with the classes
 * it is a member of there (null when it is also something else: a module-level name, a nested
 * function's). A member is read elsewhere only through a value of its class.
 */
export function changedNames(a: Partial, b: Partial): Map<string, Set<string> | null> {
  const ea = elementsOf(a);
  const eb = elementsOf(b);
  const out = new Map<string, Set<string> | null>();
  const touch = (x: { name: string; owner?: string }) => {
    if (x.owner === PRIVATE) return;
    if (x.owner === undefined) out.set(x.name, null);
    else if (!out.has(x.name)) out.set(x.name, new Set([x.owner]));
    else out.get(x.name)?.add(x.owner);
  };
  for (const [id, x] of ea) if (eb.get(id)?.value !== x.value) touch(x);
  for (const [id, x] of eb) if (ea.get(id)?.value !== x.value) touch(x);
  // A function's inferred return type may follow calls to others in its file (`return
  // this._addCheck(c)`, through a local `const x = this.f(); return x`): its name is touched when
  // what its returns are typed through, within the file, reaches a changed name.
  if (out.size > 0) {
    const names = new Set(out.keys());
    for (const [p, e] of [
      [a, ea],
      [b, eb],
    ] as const)
      for (const id of returnsReaching(p, names)) {
        const x = e.get(id);
        if (x) touch(x);
      }
  }
  return out;
}

/**
 * The `r:` elements (elementsOf) of the functions whose inferred result may follow one of
 * `names`: a return local is typed through the identifiers it writes and its function's class
 * (`self`, `this`), and, within the file, through what the locals, definitions and functions
 * those identifiers name are typed through — transitively. Conservative: a name matches whoever
 * declares it.
 */
function returnsReaching(p: Partial, names: ReadonlySet<string>): Set<string> {
  const through = new Map<string, Set<string>>();
  const put = (name: string, texts: (string | undefined)[]) => {
    let set = through.get(name);
    if (!set) through.set(name, (set = new Set()));
    for (const t of texts) idents(t, set);
  };
  const fields = (l: Local) => [l.type, l.newOf, l.callOf, l.callReceiver, l.aliasOf, l.prop, l.importOf];
  for (const d of p.defs) put(d.name, [d.returns, d.type, d.valueCallee, d.object, ...(d.extends ?? []), ...(d.implements ?? [])]);
  for (const l of p.locals) {
    if (!isReturnLocal(l)) put(l.name.slice(l.name.lastIndexOf(".") + 1), fields(l));
    else {
      const fn = returnsOf(p, l);
      if (fn >= 0) put(p.defs[fn]!.name, fields(l));
    }
  }
  const chain: string[] = [];
  p.defs.forEach((d, i) => {
    chain[i] = d.parent >= 0 && chain[d.parent] !== undefined ? `${chain[d.parent]}.${d.name}` : d.name;
  });
  const out = new Set<string>();
  for (const l of p.locals) {
    if (!isReturnLocal(l)) continue;
    const id = `r:${l.scope >= 0 ? (chain[l.scope] ?? "?") : ""}`;
    if (out.has(id)) continue;
    const start = new Set<string>();
    for (const t of fields(l)) idents(t, start);
    const fn = returnsOf(p, l);
    const cls = fn >= 0 ? memberOf(p, p.defs[fn]!.parent, false) : undefined;
    if (cls !== undefined) start.add(cls);
    const seen = new Set(start);
    const queue = [...start];
    for (let n = queue.pop(); n !== undefined; n = queue.pop()) {
      if (names.has(n)) {
        out.add(id);
        break;
      }
      for (const m of through.get(n) ?? [])
        if (!seen.has(m)) {
          seen.add(m);
          queue.push(m);
        }
    }
  }
  return out;
}

/** A name other files see, and the identifiers its declared type is written with. */
export type TypeUse = [name: string, uses: Set<string>, owner: string | undefined];

/**
 * What each name a file declares is typed through: a definition's annotations (type, parameters,
 * returns, heritage), an interface's call signatures (seen by the interface's name), and the
 * declared types and initialisers of the locals other files see.
 */
export function typeUsesOf(p: Partial): TypeUse[] {
  const out: TypeUse[] = [];
  // A parameter's name is no type: other files never see it (`def append(self, x)` is not typed
  // through every `x`), unless the parameter list also writes it in a type (`str: str`).
  const paramNames = new Map<number, Set<string>>();
  const paramTypes = new Map<number, Set<string>>();
  for (const l of p.locals) {
    if (!l.isParam || l.scope < 0) continue;
    let names = paramNames.get(l.scope);
    if (!names) paramNames.set(l.scope, (names = new Set()));
    names.add(l.name);
    let types = paramTypes.get(l.scope);
    if (!types) paramTypes.set(l.scope, (types = new Set()));
    idents(l.type, types);
  }
  p.defs.forEach((d, i) => {
    const uses = new Set<string>();
    for (const t of [d.returns, d.type]) idents(t, uses);
    if (d.params) {
      const names = paramNames.get(i);
      const types = paramTypes.get(i);
      for (const m of d.params.matchAll(IDENT)) if (!names?.has(m[0]) || types?.has(m[0])) uses.add(m[0]);
    }
    for (const xs of [d.extends, d.implements]) for (const t of xs ?? []) idents(t, uses);
    uses.delete(d.name);
    if (uses.size > 0) out.push([d.name, uses, memberOf(p, d.parent, d.kind === "field")]);
  });
  for (const l of p.locals) {
    if (!seenOutside(p, l)) continue;
    const uses = new Set<string>();
    for (const t of [l.type, l.newOf, l.callOf, l.callReceiver, l.aliasOf, l.prop, l.importOf]) idents(t, uses);
    if (uses.size === 0) continue;
    if (isReturnLocal(l)) {
      // A function's inferred result is typed through what its return statements write.
      const fn = returnsOf(p, l);
      if (fn < 0) continue;
      uses.delete(p.defs[fn]!.name);
      if (uses.size > 0) out.push([p.defs[fn]!.name, uses, memberOf(p, p.defs[fn]!.parent, false)]);
      continue;
    }
    // A call signature (`(`) is seen through its interface.
    const name = l.name === "(" && l.scope >= 0 ? p.defs[l.scope]!.name : l.name.slice(l.name.lastIndexOf(".") + 1);
    uses.delete(name);
    if (uses.size > 0) out.push([name, uses, l.name === "(" ? undefined : memberOf(p, l.scope, l.name.includes("."))]);
  }
  // An export under another name (`export default foo`, `export { a as b }`) is read by that name.
  for (const e of p.exports) {
    const from = e.local ?? e.imported;
    if (from !== undefined && from !== e.name && from !== "*") out.push([e.name, new Set([from]), undefined]);
  }
  return out;
}

/**
 * Whose name a touch is: a class's member (read through a value of the class), a module's own
 * name (read through the module: its name, or an import from a module binding it), or anyone's
 * (a family that does not say what its files read).
 */
type Owner = { class: string } | { module: string } | null;

/** One reason a name must be looked at again: whose name it is, and the file whose change touched it. */
interface Touch {
  owner: Owner;
  origin: string;
}

/**
 * Members code uses without writing their names, that a resolver may read: constructors, calls
 * on an instance, context managers, iteration, subscripts, descriptors, attribute fallbacks.
 */
const IMPLICIT_MEMBER =
  /^(?:constructor|__(?:init|new|call|enter|aenter|exit|aexit|iter|aiter|next|anext|getitem|class_getitem|get|set|getattr|getattribute|init_subclass|set_name)__)$/;

/** Touches past this many resolve the family in full: listing them would cost as much. */
const MAX_TOUCHES = 200_000;

export interface AffectedInput {
  /** The family's files now. */
  mine: ReadonlyMap<string, KnownPartial>;
  /** Files whose blob changed (all in `mine`). */
  changed: readonly string[];
  /** The file's partial before the change. */
  prev(path: string): KnownPartial;
  /** Memoised per blob by the caller. */
  iface(x: KnownPartial): string;
  tokens(x: KnownPartial): Tokens;
  typeUses(x: KnownPartial): TypeUse[];
  /**
   * P3: what each file's resolution may read (the family's word; asked only once an interface
   * changed). Without it, any file may read any other, and any name is read anywhere.
   */
  deps?: () => FileDependencies;
}

export interface Affected {
  /** The files to resolve again: the changed ones and those their interface changes reach. */
  files: Set<string>;
  /** Changed files whose interface changed. */
  reshaped: string[];
  /** Names touched, for the log: `Class.name` for a member. */
  names: string[];
  /** With DRSG_DEBUG: the touches (name@origin) that brought in the most files, and how many. */
  why?: string[];
}

/**
 * The files a fold must resolve again (P2, P3 in incremental.ts): the changed files, and every
 * file that may read a changed file's interface and writes a name it touched — a name whose
 * elements differ, or one typed through such a name (a subclass, a field, a function returning
 * it; to a fixpoint). With the family's dependencies, a touch counts only in the files that may
 * read the file it came from; a class's member only in files that can hold a value of the class
 * (they write its name or a name typed through it) and write the member's name as a use; a
 * module's name only in files that may read the module directly, and a file that binds it from
 * there passes the touch on to its own importers. Undefined when touches pile up past
 * MAX_TOUCHES (resolve in full).
 */
export function affected(input: AffectedInput): Affected | undefined {
  const { mine } = input;
  const scoped = input.deps !== undefined;
  const files = new Set(input.changed);
  const touched = new Map<string, Touch[]>();
  const seenTouch = new Set<string>();
  const queue: [string, Touch][] = [];
  const push = <V>(m: Map<string, V[]>, k: string, v: V) => {
    const l = m.get(k);
    if (l) l.push(v);
    else m.set(k, [v]);
  };
  const ownerId = (o: Owner) => (o === null ? "" : "class" in o ? `c:${o.class}` : `m:${o.module}`);
  const touch = (name: string, t: Touch): void => {
    const id = `${name}\u0000${ownerId(t.owner)}\u0000${t.origin}`;
    if (seenTouch.has(id)) return;
    seenTouch.add(id);
    push(touched, name, t);
    queue.push([name, t]);
  };
  const ownerOf = (cls: string | undefined, path: string): Owner => (!scoped ? null : cls !== undefined ? { class: cls } : { module: path });
  const reshaped: string[] = [];
  for (const path of input.changed) {
    const now = mine.get(path)!;
    const prev = input.prev(path);
    if (input.iface(now) === input.iface(prev)) continue;
    reshaped.push(path);
    for (const [n, owners] of changedNames(prev.partial, now.partial)) {
      if (owners === null) touch(n, { owner: ownerOf(undefined, path), origin: path });
      else for (const o of owners) touch(n, { owner: ownerOf(o, path), origin: path });
    }
  }
  if (touched.size === 0) return { files, reshaped, names: [] };
  const deps = input.deps?.();

  // Who may read a file, transitively (itself included); every file without the family's word.
  const back = new Map<string, string[]>();
  for (const [path, ds] of deps?.reads ?? []) for (const d of ds) push(back, d, path);
  const readersMemo = new Map<string, Set<string>>();
  const readers = (origin: string): Set<string> | undefined => {
    if (!deps) return undefined;
    let out = readersMemo.get(origin);
    if (out) return out;
    out = new Set([origin]);
    readersMemo.set(origin, out);
    const q = [origin];
    for (let p = q.pop(); p !== undefined; p = q.pop())
      for (const r of back.get(p) ?? [])
        if (!out.has(r)) {
          out.add(r);
          q.push(r);
        }
    return out;
  };
  const reads = (path: string, origin: string) => readers(origin)?.has(path) ?? true;
  // Only a file that may read a reshaped one can be touched, or type a name that is.
  let scope: Set<string> | undefined;
  if (deps) {
    scope = new Set();
    for (const o of reshaped) for (const r of readers(o)!) scope.add(r);
  }

  // What a module shows other modules: its exports now, and before for a changed one (a name it
  // stopped exporting is one its readers lose).
  const shownBy = (path: string): ReadonlySet<string> | undefined => {
    const now = deps?.exported?.get(path);
    if (!now || !input.changed.includes(path)) return now;
    const before = input.prev(path).partial.exports.map((e) => e.name);
    return before.every((n) => now.has(n)) ? now : new Set([...now, ...before]);
  };

  // Name → the names typed through it, with the file declaring each and the class it is a member
  // of; name → the files (in scope) writing it.
  const byUse = new Map<string, { n: string; path: string; x: KnownPartial; owner: string | undefined }[]>();
  const byToken = new Map<string, string[]>();
  const starring: string[] = [];
  for (const [path, x] of mine) {
    if (scope && !scope.has(path)) continue;
    for (const [n, uses, owner] of input.typeUses(x)) for (const u of uses) push(byUse, u, { n, path, x, owner });
    const t = input.tokens(x);
    for (const n of t.all) push(byToken, n, path);
    if (t.star) starring.push(path);
  }
  // A value of class C reaches a file that writes C, or a name typed through C: a module-level
  // one it writes, a member it writes as a use of a value of the member's class — transitively.
  const carryMemo = new Map<KnownPartial, Map<string, boolean>>();
  const carries = (x: KnownPartial, c: string): boolean => {
    let memo = carryMemo.get(x);
    if (!memo) carryMemo.set(x, (memo = new Map()));
    const hit = memo.get(c);
    if (hit !== undefined) return hit;
    memo.set(c, false); // a cycle proves nothing
    const t = input.tokens(x);
    let out = t.all.has(c);
    for (const e of out ? [] : (byUse.get(c) ?? [])) {
      if (!scoped || e.owner === undefined ? carries(x, e.n) : t.used.has(e.n) && carries(x, e.owner)) {
        out = true;
        break;
      }
    }
    memo.set(c, out);
    return out;
  };
  /** Whether the file at `path` can reach names of `owner`'s. */
  const holds = (path: string, x: KnownPartial, owner: Owner): boolean => {
    if (owner === null) return true;
    // A module's names are read by the files that may read it directly (an import of it, a
    // star import, an import of its package), and by the importers of a module that binds them.
    if ("module" in owner) return owner.module === path || (deps?.reads.get(path)?.has(owner.module) ?? true);
    return carries(x, owner.class);
  };
  /**
   * Whether a file writes `name` as the touch needs: a member as a use (a constructor or a
   * `__dunder__` is used by any code holding the class: `new C(…)`, `C()`, `with c`); a module's
   * name also through a star import; "*" (a wildcard import changed: any name of the module) always.
   */
  const writes = (x: KnownPartial, name: string, owner: Owner): boolean => {
    const t = input.tokens(x);
    if (owner !== null && "class" in owner) return t.used.has(name) || IMPLICIT_MEMBER.test(name);
    return t.all.has(name) || (owner !== null && (t.star || name === "*"));
  };

  // A name typed through a touched one is touched too (a field typed by a changed interface, an
  // interface whose call signature names a changed alias, a class extending a changed one), as
  // seen from the file declaring it: callers that write only the field's or the subclass's name
  // (`app.get('/', (c) => c.json())`, `b.bar()` bound through B extends C) are re-resolved.
  // A file that writes a touched name is resolved again; one that binds a module's touched name
  // passes it on as its own (`from .mod import x` in a package re-exports x).
  // DRSG_DEBUG: which touches brought the most files in (the log line of resolvePart).
  const why = process.env.DRSG_DEBUG ? new Map<string, number>() : undefined;
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    if (seenTouch.size > MAX_TOUCHES) return undefined;
    const [u, t] = next;
    const mod = t.owner !== null && "module" in t.owner ? t.owner.module : undefined;
    // A module's name other modules cannot read (not exported) reaches them only through the
    // module's own names typed through it.
    const shown = mod !== undefined && u !== "*" ? shownBy(mod) : undefined;
    for (const { n, path, x, owner } of byUse.get(u) ?? [])
      if ((!shown || shown.has(u) || path === mod) && reads(path, t.origin) && holds(path, x, t.owner)) touch(n, { owner: ownerOf(owner, path), origin: path });
    const candidates = mod !== undefined && u === "*" ? [...(readers(t.origin) ?? mine.keys())] : mod !== undefined ? [...(byToken.get(u) ?? []), ...starring] : (byToken.get(u) ?? []);
    for (const path of candidates) {
      if (mod === undefined && files.has(path)) continue;
      if (shown && !shown.has(u) && path !== mod) continue;
      const x = mine.get(path)!;
      if (!reads(path, t.origin) || !writes(x, u, t.owner) || !holds(path, x, t.owner)) continue;
      if (why && !files.has(path)) why.set(`${u}@${t.origin}`, (why.get(`${u}@${t.origin}`) ?? 0) + 1);
      files.add(path);
      if (mod !== undefined && path !== mod) touch(u, { owner: { module: path }, origin: path });
    }
  }
  const names = [...touched].map(([n, ts]) => {
    const owners = new Set(ts.map((t) => (t.owner !== null && "class" in t.owner ? t.owner.class : "")));
    return owners.has("") ? n : `${[...owners].join("|")}.${n}`;
  });
  const top = why ? [...why].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, n]) => `${k} ×${n}`) : undefined;
  return { files, reshaped, names, ...(top ? { why: top } : {}) };
}
