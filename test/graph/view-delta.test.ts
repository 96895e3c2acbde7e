// A graph view kept current by applying what changed in its plane (the store's history) equals a
// view read afresh, over random sequences of writes — created, patched and deleted nodes and
// edges, a plane dropped and made again, and a window older than the retained history.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { GraphViews, type PlaneGraph } from "../../src/graph/view.js";
import { openStore } from "../../src/store/store.js";
import type { Store } from "../../src/store/types.js";

function snapshot(g: PlaneGraph): string[] {
  const out: string[] = [];
  g.forEachNode((id, a) => out.push(`N ${id} ${JSON.stringify(a)}`));
  g.forEachEdge((id, a, s, t) => out.push(`E ${id} ${s}->${t} ${JSON.stringify(a)}`));
  return out.sort();
}

function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

function randomWrites(store: Store, plane: string, r: () => number, n: number): void {
  store.write((w) => {
    for (let i = 0; i < n; i++) {
      const nodes = [...w.allNodes(plane)];
      const edges = [...w.allEdges(plane)];
      const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
      const op = r();
      if (op < 0.35 || nodes.length < 2) w.createNode(plane, { key: `k${Math.floor(r() * 1e9)}`, labels: ["Function"], props: { file: `f${Math.floor(r() * 5)}.ts`, line: Math.floor(r() * 100) } });
      else if (op < 0.5) {
        const x = pick(nodes)!;
        w.updateNode(plane, x.id, { props: { ...x.props, line: Math.floor(r() * 100) } });
      } else if (op < 0.6) w.deleteNode(plane, pick(nodes)!.id);
      else if (op < 0.85) w.createEdge(plane, { type: r() < 0.5 ? "CALLS" : "REFERENCES", src: pick(nodes)!.id, dst: pick(nodes)!.id, props: { line: Math.floor(r() * 100) } });
      else if (op < 0.93 && edges.length > 0) w.updateEdge(plane, pick(edges)!.id, { line: Math.floor(r() * 100), count: 2 });
      else if (edges.length > 0) w.deleteEdge(plane, pick(edges)!.id);
    }
  });
}

test("a view kept current by deltas equals a fresh read, write after write", () => {
  const dir = mkdtempSync(join(tmpdir(), "drsg-view-"));
  try {
    const seed = Number(process.env.DRSG_SEED ?? Date.now() % 100000);
    const r = rng(seed);
    const store = openStore(join(dir, "g.drsg"), { create: true, retainCommits: 0 });
    store.write((w) => w.createPlane("p"));
    store.write((w) => w.createPlane("other"));
    const views = new GraphViews(store);
    for (let step = 0; step < 40; step++) {
      randomWrites(store, "p", r, 1 + Math.floor(r() * 6));
      if (r() < 0.2) randomWrites(store, "other", r, 3);
      const kept = views.get("p");
      const fresh = new GraphViews(store).get("p");
      assert.deepEqual(snapshot(kept), snapshot(fresh), `step ${step} (seed ${seed}, DRSG_SEED reruns it)`);
    }
    // A plane dropped and made again under the same name: the view is not patched across it.
    const before = views.get("p");
    store.write((w) => {
      w.dropPlane("p");
      w.createPlane("p");
      w.createNode("p", { key: "only", labels: ["Class"], props: {} });
    });
    const after = views.get("p");
    assert.notEqual(after, before);
    assert.deepEqual(snapshot(after), snapshot(new GraphViews(store).get("p")));
    store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("history reclaimed past the view's commit: the view is read afresh, still equal", () => {
  const dir = mkdtempSync(join(tmpdir(), "drsg-view-"));
  try {
    const store = openStore(join(dir, "g.drsg"), { create: true, retainCommits: 2 });
    store.write((w) => w.createPlane("p"));
    const views = new GraphViews(store);
    const r = rng(7);
    randomWrites(store, "p", r, 10);
    views.get("p");
    for (let i = 0; i < 6; i++) randomWrites(store, "p", r, 3);
    assert.deepEqual(snapshot(views.get("p")), snapshot(new GraphViews(store).get("p")));
    // Within the window, the same graph object is patched in place.
    const g = views.get("p");
    randomWrites(store, "p", r, 2);
    assert.equal(views.get("p"), g, "patched, not rebuilt");
    assert.deepEqual(snapshot(g), snapshot(new GraphViews(store).get("p")));
    store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a delta read by the commit's id watermark equals one read by a scan of the plane", () => {
  const dir = mkdtempSync(join(tmpdir(), "drsg-view-"));
  const file = join(dir, "g.drsg");
  const norm = (d: ReturnType<Store["planeDelta"]>) =>
    d && {
      nodes: d.nodes.map((n) => JSON.stringify(n)).sort(),
      edges: d.edges.map((e) => JSON.stringify(e)).sort(),
      goneNodes: [...d.goneNodes].sort((a, b) => a - b),
      goneEdges: [...d.goneEdges].sort((a, b) => a - b),
    };
  try {
    const seed = Number(process.env.DRSG_SEED ?? Date.now() % 100000);
    const r = rng(seed);
    let store = openStore(file, { create: true, retainCommits: 0 });
    store.write((w) => w.createPlane("p"));
    store.write((w) => w.createPlane("other"));
    randomWrites(store, "p", r, 12);
    const marks: number[] = [];
    for (let step = 0; step < 25; step++) {
      marks.push(store.currentSeq());
      randomWrites(store, "p", r, 1 + Math.floor(r() * 6));
      if (r() < 0.3) randomWrites(store, "other", r, 3);
    }
    // This process recorded every commit's watermark since its open: deltas by id range and history.
    const marked = marks.map((s) => norm(store.planeDelta("p", s, 1_000_000)));
    store.close();
    // A new open knows only the latest commit's watermark: the same deltas, by a scan of the plane.
    store = openStore(file, { retainCommits: 0 });
    try {
      marks.forEach((s, i) => {
        const scanned = norm(store.planeDelta("p", s, 1_000_000));
        assert.ok(scanned && marked[i], `delta since ${s}: ${JSON.stringify([!!scanned, !!marked[i]])}`);
        assert.deepEqual(marked[i], scanned, `delta since commit ${s} (seed ${seed}, DRSG_SEED reruns it)`);
      });
      assert.ok(marked.some((d) => d!.nodes.length > 0 && d!.goneNodes.length + d!.goneEdges.length > 0), "the writes created, patched and deleted");
    } finally {
      store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
