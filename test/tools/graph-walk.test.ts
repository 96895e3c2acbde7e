// The traversals behind impact, trace, fathom and traverse, on small hand-built graphs.
import assert from "node:assert/strict";
import { test } from "node:test";
import { graphology } from "../../src/graph/graphology.js";
import type { EdgeAttrs, NodeAttrs, PlaneGraph } from "../../src/graph/view.js";
import { impactLevels, reach, region, shortestPath } from "../../src/graph/walk.js";

/** A graph from `src TYPE dst` lines; node keys are their ids. */
function graph(...edges: string[]): PlaneGraph {
  const g: PlaneGraph = new (graphology().MultiDirectedGraph)<NodeAttrs, EdgeAttrs>({ allowSelfLoops: true });
  let n = 0;
  for (const line of edges) {
    const [s, type, d, reason] = line.split(" ") as [string, string, string, string?];
    for (const id of [s, d]) if (!g.hasNode(id)) g.addNode(id, { key: id, label: "Function" });
    const a: EdgeAttrs = { type };
    if (reason) a.reason = reason;
    g.addDirectedEdgeWithKey(`e${n++}`, s, d, a);
  }
  return g;
}

test("impact: each node once at its first depth, tagged by the best edge type that reached it", () => {
  const g = graph("a CALLS t", "b REFERENCES t", "b CALLS t", "c CALLS a", "c CALLS t", "d IMPORTS c", "x CONTAINS t", "t CALLS z");
  const levels = impactLevels(g, "t", 6);
  assert.deepEqual(
    levels.map((l) => l.map((r) => `${r.id}:${r.via}`).sort()),
    [["a:CALLS", "b:CALLS", "c:CALLS"], ["d:IMPORTS"]],
  );
  assert.equal(impactLevels(g, "t", 1).length, 1, "depth bounds the walk");
  assert.deepEqual(impactLevels(g, "z", 3)[0]!.map((r) => r.id), ["t"]);
});

test("impact: stops when a level is empty; cycles and self-loops do not re-count", () => {
  const g = graph("a CALLS a", "a CALLS t", "t CALLS a");
  const levels = impactLevels(g, "t", 6);
  assert.equal(levels.length, 1);
  assert.deepEqual(levels[0]!.map((r) => r.id), ["a"]);
});

test("shortestPath: the shortest CALLS path, ignoring other edge types", () => {
  const g = graph("a CALLS b", "b CALLS c", "c CALLS d", "a REFERENCES d", "b CALLS x", "x CALLS y", "y CALLS d");
  const p = shortestPath(g, "a", "d");
  assert.deepEqual(p.nodes, ["a", "b", "c", "d"]);
  assert.equal(p.edges!.length, 3);
  assert.equal(shortestPath(g, "d", "a").nodes, undefined, "edges are directed");
  assert.deepEqual(shortestPath(g, "a", "a").nodes, ["a"]);
});

test("shortestPath: stops at its visit limit and says so; counts unbound calls met", () => {
  const chain = Array.from({ length: 50 }, (_, i) => `n${i} CALLS n${i + 1}`);
  const g = graph(...chain, "n3 CALLS ?u because");
  const capped = shortestPath(g, "n0", "n50", "CALLS", 10);
  assert.equal(capped.nodes, undefined);
  assert.equal(capped.capped, true);
  const whole = shortestPath(g, "n0", "n50", "CALLS", 100);
  assert.equal(whole.nodes!.length, 51);
  assert.equal(whole.unresolvedSites, 1);
});

test("region: both directions, each edge once, and the bound that stopped it", () => {
  const g = graph("a CALLS b", "b CALLS c", "c CALLS d", "x CALLS b", "b CALLS b");
  const r = region(g, "b", 1);
  assert.deepEqual([...r.nodes.keys()].sort(), ["a", "b", "c", "x"]);
  assert.equal(r.edges.size, 4, "a→b, b→c, x→b and the self-loop");
  assert.equal(r.edges.get("e0"), "in");
  assert.equal(r.edges.get("e1"), "out");
  assert.equal(r.stop, "depth");
  assert.equal(region(g, "b", 6).stop, "ended");
  const star = graph(...Array.from({ length: 30 }, (_, i) => `hub CALLS leaf${i}`));
  const capped = region(star, "hub", 2, 10);
  assert.equal(capped.nodes.size, 10);
  assert.equal(capped.stop, "budget");
  assert.equal(capped.edges.size, 9, "only edges with both ends inside the region");
});

test("reach: min..max hops by shortest distance, direction and edge types", () => {
  const g = graph("a CALLS b", "b CALLS c", "c REFERENCES d", "z CALLS a");
  const ids = (r: ReturnType<typeof reach>) => r.reached.map((x) => `${x.id}@${x.hop}`).sort();
  assert.deepEqual(ids(reach(g, "a", { dir: "out", min: 1, max: 3 })), ["b@1", "c@2", "d@3"]);
  assert.deepEqual(ids(reach(g, "a", { dir: "out", min: 2, max: 3 })), ["c@2", "d@3"]);
  assert.deepEqual(ids(reach(g, "a", { dir: "out", min: 1, max: 3, types: new Set(["CALLS"]) })), ["b@1", "c@2"]);
  assert.deepEqual(ids(reach(g, "a", { dir: "in", min: 1, max: 3 })), ["z@1"]);
  assert.deepEqual(ids(reach(g, "b", { dir: "both", min: 1, max: 1 })), ["a@1", "c@1"]);
  const r = reach(g, "b", { dir: "both", min: 1, max: 1 });
  assert.deepEqual(r.reached.find((x) => x.id === "a")?.dir, "in");
});
