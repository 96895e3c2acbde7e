// Small readers for the text a partial records as written: type annotations (`Repo<User> | null`)
// and receiver expressions (`this.svc`, `makeC().x`, `new C()`, `(x as C)`). Anything they do not
// recognise is reported as such, so the binder can leave the site unresolved rather than guess.

/** A type annotation, as far as member lookup needs it. */
export type TypeExpr =
  | { k: "named"; name: string; args: string[] }
  | { k: "union"; parts: TypeExpr[] }
  /** Arrays, tuples, literal types: values whose members are the runtime's own. */
  | { k: "builtin" }
  /** `any`, `unknown`, object or function type literals, `typeof x`, anything unread. */
  | { k: "unknown" };

const IDENT = /^[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*$/;

/** Split at a top-level separator character (not inside <>, (), {}, [] or quotes). */
export function splitTop(s: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === "=" && s[i + 1] === ">") {
      i++;
      continue;
    }
    if (c === '"' || c === "'" || c === "`") {
      i = skipString(s, i);
      continue;
    }
    if (c === "<" || c === "(" || c === "{" || c === "[") depth++;
    else if (c === ">" || c === ")" || c === "}" || c === "]") depth--;
    else if (depth === 0 && c === sep) {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  out.push(s.slice(start));
  return out;
}

function skipString(s: string, i: number): number {
  const q = s[i];
  let j = i + 1;
  while (j < s.length && s[j] !== q) j += s[j] === "\\" ? 2 : 1;
  return j;
}

/** Read a type annotation as written. */
export function parseType(text: string): TypeExpr {
  let s = text.trim().replace(/^:\s*/, "");
  if (s.startsWith("|")) s = s.slice(1).trim();
  const alts = splitTop(s, "|")
    .map((x) => x.trim())
    .filter((x) => x !== "null" && x !== "undefined" && x !== "void" && x !== "never" && x !== "");
  if (alts.length === 0) return { k: "unknown" };
  if (alts.length > 1) return { k: "union", parts: alts.map(parseOne) };
  return parseOne(alts[0]!);
}

function parseOne(raw: string): TypeExpr {
  let s = raw.trim();
  while (s.startsWith("(") && s.endsWith(")") && matchingClose(s, 0) === s.length - 1) s = s.slice(1, -1).trim();
  if (s.startsWith("readonly ")) s = s.slice("readonly ".length).trim();
  if (splitTop(s, "|").length > 1) return parseType(s);
  if (splitTop(s, "&").length > 1) return { k: "unknown" };
  if (s.endsWith("[]")) return { k: "builtin" };
  if (/^["'`\d-]/.test(s) || s.startsWith("[") || s === "true" || s === "false") return { k: "builtin" };
  if (/^(string|number|boolean|bigint|symbol)$/.test(s)) return { k: "builtin" };
  const lt = s.indexOf("<");
  if (lt < 0) return IDENT.test(s) ? { k: "named", name: s.replace(/\s+/g, ""), args: [] } : { k: "unknown" };
  const name = s.slice(0, lt).trim();
  if (!IDENT.test(name) || !s.endsWith(">") || matchingClose(s, lt) !== s.length - 1) return { k: "unknown" };
  return { k: "named", name: name.replace(/\s+/g, ""), args: splitTop(s.slice(lt + 1, -1), ",").map((a) => a.trim()) };
}

/** Index of the bracket closing the one at `open` (strings skipped), or -1. */
export function matchingClose(s: string, open: number): number {
  const o = s[open];
  const c = o === "(" ? ")" : o === "<" ? ">" : o === "[" ? "]" : "}";
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === '"' || ch === "'" || ch === "`") {
      i = skipString(s, i);
      continue;
    }
    if (ch === "=" && s[i + 1] === ">") {
      i++;
      continue;
    }
    if (ch === o) depth++;
    else if (ch === c) {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** A receiver expression: a head and a chain of property reads and calls. */
export type Head =
  | { k: "this" }
  | { k: "super" }
  | { k: "ident"; name: string }
  | { k: "new"; ctor: PathExpr }
  | { k: "cast"; type: string };
/** A call step; `args` is the argument count when the text shows the arguments. */
export type Step = { k: "prop"; name: string } | { k: "call"; args?: number; typeArgs?: true };
export interface PathExpr {
  head: Head;
  steps: Step[];
}

const IDENT_AT = /[A-Za-z_$#][\w$]*/y;

/** Read a receiver / callee expression; undefined when it is not a plain chain (`a[k]`, templates, ...). */
export function parsePath(text: string): PathExpr | undefined {
  // `await a.b<T>(x).c()`: tree-sitter-typescript puts the `await` inside the chain; it applies to the whole.
  const s = text.trim().replace(/^await\s+/, "");
  return readChain(s, 0, s.length);
}

function readChain(s: string, from: number, to: number): PathExpr | undefined {
  let i = from;
  const ws = () => {
    while (i < to && /\s/.test(s[i]!)) i++;
  };
  const ident = (): string | undefined => {
    IDENT_AT.lastIndex = i;
    const m = IDENT_AT.exec(s);
    if (!m || m.index !== i || i + m[0].length > to) return undefined;
    i += m[0].length;
    return m[0];
  };
  ws();
  let head: Head;
  if (s[i] === "(") {
    const close = matchingClose(s, i);
    if (close < 0 || close >= to) return undefined;
    const inner = s.slice(i + 1, close).trim();
    const as = /^([\s\S]*?)\s+as\s+([\s\S]+)$/.exec(inner);
    if (as && !splitTop(as[1]!, ",").some((x) => x.includes(" as "))) head = { k: "cast", type: as[2]! };
    else {
      const innerPath = readChain(s, i + 1, close);
      if (!innerPath) return undefined;
      i = close + 1;
      return continueChain(s, i, to, innerPath);
    }
    i = close + 1;
  } else if (s.startsWith("new ", i)) {
    i += 4;
    ws();
    // the constructor: identifiers and dots, then arguments
    const start = i;
    while (i < to && /[\w$.\s]/.test(s[i]!)) i++;
    const ctor = readChain(s, start, i);
    if (!ctor || ctor.steps.some((x) => x.k === "call")) return undefined;
    ws();
    if (s[i] === "<") {
      const close = matchingClose(s, i);
      if (close < 0) return undefined;
      i = close + 1;
    }
    if (s[i] === "(") {
      const close = matchingClose(s, i);
      if (close < 0 || close >= to) return undefined;
      i = close + 1;
    }
    head = { k: "new", ctor };
  } else {
    const id = ident();
    if (!id) return undefined;
    head = id === "this" ? { k: "this" } : id === "super" ? { k: "super" } : { k: "ident", name: id };
  }
  return continueChain(s, i, to, { head, steps: [] });
}

function continueChain(s: string, i: number, to: number, path: PathExpr): PathExpr | undefined {
  const steps = path.steps;
  let typeArgs = false;
  while (i < to) {
    const c = s[i]!;
    if (/\s/.test(c) || c === "!") {
      i++;
      continue;
    }
    if (c === "?" && s[i + 1] === ".") {
      i += 2;
      if (s[i] === "(") continue;
      if (s[i] === "[") return undefined;
    } else if (c === ".") i++;
    else if (c === "(") {
      const close = matchingClose(s, i);
      if (close < 0 || close >= to) return undefined;
      const inner = s.slice(i + 1, close);
      const step: Step = { k: "call", args: inner.trim() === "" ? 0 : splitTop(inner, ",").filter((a) => a.trim() !== "").length };
      if (typeArgs) step.typeArgs = true;
      typeArgs = false;
      steps.push(step);
      i = close + 1;
      continue;
    } else if (c === "<") {
      const close = matchingClose(s, i);
      if (close < 0 || s[close + 1] !== "(") return undefined;
      typeArgs = true;
      i = close + 1;
      continue;
    } else return undefined;
    while (i < to && /\s/.test(s[i]!)) i++;
    IDENT_AT.lastIndex = i;
    const m = IDENT_AT.exec(s);
    if (!m || m.index !== i) return undefined;
    steps.push({ k: "prop", name: m[0] });
    i += m[0].length;
  }
  return path;
}

/** `View.prototype` → { path: "View", proto: true }; `exports` / `module.exports` → path "". */
export function normaliseObjectPath(object: string): { path: string; proto: boolean } {
  const s = object.replace(/\s+/g, "");
  if (s === "exports" || s === "module.exports") return { path: "", proto: false };
  const stripped = s.replace(/^(?:module\.)?exports\./, "");
  if (stripped !== s) return { path: stripped.replace(/\.prototype$/, ""), proto: stripped.endsWith(".prototype") };
  if (s.endsWith(".prototype")) return { path: s.slice(0, -".prototype".length), proto: true };
  return { path: s, proto: false };
}
