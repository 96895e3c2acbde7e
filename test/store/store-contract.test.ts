// The store contract (src/store/types.ts): planes, nodes, edges, properties, labels, name
// matching, key uniqueness, cascading deletes, cross-plane refusal, transactions.

import { packPartial } from "../../src/model/packed.js";
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { Store } from "../../src/store/types.js";
import type { PropValue } from "../../src/model/facts.js";
import { tempStore, throwsCode } from "./helpers.js";

/** What Reader.nodeKeysFirst must answer: the first `k` of `of` (each once, those `keyOf` holds) by key, then id, as JavaScript orders strings. */
function jsFirst(keyOf: ReadonlyMap<number, string>, of: readonly number[], k: number): { id: number; key: string }[] {
  return [...new Set(of)]
    .filter((id) => keyOf.has(id))
    .sort((m, n) => {
      const km = keyOf.get(m)!;
      const kn = keyOf.get(n)!;
      return km < kn ? -1 : km > kn ? 1 : m - n;
    })
    .slice(0, k)
    .map((id) => ({ id, key: keyOf.get(id)! }));
}

describe("store contract", () => {
  let store: Store;
  let done: () => void;
  beforeEach(() => {
    ({ store, done } = tempStore());
  });
  afterEach(() => done());

  describe("planes", () => {
    it("creates, lists with counts, gets, sets props, drops", () => {
      store.write((w) => {
        const info = w.createPlane("app", { synced_commit: "abc" });
        assert.equal(info.name, "app");
        assert.deepEqual(info.props, { synced_commit: "abc" });
        w.createPlane("app_git");
        const a = w.createNode("app", { key: "a", labels: ["Function"], props: {} });
        const b = w.createNode("app", { key: "b", labels: ["Function"], props: {} });
        w.createEdge("app", { type: "CALLS", src: a, dst: b, props: {} });
      });
      assert.deepEqual(
        store.listPlanes().map((p) => [p.name, p.nodeCount, p.edgeCount]),
        [
          ["app", 2, 1],
          ["app_git", 0, 0],
        ],
      );
      // getPlane counts when asked: once per commit, and a count asked inside a write that rolls
      // back is not kept for the commit it leaves in place.
      const counts = () => {
        const p = store.getPlane("app")!;
        return [p.nodeCount, p.edgeCount];
      };
      assert.deepEqual(counts(), [2, 1]);
      const before = store.getPlane("app")!;
      assert.throws(() =>
        store.write((w) => {
          w.createNode("app", { key: "c", labels: ["Function"], props: {} });
          const inside = w.getPlane("app")!;
          assert.equal(inside.nodeCount, 3, "inside the write, its own node counts");
          throw new Error("roll back");
        }),
      );
      assert.deepEqual([before.nodeCount, before.edgeCount], [2, 1]);
      assert.deepEqual(counts(), [2, 1], "the rolled-back node is not counted");
      store.write((w) => w.createNode("app", { key: "d", labels: ["Function"], props: {} }));
      assert.deepEqual(counts(), [3, 1], "a new commit counts again");
      assert.deepEqual([before.nodeCount, before.edgeCount], [2, 1], "a record read before keeps its commit's counts");
      store.write((w) => w.setPlaneProps("app", { synced_commit: "def", built_by: ["ts@1.0.0+12345678"] }));
      store.write((w) => w.setPlaneProps("app", { synced_commit: null }));
      assert.deepEqual(store.getPlane("app")?.props, { built_by: ["ts@1.0.0+12345678"] });
      assert.equal(store.getPlane("nope"), undefined);
      store.write((w) => w.dropPlane("app"));
      assert.deepEqual(
        store.listPlanes().map((p) => p.name),
        ["app_git"],
      );
      throwsCode(() => store.countNodes("app"), "PLANE_NOT_FOUND");
    });

    it("refuses a duplicate name and bad names", () => {
      store.write((w) => w.createPlane("p"));
      throwsCode(() => store.write((w) => w.createPlane("p")), "PLANE_EXISTS");
      for (const bad of ["", ".hidden", "-x", "a b", "a/b", "x".repeat(101), "é", "a:b"]) {
        throwsCode(() => store.write((w) => w.createPlane(bad)), "BAD_PLANE_NAME");
      }
      for (const good of ["a", "A.b-c_d", "_git", "0", "x".repeat(100)]) {
        store.write((w) => w.createPlane(good));
      }
      assert.equal(store.listPlanes().length, 6);
    });

    it("answers PLANE_NOT_FOUND for writes and reads on an unknown plane", () => {
      throwsCode(() => store.write((w) => w.createNode("ghost", { key: "k", labels: ["X"], props: {} })), "PLANE_NOT_FOUND");
      throwsCode(() => store.nodesByName("ghost", "k"), "PLANE_NOT_FOUND");
      throwsCode(() => store.write((w) => w.dropPlane("ghost")), "PLANE_NOT_FOUND");
    });

    it("dropPlane removes its nodes, edges and search entries, and a new plane of that name starts empty", () => {
      store.write((w) => {
        w.createPlane("p");
        const a = w.createNode("p", { key: "m.alpha", labels: ["Function"], props: {} });
        w.createEdge("p", { type: "CALLS", src: a, dst: a, props: {} });
      });
      store.write((w) => w.dropPlane("p"));
      store.write((w) => w.createPlane("p"));
      assert.equal(store.countNodes("p"), 0);
      assert.equal(store.countEdges("p"), 0);
      assert.deepEqual(store.searchText("p", "alpha", 10), []);
    });
  });

  describe("nodes", () => {
    beforeEach(() => {
      store.write((w) => {
        w.createPlane("p");
        w.createPlane("q");
      });
    });

    it("stores key, labels (first primary) and props of every kind", () => {
      const props = {
        file: "src/a.ts",
        line: 3,
        ratio: 0.5,
        is_async: true,
        nothing: null,
        tags: ["x", 1, false],
        meta: { nested: { deep: [1, 2] } },
        embedding: [0.1, -0.2, 0.3],
        _generated_by: "ts@1.0.0+abcdef12",
      };
      const id = store.write((w) => w.createNode("p", { key: "pkg/a.Foo", labels: ["Class", "External"], props }));
      const n = store.getNode("p", id);
      assert.deepEqual(n, { id, plane: "p", key: "pkg/a.Foo", labels: ["Class", "External"], props });
      assert.deepEqual(store.getNodeByKey("p", "pkg/a.Foo"), n);
      assert.equal(store.getNode("q", id), undefined, "a node is found only in its own plane");
      assert.equal(store.getNodeByKey("q", "pkg/a.Foo"), undefined);
      assert.equal(store.getNode("p", id + 1000), undefined);
    });

    it("refuses a key already present in the plane, allows it in another", () => {
      store.write((w) => w.createNode("p", { key: "k", labels: ["Var"], props: {} }));
      const e = throwsCode(() => store.write((w) => w.createNode("p", { key: "k", labels: ["Var"], props: {} })), "KEY_TAKEN");
      assert.equal(e.data.key, "k");
      store.write((w) => w.createNode("q", { key: "k", labels: ["Var"], props: {} }));
      assert.equal(store.countNodes("p"), 1);
      assert.equal(store.countNodes("q"), 1);
    });

    it("refuses empty keys, empty labels and non-object props", () => {
      store.write((w) => {
        throwsCode(() => w.createNode("p", { key: "", labels: ["X"], props: {} }), "BAD_INPUT");
        throwsCode(() => w.createNode("p", { key: "k", labels: [], props: {} }), "BAD_INPUT");
        throwsCode(() => w.createNode("p", { key: "k", labels: [""], props: {} }), "BAD_INPUT");
        throwsCode(() => w.createNode("p", { key: "k", labels: ["X"], props: [] as never }), "BAD_INPUT");
      });
      assert.equal(store.countNodes("p"), 0);
    });

    it("refuses props nested past the depth SQLite's JSON functions read, and changes nothing", () => {
      const deep = (n: number): PropValue => {
        let v: PropValue = 1;
        for (let i = 0; i < n; i++) v = i % 2 ? { a: v } : [v];
        return v;
      };
      store.write((w) => w.createNode("p", { key: "ok", labels: ["X"], props: { file: "a.ts", line: 1, d: deep(200) } }));
      const e = throwsCode(
        () => store.write((w) => {
          w.createNode("p", { key: "k2", labels: ["X"], props: {} });
          w.createNode("p", { key: "k", labels: ["X"], props: { file: "a.ts", line: 1, d: deep(1500) } });
        }),
        "BAD_INPUT",
      );
      assert.match(e.message, /nest deeper than/);
      throwsCode(() => store.write((w) => w.setPlaneProps("p", { d: deep(1500) })), "BAD_INPUT");
      assert.equal(store.countNodes("p"), 1, "the failed transaction left nothing");
      // Every read that looks inside props still works.
      assert.equal(store.nodeSites("p").length, 1);
    });

    it("matches by name (the key's last segment), by key substring and by any label", () => {
      store.write((w) => {
        w.createNode("p", { key: "app/src/util.parse", labels: ["Function"], props: {} });
        w.createNode("p", { key: "app/src/cfg.Config.parse", labels: ["Method"], props: {} });
        w.createNode("p", { key: "pkg::mod::parse", labels: ["Function"], props: {} });
        w.createNode("p", { key: "app/src/cfg.Config", labels: ["Class"], props: {} });
        w.createNode("p", { key: "npm:express.Router", labels: ["Function", "External"], props: {} });
        w.createNode("q", { key: "other.parse", labels: ["Function"], props: {} });
      });
      assert.deepEqual(
        store.nodesByName("p", "parse").map((n) => n.key),
        ["app/src/util.parse", "app/src/cfg.Config.parse", "pkg::mod::parse"],
      );
      assert.equal(store.nodesByName("p", "parse", 2).length, 2);
      assert.deepEqual(
        store.nodesByName("p", "Config").map((n) => n.key),
        ["app/src/cfg.Config"],
      );
      assert.deepEqual(
        store.nodesKeyContaining("p", "CONFIG").map((n) => n.key),
        ["app/src/cfg.Config.parse", "app/src/cfg.Config"],
      );
      assert.deepEqual(
        store.nodesKeyContaining("p", "%").map((n) => n.key),
        [],
        "LIKE wildcards are plain text",
      );
      assert.deepEqual(
        store.nodesByLabel("p", "Function").map((n) => n.key),
        ["app/src/util.parse", "pkg::mod::parse", "npm:express.Router"],
      );
      assert.deepEqual(
        store.nodesByLabel("p", "External").map((n) => n.key),
        ["npm:express.Router"],
      );
      assert.equal(store.nodesByLabel("p", "Function", 1).length, 1);
      assert.deepEqual(store.nodesByLabel("p", "Extern"), []);
    });

    it("updates labels and/or props, keeping the id", () => {
      const id = store.write((w) => w.createNode("p", { key: "k", labels: ["Function"], props: { line: 1, doc: "x" } }));
      store.write((w) => w.updateNode("p", id, { props: { line: 2 } }));
      assert.deepEqual(store.getNode("p", id)?.props, { line: 2 });
      assert.deepEqual(store.getNode("p", id)?.labels, ["Function"]);
      store.write((w) => w.updateNode("p", id, { labels: ["Method", "External"] }));
      assert.deepEqual(store.getNode("p", id)?.labels, ["Method", "External"]);
      assert.deepEqual(store.getNode("p", id)?.props, { line: 2 });
      assert.deepEqual(
        store.nodesByLabel("p", "Method").map((n) => n.id),
        [id],
      );
      // A label only ever secondary is found too (the label index alone would miss it), and stops being found once gone.
      assert.ok(store.nodesByLabel("p", "External").some((n) => n.id === id));
      assert.equal(store.countByLabel?.("p", "External"), store.nodesByLabel("p", "External").length);
      store.write((w) => w.updateNode("p", id, { labels: ["Method"] }));
      assert.ok(!store.nodesByLabel("p", "External").some((n) => n.id === id));
      throwsCode(() => store.write((w) => w.updateNode("p", id + 99, { props: {} })), "NODE_NOT_FOUND");
      throwsCode(() => store.write((w) => w.updateNode("q", id, { props: {} })), "NODE_NOT_FOUND");
    });

    it("deleteNode removes the node and every edge touching it; ids are never reused", () => {
      const [a, b, c] = store.write((w) => {
        const a = w.createNode("p", { key: "a", labels: ["Function"], props: {} });
        const b = w.createNode("p", { key: "b", labels: ["Function"], props: {} });
        const c = w.createNode("p", { key: "c", labels: ["Function"], props: {} });
        w.createEdge("p", { type: "CALLS", src: a, dst: b, props: {} });
        w.createEdge("p", { type: "CALLS", src: b, dst: c, props: {} });
        w.createEdge("p", { type: "CALLS", src: b, dst: b, props: {} });
        w.createEdge("p", { type: "CALLS", src: a, dst: c, props: {} });
        return [a, b, c];
      });
      store.write((w) => w.deleteNode("p", b));
      assert.equal(store.getNode("p", b), undefined);
      assert.deepEqual(
        [...store.allEdges("p")].map((e) => [e.src, e.dst]),
        [[a, c]],
      );
      throwsCode(() => store.write((w) => w.deleteNode("p", b)), "NODE_NOT_FOUND");
      store.write((w) => w.deleteNode("p", c));
      const d = store.write((w) => w.createNode("p", { key: "c", labels: ["Function"], props: {} }));
      assert.ok(d > c, "a new node never takes a deleted node's id, not even the highest one's");
    });

    it("streams all nodes in id order", () => {
      const ids = store.write((w) => {
        const out: number[] = [];
        for (let i = 0; i < 50; i++) out.push(w.createNode(i % 2 ? "p" : "q", { key: `k${49 - i}`, labels: ["Var"], props: { i } }));
        return out;
      });
      const got = [...store.allNodes("p")];
      assert.deepEqual(
        got.map((n) => n.id),
        ids.filter((_, i) => i % 2),
      );
      assert.ok(got.every((n) => n.plane === "p"));
      // Two scans may interleave.
      const it1 = store.allNodes("p");
      const it2 = store.allNodes("q");
      assert.equal(it1.next().value?.plane, "p");
      assert.equal(it2.next().value?.plane, "q");
      it1.return?.();
      it2.return?.();
    });
  });

  describe("edges", () => {
    let a = 0;
    let b = 0;
    let x = 0;
    beforeEach(() => {
      [a, b, x] = store.write((w) => {
        w.createPlane("p");
        w.createPlane("q");
        return [
          w.createNode("p", { key: "a", labels: ["Function"], props: {} }),
          w.createNode("p", { key: "b", labels: ["Function"], props: {} }),
          w.createNode("q", { key: "x", labels: ["Function"], props: {} }),
        ];
      });
    });

    it("creates, reads out/in by type, updates props, deletes", () => {
      const [calls, refs] = store.write((w) => [
        w.createEdge("p", { type: "CALLS", src: a, dst: b, props: { line: 3, _ref: "b" } }),
        w.createEdge("p", { type: "REFERENCES", src: a, dst: b, props: { line: 4 } }),
      ]);
      assert.deepEqual(store.edgesOut("p", a), [
        { id: calls, plane: "p", type: "CALLS", src: a, dst: b, props: { line: 3, _ref: "b" } },
        { id: refs, plane: "p", type: "REFERENCES", src: a, dst: b, props: { line: 4 } },
      ]);
      assert.deepEqual(
        store.edgesOut("p", a, "CALLS").map((e) => e.id),
        [calls],
      );
      assert.deepEqual(
        store.edgesIn("p", b, "REFERENCES").map((e) => e.id),
        [refs],
      );
      assert.deepEqual(store.edgesIn("p", a), []);
      store.write((w) => w.updateEdge("p", calls, { line: 30 }));
      assert.deepEqual(store.edgesOut("p", a, "CALLS")[0]?.props, { line: 30 });
      store.write((w) => w.deleteEdge("p", refs));
      assert.equal(store.countEdges("p"), 1);
      throwsCode(() => store.write((w) => w.deleteEdge("p", refs)), "BAD_INPUT");
      throwsCode(() => store.write((w) => w.updateEdge("p", refs, {})), "BAD_INPUT");
    });

    it("linksIn reads what edgesIn reads, without properties, agent-written marked; nodeKeys what getNode reads; both as of a commit too", () => {
      const ids = store.write((w) => [
        w.createEdge("p", { type: "CALLS", src: a, dst: b, props: { line: 3 } }),
        w.createEdge("p", { type: "CALLS", src: b, dst: b, props: { line: 5, _written_by: "agent" } }),
        w.createEdge("p", { type: "REFERENCES", src: a, dst: b, props: { _written_by: "agent", _generated_by: "ts@1.0.0+00000000" } }),
        w.createEdge("p", { type: "IMPORTS", src: b, dst: a, props: { _note: '"_written_by":"agent"' } }),
      ]);
      const seq = store.currentSeq();
      const want = (r: typeof store | ReturnType<typeof store.asOf>) =>
        [a, b, x]
          .flatMap((n) => (n === x ? [] : r.edgesIn("p", n)))
          .map((e) => ({ id: e.id, type: e.type, src: e.src, dst: e.dst, agentWritten: e.props._written_by === "agent" && e.props._generated_by === undefined }))
          .sort((m, n) => m.id - n.id);
      const got = (r: typeof store | ReturnType<typeof store.asOf>) => r.linksIn!("p", [a, b, x, 9999]).sort((m, n) => m.id - n.id);
      assert.deepEqual(got(store), want(store));
      assert.deepEqual(
        got(store).filter((l) => l.agentWritten).map((l) => l.id),
        [ids[1]],
      );
      assert.deepEqual(store.linksIn!("p", []), []);
      // Only the types asked for, now and as of a commit; none asked, none read.
      const typed = (r: typeof store | ReturnType<typeof store.asOf>, types: string[]) =>
        r.linksIn!("p", [a, b, x, 9999], types).sort((m, n) => m.id - n.id);
      for (const types of [["CALLS"], ["REFERENCES", "IMPORTS"], ["CONTAINS"]])
        assert.deepEqual(
          typed(store, types),
          want(store).filter((l) => types.includes(l.type)),
          types.join(","),
        );
      assert.deepEqual(store.linksIn!("p", [a, b], []), []);
      assert.deepEqual(typed(store.asOf(store.currentSeq()), ["CALLS"]), want(store).filter((l) => l.type === "CALLS"));
      assert.deepEqual(
        store.nodeKeys!("p", [b, a, x, 9999]).sort((m, n) => m.id - n.id),
        [
          { id: a, key: "a" },
          { id: b, key: "b" },
        ],
      );
      // The past: the agent's edge deleted, another written since — as of `seq`, the state then.
      store.write((w) => {
        w.deleteEdge("p", ids[1]!);
        w.createEdge("p", { type: "CALLS", src: a, dst: a, props: { _written_by: "agent" } });
      });
      const past = store.asOf(seq);
      assert.deepEqual(got(past), want(past));
      assert.deepEqual(
        got(past).filter((l) => l.agentWritten).map((l) => l.id),
        [ids[1]],
      );
      assert.deepEqual(got(store), want(store));
      assert.equal(got(store).filter((l) => l.agentWritten).length, 1);
    });

    it("sourcesIn packs what linksIn reads of the types asked (source × 8 + type index), until an agent writes an edge; not as of a commit", () => {
      store.write((w) => {
        w.createEdge("p", { type: "CALLS", src: a, dst: b, props: { line: 3 } });
        w.createEdge("p", { type: "REFERENCES", src: b, dst: b, props: {} });
        w.createEdge("p", { type: "CONTAINS", src: a, dst: b, props: {} });
        w.createEdge("p", { type: "IMPORTS", src: b, dst: a, props: { _note: '"_written_by":"agent"' } });
      });
      const types = ["REFERENCES", "IMPORTS", "CALLS"];
      const want = store
        .linksIn!("p", [a, b, x, 9999], types)
        .map((l) => l.src * 8 + types.indexOf(l.type))
        .sort((m, n) => m - n);
      assert.deepEqual(store.sourcesIn!("p", [a, b, x, 9999], types)?.sort((m, n) => m - n), want);
      assert.equal(want.length, 3);
      assert.deepEqual(store.sourcesIn!("p", [], types), []);
      assert.equal(store.sourcesIn!("p", [a], ["A", "B", "C", "D", "E", "F", "G", "H", "I"]), undefined, "nine types do not pack");
      assert.equal(store.asOf(store.currentSeq()).sourcesIn!("p", [a, b], types), undefined);
      store.write((w) => w.createEdge("p", { type: "CALLS", src: b, dst: a, props: { _written_by: "agent" } }));
      assert.equal(store.sourcesIn!("p", [a, b], types), undefined, "an agent's edge: the walk reads links");
    });

    it("nodeKeysFirst chooses the first k by key as JavaScript orders them, leaves out a node not in the plane, declines where the orders may part", () => {
      const keys = ["m.b", "m.a", "M.z", "m._", "m.a0", "m.B", "m.\u00e9"];
      const ids = store.write((w) => keys.map((key) => w.createNode("p", { key, labels: ["Function"], props: {} })));
      const keyOf = new Map(ids.map((id, i) => [id, keys[i]!]));
      const js = (k: number, of = ids) => jsFirst(keyOf, of, k);
      for (const k of [1, 3, 7, 10]) assert.deepEqual(store.nodeKeysFirst!("p", ids, k), js(k), `k=${k}`);
      assert.deepEqual(store.nodeKeysFirst!("p", ids.slice(2), 2), js(2, ids.slice(2)));
      assert.deepEqual(store.nodeKeysFirst!("p", [], 3), []);
      assert.deepEqual(store.nodeKeysFirst!("p", [...ids, x], 10), js(10), "a node of another plane");
      assert.deepEqual(store.nodeKeysFirst!("p", [...ids, 9999], 10), js(10), "no such node");
      // U+FF58 sorts before U+1D465 by bytes, after it by UTF-16 units: where either is chosen the
      // store declines; where both are left out, the first k are JavaScript's.
      const wide = store.write((w) =>
        ["m.\uFF58", "m.\u{1D465}", "A\u{1D465}"].map((key) => {
          const id = w.createNode("p", { key, labels: ["Function"], props: {} });
          keyOf.set(id, key);
          return id;
        }),
      );
      const all = [...ids, ...wide.slice(0, 2)];
      assert.deepEqual(store.nodeKeysFirst!("p", all, 7), js(7, all), "the wide keys sort last and are left out");
      assert.equal(store.nodeKeysFirst!("p", all, 8), undefined, "a wide key chosen");
      assert.equal(store.nodeKeysFirst!("p", [...ids, wide[2]!], 1), undefined);
      // Random keys over an alphabet where the orders part: an answer is always JavaScript's.
      let seed = 7;
      const rand = (n: number) => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return seed % n;
      };
      const alphabet = ["a", "b", "\u00e9", "\uFF58", "\u{1D465}", "\uE000"];
      const made = store.write((w) => Array.from({ length: 40 }, (_, i) => {
        const key = `r${Array.from({ length: 1 + rand(3) }, () => alphabet[rand(alphabet.length)]).join("")}#${i}`;
        const id = w.createNode("p", { key, labels: ["Function"], props: {} });
        keyOf.set(id, key);
        return id;
      }));
      let answered = 0;
      for (let round = 0; round < 60; round++) {
        const of = made.filter(() => rand(2) === 0);
        const k = 1 + rand(12);
        const got = store.nodeKeysFirst!("p", of, k);
        if (got === undefined) continue;
        answered++;
        assert.deepEqual(got, js(k, of), `round ${round}`);
      }
      assert.ok(answered > 10, `answered ${answered} of 60`);
      assert.deepEqual(store.asOf(store.currentSeq()).nodeKeysFirst!("p", ids, 2), js(2));
    });

    it("nodeKeysFirst on large sets, dense among the plane's first keys or past them: JavaScript's first k (now and as of a commit)", () => {
      // 3,000 keys in an early run ("a…") and 1,000 in a late one ("z…"), wide characters among both.
      let seed = 11;
      const rand = (n: number) => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return seed % n;
      };
      const alphabet = ["a", "b", "m", "\u00e9", "\uFF58", "\u{1D465}"];
      const keyOf = new Map<number, string>();
      const made = store.write((w) =>
        Array.from({ length: 4000 }, (_, i) => {
          const head = i < 3000 ? "a" : "z";
          const key = `${head}${Array.from({ length: 1 + rand(4) }, () => alphabet[rand(alphabet.length)]).join("")}#${i}`;
          const id = w.createNode("p", { key, labels: ["Function"], props: {} });
          keyOf.set(id, key);
          return id;
        }),
      );
      const js = (of: number[], k: number) => jsFirst(keyOf, of, k);
      const early = made.slice(0, 600);
      const late = made.slice(3000, 3600);
      const sets: [string, number[]][] = [
        ["every node", made],
        ["the early run", early],
        ["the late run (past the window)", late],
        ["a sparse draw over both", made.filter(() => rand(3) === 0)],
        ["the late run and one early node", [...late, early[400]!]],
        ["the early run, another plane's node and a missing one", [...early, x, 99_999]],
      ];
      const past = store.asOf(store.currentSeq());
      let answered = 0;
      for (const [what, of] of sets)
        for (const k of [1, 21, 40]) {
          const got = store.nodeKeysFirst!("p", of, k);
          assert.deepEqual(past.nodeKeysFirst!("p", of, k), got, `${what}, k=${k}: as of the current commit`);
          if (got === undefined) {
            assert.ok(js(of, k).some((r) => /[\uD800-\uFFFF]/.test(r.key)), `${what}, k=${k}: declined with no wide key among the first`);
            continue;
          }
          answered++;
          assert.deepEqual(got, js(of, k), `${what}, k=${k}`);
        }
      assert.ok(answered >= 9, `answered ${answered} of 18`);
    });

    it("edgesBetween reads one pair's edges as edgesOut filtered by target does, in id order; as of a commit too", () => {
      const c = store.write((w) => {
        const c = w.createNode("p", { key: "c", labels: ["Function"], props: {} });
        w.createEdge("p", { type: "CALLS", src: a, dst: b, props: { line: 3 } });
        w.createEdge("p", { type: "REFERENCES", src: a, dst: b, props: {} });
        w.createEdge("p", { type: "CALLS", src: a, dst: c, props: { line: 4 } });
        w.createEdge("p", { type: "CALLS", src: b, dst: a, props: {} });
        return c;
      });
      const want = (r: typeof store | ReturnType<typeof store.asOf>, s: number, d: number) => r.edgesOut("p", s).filter((e) => e.dst === d);
      const pairs: [number, number][] = [
        [a, b],
        [a, c],
        [b, a],
        [b, c],
        [a, x],
        [a, 9999],
      ];
      for (const [s, d] of pairs) assert.deepEqual(store.edgesBetween!("p", s, d), want(store, s, d), `${s} → ${d}`);
      assert.deepEqual(
        store.edgesBetween!("p", a, b).map((e) => e.type),
        ["CALLS", "REFERENCES"],
      );
      const seq = store.currentSeq();
      store.write((w) => w.deleteEdge("p", store.edgesBetween!("p", a, b)[0]!.id));
      const past = store.asOf(seq);
      assert.deepEqual(past.edgesBetween!("p", a, b), want(past, a, b));
      assert.equal(past.edgesBetween!("p", a, b).length, 2);
      assert.equal(store.edgesBetween!("p", a, b).length, 1);
    });

    it("refuses edges across planes and to missing nodes", () => {
      throwsCode(() => store.write((w) => w.createEdge("p", { type: "CALLS", src: a, dst: x, props: {} })), "BAD_INPUT");
      throwsCode(() => store.write((w) => w.createEdge("q", { type: "CALLS", src: x, dst: a, props: {} })), "BAD_INPUT");
      throwsCode(() => store.write((w) => w.createEdge("p", { type: "CALLS", src: a, dst: 9999, props: {} })), "NODE_NOT_FOUND");
      // Also for nodes made in the same write (the fast path).
      throwsCode(
        () =>
          store.write((w) => {
            const m = w.createNode("p", { key: "m", labels: ["Function"], props: {} });
            const n = w.createNode("q", { key: "n", labels: ["Function"], props: {} });
            w.createEdge("p", { type: "CALLS", src: m, dst: n, props: {} });
          }),
        "BAD_INPUT",
      );
      throwsCode(
        () =>
          store.write((w) => {
            const m = w.createNode("p", { key: "m", labels: ["Function"], props: {} });
            w.deleteNode("p", m);
            w.createEdge("p", { type: "CALLS", src: a, dst: m, props: {} });
          }),
        "NODE_NOT_FOUND",
      );
      assert.equal(store.countEdges("p"), 0);
      assert.equal(store.countEdges("q"), 0);
      assert.equal(store.countNodes("p"), 2);
    });
  });

  describe("transactions", () => {
    it("a throwing write rolls back everything and leaves no commit", () => {
      store.write((w) => w.createPlane("p"));
      const before = store.currentSeq();
      assert.throws(
        () =>
          store.write((w) => {
            w.createPlane("doomed");
            w.createNode("p", { key: "k", labels: ["Var"], props: {} });
            throw new Error("boom");
          }),
        /boom/,
      );
      assert.equal(store.currentSeq(), before);
      assert.equal(store.commits().length, 1);
      assert.equal(store.getPlane("doomed"), undefined);
      assert.equal(store.countNodes("p"), 0);
      // The plane cache forgot the rolled-back plane too.
      throwsCode(() => store.countNodes("doomed"), "PLANE_NOT_FOUND");
      // And the next write works and takes the next number.
      store.write((w) => w.createNode("p", { key: "k", labels: ["Var"], props: {} }));
      assert.equal(store.currentSeq(), before + 1);
    });

    it("every write is one commit, even an empty one; writes see their own changes", () => {
      assert.equal(store.currentSeq(), 0);
      store.write((w) => {
        assert.equal(w.seq, 1);
        w.createPlane("p");
        const id = w.createNode("p", { key: "k", labels: ["Var"], props: {} });
        assert.equal(w.getNode("p", id)?.key, "k");
        assert.equal(store.countNodes("p"), 1, "the store's reads inside a write see it too");
      });
      store.write(() => undefined);
      assert.deepEqual(
        store.commits().map((c) => c.seq),
        [1, 2],
      );
      const [c1, c2] = store.commits();
      assert.ok(c1!.at <= c2!.at);
    });

    it("refuses nested writes, async callbacks, and a writer used after its write", () => {
      store.write((w) => w.createPlane("p"));
      throwsCode(() => store.write(() => store.write(() => 1)), "INTERNAL");
      throwsCode(() => store.write(async () => 1), "INTERNAL");
      throwsCode(
        () =>
          store.write(async (w) => {
            w.createNode("p", { key: "async", labels: ["Var"], props: {} });
            throw new Error("rejected, never unhandled");
          }),
        "INTERNAL",
      );
      let kept: Parameters<Parameters<Store["write"]>[0]>[0] | undefined;
      store.write((w) => {
        kept = w;
      });
      throwsCode(() => kept!.createNode("p", { key: "late", labels: ["Var"], props: {} }), "INTERNAL");
      assert.equal(store.countNodes("p"), 0);
      assert.equal(store.currentSeq(), 2);
      store.close();
      throwsCode(() => store.countNodes("p"), "INTERNAL");
      throwsCode(() => store.write(() => 1), "INTERNAL");
    });
  });

  describe("partial cache", () => {
    it("upserts without making a database commit", () => {
      assert.equal(store.getCachedPartial("b1", "ts@1"), undefined);
      store.putCachedPartials([
        { blob: "b1", build: "ts@1", data: "one" },
        { blob: "b1", build: "ts@2", data: "two" },
      ]);
      store.putCachedPartials([{ blob: "b1", build: "ts@1", data: "uno" }]);
      assert.equal(store.getCachedPartial("b1", "ts@1"), "uno");
      assert.equal(store.getCachedPartial("b1", "ts@2"), "two");
      assert.equal(store.currentSeq(), 0);
      // Inside a write it joins that write's transaction (and rolls back with it).
      assert.throws(() =>
        store.write(() => {
          store.putCachedPartials([{ blob: "b2", build: "ts@1", data: "x" }]);
          throw new Error("no");
        }),
      );
      assert.equal(store.getCachedPartial("b2", "ts@1"), undefined);
    });

    it("stores the text packed, or the packing a worker already made", () => {
      const json = JSON.stringify({ path: "a.ts", refs: Array.from({ length: 200 }, (_, i) => ({ kind: "call", name: `f${i % 7}`, line: i })) });
      store.putCachedPartials([
        { blob: "p1", build: "ts@1", data: json },
        { blob: "p2", build: "ts@1", data: json, packed: packPartial(json) },
      ]);
      assert.equal(store.getCachedPartial("p1", "ts@1"), json);
      assert.equal(store.getCachedPartial("p2", "ts@1"), json);
    });
  });

  describe("reads a fold and a history update make", () => {
    it("nodesByPrimaryLabel finds a label in first place only, now and as of a commit", () => {
      store.write((w) => {
        w.createPlane("g");
        w.createNode("g", { key: "tag:v1", labels: ["Tag"], props: { target: "a" } });
        w.createNode("g", { key: "x", labels: ["Note", "Tag"], props: {} });
        w.createNode("g", { key: "branch:main", labels: ["Branch"], props: {} });
      });
      const seq = store.currentSeq();
      assert.deepEqual(store.nodesByPrimaryLabel!("g", "Tag").map((n) => n.key), ["tag:v1"]);
      assert.deepEqual(store.nodesByLabel("g", "Tag").map((n) => n.key), ["tag:v1", "x"], "nodesByLabel finds both");
      store.write((w) => w.deleteNode("g", w.getNodeByKey("g", "tag:v1")!.id));
      assert.deepEqual(store.nodesByPrimaryLabel!("g", "Tag"), []);
      assert.deepEqual(store.asOf(seq).nodesByPrimaryLabel!("g", "Tag").map((n) => n.key), ["tag:v1"]);
    });

    it("edgesFromFileless gives the edges leaving nodes without a file, with those nodes", () => {
      store.write((w) => {
        w.createPlane("p");
        const ext = w.createNode("p", { key: "python:os", labels: ["External"], props: {} });
        const ext2 = w.createNode("p", { key: "python:os.path", labels: ["External"], props: {} });
        const f = w.createNode("p", { key: "p/a.f", labels: ["Function"], props: { file: "a.py" } });
        w.createEdge("p", { type: "CONTAINS", src: ext, dst: ext2, props: { n: 1 } });
        w.createEdge("p", { type: "CALLS", src: f, dst: ext, props: {} });
      });
      const got = store.edgesFromFileless!("p").map(({ src, edge }) => [src.key, src.labels, edge.type, edge.props]);
      assert.deepEqual(got, [["python:os", ["External"], "CONTAINS", { n: 1 }]]);
    });
  });
});
