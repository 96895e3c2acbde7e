// algo on a fixture plane written into a real store: golden answers for pagerank order, degree,
// components (weak and strong), louvain membership with the seed fixed (and the same answer
// twice), shortest paths (directed, undirected, weighted, none), betweenness exact and sampled,
// and a refusal that names its flag.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { restrict, runBetweenness } from "../../src/graph/algo.js";
import { GraphViews } from "../../src/graph/view.js";
import { runTool } from "../../src/mcp/server.js";
import { PluginSet } from "../../src/plugin/host.js";
import type { Store } from "../../src/store/types.js";
import { algo } from "../../src/tools/algo.js";
import type { ToolContext } from "../../src/tools/tool.js";
import { tempStore } from "../store/helpers.js";

type Data = Record<string, unknown> & {
  results?: { key: string; score: number; degree?: number }[];
  groups?: { rank: number; size: number; members: string[] }[];
  path?: { found: boolean; nodes: string[]; edges: string[]; cost: number | null };
  count?: number;
  notes: string[];
  nodes: number;
  edges: number;
};

/**
 * Two call cycles (a→b→c→a, d→e→f→d) joined by c→d, a `hub` that a, b, e and f call and that calls f, an
 * isolated g that REFERENCES a, and a call to an unresolved placeholder (left out by default).
 */
function fixture(store: Store): void {
  store.write((w) => {
    w.createPlane("m", { synced_commit: "0123456789abcdef0123456789abcdef01234567" });
    const id: Record<string, number> = {};
    for (const k of ["a", "b", "c", "d", "e", "f", "g", "hub"])
      id[k] = w.createNode("m", { key: `m.${k}`, labels: ["Function"], props: { file: "m.ts", line: 1 } });
    id.x = w.createNode("m", { key: "?x", labels: ["UnresolvedRef"], props: {} });
    const calls: [string, string, number?][] = [
      ["a", "b", 5],
      ["b", "c", 5],
      ["c", "a"],
      ["d", "e"],
      ["e", "f"],
      ["f", "d"],
      ["c", "d", 1],
      ["a", "hub", 1],
      ["b", "hub"],
      ["e", "hub"],
      ["f", "hub"],
      ["hub", "f", 1],
      ["a", "x"],
    ];
    for (const [s, d, weight] of calls) w.createEdge("m", { type: "CALLS", src: id[s]!, dst: id[d]!, props: weight === undefined ? {} : { weight } });
    w.createEdge("m", { type: "REFERENCES", src: id.g!, dst: id.a!, props: {} });
  });
}

describe("algo", () => {
  let t: ReturnType<typeof tempStore>;
  let ctx: ToolContext;
  const run = async (input: Record<string, unknown>): Promise<{ text: string; data: Data }> => {
    const r = await runTool(algo, ctx, algo.input.parse({ plane: "m", ...input }));
    assert.equal(r.isError, false, r.text);
    assert.ok(r.data, "algo answers data beside the text");
    // The data validates against the tool's declared output schema.
    algo.output!.parse(r.data);
    return { text: r.text, data: r.data as Data };
  };
  before(() => {
    t = tempStore();
    fixture(t.store);
    ctx = { store: t.store, transport: "cli", plugins: () => new PluginSet([]), views: new GraphViews(t.store) };
  });
  after(() => t.done());

  test("pagerank: the order is golden (checked against a plain power iteration); the placeholder is left out", async () => {
    const { data, text } = await run({ algo: "pagerank", edge_types: ["CALLS"] });
    assert.equal(data.nodes, 8, "UnresolvedRef excluded by default");
    assert.equal(data.edges, 12);
    assert.deepEqual(
      data.results!.map((r) => r.key),
      ["m.f", "m.hub", "m.d", "m.e", "m.a", "m.b", "m.c", "m.g"],
    );
    const sum = data.results!.reduce((s, r) => s + r.score, 0);
    assert.ok(Math.abs(sum - 1) < 1e-6, `pagerank sums to 1 (${sum})`);
    assert.match(text, /^synced: commit 0123456789ab/);
    assert.match(text, /pagerank \(damping 0\.85\) over 8 node\(s\) and 12 edge\(s\)/);
    assert.match(text, /1\. m\.f {2}Function {2}m\.ts:1/);
  });

  test("degree: in-degree counts callers", async () => {
    const { data } = await run({ algo: "degree", direction: "in", edge_types: ["CALLS"], limit: 3 });
    assert.deepEqual(
      data.results!.map((r) => [r.key, r.degree]),
      [
        ["m.hub", 4],
        ["m.d", 2],
        ["m.f", 2],
      ],
    );
    assert.equal(data.results![0]!.score, 4 / 7);
  });

  test("components: weak and strong, largest first, with sizes and members", async () => {
    const weak = await run({ algo: "components", edge_types: ["CALLS"] });
    assert.equal(weak.data.count, 2);
    assert.deepEqual(
      weak.data.groups!.map((g) => g.size),
      [7, 1],
    );
    assert.deepEqual(weak.data.groups![1]!.members, ["m.g"]);
    const withRefs = await run({ algo: "components" });
    assert.equal(withRefs.data.count, 1, "g joins through its REFERENCES edge");
    const strong = await run({ algo: "components", kind: "strong", edge_types: ["CALLS"], members: 10 });
    assert.deepEqual(
      strong.data.groups!.map((g) => g.members),
      [["m.d", "m.e", "m.f", "m.hub"], ["m.a", "m.b", "m.c"], ["m.g"]],
    );
    assert.match(strong.text, /3 component\(s\), 1 of a single node/);
  });

  test("louvain: membership is golden with the seed fixed, and the same on a second run", async () => {
    const one = await run({ algo: "louvain", edge_types: ["CALLS"], seed: 7, members: 10 });
    assert.deepEqual(
      one.data.groups!.map((g) => g.members),
      [["m.d", "m.e", "m.f", "m.hub"], ["m.a", "m.b", "m.c"], ["m.g"]],
    );
    assert.ok(typeof one.data.modularity === "number" && one.data.modularity > 0.1);
    const two = await run({ algo: "louvain", edge_types: ["CALLS"], seed: 7, members: 10 });
    assert.deepEqual(two.data, one.data);
  });

  test("shortest_path: directed, undirected, weighted, and none", async () => {
    const dir = await run({ algo: "shortest_path", from: "m.a", to: "m.e", edge_types: ["CALLS"] });
    assert.deepEqual(dir.data.path, { found: true, nodes: ["m.a", "m.b", "m.c", "m.d", "m.e"], edges: ["CALLS", "CALLS", "CALLS", "CALLS"], cost: 4 });
    const und = await run({ algo: "shortest_path", from: "m.a", to: "m.e", edge_types: ["CALLS"], directed: false });
    assert.deepEqual(und.data.path!.nodes, ["m.a", "m.hub", "m.e"], "e→hub taken backwards");
    // Weighted: a→b→c costs 10; a→hub→f→d→e costs 1 + 1 + 1 + 1 = 4 against a→b→c→d→e = 12.
    const wt = await run({ algo: "shortest_path", from: "m.a", to: "m.e", edge_types: ["CALLS"], weighted: true });
    assert.deepEqual(wt.data.path!.nodes, ["m.a", "m.hub", "m.f", "m.d", "m.e"]);
    assert.equal(wt.data.path!.cost, 4);
    const none = await run({ algo: "shortest_path", from: "m.hub", to: "m.g", edge_types: ["CALLS"] });
    assert.deepEqual(none.data.path, { found: false, nodes: [], edges: [], cost: null });
    assert.match(none.text, /no path from m\.hub/);
    const miss = await run({ algo: "shortest_path", from: "nothing_like_it", to: "m.g" });
    assert.equal(miss.data.path!.found, false);
    assert.match(miss.text, /from: .*no symbol matches `nothing_like_it`/s);
  });

  test("betweenness: exact on a small graph; sampled (and said) when the work cap is hit", async () => {
    const exact = await run({ algo: "betweenness", edge_types: ["CALLS"], limit: 2 });
    assert.deepEqual(
      exact.data.results!.map((r) => r.key),
      ["m.d", "m.c"],
    );
    assert.deepEqual(exact.data.notes, []);
    const g = restrict(ctx.views.get("m"), { edgeTypes: ["CALLS"] });
    const sampled = runBetweenness(g, 42, 40);
    assert.equal(sampled.exact, false);
    assert.equal(sampled.sources, 2);
    assert.deepEqual(runBetweenness(g, 42, 40), sampled, "seeded: the same sample twice");
    assert.equal(runBetweenness(g, 42).exact, true);
  });

  test("a labels filter that leaves nothing answers an empty result; bad input is refused by the schema", async () => {
    const r = await run({ algo: "pagerank", labels: ["Class"] });
    assert.equal(r.data.nodes, 0);
    assert.deepEqual(r.data.results, []);
    assert.equal(algo.input.safeParse({ plane: "m", algo: "pagerank", damping: 1.5 }).success, false);
    assert.equal(algo.input.safeParse({ plane: "m", algo: "nope" }).success, false);
    const missing = await runTool(algo, ctx, algo.input.parse({ plane: "nope", algo: "pagerank" }));
    assert.equal(missing.isError, true);
    assert.match(missing.text, /\[PLANE_NOT_FOUND\]/);
  });
});
