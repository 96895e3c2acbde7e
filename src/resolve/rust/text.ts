// Text handling for the rust resolver: the extractor hands over `use` declarations, types and
// initialisers as written; these small parsers turn them into paths, use-tree leaves, type
// shapes and receiver expression chains. Each gives up (undefined) on anything it does not
// understand, so the resolver never guesses from a half-read text.

/** Remove line and block comments (use declarations may carry them inside groups). */
export function stripComments(s: string): string {
  return s.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/\/\/[^\n]*/g, " ");
}

/** Index of the bracket closing the one at `i` (`<`, `(`, `[`, `{`), skipping strings; -1 when unbalanced. */
export function closeOf(s: string, i: number): number {
  const open = s[i];
  const close = open === "<" ? ">" : open === "(" ? ")" : open === "[" ? "]" : "}";
  let depth = 0;
  for (let j = i; j < s.length; j++) {
    const c = s[j]!;
    if (c === '"') {
      j = skipString(s, j);
      if (j < 0) return -1;
      continue;
    }
    if (c === "'" && open !== "<") {
      const k = skipChar(s, j);
      if (k > j) {
        j = k;
        continue;
      }
    }
    if (open === "<" && c === "-" && s[j + 1] === ">") {
      j++;
      continue;
    }
    if (c === open) depth++;
    else if (c === close) {
      depth--;
      if (depth === 0) return j;
    }
  }
  return -1;
}

function skipString(s: string, i: number): number {
  for (let j = i + 1; j < s.length; j++) {
    if (s[j] === "\\") j++;
    else if (s[j] === '"') return j;
  }
  return -1;
}

/** A char literal `'x'` / `'\n'` starting at `i`: its last index, or `i` when it is a lifetime tick. */
function skipChar(s: string, i: number): number {
  if (s[i + 1] === "\\") {
    const k = s.indexOf("'", i + 2);
    return k > 0 && k - i <= 12 ? k : i;
  }
  const cp = s.codePointAt(i + 1);
  if (cp === undefined) return i;
  const w = cp > 0xffff ? 2 : 1;
  return s[i + 1 + w] === "'" ? i + 1 + w : i;
}

/** Split at top-level occurrences of `sep` (outside any brackets). */
export function splitTop(s: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === "-" && s[i + 1] === ">") {
      i++;
      continue;
    }
    if (c === "<" || c === "(" || c === "[" || c === "{") depth++;
    else if (c === ">" || c === ")" || c === "]" || c === "}") depth--;
    else if (depth === 0 && s.startsWith(sep, i)) {
      out.push(s.slice(start, i));
      start = i + sep.length;
      i += sep.length - 1;
    }
  }
  out.push(s.slice(start));
  return out;
}

/** `a::b::<T>::c<U>` → ["a", "b", "c"]; generic arguments dropped. Undefined for `<T as X>::y` forms. */
export function pathSegments(text: string): string[] | undefined {
  const t = text.replace(/\s+/g, "");
  if (t.startsWith("<")) return undefined;
  const segs: string[] = [];
  for (const raw of splitTop(t, "::")) {
    if (raw === "" && segs.length === 0) {
      segs.push("");
      continue;
    }
    if (raw.startsWith("<")) continue; // turbofish `::<T>`
    const lt = raw.indexOf("<");
    const seg = lt >= 0 ? raw.slice(0, lt) : raw;
    if (!/^(?:r#)?[A-Za-z_][A-Za-z0-9_]*$/.test(seg)) return undefined;
    segs.push(seg.replace(/^r#/, ""));
  }
  return segs.length > 0 ? segs : undefined;
}

/** A type as written, read down to what a receiver needs. */
export interface TypeShape {
  /** Path of the base type (`crate::a::Cart`, `Vec`, `Self`), generics removed. */
  path: string[];
  /** Generic arguments as written (`Vec<Item>` → ["Item"]). */
  args: string[];
  /** `dyn Trait` / `impl Trait`: the path is a trait and the value is some implementor. */
  traitObject?: boolean;
}

/** Read a type as written: references, `mut`, lifetimes, `dyn` / `impl` and parentheses stripped. */
export function parseType(text: string): TypeShape | undefined {
  let t = text.trim().replace(/^:\s*/, "");
  for (;;) {
    const before = t;
    t = t.replace(/^&\s*(?:'[A-Za-z_][A-Za-z0-9_]*\s+)?(?:mut\s+)?/, "").replace(/^\*\s*(?:const|mut)\s+/, "");
    if (t.startsWith("(") && closeOf(t, 0) === t.length - 1 && !t.slice(1, -1).includes(",")) t = t.slice(1, -1).trim();
    if (t === before) break;
  }
  let traitObject = false;
  const m = /^(dyn|impl)\s+/.exec(t);
  if (m) {
    traitObject = true;
    t = t.slice(m[0].length);
    const bounds = splitTop(t, "+")
      .map((b) => b.trim())
      .filter((b) => b && !b.startsWith("'") && !b.startsWith("?"));
    const own = bounds.filter((b) => !/^(?:Send|Sync|Unpin|'static)$/.test(b));
    if (own.length !== 1) return undefined;
    t = own[0]!;
  }
  if (/^(?:fn|unsafe|extern)\b/.test(t) || t.startsWith("[") || t.startsWith("(") || t.startsWith("<")) return undefined;
  const segsText = t;
  const path = pathSegments(segsText);
  if (!path) return undefined;
  // Generic arguments of the last segment.
  let args: string[] = [];
  const parts = splitTop(segsText, "::");
  const tail = parts[parts.length - 1]!;
  const lt = tail.indexOf("<");
  if (lt >= 0) {
    const close = closeOf(tail, lt);
    if (close < 0) return undefined;
    args = splitTop(tail.slice(lt + 1, close), ",")
      .map((a) => a.trim())
      .filter((a) => a && !a.startsWith("'"));
  }
  return traitObject ? { path, args, traitObject } : { path, args };
}

/** One binding a `use` declaration makes. */
export interface UseLeaf {
  /** Path segments; a leading "" for `::a::b`. */
  path: string[];
  /** The local name (`as x`), "_" for `as _`; absent: the last segment. */
  alias?: string;
  /** `a::*` */
  glob: boolean;
}

export interface UseDecl {
  /** `pub`, `pub(crate)` ... as written; absent for private. */
  visibility?: string;
  leaves: UseLeaf[];
}

/** Parse `pub(crate) use a::{b, c as d, e::*};` into its leaves. Undefined when the text is not a use declaration. */
export function parseUse(text: string): UseDecl | undefined {
  let s = stripComments(text).trim();
  let visibility: string | undefined;
  const vm = /^pub\s*(\([^)]*\))?\s*/.exec(s);
  if (vm) {
    visibility = vm[0].replace(/\s+/g, "");
    s = s.slice(vm[0].length);
  }
  if (!s.startsWith("use")) return undefined;
  s = s.slice(3).trim();
  if (s.endsWith(";")) s = s.slice(0, -1).trim();
  const leaves: UseLeaf[] = [];
  if (!parseTree(s.replace(/\s+/g, " "), [], leaves)) return undefined;
  return visibility ? { visibility, leaves } : { leaves };
}

function parseTree(s: string, prefix: string[], out: UseLeaf[]): boolean {
  const t = s.trim();
  if (t === "") return true;
  if (t.startsWith("{")) {
    const close = closeOf(t, 0);
    if (close !== t.length - 1) return false;
    for (const part of splitTop(t.slice(1, -1), ",")) if (!parseTree(part, prefix, out)) return false;
    return true;
  }
  // `path::{...}` / `path::*` / `path [as alias]`
  const parts = splitTop(t, "::").map((p) => p.trim());
  const path = [...prefix];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const last = i === parts.length - 1;
    if (part === "" && i === 0 && prefix.length === 0) {
      path.push("");
      continue;
    }
    if (last && part === "*") {
      out.push({ path, glob: true });
      return true;
    }
    if (last && part.startsWith("{")) return parseTree(part, path, out);
    if (!last) {
      if (!/^(?:r#)?[A-Za-z_][A-Za-z0-9_]*$/.test(part)) return false;
      path.push(part.replace(/^r#/, ""));
      continue;
    }
    const m = /^((?:r#)?[A-Za-z_][A-Za-z0-9_]*)(?:\s+as\s+((?:r#)?[A-Za-z_][A-Za-z0-9_]*))?$/.exec(part);
    if (!m) return false;
    const name = m[1]!.replace(/^r#/, "");
    const alias = m[2]?.replace(/^r#/, "");
    if (name === "self") {
      // `a::{self}` binds `a` itself.
      if (path.length === 0) return false;
      out.push(alias ? { path, alias, glob: false } : { path, glob: false });
      return true;
    }
    path.push(name);
    out.push(alias ? { path, alias, glob: false } : { path, glob: false });
    return true;
  }
  return false;
}

/** One step of a receiver expression chain. */
export type ChainOp =
  | { op: "field"; name: string }
  | { op: "method"; name: string }
  | { op: "call" }
  | { op: "try" }
  | { op: "cast"; type: string };

export type ChainHead = { head: "path"; text: string } | { head: "struct"; text: string };

export interface Chain {
  head: ChainHead;
  ops: ChainOp[];
}

const IDENT = /^(?:r#)?[A-Za-z_][A-Za-z0-9_]*/;

/**
 * Read an expression as a chain: a path or struct literal head, then `.field`, `.method(..)`,
 * `(..)`, `?`, `as T`. `&`, `&mut` and parentheses around the whole are looked through; a `*` deref is not.
 * Undefined for anything else (operators, literals, macros, closures, blocks, indexing).
 */
export function parseChain(text: string): Chain | undefined {
  if (text.includes("…")) return undefined;
  let s = text.trim();
  for (;;) {
    const before = s;
    if (s.startsWith("*")) return undefined; // a deref changes the type (Box<T> → T): not followed
    s = s.replace(/^&\s*(?:mut\s+)?/, "");
    if (s.startsWith("(") && closeOf(s, 0) === s.length - 1) s = s.slice(1, -1).trim();
    if (s === before) break;
  }
  let i = 0;
  // Head: a path, possibly with turbofish segments.
  let headEnd = 0;
  for (;;) {
    const m = IDENT.exec(s.slice(i));
    if (!m) return undefined;
    i += m[0].length;
    headEnd = i;
    if (s.startsWith("::<", i)) {
      const close = closeOf(s, i + 2);
      if (close < 0) return undefined;
      i = close + 1;
      headEnd = i;
    }
    if (s.startsWith("::", i) && s[i + 2] !== "<") {
      i += 2;
      continue;
    }
    break;
  }
  let head: ChainHead = { head: "path", text: s.slice(0, headEnd) };
  const ops: ChainOp[] = [];
  const skipWs = () => {
    while (i < s.length && /\s/.test(s[i]!)) i++;
  };
  skipWs();
  if (s[i] === "!") return undefined;
  if (s[i] === "{") {
    const close = closeOf(s, i);
    if (close < 0) return undefined;
    head = { head: "struct", text: s.slice(0, headEnd) };
    i = close + 1;
  }
  for (;;) {
    skipWs();
    if (i >= s.length) break;
    const c = s[i]!;
    if (c === "?") {
      ops.push({ op: "try" });
      i++;
      continue;
    }
    if (c === "(") {
      const close = closeOf(s, i);
      if (close < 0) return undefined;
      ops.push({ op: "call" });
      i = close + 1;
      continue;
    }
    if (c === ".") {
      i++;
      skipWs();
      const m = IDENT.exec(s.slice(i));
      if (!m) return undefined; // tuple field `.0`, `.await` handled below
      const name = m[0].replace(/^r#/, "");
      i += m[0].length;
      if (name === "await") continue;
      skipWs();
      if (s.startsWith("::<", i)) {
        const close = closeOf(s, i + 2);
        if (close < 0) return undefined;
        i = close + 1;
        skipWs();
      }
      if (s[i] === "(") {
        const close = closeOf(s, i);
        if (close < 0) return undefined;
        ops.push({ op: "method", name });
        i = close + 1;
      } else ops.push({ op: "field", name });
      continue;
    }
    const asm = /^as\s+/.exec(s.slice(i));
    if (asm) {
      const type = s.slice(i + asm[0].length).trim();
      if (!type || /[^A-Za-z0-9_:<>,&' ]/.test(type)) return undefined;
      ops.push({ op: "cast", type });
      i = s.length;
      continue;
    }
    return undefined;
  }
  return { head, ops };
}

/** `type Result<T> = ...` → ["T"]: the alias's own type parameters, from its signature. */
export function aliasParams(signature: string, name: string): string[] {
  const at = signature.indexOf(`type ${name}`);
  if (at < 0) return [];
  const rest = signature.slice(at + 5 + name.length).trimStart();
  if (!rest.startsWith("<")) return [];
  const close = closeOf(rest, 0);
  if (close < 0) return [];
  return splitTop(rest.slice(1, close), ",")
    .map((p) => p.trim().split(/[:=\s]/)[0]!)
    .filter((p) => p && !p.startsWith("'"));
}

/** Replace whole-word occurrences of each parameter by its argument. */
export function substitute(text: string, params: string[], args: string[]): string {
  if (params.length === 0) return text;
  const map = new Map<string, string>();
  params.forEach((p, i) => {
    if (args[i] !== undefined) map.set(p, args[i]!);
  });
  return text.replace(/\b[A-Za-z_][A-Za-z0-9_]*\b/g, (w) => map.get(w) ?? w);
}

const genericsMemo = new Map<string, Map<string, string[]>>();

/**
 * The generic parameters a declaration introduces, with their trait bounds as written, from its
 * signature: `fn f<T: A + B, U>(..) where U: C` → T: [A, B], U: [C]. Lifetimes and const
 * parameters are left out. `name` is the declared name (empty: the text starts at the `<`).
 */
export function parseGenerics(signature: string, name: string): Map<string, string[]> {
  // Memoised (pure, and asked again for every use inside an item); the answer is shared: callers only read it.
  const memo = `${name}\u0000${signature}`;
  const hit = genericsMemo.get(memo);
  if (hit !== undefined) return hit;
  if (genericsMemo.size >= 20_000) genericsMemo.clear();
  const out = parseGenericsUncached(signature, name);
  genericsMemo.set(memo, out);
  return out;
}

function parseGenericsUncached(signature: string, name: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let rest = signature;
  if (name) {
    const m = new RegExp(`\\b${name.replace(/[^A-Za-z0-9_]/g, "")}\\s*<`).exec(signature);
    rest = m ? signature.slice(m.index + m[0].length - 1) : "";
  } else rest = rest.replace(/^impl\s*/, "");
  const addBounds = (p: string, text: string) => {
    const list = out.get(p) ?? [];
    for (const b of splitTop(text, "+")) {
      const t = b.trim();
      if (t && !t.startsWith("'") && !t.startsWith("?")) list.push(t);
    }
    out.set(p, list);
  };
  if (rest.startsWith("<")) {
    const close = closeOf(rest, 0);
    if (close > 0) {
      for (const part of splitTop(rest.slice(1, close), ",")) {
        const t = part.trim();
        if (!t || t.startsWith("'") || t.startsWith("const ")) continue;
        const m = /^([A-Za-z_][A-Za-z0-9_]*)\s*(?::\s*([^=]*))?(?:=.*)?$/.exec(t);
        if (m) addBounds(m[1]!, m[2] ?? "");
      }
    }
  }
  const w = /\bwhere\b/.exec(signature);
  if (w) {
    for (const part of splitTop(signature.slice(w.index + 5).replace(/[{;]\s*$/, ""), ",")) {
      const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.+)$/.exec(part);
      if (m && out.has(m[1]!)) addBounds(m[1]!, m[2]!);
    }
  }
  return out;
}
