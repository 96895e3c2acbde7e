// The per-state answer cache: a stamp that moves empties it, an answer computed in an older
// state is never kept, and it stays within its entry and character bounds, oldest out first.
import assert from "node:assert/strict";
import { test } from "node:test";
import { AnswerCache } from "../../src/server/answers.js";

test("answers are kept per stamp; a new stamp empties the cache", () => {
  const c = new AnswerCache();
  assert.equal(c.get("s1", "q"), undefined);
  c.set("s1", "q", "answer at s1");
  assert.equal(c.get("s1", "q"), "answer at s1");
  // The database moved on: the old answer is gone, not served.
  assert.equal(c.get("s2", "q"), undefined);
  assert.equal(c.stats().entries, 0);
  // An answer computed in s1 and arriving after the move is not kept.
  c.set("s1", "q", "late answer at s1");
  assert.equal(c.get("s2", "q"), undefined);
  c.set("s2", "q", "answer at s2");
  assert.equal(c.get("s2", "q"), "answer at s2");
  assert.deepEqual(c.stats(), { hits: 2, misses: 3, entries: 1, chars: "answer at s2".length });
});

test("the least recently used answers leave first, by count and by size", () => {
  const c = new AnswerCache(2, 1000);
  c.get("s", "a");
  c.set("s", "a", "A");
  c.set("s", "b", "B");
  assert.equal(c.get("s", "a"), "A"); // a is now the most recent
  c.set("s", "c", "C");
  assert.equal(c.get("s", "b"), undefined);
  assert.equal(c.get("s", "a"), "A");
  assert.equal(c.get("s", "c"), "C");
  const small = new AnswerCache(100, 40);
  small.get("s", "x");
  small.set("s", "x", "x".repeat(10));
  small.set("s", "y", "y".repeat(10));
  small.set("s", "z", "z".repeat(10));
  small.set("s", "w", "w".repeat(10));
  small.set("s", "v", "v".repeat(10));
  assert.ok(small.stats().chars <= 40);
  assert.equal(small.get("s", "x"), undefined);
  assert.equal(small.get("s", "v"), "v".repeat(10));
  // One answer larger than a quarter of the budget is never kept.
  small.set("s", "big", "b".repeat(11));
  assert.equal(small.get("s", "big"), undefined);
});
