// grep's matchers: the fast whole-text paths (anchor jumps, the byte-level rejection, case folding)
// must find exactly the lines a plain line-by-line test finds, for random texts and patterns.
// Seeded: DRSG_MATCH_SEED reproduces a run.
import assert from "node:assert/strict";
import { test } from "node:test";
import { compileMatcher, looksLikeRegex } from "../../src/tools/text/match.js";
import { splitLines } from "../../src/tools/text/read.js";
import { rng as prng } from "../support/random.js";

const SEED = process.env.DRSG_MATCH_SEED ? Number(process.env.DRSG_MATCH_SEED) : Date.now() % 2 ** 31;

const ATOMS = ["a", "b", "ab", "A", "B", "é", "É", "İ", "K", "k", "I", "i", "\r", "\n", "\r\n", " ", "(", ")", "1", "x.y", "ß", "😀"];
const PATTERNS = [
  "a",
  "ab",
  "AB",
  "b a",
  "é",
  "x.y",
  "(",
  "😀",
  "a\nb",
  "İ",
  "ß",
  "k",
  "i",
  "ki",
  "a\r",
  "(k|i)",
  "ab$",
  "^a",
  "^$",
  "a|b",
  "(ab|ba)+",
  "[0-9]+",
  "x\\.y",
  "a.*b",
  "\\bab\\b",
  "a\\s+b",
  "(?i)ab",
  "\\Aab",
  "ab\\z",
  "(a|é)b",
  "[^a]",
  "a{2}",
];

test(`matchers agree with a line-by-line reference (seed ${SEED})`, () => {
  const r = prng(SEED);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  for (let round = 0; round < 3000; round++) {
    const text = Array.from({ length: Math.floor(r() * 40) }, () => pick(ATOMS)).join("");
    const pattern = pick(PATTERNS);
    const regex = r() < 0.6;
    const ignoreCase = r() < 0.4;
    if (regex && pattern === "(") continue; // not a regular expression
    const m = compileMatcher(pattern, { regex, ignoreCase });
    const lines = splitLines(text);
    const expected = lines.flatMap((l, i) => (m.test(l) ? [i] : []));
    const got = m.fileHits(Buffer.from(text, "utf8"));
    assert.deepEqual(got, expected, `seed ${SEED} round ${round}: ${JSON.stringify({ text, pattern, regex, ignoreCase })}`);
  }
});

test("the line test itself: literal, folded, regex", () => {
  assert.ok(compileMatcher("a.b", { regex: false, ignoreCase: false }).test("xa.by"));
  assert.ok(!compileMatcher("a.b", { regex: false, ignoreCase: false }).test("axb"));
  assert.ok(compileMatcher("a.b", { regex: true, ignoreCase: false }).test("axb"));
  assert.ok(compileMatcher("HELLO", { regex: false, ignoreCase: true }).test("say hello"));
  assert.ok(compileMatcher("hello", { regex: true, ignoreCase: true }).test("SAY HELLO"));
  assert.ok(compileMatcher("^\\s*return$", { regex: true, ignoreCase: false }).test("  return"));
});

test("looksLikeRegex", () => {
  for (const p of ["a|b", "foo.*", "x.+", "\\d+", "\\w", "\\bword", "[abc]", "^start", "end$"]) assert.ok(looksLikeRegex(p), p);
  for (const p of ["plain", "a.b", "this.lines", "f(x)", "$money", "cost: $5"]) assert.ok(!looksLikeRegex(p), p);
});
