// Text the python resolver reads as written: receiver paths (`self.svc`, `Foo(1).bar`,
// `super().x`), annotations (`Optional["Foo"]`, `list[int] | None`) and superclass lists.
// Small hand parsers: anything they do not understand yields undefined (= unknown), never a guess.

/** One step of a receiver path: a name, or a call of what precedes it (with its argument texts). */
export type Step = { kind: "name"; name: string } | { kind: "call"; args: string[] };

const IDENT = /[A-Za-z_\u00c0-\uffff][A-Za-z0-9_\u00c0-\uffff]*/y;

/** Split `text` at top-level commas (outside brackets and strings). */
export function splitTop(text: string, sep = ","): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = "";
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = "";
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth--;
    else if (c === sep && depth === 0) {
      out.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = text.slice(start).trim();
  if (last || out.length > 0) out.push(last);
  return out.filter((s) => s.length > 0);
}

/** Index of the bracket closing the one opened at `open`, or -1. */
function closing(text: string, open: number): number {
  let depth = 0;
  let quote = "";
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = "";
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** `a.b(x).c()` → steps; undefined for anything else (subscripts, operators, literals). */
export function parsePath(text: string): Step[] | undefined {
  const steps: Step[] = [];
  let i = 0;
  const s = text.trim();
  const ident = (): string | undefined => {
    while (s[i] === " ") i++;
    IDENT.lastIndex = i;
    const m = IDENT.exec(s);
    if (!m) return undefined;
    i += m[0].length;
    return m[0];
  };
  const head = ident();
  if (!head) return undefined;
  steps.push({ kind: "name", name: head });
  while (i < s.length) {
    const c = s[i];
    if (c === " ") {
      i++;
      continue;
    }
    if (c === ".") {
      i++;
      const n = ident();
      if (!n) return undefined;
      steps.push({ kind: "name", name: n });
    } else if (c === "(") {
      const j = closing(s, i);
      if (j < 0) return undefined;
      steps.push({ kind: "call", args: splitTop(s.slice(i + 1, j)) });
      i = j + 1;
    } else return undefined;
  }
  return steps;
}

/** A parsed annotation: a union of alternatives, each a dotted name with optional type arguments. */
export type Ann =
  | { kind: "none" }
  | { kind: "name"; path: string; args?: Ann[] }
  | { kind: "union"; alts: Ann[] }
  | { kind: "other" };

function stripQuotes(t: string): string | undefined {
  const m = /^[rRbBuU]?("""|'''|"|')([\s\S]*)\1$/.exec(t);
  return m ? m[2] : undefined;
}

/** Parse an annotation as written (quotes of a forward reference removed at any depth). */
export function parseAnnotation(text: string, depth = 0): Ann {
  const t = text.trim();
  if (!t || depth > 8) return { kind: "other" };
  const inner = stripQuotes(t);
  if (inner !== undefined) return parseAnnotation(inner, depth + 1);
  const alts = splitTop(t, "|");
  if (alts.length > 1) return { kind: "union", alts: alts.map((a) => parseAnnotation(a, depth + 1)) };
  if (t === "None") return { kind: "none" };
  const br = t.indexOf("[");
  const base = (br >= 0 ? t.slice(0, br) : t).trim();
  if (!/^[A-Za-z_][A-Za-z0-9_]*(\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*$/.test(base)) return { kind: "other" };
  const path = base.replace(/\s+/g, "");
  if (br < 0) return { kind: "name", path };
  const end = closing(t, br);
  if (end !== t.length - 1) return { kind: "other" };
  return { kind: "name", path, args: splitTop(t.slice(br + 1, end)).map((a) => parseAnnotation(a, depth + 1)) };
}

/** Every dotted name an annotation mentions (for USES_TYPE), in order, without duplicates. */
export function annotationNames(a: Ann, out: string[] = []): string[] {
  if (a.kind === "name") {
    if (!out.includes(a.path)) out.push(a.path);
    for (const x of a.args ?? []) annotationNames(x, out);
  } else if (a.kind === "union") for (const x of a.alts) annotationNames(x, out);
  return out;
}

/** The bases of a superclass list as written, `(A, b.B, Generic[T], metaclass=M)` → `A`, `b.B`, `Generic`. */
export function baseList(text: string): string[] {
  let t = text.trim();
  if (t.startsWith("(") && t.endsWith(")")) t = t.slice(1, -1);
  const out: string[] = [];
  for (const part of splitTop(t)) {
    if (/^\*/.test(part)) continue; // *bases: dynamic
    if (/^[A-Za-z_][A-Za-z0-9_]*\s*=/.test(part)) continue; // metaclass=..., keywords
    const br = part.indexOf("[");
    out.push((br >= 0 ? part.slice(0, br) : part).trim());
  }
  return out;
}

/** The Python type of a literal as written (receiver kinds and `@new` initialisers). */
export function literalType(nodeType: string | undefined, text: string): string | undefined {
  switch (nodeType) {
    case "string":
    case "concatenated_string":
      return /^[rRuUfF]*[bB]/.test(text) ? "bytes" : "str";
    case "list":
    case "list_comprehension":
      return "list";
    case "dictionary":
    case "dictionary_comprehension":
      return "dict";
    case "set":
    case "set_comprehension":
      return "set";
    case "tuple":
      return "tuple";
    case "integer":
      return "int";
    case "float":
      return "float";
    case "true":
    case "false":
      return "bool";
    default:
      break;
  }
  if (nodeType !== undefined) return undefined;
  // No node type (an `@new` initialiser): classify by the text.
  const s = text.trim();
  if (/^[rRuUfFbB]*("|')/.test(s)) return /^[rRuUfF]*[bB]/.test(s) ? "bytes" : "str";
  if (s.startsWith("[")) return "list";
  if (s.startsWith("{")) {
    if (s === "{}") return "dict";
    const inner = s.slice(1, -1);
    if (/^\s*\*\*/.test(inner)) return "dict";
    const first = splitTop(inner)[0] ?? "";
    return splitTop(first, ":").length > 1 && !/\blambda\b/.test(first) ? "dict" : "set";
  }
  if (s.startsWith("(")) return "tuple";
  if (/^(True|False)$/.test(s)) return "bool";
  if (/^[0-9][0-9_]*[lL]?$|^0[xXoObB][0-9a-fA-F_]+$/.test(s)) return "int";
  if (/^[0-9][0-9_]*\.?[0-9_]*([eE][-+]?[0-9]+)?[jJ]?$|^\.[0-9]/.test(s)) return /[jJ]$/.test(s) ? "complex" : "float";
  return undefined;
}
