// Line matchers for grep: a literal (indexOf on the file's bytes, case-folded when asked) or a
// regular expression on re2js — linear time, never JS RegExp, which backtracks on an agent's
// pattern. A hit is a line. Files are searched as bytes where possible: the matcher jumps from one
// occurrence of a required string to the next and decodes only the lines it has to test.
import { RE2JS } from "re2js";
import { DrsgError } from "../../model/errors.js";

export interface LineMatcher {
  /** Whether one line (without its newline) matches. */
  test(line: string): boolean;
  /** The matching lines of a file given as UTF-8 bytes: 0-based, split on \n, a trailing \r not part of a line. */
  fileHits(bytes: Buffer): number[];
  /** Where the first match in `line` starts, -1 if none (to window a long line around it). */
  indexIn(line: string): number;
}

export interface MatchOptions {
  regex: boolean;
  ignoreCase: boolean;
}

/** The matcher for `pattern`; an invalid regular expression is BAD_REGEX. */
export function compileMatcher(pattern: string, opts: MatchOptions): LineMatcher {
  if (pattern === "") throw new DrsgError("BAD_INPUT", "grep: the pattern is empty — pass the text to look for");
  return opts.regex ? regexMatcher(pattern, opts.ignoreCase) : literalMatcher(pattern, opts.ignoreCase);
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** Line `[start, nl)` of `b` as text, a trailing \r dropped (`nl` -1: to the end). */
function lineAt(b: Buffer, start: number, nl: number): string {
  let end = nl === -1 ? b.length : nl;
  if (end > start && b[end - 1] === 13) end--;
  return b.toString("utf8", start, end);
}

/**
 * The lines of `b` holding an occurrence of one of `n` anchors — `find(k, from)` is the byte offset
 * of anchor k's next occurrence — that `test` accepts (all of them without one). Jumps from
 * occurrence to occurrence, counting newlines only up to each.
 */
function scanBytes(b: Buffer, n: number, find: (k: number, from: number) => number, test?: (line: string) => boolean): number[] {
  const hits: number[] = [];
  const next: number[] = [];
  for (let k = 0; k < n; k++) next.push(find(k, 0));
  let line = 0;
  let lineStart = 0;
  for (;;) {
    let at = -1;
    for (const x of next) if (x !== -1 && (at === -1 || x < at)) at = x;
    if (at === -1) return hits;
    let nl = b.indexOf(10, lineStart);
    while (nl !== -1 && nl < at) {
      line++;
      lineStart = nl + 1;
      nl = b.indexOf(10, lineStart);
    }
    if (!test || test(lineAt(b, lineStart, nl))) hits.push(line);
    if (nl === -1) return hits;
    line++;
    lineStart = nl + 1;
    for (let k = 0; k < n; k++) if (next[k] !== -1 && next[k]! < lineStart) next[k] = find(k, lineStart);
  }
}

/** The same over a decoded text, anchors looked for in `search` (the text or a same-length folded copy). */
function scanText(text: string, search: string, anchor: string, test: (line: string) => boolean): number[] {
  const hits: number[] = [];
  let line = 0;
  let lineStart = 0;
  let at = search.indexOf(anchor);
  while (at !== -1) {
    let nl = text.indexOf("\n", lineStart);
    while (nl !== -1 && nl < at) {
      line++;
      lineStart = nl + 1;
      nl = text.indexOf("\n", lineStart);
    }
    let end = nl === -1 ? text.length : nl;
    if (end > lineStart && text.charCodeAt(end - 1) === 13) end--;
    if (test(text.slice(lineStart, end))) hits.push(line);
    if (nl === -1) break;
    line++;
    lineStart = nl + 1;
    at = search.indexOf(anchor, lineStart);
  }
  return hits;
}

/** Every line of a text tested on its own (no anchor to jump to). */
function eachLine(text: string, test: (line: string) => boolean): number[] {
  const hits: number[] = [];
  let line = 0;
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf("\n", start);
    let end = nl === -1 ? text.length : nl;
    if (end > start && text.charCodeAt(end - 1) === 13) end--;
    if (test(text.slice(start, end))) hits.push(line);
    if (nl === -1) break;
    line++;
    start = nl + 1;
  }
  return hits;
}

// Characters outside ASCII whose lower case holds an ASCII letter: K (Kelvin) → k, İ → i̇.
const FOLDS_TO_ASCII = [Buffer.from("\u212a", "utf8"), Buffer.from("\u0130", "utf8")];

function literalMatcher(pattern: string, ignoreCase: boolean): LineMatcher {
  // A line never holds a newline, so a pattern with one matches nothing; one with a CR is
  // searched line by line (a CR before a newline is not part of the line).
  const never = pattern.includes("\n");
  const hasCr = pattern.includes("\r");
  if (!ignoreCase) {
    const needle = Buffer.from(pattern, "utf8");
    const test = (l: string) => l.includes(pattern);
    return {
      test,
      fileHits(b) {
        if (never || b.indexOf(needle) === -1) return [];
        return hasCr ? eachLine(b.toString("utf8"), test) : scanBytes(b, 1, (_k, from) => b.indexOf(needle, from));
      },
      indexIn: (l) => l.indexOf(pattern),
    };
  }
  const low = pattern.toLowerCase();
  const test = (l: string) => l.toLowerCase().includes(low);
  const viaText = (b: Buffer): number[] => {
    const text = b.toString("utf8");
    const folded = text.toLowerCase();
    if (!folded.includes(low)) return [];
    // toLowerCase can change a text's length (İ → i̇): then offsets differ, and lines are folded one by one.
    return folded.length === text.length && !hasCr ? scanText(text, folded, low, test) : eachLine(text, test);
  };
  // An ASCII needle folds the same on latin1 text, where one byte is one character and offsets
  // are byte offsets: no UTF-8 decode, unless the file holds a character that folds into ASCII.
  const ascii = isAscii(low) && !hasCr;
  const special = /[ki]/.test(low);
  return {
    test,
    fileHits(b) {
      if (never) return [];
      if (!ascii || (special && FOLDS_TO_ASCII.some((x) => b.indexOf(x) !== -1))) return viaText(b);
      const folded = b.toString("latin1").toLowerCase();
      if (!folded.includes(low)) return [];
      return scanBytes(b, 1, (_k, from) => folded.indexOf(low, from));
    },
    indexIn: (l) => {
      const folded = l.toLowerCase();
      return folded.length === l.length ? folded.indexOf(low) : 0;
    },
  };
}

/** re2js's literal prefilter: every match contains these strings (EXACT / AND / OR tree). */
interface Prefilter {
  type: number;
  str: string;
  subs: Prefilter[];
}
const EXACT = 1;
const AND = 2;
const OR = 3;

function prefilterOf(re: RE2JS): Prefilter | undefined {
  try {
    const pf = (re.re2() as unknown as { prefilter?: unknown }).prefilter;
    return isPrefilter(pf) ? pf : undefined;
  } catch {
    return undefined;
  }
}

/** Guard against a re2js upgrade changing the prefilter's shape: anything unexpected means "no prefilter". */
function isPrefilter(x: unknown): x is Prefilter {
  if (typeof x !== "object" || x === null) return false;
  const p = x as Partial<Prefilter>;
  if (p.type === EXACT) return typeof p.str === "string" && p.str.length > 0;
  if (p.type === AND || p.type === OR) return Array.isArray(p.subs) && p.subs.length > 0 && p.subs.every(isPrefilter);
  return false;
}

function prefilterStrings(p: Prefilter): string[] {
  return p.type === EXACT ? [p.str] : p.subs.flatMap(prefilterStrings);
}

function evalPrefilter(p: Prefilter, has: (s: string) => boolean): boolean {
  if (p.type === EXACT) return has(p.str);
  if (p.type === AND) return p.subs.every((s) => evalPrefilter(s, has));
  return p.subs.some((s) => evalPrefilter(s, has));
}

/** A line test from the prefilter: every string of an AND, one of an OR, built once. */
function lineFilter(p: Prefilter): (line: string) => boolean {
  if (p.type === EXACT) {
    const str = p.str;
    return (l) => l.includes(str);
  }
  const subs = p.subs.map(lineFilter);
  return p.type === AND ? (l) => subs.every((f) => f(l)) : (l) => subs.some((f) => f(l));
}

const MAX_ANCHORS = 16;

/**
 * Strings at least one of which every matching line contains: an EXACT, the strings of an OR of
 * EXACTs, or the best such set among an AND's parts (the longest single string first).
 */
function anchorsOf(p: Prefilter): string[] | undefined {
  if (p.type === EXACT) return [p.str];
  if (p.type === OR) {
    if (p.subs.length > MAX_ANCHORS || !p.subs.every((s) => s.type === EXACT)) return undefined;
    return p.subs.map((s) => s.str);
  }
  let best: string[] | undefined;
  const score = (xs: string[]) => Math.min(...xs.map((x) => x.length)) / xs.length;
  for (const s of p.subs) {
    const a = anchorsOf(s);
    if (a && (!best || score(a) > score(best))) best = a;
  }
  return best;
}

function regexMatcher(pattern: string, ignoreCase: boolean): LineMatcher {
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern, (ignoreCase ? RE2JS.CASE_INSENSITIVE : 0) | RE2JS.MULTILINE);
  } catch (e) {
    throw new DrsgError(
      "BAD_REGEX",
      `grep: pattern /${pattern}/ is not a valid RE2 expression (${(e as Error).message.replace(/`\(\?[a-z]+\)/, "`")}) — fix it, or pass regex: false to search the text literally`,
      { pattern },
    );
  }
  const pf = prefilterOf(re);
  const filter = pf ? lineFilter(pf) : undefined;
  const test = filter ? (l: string) => filter(l) && re.test(l) : (l: string) => re.test(l);
  const anchors = pf ? anchorsOf(pf)?.map((a) => Buffer.from(a, "utf8")) : undefined;
  const strings = pf ? [...new Set(prefilterStrings(pf))].map((x) => [x, Buffer.from(x, "utf8")] as const) : [];
  // Without a literal to look for, one pass over the whole file rejects it — valid only while a
  // per-line match implies a whole-file match: no CR (`$` before \r\n), no \A / \z, no inline flags.
  const wholeFileOk = !/\\[Az]|\(\?/.test(pattern);
  return {
    test,
    fileHits(b) {
      if (anchors) return scanBytes(b, anchors.length, (k, from) => b.indexOf(anchors[k]!, from), test);
      if (pf) {
        const present = new Set(strings.filter(([, bytes]) => b.indexOf(bytes) !== -1).map(([x]) => x));
        if (!evalPrefilter(pf, (x) => present.has(x))) return [];
      } else if (wholeFileOk && b.indexOf(13) === -1 && !re.test(b)) return [];
      return eachLine(b.toString("utf8"), test);
    },
    indexIn(l) {
      const m = re.exec(l);
      return m ? (m as unknown as { index: number }).index : -1;
    },
  };
}

/** A literal pattern that reads like a regular expression (for the hint after a literal miss). */
export function looksLikeRegex(pattern: string): boolean {
  return /\||\.\*|\.\+|\\[dwsbDWS]|\[[^\]]+\]|\^\S|\S\$$|\(\?/.test(pattern);
}
