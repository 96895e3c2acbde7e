// Text helpers for the go resolver: Go type expressions and receiver expressions as written
// (the extractor hands over source text, whitespace collapsed), go.mod, import paths.
// Everything here is strict: text it does not fully understand yields `undefined`, never a guess.

export const BUILTIN_FUNCS: ReadonlySet<string> = new Set([
  "append",
  "cap",
  "clear",
  "close",
  "complex",
  "copy",
  "delete",
  "imag",
  "len",
  "make",
  "max",
  "min",
  "new",
  "panic",
  "print",
  "println",
  "real",
  "recover",
]);

export const BUILTIN_TYPES: ReadonlySet<string> = new Set([
  "any",
  "bool",
  "byte",
  "comparable",
  "complex64",
  "complex128",
  "error",
  "float32",
  "float64",
  "int",
  "int8",
  "int16",
  "int32",
  "int64",
  "rune",
  "string",
  "uint",
  "uint8",
  "uint16",
  "uint32",
  "uint64",
  "uintptr",
]);

export const BUILTIN_VALUES: ReadonlySet<string> = new Set(["true", "false", "iota", "nil", "_"]);

const IDENT = /^[\p{L}_][\p{L}\p{Nd}_]*$/u;
const IDENT_START = /[\p{L}_]/u;
const IDENT_PART = /[\p{L}\p{Nd}_]/u;

export function isIdent(s: string): boolean {
  return IDENT.test(s);
}

export function isExported(name: string): boolean {
  const c = name.codePointAt(0);
  if (c === undefined) return false;
  const ch = String.fromCodePoint(c);
  return ch !== "_" && ch.toUpperCase() === ch && ch.toLowerCase() !== ch;
}

/** Index just past the bracket group opening at `i` (`(`, `[`, `{`), skipping string and rune literals; -1 if unbalanced. */
export function skipGroup(s: string, i: number): number {
  const open = s[i];
  const close = open === "(" ? ")" : open === "[" ? "]" : open === "{" ? "}" : undefined;
  if (!close) return -1;
  const stack: string[] = [close];
  let j = i + 1;
  while (j < s.length) {
    const c = s[j]!;
    if (c === '"' || c === "'") {
      j++;
      while (j < s.length && s[j] !== c) j += s[j] === "\\" ? 2 : 1;
      j++;
      continue;
    }
    if (c === "`") {
      const k = s.indexOf("`", j + 1);
      if (k < 0) return -1;
      j = k + 1;
      continue;
    }
    if (c === "(") stack.push(")");
    else if (c === "[") stack.push("]");
    else if (c === "{") stack.push("}");
    else if (c === ")" || c === "]" || c === "}") {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return j + 1;
    }
    j++;
  }
  return -1;
}

/** Split at top-level commas (outside brackets and literals). */
export function splitTop(s: string): string[] {
  const out: string[] = [];
  let start = 0;
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (c === "(" || c === "[" || c === "{") {
      const j = skipGroup(s, i);
      if (j < 0) return [s];
      i = j;
      continue;
    }
    if (c === '"' || c === "'" || c === "`") {
      const j = c === "`" ? s.indexOf("`", i + 1) : s.indexOf(c, i + 1);
      i = j < 0 ? s.length : j + 1;
      continue;
    }
    if (c === ",") {
      out.push(s.slice(start, i).trim());
      start = i + 1;
    }
    i++;
  }
  out.push(s.slice(start).trim());
  return out;
}

/** A named type as written, reduced: `*pkg.T[int]` → {qual: "pkg", name: "T"}. Composite types (slices, maps, funcs, ...) → undefined. */
export function namedType(text: string): { qual?: string; name: string } | undefined {
  let t = text.trim();
  for (;;) {
    if (t.startsWith("*")) t = t.slice(1).trim();
    else if (t.startsWith("(") && skipGroup(t, 0) === t.length) t = t.slice(1, -1).trim();
    else break;
  }
  if (t.endsWith("]")) {
    const open = t.indexOf("[");
    if (open <= 0 || skipGroup(t, open) !== t.length) return undefined;
    t = t.slice(0, open).trim();
  }
  const dot = t.indexOf(".");
  if (dot < 0) return isIdent(t) ? { name: t } : undefined;
  const qual = t.slice(0, dot);
  const name = t.slice(dot + 1);
  return isIdent(qual) && isIdent(name) ? { qual, name } : undefined;
}

/** The element type of a slice, array, map or pointer-to-array type as written; undefined for anything else. */
export function elementType(text: string): string | undefined {
  let t = text.trim();
  if (t.startsWith("*")) t = t.slice(1).trim();
  if (t.startsWith("[")) {
    const j = skipGroup(t, 0);
    return j > 0 && j < t.length ? t.slice(j).trim() : undefined;
  }
  if (t.startsWith("map[")) {
    const j = skipGroup(t, 3);
    return j > 0 && j < t.length ? t.slice(j).trim() : undefined;
  }
  return undefined;
}

/** The first result type of a declared result list: `*T`, `(*T, error)`, `(t *T, err error)`. */
export function firstResult(returns: string | undefined): string | undefined {
  if (!returns) return undefined;
  const r = returns.trim();
  if (!r.startsWith("(")) return r;
  if (skipGroup(r, 0) !== r.length) return undefined;
  const parts = splitTop(r.slice(1, -1));
  if (parts.length === 0 || parts[0] === "") return undefined;
  const named = parts.some((p) => namedEntry(p) !== undefined);
  if (!named) return parts[0];
  for (const p of parts) {
    const n = namedEntry(p);
    if (n) return n;
  }
  return undefined;
}

const TYPE_KEYWORDS = new Set(["chan", "func", "map", "struct", "interface"]);

/** `name Type` → Type, for an entry of a named parameter / result list. */
function namedEntry(p: string): string | undefined {
  const m = /^([\p{L}_][\p{L}\p{Nd}_]*)\s+(\S.*)$/u.exec(p);
  if (!m || TYPE_KEYWORDS.has(m[1]!)) return undefined;
  return m[2];
}

/**
 * The number of parameters of a signature as written (grouped names `a, b int` count 2),
 * reading the parameter list that follows `name` (after a receiver and type parameters).
 */
export function paramCount(signature: string | undefined, name: string): number | undefined {
  if (!signature) return undefined;
  let i = 0;
  const s = signature;
  if (s.startsWith("func")) {
    i = 4;
    while (s[i] === " ") i++;
    if (s[i] === "(") {
      i = skipGroup(s, i);
      if (i < 0) return undefined;
      while (s[i] === " ") i++;
    }
  }
  if (!s.startsWith(name, i)) return undefined;
  i += name.length;
  while (s[i] === " ") i++;
  if (s[i] === "[") {
    i = skipGroup(s, i);
    if (i < 0) return undefined;
    while (s[i] === " ") i++;
  }
  if (s[i] !== "(") return undefined;
  const j = skipGroup(s, i);
  if (j < 0) return undefined;
  const inner = s.slice(i + 1, j - 1).trim();
  if (inner === "") return 0;
  return splitTop(inner).filter((x) => x !== "").length;
}

/** One step of a receiver expression: `a`, `.b`, `(...)`, `[...]`, `.(T)`, `{...}`, or a parenthesised expression. */
export type Op =
  | { k: "id"; name: string }
  | { k: "paren"; inner: string }
  | { k: "sel"; name: string }
  | { k: "call" }
  | { k: "index" }
  | { k: "assert"; type: string }
  | { k: "lit" };

/** Parse a receiver / operand expression as written into a chain of steps; undefined when it is anything else. */
export function parseChain(text: string): Op[] | undefined {
  const s = text.trim();
  const ops: Op[] = [];
  let i = 0;
  while (s[i] === "&" || s[i] === "*" || s[i] === " ") i++;
  if (s[i] === "(") {
    const j = skipGroup(s, i);
    if (j < 0) return undefined;
    ops.push({ k: "paren", inner: s.slice(i + 1, j - 1) });
    i = j;
  } else {
    const id = readIdent(s, i);
    if (!id) return undefined;
    ops.push({ k: "id", name: id });
    i += id.length;
  }
  while (i < s.length) {
    const c = s[i]!;
    if (c === " ") {
      i++;
      continue;
    }
    if (c === ".") {
      i++;
      while (s[i] === " ") i++;
      if (s[i] === "(") {
        const j = skipGroup(s, i);
        if (j < 0) return undefined;
        ops.push({ k: "assert", type: s.slice(i + 1, j - 1).trim() });
        i = j;
        continue;
      }
      const id = readIdent(s, i);
      if (!id) return undefined;
      ops.push({ k: "sel", name: id });
      i += id.length;
      continue;
    }
    if (c === "(" || c === "[" || c === "{") {
      const j = skipGroup(s, i);
      if (j < 0) return undefined;
      ops.push(c === "(" ? { k: "call" } : c === "[" ? { k: "index" } : { k: "lit" });
      i = j;
      continue;
    }
    return undefined;
  }
  return ops;
}

function readIdent(s: string, i: number): string | undefined {
  const first = s.codePointAt(i);
  if (first === undefined || !IDENT_START.test(String.fromCodePoint(first))) return undefined;
  let j = i;
  while (j < s.length) {
    const cp = s.codePointAt(j)!;
    const ch = String.fromCodePoint(cp);
    if (!IDENT_PART.test(ch)) break;
    j += ch.length;
  }
  return s.slice(i, j);
}

/** The `module` path a go.mod declares. */
export function goModModule(text: string): string | undefined {
  for (const raw of text.split("\n")) {
    const line = raw.replace(/\/\/.*$/, "").trim();
    const m = /^module\s+(?:"([^"]+)"|`([^`]+)`|(\S+))$/.exec(line);
    if (m) return m[1] ?? m[2] ?? m[3];
  }
  return undefined;
}

/**
 * The package name an import path most likely declares, for packages outside the tree (whose
 * package clause is not visible): its last element, minus a major-version element (`/v5`),
 * a gopkg.in version (`yaml.v3`), a `go-` prefix and a `-go` / `.go` suffix. `exact` is true when
 * no rewriting was needed (the Go convention: package name = last element).
 */
export function importName(path: string): { name: string; exact: boolean } | undefined {
  const parts = path.split("/").filter((p) => p !== "");
  let last = parts[parts.length - 1];
  if (last === undefined) return undefined;
  let exact = true;
  if (/^v[0-9]+$/.test(last) && parts.length > 1) {
    last = parts[parts.length - 2]!;
    exact = false;
  }
  let name = last;
  name = name.replace(/\.v[0-9]+$/, "");
  name = name.replace(/^go-/, "").replace(/[-.]go$/, "");
  if (name !== last) exact = false;
  if (!isIdent(name)) {
    const alt = name.replace(/[-.]/g, "_");
    if (!isIdent(alt) || KEYWORDS.has(alt)) return undefined;
    return { name: alt, exact: false };
  }
  if (KEYWORDS.has(name)) return undefined;
  return { name, exact };
}

const KEYWORDS = new Set([
  "break",
  "case",
  "chan",
  "const",
  "continue",
  "default",
  "defer",
  "else",
  "fallthrough",
  "for",
  "func",
  "go",
  "goto",
  "if",
  "import",
  "interface",
  "map",
  "package",
  "range",
  "return",
  "select",
  "struct",
  "switch",
  "type",
  "var",
]);

/** The type a method's receiver names: `*Server[T]` → Server. */
export function receiverTypeName(owner: string | undefined): string | undefined {
  if (!owner) return undefined;
  const n = namedType(owner);
  return n && n.qual === undefined ? n.name : undefined;
}

/** The type parameter names of a receiver as written: `*List[K, V]` → [K, V]. */
export function receiverTypeParams(owner: string | undefined): string[] {
  if (!owner) return [];
  const t = owner.replace(/^\*/, "").trim();
  const open = t.indexOf("[");
  if (open < 0 || !t.endsWith("]")) return [];
  return splitTop(t.slice(open + 1, -1)).filter(isIdent);
}

/** A declaration as written: `a, b := rhs` or `k, v := range rhs`. */
export function parseDecl(text: string): { names: string[]; rhs: string; range: boolean } | undefined {
  const i = topIndexOf(text, ":=");
  if (i < 0) return undefined;
  const names = text
    .slice(0, i)
    .split(",")
    .map((x) => x.trim());
  if (!names.every(isIdent)) return undefined;
  let rhs = text.slice(i + 2).trim();
  const range = /^range\b/.test(rhs);
  if (range) rhs = rhs.slice(5).trim();
  return rhs ? { names, rhs, range } : undefined;
}

/** Index of `needle` outside brackets and literals, or -1. */
function topIndexOf(s: string, needle: string): number {
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (c === "(" || c === "[" || c === "{") {
      const j = skipGroup(s, i);
      if (j < 0) return -1;
      i = j;
      continue;
    }
    if (c === '"' || c === "'" || c === "`") return -1;
    if (s.startsWith(needle, i)) return i;
    i++;
  }
  return -1;
}

/** The i-th result type of a declared result list. */
export function nthResult(returns: string | undefined, i: number): string | undefined {
  if (!returns) return undefined;
  if (i === 0) return firstResult(returns);
  const r = returns.trim();
  if (!r.startsWith("(") || skipGroup(r, 0) !== r.length) return undefined;
  const parts = splitTop(r.slice(1, -1));
  if (i >= parts.length) return undefined;
  if (!parts.some((p) => namedEntry(p) !== undefined)) return parts[i];
  // Named results: `(a, b T, err error)`: each name takes the type of the next entry that has one.
  for (let j = i; j < parts.length; j++) {
    const n = namedEntry(parts[j]!);
    if (n) return n;
  }
  return undefined;
}

/**
 * The type a composite literal written with a type literal has (`[]*Logger{…}`, `map[string]T{…}`,
 * `[]struct{ a int }{…}`): the text before its body. Undefined for anything else (`T{…}` is read
 * through the name).
 */
export function compositeLiteralType(text: string): string | undefined {
  const s = text.trim();
  let i = 0;
  let prefixed = false;
  for (;;) {
    if (s[i] === "[") {
      const j = skipGroup(s, i);
      if (j < 0) return undefined;
      i = j;
      prefixed = true;
    } else if (s.startsWith("map[", i)) {
      const j = skipGroup(s, i + 3);
      if (j < 0) return undefined;
      i = j;
      prefixed = true;
    } else if (s[i] === "*" || s[i] === " ") i++;
    else break;
  }
  let end: number;
  const st = /^struct\s*\{/.exec(s.slice(i));
  if (st) {
    end = skipGroup(s, i + st[0].length - 1);
    if (end < 0) return undefined;
  } else {
    const id = prefixed ? /^[A-Za-z_][\w.]*/.exec(s.slice(i)) : null;
    if (!id) return undefined;
    end = i + id[0].length;
    if (s[end] === "[") {
      end = skipGroup(s, end);
      if (end < 0) return undefined;
    }
  }
  return s.slice(end).trimStart().startsWith("{") ? s.slice(0, end).trim() : undefined;
}

/** What ranging over a value of this type yields: index 0 the key (map) or element (channel), index 1 the element / value. */
export function rangeType(container: string, i: number): string | undefined {
  let t = container.trim();
  if (t.startsWith("*")) t = t.slice(1).trim();
  if (t.startsWith("[")) return i === 1 ? elementType(t) : undefined;
  if (t.startsWith("map[")) {
    const j = skipGroup(t, 3);
    if (j < 0) return undefined;
    return i === 0 ? t.slice(4, j - 1).trim() : t.slice(j).trim();
  }
  const ch = /^(?:<-\s*)?chan(?:\s*<-)?\s+(.+)$/.exec(t);
  if (ch) return i === 0 ? ch[1] : undefined;
  return undefined;
}

/** The result type of calling a value of function type: `func(x int) *T` → *T. */
export function funcTypeResult(text: string): string | undefined {
  const t = text.trim();
  if (!t.startsWith("func")) return undefined;
  let i = 4;
  while (t[i] === " ") i++;
  if (t[i] !== "(") return undefined;
  const j = skipGroup(t, i);
  if (j < 0) return undefined;
  const rest = t.slice(j).trim();
  return rest ? firstResult(rest) : undefined;
}

/**
 * Method sets (name, parameter count) of well-known standard-library interfaces, so that an
 * interface of the tree embedding one of them still has a fully known method set.
 */
export const STD_INTERFACES: ReadonlyMap<string, readonly (readonly [string, number])[]> = new Map([
  ["builtin.error", [["Error", 0]]],
  ["fmt.Stringer", [["String", 0]]],
  ["fmt.GoStringer", [["GoString", 0]]],
  ["fmt.Formatter", [["Format", 2]]],
  ["io.Reader", [["Read", 1]]],
  ["io.Writer", [["Write", 1]]],
  ["io.Closer", [["Close", 0]]],
  ["io.Seeker", [["Seek", 2]]],
  ["io.ReaderAt", [["ReadAt", 2]]],
  ["io.WriterAt", [["WriteAt", 2]]],
  ["io.ReaderFrom", [["ReadFrom", 1]]],
  ["io.WriterTo", [["WriteTo", 1]]],
  ["io.ByteReader", [["ReadByte", 0]]],
  ["io.ByteWriter", [["WriteByte", 1]]],
  ["io.RuneReader", [["ReadRune", 0]]],
  ["io.StringWriter", [["WriteString", 1]]],
  ["io.ReadWriter", [["Read", 1], ["Write", 1]]],
  ["io.ReadCloser", [["Read", 1], ["Close", 0]]],
  ["io.WriteCloser", [["Write", 1], ["Close", 0]]],
  ["io.ReadWriteCloser", [["Read", 1], ["Write", 1], ["Close", 0]]],
  ["io.ReadSeeker", [["Read", 1], ["Seek", 2]]],
  ["io.ReadSeekCloser", [["Read", 1], ["Seek", 2], ["Close", 0]]],
  ["context.Context", [["Deadline", 0], ["Done", 0], ["Err", 0], ["Value", 1]]],
  ["net/http.Handler", [["ServeHTTP", 2]]],
  ["net/http.ResponseWriter", [["Header", 0], ["Write", 1], ["WriteHeader", 1]]],
  ["net/http.Flusher", [["Flush", 0]]],
  ["net/http.Hijacker", [["Hijack", 0]]],
  ["net/http.Pusher", [["Push", 2]]],
  ["net/http.RoundTripper", [["RoundTrip", 1]]],
  ["sort.Interface", [["Len", 0], ["Less", 2], ["Swap", 2]]],
  ["encoding/json.Marshaler", [["MarshalJSON", 0]]],
  ["encoding/json.Unmarshaler", [["UnmarshalJSON", 1]]],
  ["encoding.TextMarshaler", [["MarshalText", 0]]],
  ["encoding.TextUnmarshaler", [["UnmarshalText", 1]]],
  ["encoding.BinaryMarshaler", [["MarshalBinary", 0]]],
  ["encoding.BinaryUnmarshaler", [["UnmarshalBinary", 1]]],
  ["flag.Value", [["String", 0], ["Set", 1]]],
  ["sync.Locker", [["Lock", 0], ["Unlock", 0]]],
  ["database/sql/driver.Valuer", [["Value", 0]]],
  ["database/sql.Scanner", [["Scan", 1]]],
  ["net.Conn", [["Read", 1], ["Write", 1], ["Close", 0], ["LocalAddr", 0], ["RemoteAddr", 0], ["SetDeadline", 1], ["SetReadDeadline", 1], ["SetWriteDeadline", 1]]],
  ["hash.Hash", [["Write", 1], ["Sum", 1], ["Reset", 0], ["Size", 0], ["BlockSize", 0]]],
]);
