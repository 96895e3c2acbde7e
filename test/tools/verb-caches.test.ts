// What the read verbs keep per database commit — the plane list with its counts, trace's CALLS
// index, impact's index of unbound calls by name — answers as a fresh read would, and is rebuilt
// after every commit (writes, deletes, dropped planes), never after a rolled-back write.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { graphology } from "../../src/graph/graphology.js";
import { type EdgeAttrs, GraphViews, type NodeAttrs, type PlaneGraph } from "../../src/graph/view.js";
import { shortestPath } from "../../src/graph/walk.js";
import { runTool } from "../../src/mcp/server.js";
import { PluginSet, officialPlugins } from "../../src/plugin/host.js";
import type { Store } from "../../src/store/types.js";
import { impact } from "../../src/tools/impact.js";
import { listPlanes } from "../../src/tools/list_planes.js";
import type { Tool, ToolContext } from "../../src/tools/tool.js";
import { shortestCallPath, trace } from "../../src/tools/trace.js";
import { tempStore } from "../store/helpers.js";
import { rng } from "../support/random.js";

/** Each plane's counts as the store's own count queries give them (never cached). */
function counted(store: Store): [string, number, number][] {
  return store.listPlanes().map((p) => [p.name, store.countNodes(p.name), store.countEdges(p.name)]);
}

function listed(store: Store): [string, number, number][] {
  return store.listPlanes().map((p) => [p.name, p.nodeCount, p.edgeCount]);
}

describe("listPlanes counts, kept per commit", () => {
  let store: Store;
  let done: () => void;
  before(() => ({ store, done } = tempStore()));
  after(() => done());

  it("follow creates, deletes, dropped planes and rolled-back writes", () => {
    assert.deepEqual(listed(store), []);
    const ids = store.write((w) => {
      w.createPlane("a");
      w.createPlane("b");
      const [x, y, z] = w.createNodes("a", [
        { key: "x", labels: ["Function"], props: {} },
        { key: "y", labels: ["Function"], props: {} },
        { key: "z", labels: ["Function"], props: {} },
      ]);
      w.createEdge("a", { type: "CALLS", src: x!, dst: y!, props: {} });
      w.createEdge("a", { type: "CALLS", src: y!, dst: z!, props: {} });
      w.createNode("b", { key: "only", labels: ["Function"], props: {} });
      return { x: x!, y: y!, z: z! };
    });
    assert.deepEqual(listed(store), [
      ["a", 3, 2],
      ["b", 1, 0],
    ]);
    assert.deepEqual(listed(store), counted(store), "a second read (from the kept list) says the same");

    // Inside a write the list is read fresh: it sees the transaction's own rows.
    store.write((w) => {
      w.deleteNode("a", ids.z);
      assert.deepEqual(
        store.listPlanes().map((p) => [p.name, p.nodeCount]),
        [
          ["a", 2],
          ["b", 1],
        ],
      );
    });
    assert.deepEqual(listed(store), counted(store));
    assert.equal(store.getPlane("a")!.nodeCount, 2);

    // A rolled-back write changes nothing, and leaves no stale list behind.
    assert.throws(() =>
      store.write((w) => {
        w.createNode("b", { key: "gone", labels: ["Function"], props: {} });
        store.listPlanes();
        throw new Error("roll back");
      }),
    );
    assert.deepEqual(listed(store), [
      ["a", 2, 1],
      ["b", 1, 0],
    ]);

    store.write((w) => w.dropPlane("b"));
    assert.deepEqual(listed(store), [["a", 2, 1]]);
    store.write((w) => w.createEdge("a", { type: "REFERENCES", src: ids.y, dst: ids.x, props: {} }));
    assert.deepEqual(listed(store), [["a", 2, 2]]);
    assert.deepEqual(listed(store), counted(store));
    // Readers as of an older commit count that commit's rows.
    assert.deepEqual(
      store
        .asOf(1)
        .listPlanes()
        .map((p) => [p.name, p.nodeCount, p.edgeCount]),
      [
        ["a", 3, 2],
        ["b", 1, 0],
      ],
    );
  });
});

describe("trace's CALLS index", () => {
  it("finds what shortestPath finds — path, edges, visits, cap and unbound sites — on random multigraphs", () => {
    const types = ["CALLS", "CALLS", "CALLS", "REFERENCES", "CONTAINS"];
    let paths = 0;
    let capped = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const r = rng(seed);
      const g: PlaneGraph = new (graphology().MultiDirectedGraph)<NodeAttrs, EdgeAttrs>({ allowSelfLoops: true });
      const n = 20 + Math.floor(r() * 60);
      for (let i = 0; i < n; i++) g.addNode(String(i * 3 + 1), { key: `k${i}`, label: "Function" });
      const m = Math.floor(n * (0.5 + r() * 2));
      for (let e = 0; e < m; e++) {
        const a: EdgeAttrs = { type: types[Math.floor(r() * types.length)]! };
        if (r() < 0.2) a.reason = "ambiguous";
        if (r() < 0.2) a.count = 2 + Math.floor(r() * 3);
        g.addDirectedEdgeWithKey(`e${e}`, String(Math.floor(r() * n) * 3 + 1), String(Math.floor(r() * n) * 3 + 1), a);
      }
      for (let q = 0; q < 30; q++) {
        const from = String(Math.floor(r() * n) * 3 + 1);
        const to = String(Math.floor(r() * n) * 3 + 1);
        const limit = q % 5 === 0 ? 1 + Math.floor(r() * 6) : 20_000;
        const want = shortestPath(g, from, to, "CALLS", limit);
        assert.deepEqual(shortestCallPath(g, from, to, limit), want, `seed ${seed}: ${from} → ${to} (limit ${limit})`);
        if (want.nodes && want.nodes.length > 2) paths++;
        if (want.capped) capped++;
      }
    }
    assert.ok(paths > 20 && capped > 5, `the random graphs exercise long paths (${paths}) and the cap (${capped})`);
  });
});

describe("per-commit verb structures are rebuilt after a commit", () => {
  let store: Store;
  let done: () => void;
  let ctx: ToolContext;
  const id: Record<string, number> = {};
  before(() => {
    ({ store, done } = tempStore());
    const plugins = new PluginSet(officialPlugins());
    ctx = { store, transport: "cli", plugins: () => plugins, views: new GraphViews(store) };
    store.write((w) => {
      w.createPlane("p");
      for (const k of ["app.a", "app.b", "app.c", "app.target"])
        id[k] = w.createNode("p", { key: k, labels: ["Function"], props: { file: "app.ts", line: 1 } });
      w.createEdge("p", { type: "CALLS", src: id["app.a"]!, dst: id["app.b"]!, props: { line: 2 } });
    });
  });
  after(() => done());

  const call = async (tool: Tool, args: Record<string, unknown>) => {
    const r = await runTool(tool, ctx, tool.input.parse(args));
    assert.equal(r.isError, false, r.text);
    return r.text;
  };

  it("trace sees a CALLS edge written after its first answer", async () => {
    assert.match(await call(trace, { plane: "p", from: "app.a", to: "app.c" }), /no recorded call path from app\.a to app\.c/);
    store.write((w) => w.createEdge("p", { type: "CALLS", src: id["app.b"]!, dst: id["app.c"]!, props: { line: 5 } }));
    const text = await call(trace, { plane: "p", from: "app.a", to: "app.c" });
    assert.match(text, /app\.a {2}Function {2}app\.ts:1\n {2}-> app\.b .*call@2\n {2}-> app\.c .*call@5\n2 hop\(s\)/);
    store.write((w) => w.deleteNode("p", id["app.b"]!));
    assert.match(await call(trace, { plane: "p", from: "app.a", to: "app.c" }), /no recorded call path/);
  });

  it("impact counts unbound calls named like the symbol as they are written and deleted", async () => {
    assert.match(await call(impact, { plane: "p", name: "app.target" }), /might also reach it: 0 \(no call named `target` is left unbound\)/);
    const ref = store.write((w) => {
      const r = w.createNode("p", { key: "?::app.ts::x.target", labels: ["UnresolvedRef"], props: { name: "target" } });
      w.createEdge("p", { type: "CALLS", src: id["app.a"]!, dst: r, props: { line: 9, _reason: "untyped receiver", count: 2 } });
      return r;
    });
    const text = await call(impact, { plane: "p", name: "app.target" });
    assert.match(text, /not in the total: 2 \(calls named `target`/);
    assert.match(text, /app\.a {2}Function {2}app\.ts:1 {2}call@9 ×2 {2}\[untyped receiver\]/);
    store.write((w) => w.deleteNode("p", ref));
    assert.match(await call(impact, { plane: "p", name: "app.target" }), /might also reach it: 0/);
  });

  it("impact's lines show a symbol's site as of the latest commit", async () => {
    store.write((w) => w.createEdge("p", { type: "CALLS", src: id["app.c"]!, dst: id["app.target"]!, props: { line: 3 } }));
    assert.match(await call(impact, { plane: "p", name: "app.target" }), /depth 1 \(1\):\n {2}app\.c {2}Function {2}app\.ts:1 {2}\[CALLS\]/);
    store.write((w) => w.updateNode("p", id["app.c"]!, { props: { file: "moved.ts", line: 40 } }));
    assert.match(await call(impact, { plane: "p", name: "app.target" }), /depth 1 \(1\):\n {2}app\.c {2}Function {2}moved\.ts:40 {2}\[CALLS\]/);
  });

  it("list_planes answers with the counts of the latest commit", async () => {
    const before = await call(listPlanes, {});
    const m = /p {2}(\d+) node\(s\), (\d+) edge\(s\)/.exec(before);
    assert.ok(m, before);
    store.write((w) => w.createNode("p", { key: "app.more", labels: ["Function"], props: {} }));
    assert.match(await call(listPlanes, {}), new RegExp(`p  ${Number(m[1]) + 1} node\\(s\\), ${m[2]} edge\\(s\\)`));
  });
});
