// Line matchers for grep: a literal (indexOf on bytes, case-folded when asked) or a regular
// expression on re2js — linear time, never JS RegExp, which backtracks on an agent's pattern.
// Each matcher first rejects a whole file cheaply, then tests lines one by one: a hit is a line.
import { RE2JS } from "re2js";
import { DrsgError } from "../../model/errors.js";

export interface LineMatcher {
  /** False when no line of the file can match (a necessary condition, checked on raw bytes). */
  mayMatch(bytes: Buffer): boolean;
  /** Whether one line (without its newline) matches. */
  test(line: string): boolean;
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

function literalMatcher(pattern: string, ignoreCase: boolean): LineMatcher {
  if (!ignoreCase) {
    const needle = Buffer.from(pattern, "utf8");
    return {
      mayMatch: (b) => b.indexOf(needle) !== -1,
      test: (l) => l.includes(pattern),
      indexIn: (l) => l.indexOf(pattern),
    };
  }
  const low = pattern.toLowerCase();
  // An ASCII needle folds the same on latin1 text, where one byte is one character: no UTF-8 decode.
  const mayMatch = isAscii(low)
    ? (b: Buffer) => b.toString("latin1").toLowerCase().includes(low)
    : (b: Buffer) => b.toString("utf8").toLowerCase().includes(low);
  return {
    mayMatch,
    test: (l) => l.toLowerCase().includes(low),
    indexIn: (l) => {
      const folded = l.toLowerCase();
      // toLowerCase can change a string's length (İ → i̇); then the index is only approximate.
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

function evalPrefilter(p: Prefilter, has: (s: string) => boolean): boolean {
  if (p.type === EXACT) return has(p.str);
  if (p.type === AND) return p.subs.every((s) => evalPrefilter(s, has));
  return p.subs.some((s) => evalPrefilter(s, has));
}

function regexMatcher(pattern: string, ignoreCase: boolean): LineMatcher {
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern, (ignoreCase ? RE2JS.CASE_INSENSITIVE : 0) | RE2JS.MULTILINE);
  } catch (e) {
    throw new DrsgError(
      "BAD_REGEX",
      `grep: pattern /${pattern}/ is not a valid RE2 expression (${(e as Error).message.replace("`(?m)", "`")}) — fix it, or pass regex: false to search the text literally`,
      { pattern },
    );
  }
  const pf = prefilterOf(re);
  const bytesOf = new Map<string, Buffer>();
  const needle = (s: string) => {
    let b = bytesOf.get(s);
    if (!b) bytesOf.set(s, (b = Buffer.from(s, "utf8")));
    return b;
  };
  // Without a literal to look for, one pass over the whole file rejects it — valid only while a
  // per-line match implies a whole-file match: no CR (`$` before \r\n), no \A / \z, no inline flags.
  const wholeFileOk = !/\\[Az]|\(\?/.test(pattern);
  return {
    mayMatch(b) {
      if (pf) return evalPrefilter(pf, (s) => b.indexOf(needle(s)) !== -1);
      if (!wholeFileOk || b.indexOf(13) !== -1) return true;
      return re.test(b);
    },
    test: pf ? (l) => evalPrefilter(pf, (s) => l.includes(s)) && re.test(l) : (l) => re.test(l),
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
