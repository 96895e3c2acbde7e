// Reading a callee's signature for contextual typing (binder.ts parseSignature / paramTypeAt):
// which parameter an argument lands on, for every shape a parameter list takes.
import assert from "node:assert/strict";
import { test } from "node:test";
import { paramTypeAt, parseSignature } from "../../src/resolve/ts/binder.js";

const at = (sig: string, argIndex: number, argCount: number) => paramTypeAt(parseSignature(sig)!.params, argIndex, argCount);

test("type parameters: names and constraints, defaults and comments dropped, variance read", () => {
  const s = parseSignature("<P extends string = '/', const I, out M1 extends H<E, P> = H<E, P>, F extends (a: A) => B = X>(path: P): R")!;
  assert.deepEqual([...s.typeParams], [
    ["P", "string"],
    ["I", undefined],
    ["M1", "H<E, P>"],
    ["F", "(a: A) => B"],
  ]);
  assert.deepEqual(s.params, ["path: P"]);
  assert.equal(parseSignature("<T(a)"), undefined);
  assert.equal(parseSignature("x(a)"), undefined, "text before the parameters is no signature");
});

test("the argument's parameter, or undefined when the count does not fit, or null when it is not written", () => {
  assert.equal(at("(path: P, handler: H)", 1, 2), "H");
  assert.equal(at("(path: P, handler: H)", 1, 1), undefined, "too few arguments");
  assert.equal(at("(path: P, handler: H)", 1, 3), undefined, "too many");
  assert.equal(at("(fn: F, limit?: number)", 0, 1), "F", "an optional parameter");
  assert.equal(at("(fn: F, limit = 3)", 0, 1), "F", "a default");
  assert.equal(at("(fn = (x: A) => x)", 0, 1), null, "a default with no annotation");
  assert.equal(at("(this: Window, fn: F)", 0, 1), "F", "this is no parameter");
  assert.equal(at("(...handlers: H[])", 4, 5), "H");
  assert.equal(at("(...handlers: Array<H<E>>)", 0, 1), "H<E>");
  assert.equal(at("(...handlers: (A | B)[])", 0, 1), "A | B");
  assert.equal(at("(...handlers: [H & M1, G])", 1, 2), "G");
  assert.equal(at("(...handlers: [H & M1, G])", 0, 1), undefined, "a tuple's length is exact");
  assert.equal(at("(path: P, ...handlers: [first: H, ...rest: G[]])", 3, 4), "G", "a closing rest element");
  assert.equal(at("(path: P, ...handlers: [first: H, ...rest: G[]])", 1, 2), "H");
  assert.equal(at("(...handlers: [H, G?])", 0, 1), null, "optional tuple elements are not read");
  assert.equal(at("(...args: Parameters<F>)", 0, 1), null, "a rest of any other type");
  assert.equal(at("({ a, b }: Opts, cb: (x: X) => void)", 1, 2), "(x: X) => void", "a destructured parameter keeps its place");
});
