// Database commits, as-of reads and retention: superseded versions stay readable for the last
// N commits, then are reclaimed; reads below the window are refused, above it clamp.

import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import { DEFAULT_RETAIN_COMMITS, openStore, resolveRetainCommits } from "../../src/store/store.js";
import type { Store } from "../../src/store/types.js";
import { tempDir, tempStore, throwsCode } from "./helpers.js";

function histRows(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    const n = (t: string) => (db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n;
    return n("node_hist") + n("edge_hist") + n("plane_hist");
  } finally {
    db.close();
  }
}

describe("as-of reads", () => {
  let store: Store;
  let done: () => void;
  let a = 0;
  let b = 0;
  let e = 0;

  // 1: plane p {v:1}   2: node a {v:1}, b   3: a {v:2}, edge a→b, plane {v:2}
  // 4: a labels Method, edge props {w:2}     5: delete b (and the edge)   6: drop p
  // 7: new plane p with node a2
  before(() => {
    ({ store, done } = tempStore({ retainCommits: 0 }));
    store.write((w) => w.createPlane("p", { v: 1 }));
    [a, b] = store.write((w) => [
      w.createNode("p", { key: "m.a", labels: ["Function"], props: { v: 1 } }),
      w.createNode("p", { key: "m.b", labels: ["Function"], props: {} }),
    ]);
    e = store.write((w) => {
      w.updateNode("p", a, { props: { v: 2 } });
      w.setPlaneProps("p", { v: 2 });
      return w.createEdge("p", { type: "CALLS", src: a, dst: b, props: { w: 1 } });
    });
    store.write((w) => {
      w.updateNode("p", a, { labels: ["Method"] });
      w.updateEdge("p", e, { w: 2 });
    });
    store.write((w) => w.deleteNode("p", b));
    store.write((w) => w.dropPlane("p"));
    store.write((w) => {
      w.createPlane("p", { v: 9 });
      w.createNode("p", { key: "m.a2", labels: ["Class"], props: {} });
    });
  });
  after(() => done());

  it("reads each commit's state back", () => {
    assert.equal(store.currentSeq(), 7);
    assert.equal(store.asOf(1).countNodes("p"), 0);
    assert.equal(store.asOf(1).getNode("p", a), undefined);
    assert.deepEqual(store.asOf(1).getPlane("p")?.props, { v: 1 });

    assert.deepEqual(store.asOf(2).getNode("p", a)?.props, { v: 1 });
    assert.deepEqual(store.asOf(2).edgesOut("p", a), []);

    const r3 = store.asOf(3);
    assert.deepEqual(r3.getNode("p", a), { id: a, plane: "p", key: "m.a", labels: ["Function"], props: { v: 2 } });
    assert.deepEqual(r3.getPlane("p"), { id: r3.getPlane("p")!.id, name: "p", props: { v: 2 }, nodeCount: 2, edgeCount: 1 });
    assert.deepEqual(r3.edgesOut("p", a, "CALLS")[0]?.props, { w: 1 });
    assert.deepEqual(
      r3.edgesIn("p", b).map((x) => x.id),
      [e],
    );
    assert.deepEqual(
      r3.nodesByName("p", "a").map((n) => n.id),
      [a],
    );
    assert.deepEqual(
      r3.nodesByLabel("p", "Function").map((n) => n.id),
      [a, b],
    );

    const r4 = store.asOf(4);
    assert.deepEqual(r4.getNodeByKey("p", "m.a")?.labels, ["Method"]);
    assert.deepEqual(r4.getNodeByKey("p", "m.a")?.props, { v: 2 });
    assert.deepEqual(
      [...r4.allEdges("p")].map((x) => x.props),
      [{ w: 2 }],
    );
    assert.deepEqual(
      [...r4.allNodes("p")].map((n) => n.key),
      ["m.a", "m.b"],
    );

    const r5 = store.asOf(5);
    assert.equal(r5.getNode("p", b), undefined);
    assert.equal(r5.countEdges("p"), 0);
    assert.equal(r5.countNodes("p"), 1);
    assert.deepEqual(
      r5.nodesKeyContaining("p", "M.").map((n) => n.key),
      ["m.a"],
    );

    throwsCode(() => store.asOf(6).countNodes("p"), "PLANE_NOT_FOUND");
    assert.deepEqual(store.asOf(6).listPlanes(), []);

    const r7 = store.asOf(7);
    assert.deepEqual(
      [...r7.allNodes("p")].map((n) => n.key),
      ["m.a2"],
    );
    assert.equal(r7.getNode("p", a), undefined, "the old plane's nodes are not the new plane's");
    assert.deepEqual(r7.getPlane("p")?.props, { v: 9 });
  });

  it("clamps above the latest commit and refuses below zero", () => {
    assert.deepEqual(
      store.asOf(1000).listPlanes().map((p) => [p.name, p.nodeCount]),
      [["p", 1]],
    );
    throwsCode(() => store.asOf(-1), "AS_OF_OUT_OF_RANGE");
    throwsCode(() => store.asOf(1.5), "BAD_INPUT");
    assert.deepEqual(store.asOf(0).listPlanes(), [], "commit 0 is the empty database");
  });

  it("finds the newest commit at or before a time", () => {
    const commits = store.commits();
    assert.deepEqual(
      commits.map((c) => c.seq),
      [1, 2, 3, 4, 5, 6, 7],
    );
    for (const c of commits) {
      const newest = Math.max(...commits.filter((d) => d.at <= c.at).map((d) => d.seq));
      assert.equal(store.seqAt(c.at), newest);
    }
    assert.equal(store.seqAt(commits[0]!.at - 1), 0);
    assert.equal(store.seqAt(Date.now() + 1e9), 7);
  });

  it("inside a write, as-of the latest commit still shows the state before the write", () => {
    assert.throws(() =>
      store.write((w) => {
        const before = store.asOf(store.currentSeq());
        w.setPlaneProps("p", { v: 10 });
        w.createNode("p", { key: "m.new", labels: ["Var"], props: {} });
        assert.deepEqual(before.getPlane("p")?.props, { v: 9 });
        assert.equal(before.countNodes("p"), 1);
        assert.equal(w.countNodes("p"), 2);
        throw new Error("roll back");
      }),
    );
    assert.equal(store.countNodes("p"), 1);
  });
});

describe("retention", () => {
  it("keeps the last N commits readable and reclaims older history", () => {
    const { store, file, done } = tempStore({ retainCommits: 3 });
    try {
      assert.equal(store.retainCommits, 3);
      const id = store.write((w) => {
        w.createPlane("p");
        return w.createNode("p", { key: "k", labels: ["Var"], props: { v: 1 } });
      });
      for (let v = 2; v <= 10; v++) store.write((w) => w.updateNode("p", id, { props: { v } }));
      assert.equal(store.currentSeq(), 10);
      assert.deepEqual(
        store.commits().map((c) => c.seq),
        [8, 9, 10],
      );
      for (const s of [8, 9, 10]) assert.deepEqual(store.asOf(s).getNode("p", id)?.props, { v: s });
      const e = throwsCode(() => store.asOf(7), "AS_OF_OUT_OF_RANGE");
      assert.equal(e.data.floor, 8);
      throwsCode(() => store.seqAt(store.commits()[0]!.at - 1), "AS_OF_OUT_OF_RANGE");
      const old = store.asOf(8);
      store.write((w) => w.updateNode("p", id, { props: { v: 11 } }));
      throwsCode(() => old.getNode("p", id), "AS_OF_OUT_OF_RANGE");
      store.close();
      // Only the versions readable as of commits 9..11 remain: v9 [9,10) and v10 [10,11).
      assert.equal(histRows(file), 2);
      const again = openStore(file, { retainCommits: 3 });
      try {
        assert.deepEqual(again.asOf(9).getNode("p", id)?.props, { v: 9 });
        throwsCode(() => again.asOf(8), "AS_OF_OUT_OF_RANGE");
      } finally {
        again.close();
      }
    } finally {
      done();
    }
  });

  it("0 keeps every commit", () => {
    const { store, done } = tempStore({ retainCommits: 0 });
    try {
      const id = store.write((w) => {
        w.createPlane("p");
        return w.createNode("p", { key: "k", labels: ["Var"], props: { v: 1 } });
      });
      for (let v = 2; v <= 30; v++) store.write((w) => w.updateNode("p", id, { props: { v } }));
      assert.equal(store.commits().length, 30);
      for (let s = 1; s <= 30; s++) assert.deepEqual(store.asOf(s).getNode("p", id)?.props, { v: s });
    } finally {
      done();
    }
  });

  it("an unchanged update leaves no history", () => {
    const { store, file, done } = tempStore({ retainCommits: 0 });
    try {
      const [n, e] = store.write((w) => {
        w.createPlane("p");
        const n = w.createNode("p", { key: "k", labels: ["Var"], props: { v: 1 } });
        return [n, w.createEdge("p", { type: "CALLS", src: n, dst: n, props: { line: 1 } })];
      });
      store.write((w) => {
        w.updateNode("p", n, { labels: ["Var"], props: { v: 1 } });
        w.updateEdge("p", e, { line: 1 });
      });
      store.close();
      assert.equal(histRows(file), 0);
    } finally {
      done();
    }
  });

  describe("DRSG_RETAIN_COMMITS", () => {
    const saved = process.env.DRSG_RETAIN_COMMITS;
    after(() => {
      if (saved === undefined) delete process.env.DRSG_RETAIN_COMMITS;
      else process.env.DRSG_RETAIN_COMMITS = saved;
    });

    it("is read at open; a value that is not a non-negative integer is BAD_ENV", () => {
      const { dir, cleanup } = tempDir();
      try {
        const file = join(dir, "g.drsg");
        process.env.DRSG_RETAIN_COMMITS = "abc";
        const e = throwsCode(() => openStore(file, { create: true }), "BAD_ENV");
        assert.equal(e.data.variable, "DRSG_RETAIN_COMMITS");
        assert.match(e.message, /DRSG_RETAIN_COMMITS/);
        process.env.DRSG_RETAIN_COMMITS = "7";
        const s = openStore(file, { create: true });
        assert.equal(s.retainCommits, 7);
        s.close();
        process.env.DRSG_RETAIN_COMMITS = "0";
        const all = openStore(file);
        assert.equal(all.retainCommits, 0);
        all.close();
        delete process.env.DRSG_RETAIN_COMMITS;
        const dflt = openStore(file);
        assert.equal(dflt.retainCommits, DEFAULT_RETAIN_COMMITS);
        assert.equal(DEFAULT_RETAIN_COMMITS, 20);
        dflt.close();
      } finally {
        cleanup();
      }
    });

    it("accepts only digits; the option wins over the variable", () => {
      for (const bad of ["-1", "1.5", "1e3", "twenty", "0x10", "99999999999999999999"]) {
        throwsCode(() => resolveRetainCommits(undefined, { DRSG_RETAIN_COMMITS: bad }), "BAD_ENV");
      }
      assert.equal(resolveRetainCommits(undefined, { DRSG_RETAIN_COMMITS: " 5 " }), 5);
      assert.equal(resolveRetainCommits(undefined, { DRSG_RETAIN_COMMITS: "" }), 20);
      assert.equal(resolveRetainCommits(4, { DRSG_RETAIN_COMMITS: "abc" }), 4);
      throwsCode(() => resolveRetainCommits(-2, {}), "BAD_INPUT");
    });
  });
});
