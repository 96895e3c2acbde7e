// Keyword search (FTS5): names, keys, signatures and doc comments of the current state,
// ranked by bm25, immune to FTS query syntax in the user's text.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Store } from "../../src/store/types.js";
import { tempStore } from "./helpers.js";

describe("searchText", () => {
  let store: Store;
  let done: () => void;
  const id: Record<string, number> = {};

  before(() => {
    ({ store, done } = tempStore());
    store.write((w) => {
      w.createPlane("p");
      w.createPlane("q");
      const add = (key: string, props: Record<string, string> = {}) => {
        id[key] = w.createNode("p", { key, labels: ["Function"], props });
      };
      add("app/src/config.parseConfig", { signature: "parseConfig(path: string): Config", doc_comment: "Reads the YAML file." });
      add("app/src/http.HTTPServer.listen", { signature: "listen(port: number): void" });
      add("app/src/yaml.load", { doc_comment: "Load a YAML document; used by parseConfig." });
      add("app/src/util.snake_case_helper");
      add("app/src/util.unrelated", { signature: "unrelated(): void" });
      w.createNode("q", { key: "other/config.parseConfig", labels: ["Function"], props: {} });
    });
  });
  after(() => done());

  const keys = (q: string, limit = 10, plane = "p") => store.searchText(plane, q, limit).map((n) => n.key);

  it("finds names, camelCase words, snake_case words, key segments, signatures and doc comments", () => {
    assert.equal(keys("parseConfig")[0], "app/src/config.parseConfig");
    assert.deepEqual(keys("config parse").slice(0, 1), ["app/src/config.parseConfig"]);
    assert.deepEqual(keys("server"), ["app/src/http.HTTPServer.listen"]);
    assert.deepEqual(keys("listen"), ["app/src/http.HTTPServer.listen"]);
    assert.deepEqual(keys("snake helper"), ["app/src/util.snake_case_helper"]);
    assert.deepEqual(keys("port number"), ["app/src/http.HTTPServer.listen"]);
    assert.deepEqual(keys("document"), ["app/src/yaml.load"]);
    assert.deepEqual(keys("util"), ["app/src/util.snake_case_helper", "app/src/util.unrelated"]);
  });

  it("ranks a name match above a doc-comment mention, and stays in its plane", () => {
    const hits = keys("parseConfig");
    assert.deepEqual(hits, ["app/src/config.parseConfig", "app/src/yaml.load"]);
    assert.deepEqual(keys("parseConfig", 10, "q"), ["other/config.parseConfig"]);
  });

  it("prefers nodes with every term, then fills with nodes having some", () => {
    assert.deepEqual(
      [...keys("yaml listen")].sort(),
      ["app/src/config.parseConfig", "app/src/http.HTTPServer.listen", "app/src/yaml.load"],
    );
    assert.deepEqual(keys("yaml file"), ["app/src/config.parseConfig", "app/src/yaml.load"]);
    assert.equal(keys("yaml", 1).length, 1);
    assert.deepEqual(keys("yaml", 0), []);
  });

  it("treats FTS syntax as plain text", () => {
    for (const q of ['"', '"unbalanced', "*", "parse*", "a OR", "AND", "NOT x", "NEAR(a b)", "col:parse", "-x", "^y", "(", ")", "{}", "'; DROP TABLE nodes; --", "", "   ", "é", "💥"]) {
      assert.doesNotThrow(() => store.searchText("p", q, 5), `query ${JSON.stringify(q)}`);
    }
    assert.deepEqual(keys("col:listen"), ["app/src/http.HTTPServer.listen"], "a column filter is just two words");
    assert.deepEqual(keys("listen:"), ["app/src/http.HTTPServer.listen"]);
    assert.deepEqual(keys(""), []);
  });

  it("follows updates and deletes (current state only)", () => {
    store.write((w) => w.updateNode("p", id["app/src/util.unrelated"]!, { props: { signature: "unrelated(socket: Socket): void" } }));
    assert.deepEqual(keys("socket"), ["app/src/util.unrelated"]);
    store.write((w) => w.updateNode("p", id["app/src/util.unrelated"]!, { props: {} }));
    assert.deepEqual(keys("socket"), []);
    assert.deepEqual(keys("unrelated"), ["app/src/util.unrelated"], "the name stays indexed");
    store.write((w) => w.deleteNode("p", id["app/src/util.unrelated"]!));
    assert.deepEqual(keys("unrelated"), []);
    assert.throws(() =>
      store.write((w) => {
        w.deleteNode("p", id["app/src/yaml.load"]!);
        throw new Error("undo");
      }),
    );
    assert.deepEqual(keys("document"), ["app/src/yaml.load"], "a rolled-back delete leaves the index as it was");
  });
});

describe("searchText beside other planes", () => {
  let store: Store;
  let done: () => void;

  before(() => {
    ({ store, done } = tempStore());
    store.write((w) => {
      w.createPlane("small");
      w.createPlane("big");
      w.createPlane("side");
      // Interleaved ids, so neither plane's matches come first in id order; "side" outranks
      // "small" (names hold the word), and ties (same text) break by id.
      for (let i = 0; i < 60; i++) {
        w.createNode("side", { key: `side/m${i}.alpha${i % 3 === 0 ? "" : i}`, labels: ["Function"], props: { doc_comment: "alpha alpha" } });
        w.createNode("small", { key: `small/m.f${i}`, labels: ["Function"], props: { doc_comment: i % 4 === 0 ? "alpha" : `alpha beta ${"x ".repeat(i % 7)}` } });
        w.createNode("side", { key: `side/m.other${i}`, labels: ["Function"], props: {} });
      }
      // A large plane with few matches.
      w.createNodes(
        "big",
        Array.from({ length: 1950 }, (_, i) => ({ key: `big/m.g${i}`, labels: ["Function"], props: (i % 50 === 0 ? { doc_comment: "alpha gamma" } : {}) as Record<string, string> })),
      );
    });
  });
  after(() => done());

  const keys = (plane: string, q: string, limit: number) => store.searchText(plane, q, limit).map((n) => n.key);

  it("the best k of a plane are the first k of its whole ranking, however many other planes' matches rank above", () => {
    for (const [plane, q] of [
      ["small", "alpha"],
      ["small", "alpha beta"],
      ["small", "beta gamma"],
      ["side", "alpha"],
      ["big", "alpha"],
      ["big", "gamma alpha"],
    ] as const) {
      const whole = keys(plane, q, 10_000);
      assert.ok(whole.length >= 5, `${plane} ${q}: ${whole.length} match(es)`);
      for (const k of [1, 2, 3, 5, 8, 13, 21, 34, 55]) assert.deepEqual(keys(plane, q, k), whole.slice(0, k), `${plane} "${q}" k=${k}`);
      for (const key of whole) assert.ok(key.startsWith(`${plane}/`), `${key} is in plane ${plane}`);
    }
  });

  it("follows deletes in other planes", () => {
    const before = keys("small", "alpha", 10);
    store.write((w) => w.dropPlane("side"));
    assert.deepEqual(keys("small", "alpha", 10), before);
    const whole = keys("small", "alpha", 10_000);
    for (const k of [1, 2, 3, 5, 8, 13, 21, 34, 55]) assert.deepEqual(keys("small", "alpha", k), whole.slice(0, k), `k=${k}`);
  });
});

describe("searchText ties", () => {
  let store: Store;
  let done: () => void;
  before(() => {
    ({ store, done } = tempStore());
    store.write((w) => {
      w.createPlane("t1");
      w.createPlane("t2");
      // Same text shape everywhere, so every match scores the same: ties break by id, lowest first.
      for (let i = 0; i < 3; i++) w.createNode("t2", { key: `t2/m.n${i}`, labels: ["Function"], props: { doc_comment: "zeta" } });
      for (let i = 0; i < 30; i++) w.createNode("t1", { key: `t1/m.n${i}`, labels: ["Function"], props: { doc_comment: "zeta" } });
      for (let i = 3; i < 6; i++) w.createNode("t2", { key: `t2/m.n${i}`, labels: ["Function"], props: { doc_comment: "zeta" } });
    });
  });
  after(() => done());

  it("keeps the lowest ids among equal scores, whatever other planes hold", () => {
    for (const k of [1, 5, 12, 29, 30])
      assert.deepEqual(
        store.searchText("t1", "zeta", k).map((n) => n.key),
        Array.from({ length: k }, (_, i) => `t1/m.n${i}`),
      );
    assert.deepEqual(
      store.searchText("t2", "zeta", 4).map((n) => n.key),
      ["t2/m.n0", "t2/m.n1", "t2/m.n2", "t2/m.n3"],
    );
  });
});
