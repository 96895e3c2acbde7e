// A walk of the store (StoreGraph, what a one-shot CLI verb reads) gives a whole view's answer:
// on random planes — repeated edges between one pair, self-loops, unbound calls, an agent's
// edges, nodes deleted with their edges — impact levels, shortest paths, regions and reaches
// from every node equal the ones over a freshly built whole view, edge order included (impact
// reads a level in one batch — packed by the store where no agent wrote an edge — and answers
// each level in id order, on either view), and the first nodes by key the store chooses (keys
// SQLite and JavaScript order alike or not); so do in-edges read ahead in batches (prefetchIn)
// and the edges of one pair read alone (edgesBetween).
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { GraphViews, type PlaneRead, StoreGraph, isWhole, prefetchIn } from "../../src/graph/view.js";
import { impactLevels, reach, region, shortestPath } from "../../src/graph/walk.js";
import { firstByKey } from "../../src/tools/graph_lines.js";
import { openStore } from "../../src/store/store.js";
import type { Store } from "../../src/store/types.js";

function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

const TYPES = ["CALLS", "REFERENCES", "IMPORTS", "CONTAINS", "INSTANTIATES"];

/** Characters where SQLite's order of text (UTF-8 bytes) and JavaScript's (UTF-16 units) part: an astral letter and one above U+E000. */
const WIDE = ["\u{1D465}", "\uFF58", "é"];

function randomPlane(store: Store, plane: string, r: () => number, opts: { agents: boolean; wide: boolean }): void {
  store.write((w) => {
    const ids: number[] = [];
    const n = 5 + Math.floor(r() * 40);
    const key = (i: number) => `m.${opts.wide && r() < 0.4 ? WIDE[Math.floor(r() * WIDE.length)] : ""}k${Math.floor(r() * 1e6)}.${i}`;
    for (let i = 0; i < n; i++) ids.push(w.createNode(plane, { key: key(i), labels: [r() < 0.1 ? "UnresolvedRef" : "Function"], props: { file: `f${i % 4}.ts`, line: i + 1 } }));
    const pick = () => ids[Math.floor(r() * ids.length)]!;
    const m = Math.floor(r() * n * 4);
    for (let i = 0; i < m; i++) {
      const src = pick();
      const dst = r() < 0.05 ? src : pick();
      const props: Record<string, string | number> = { line: Math.floor(r() * 90) + 1 };
      if (r() < 0.15) props._reason = "receiver type unknown";
      if (opts.agents && r() < 0.1) props._written_by = "agent";
      // An agent's stamp on an edge a parser made (it has _generated_by) is not an agent's edge.
      if (r() < 0.3) props._generated_by = "ts@1.0.0+0000abcd";
      if (r() < 0.2) props.count = 2;
      w.createEdge(plane, { type: TYPES[Math.floor(r() * TYPES.length)]!, src, dst, props });
      // The same pair again, so a neighbour holds several edges.
      if (r() < 0.2) w.createEdge(plane, { type: "CALLS", src, dst, props: { line: 99 } });
    }
    for (const id of new Set([pick(), pick(), pick()])) if (r() < 0.5) w.deleteNode(plane, id);
  });
}

function walks(g: PlaneRead, ids: string[]): unknown[] {
  const out: unknown[] = [];
  for (const a of ids) {
    out.push(impactLevels(g, a, 4));
    out.push(firstByKey(g, ids.filter((_, i) => i % 3 !== 0), 4));
    out.push(region(g, a, 2, 30));
    out.push(reach(g, a, { dir: "both", min: 1, max: 3 }));
    out.push(reach(g, a, { dir: "in", types: new Set(["CALLS"]), min: 2, max: 4 }));
    for (const b of ids.slice(0, 6)) out.push(shortestPath(g, a, b));
  }
  return out;
}

/** Each node's in-edges and the edges between pairs, as visited (order and attributes), after reading half the in-edges ahead. */
function edgeVisits(g: PlaneRead, ids: string[]): unknown[] {
  prefetchIn(g, ids.filter((_, i) => i % 2 === 0));
  const out: unknown[] = [];
  for (const a of ids) {
    const ins: unknown[] = [];
    g.forEachInEdge(a, (e, attrs, s, t) => ins.push([e, attrs, s, t]));
    out.push(ins);
    for (const b of ids.slice(0, 8)) {
      const pair: unknown[] = [];
      g.forEachOutEdge(a, b, (e, attrs, s, t) => pair.push([e, attrs, s, t]));
      out.push(pair);
    }
  }
  return out;
}

test("a walk of the store equals one over the whole view, on random planes", () => {
  const dir = mkdtempSync(join(tmpdir(), "drsg-storegraph-"));
  try {
    const seed = Number(process.env.DRSG_SEED ?? Date.now() % 100000);
    const r = rng(seed);
    for (let round = 0; round < 25; round++) {
      const store = openStore(join(dir, `g${round}.drsg`), { create: true });
      store.write((w) => w.createPlane("p", { synced_commit: "0".repeat(40) }));
      // Packed sources where no agent wrote an edge; keys SQLite cannot order as JavaScript does in some.
      randomPlane(store, "p", r, { agents: round % 2 === 0, wide: round % 3 === 0 });
      if (round % 2 === 1) assert.ok(store.sourcesIn!("p", [], ["CALLS"]), "a plane without an agent's edge packs sources");
      const whole = new GraphViews(store).get("p");
      const lazy = new GraphViews(store, { lazy: true }).read("p");
      assert.ok(isWhole(whole) && !isWhole(lazy) && lazy instanceof StoreGraph);
      const ids = whole.nodes();
      assert.deepEqual(walks(lazy, ids), walks(whole, ids), `round ${round} (seed ${seed}, DRSG_SEED reruns it)`);
      // In-edges read ahead in batches, and one pair's edges read alone, as a whole view visits them.
      const fresh = new GraphViews(store, { lazy: true }).read("p");
      assert.deepEqual(edgeVisits(fresh, ids), edgeVisits(whole, ids), `round ${round}: edges (seed ${seed})`);
      for (const id of ids) assert.deepEqual(lazy.getNodeAttributes(id), whole.getNodeAttributes(id));
      assert.equal(lazy.hasNode("999999"), false);
      store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a lazy process walks the whole view once one is built and current, and a new commit's store", () => {
  const dir = mkdtempSync(join(tmpdir(), "drsg-storegraph-"));
  try {
    const store = openStore(join(dir, "g.drsg"), { create: true });
    store.write((w) => {
      w.createPlane("p");
      w.createNode("p", { key: "a", labels: ["Function"], props: {} });
    });
    const views = new GraphViews(store, { lazy: true });
    const first = views.read("p");
    assert.equal(isWhole(first), false);
    assert.equal(views.read("p"), first, "one walk per commit: what it read is kept");
    store.write((w) => w.createNode("p", { key: "b", labels: ["Function"], props: {} }));
    const second = views.read("p");
    assert.notEqual(second, first, "a new commit, a new walk");
    const whole = views.get("p");
    assert.equal(views.read("p"), whole, "a current whole view is walked rather than the store");
    assert.equal(isWhole(new GraphViews(store).read("p")), true, "a server's views always walk the whole view");
    store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
