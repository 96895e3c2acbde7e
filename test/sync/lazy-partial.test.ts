// parsePartialLazily (src/sync/lazy.ts): a cached partial's refs are parsed on first use. The
// partial it gives must be the one JSON.parse gives — whatever its strings hold (the markers it
// cuts at, quotes, non-ASCII text), from text or from bytes — and anything not shaped as
// JSON.stringify writes a partial is parsed whole.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Partial } from "../../src/model/partial.js";
import { parsePartialLazily } from "../../src/sync/lazy.js";

function partial(text: string): Partial {
  return {
    path: "pkg/a.py",
    grammar: "python",
    defs: [{ id: 0, kind: "function", name: "f", parent: -1, line: 1, endLine: 2, start: 0, end: 9, signature: `def f(x="refs":[1],"imports":2) — é ✓ ${text}`, doc: '"refs":[' }],
    refs: [
      { kind: "call", name: "g", text: `g("],\\"imports\\":") ${text}`, line: 2, scope: 0, at: 12 },
      { kind: "call", name: "h", text: "h()", line: 2, col: 4, scope: 0, at: 20 },
    ],
    imports: [{ source: "os", imported: "path", local: "path", form: "from", line: 1, scope: -1 }],
    exports: [],
    locals: [{ name: "v", scope: 0, line: 2, at: 3, type: '"refs":[' }],
  } as unknown as Partial;
}

describe("parsePartialLazily", () => {
  for (const text of ["", '"refs":[', '],"imports":', "\\", '\\"', "日本語 \u2028 \u{1F600}"]) {
    test(`equals JSON.parse, from text and from bytes (a string holding ${JSON.stringify(text)})`, () => {
      const json = JSON.stringify(partial(text));
      for (const input of [json, Buffer.from(json, "utf8")]) {
        const p = parsePartialLazily(input);
        assert.deepEqual(Object.keys(p), Object.keys(JSON.parse(json)), "keys in the same order");
        assert.equal(JSON.stringify(p), json);
        assert.deepEqual({ ...p }, JSON.parse(json));
        assert.deepEqual(p.refs, JSON.parse(json).refs);
      }
    });
  }

  test("refs can be replaced, before or after they are read", () => {
    const json = JSON.stringify(partial("x"));
    const a = parsePartialLazily(json);
    a.refs = [];
    assert.deepEqual(a.refs, []);
    const b = parsePartialLazily(json);
    assert.equal(b.refs.length, 2);
    b.refs = [];
    assert.deepEqual(b.refs, []);
    assert.equal(JSON.stringify(b), JSON.stringify({ ...partial("x"), refs: [] }));
  });

  test("a text not shaped as a partial's JSON is parsed whole", () => {
    for (const v of [{ path: "a", refs: [] }, { refs: [1], imports: 2 }, { path: "a", imports: [], refs: [{ kind: "call" }] }, [1, 2]]) {
      const json = JSON.stringify(v);
      assert.deepEqual(parsePartialLazily(json), v);
      assert.deepEqual(parsePartialLazily(Buffer.from(json)), v);
    }
    assert.throws(() => parsePartialLazily('{"refs":[1],"imports":'));
  });
});
