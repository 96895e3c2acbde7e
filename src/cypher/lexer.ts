// Tokens of the openCypher subset, each with its line and column (1-based) so a parse error
// can point at the character it stopped on. Keywords are not reserved here: the parser reads an
// identifier as a keyword where the grammar expects one, so `n.match` or `AS type` stay names.
import { DrsgError } from "../model/errors.js";

export type TokKind = "ident" | "qident" | "int" | "float" | "string" | "param" | "punct" | "eof";

export interface Token {
  kind: TokKind;
  /** The identifier, the string's decoded value, the number's text, the punctuation itself. */
  text: string;
  line: number;
  col: number;
  /** Offset in the statement of its first character, and one past its last. */
  pos: number;
  end: number;
}

// Longest first: the scanner tries each in order.
const PUNCT = ["<>", "<=", ">=", "=~", "+=", "->", "<-", "..", "(", ")", "[", "]", "{", "}", ",", ":", ".", "|", "=", "<", ">", "+", "-", "*", "/", "%", "^", "$", ";"];

export function syntaxError(message: string, line: number, col: number, extra: Record<string, unknown> = {}): DrsgError {
  return new DrsgError("CYPHER_SYNTAX", `line ${line}, column ${col}: ${message}`, { line, col, ...extra });
}

/** Split a statement into tokens; comments (`//`, `/* *\/`) and whitespace are dropped. */
export function lex(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const at = (p: number) => ({ line, col: p - lineStart + 1, pos: p, end: p });
  const advanceTo = (end: number) => {
    for (let k = i; k < end; k++) {
      if (src.charCodeAt(k) === 10) {
        line++;
        lineStart = k + 1;
      }
    }
    i = end;
  };
  while (i < src.length) {
    const c = src[i]!;
    if (c === " " || c === "\t" || c === "\r" || c === "\n") {
      advanceTo(i + 1);
      continue;
    }
    if (c === "/" && src[i + 1] === "/") {
      const e = src.indexOf("\n", i);
      advanceTo(e < 0 ? src.length : e);
      continue;
    }
    if (c === "/" && src[i + 1] === "*") {
      const e = src.indexOf("*/", i + 2);
      if (e < 0) {
        const p = at(i);
        throw syntaxError("unterminated /* comment", p.line, p.col);
      }
      advanceTo(e + 2);
      continue;
    }
    const p = at(i);
    if (c === "'" || c === '"') {
      let j = i + 1;
      let val = "";
      for (;;) {
        if (j >= src.length) throw syntaxError("unterminated string literal", p.line, p.col);
        const d = src[j]!;
        if (d === c) break;
        if (d === "\\") {
          const e = src[j + 1];
          const map: Record<string, string> = { n: "\n", t: "\t", r: "\r", b: "\b", f: "\f", "\\": "\\", "'": "'", '"': '"' };
          if (e === "u" && /^[0-9a-fA-F]{4}$/.test(src.slice(j + 2, j + 6))) {
            val += String.fromCharCode(Number.parseInt(src.slice(j + 2, j + 6), 16));
            j += 6;
            continue;
          }
          if (e === undefined || map[e] === undefined) {
            const q = at(j);
            throw syntaxError(`unknown escape \\${e ?? ""} in a string`, q.line, q.col);
          }
          val += map[e];
          j += 2;
          continue;
        }
        val += d;
        j++;
      }
      out.push({ kind: "string", text: val, ...p });
      advanceTo(j + 1);
      out[out.length - 1]!.end = i;
      continue;
    }
    if (c === "`") {
      const e = src.indexOf("`", i + 1);
      if (e < 0) throw syntaxError("unterminated `name`", p.line, p.col);
      out.push({ kind: "qident", text: src.slice(i + 1, e), ...p });
      advanceTo(e + 1);
      out[out.length - 1]!.end = i;
      continue;
    }
    if (/[0-9]/.test(c)) {
      // `1..3` is int, range, int: a dot followed by a dot is not a decimal point.
      const m = /^(?:0x[0-9a-fA-F]+|[0-9]+(?:\.[0-9]+(?!\.))?(?:[eE][+-]?[0-9]+)?)/.exec(src.slice(i, i + 400))!;
      const t = m[0];
      const isFloat = !t.startsWith("0x") && /[.eE]/.test(t);
      out.push({ kind: isFloat ? "float" : "int", text: t, ...p });
      advanceTo(i + t.length);
      out[out.length - 1]!.end = i;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i, i + 400))!;
      out.push({ kind: "ident", text: m[0], ...p });
      advanceTo(i + m[0].length);
      out[out.length - 1]!.end = i;
      continue;
    }
    if (c === "$") {
      const m = /^\$([A-Za-z_][A-Za-z0-9_]*|[0-9]+)/.exec(src.slice(i, i + 400));
      if (!m) throw syntaxError("a parameter is `$name`", p.line, p.col);
      out.push({ kind: "param", text: m[1]!, ...p });
      advanceTo(i + m[0].length);
      out[out.length - 1]!.end = i;
      continue;
    }
    const punct = PUNCT.find((s) => src.startsWith(s, i));
    if (!punct) throw syntaxError(`unexpected character ${JSON.stringify(c)}`, p.line, p.col);
    out.push({ kind: "punct", text: punct, ...p });
    advanceTo(i + punct.length);
    out[out.length - 1]!.end = i;
  }
  out.push({ kind: "eof", text: "", ...at(i) });
  return out;
}
