// The tools the dashboard reads through, on synthetic planes written straight into a store:
// neighbourhood (candidates never a guess, the cap, edges only among the nodes it returns,
// unresolved sites with their reason), plane_map (directory tree with a lone directory entered,
// a file's symbols, louvain communities stable across calls and descendable, the lightest
// clusters merged under the cap, `..` refused), plane_overview (commits behind HEAD, the
// resolution share, the ledger) and fold_log (a bounded ring, `since`).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { GraphViews } from "../../src/graph/view.js";
import { commitKey, HEAD_KEY } from "../../src/git/plane.js";
import { DrsgError } from "../../src/model/errors.js";
import { PluginSet } from "../../src/plugin/host.js";
import type { Store, Writer } from "../../src/store/types.js";
import type { FoldResult } from "../../src/sync/fold.js";
import { FoldLog, foldLog } from "../../src/tools/fold_log.js";
import { neighbourhood } from "../../src/tools/neighbourhood.js";
import { planeMap } from "../../src/tools/plane_map.js";
import { planeOverview } from "../../src/tools/plane_overview.js";
import type { Tool, ToolContext } from "../../src/tools/tool.js";
import { tempStore } from "../store/helpers.js";

const SHA = (n: number) => String(n).repeat(40).slice(0, 40);

function ctxOf(store: Store, extras?: Record<string, unknown>): ToolContext {
  return { store, transport: "cli", plugins: () => new PluginSet([]), views: new GraphViews(store), extras };
}

// biome-ignore lint/suspicious/noExplicitAny: answers are JSON read field by field
async function ask(ctx: ToolContext, tool: Tool, input: Record<string, unknown>): Promise<any> {
  const r = await tool.run(ctx, tool.input.parse(input) as never);
  return typeof r === "string" ? JSON.parse(r) : r;
}

function sym(w: Writer, key: string, file: string, label = "Function"): number {
  return w.createNode("p", { key, labels: [label], props: { file, line: 1 } });
}

describe("dashboard tools on a synthetic plane", () => {
  let t: ReturnType<typeof tempStore>;
  let ctx: ToolContext;
  before(() => {
    t = tempStore();
    ctx = ctxOf(t.store);
    t.store.write((w) => {
      w.createPlane("p", { synced_commit: SHA(1), built_by: [], ledger: { at: 1, plugins: ["ts = 9 fact(s)"], unclaimed: [".kt (2)"], skipped: 1, syntax_errors: 0, notes: [] } });
      // src/a/{x,y}.ts call each other heavily; src/b/z.ts is called once; two same-named `run`s.
      const x1 = sym(w, "pkg/src/a/x.f1", "src/a/x.ts");
      const x2 = sym(w, "pkg/src/a/x.f2", "src/a/x.ts");
      const y1 = sym(w, "pkg/src/a/y.g1", "src/a/y.ts");
      const z1 = sym(w, "pkg/src/b/z.h1", "src/b/z.ts");
      sym(w, "pkg/src/a/x.K.run", "src/a/x.ts", "Method");
      sym(w, "pkg/src/b/z.J.run", "src/b/z.ts", "Method");
      w.createNode("p", { key: "pkg/src/a/x", labels: ["Module"], props: { file: "src/a/x.ts", line: 1 } });
      const ref = w.createNode("p", { key: "?::src/a/x.ts::dyn.go", labels: ["UnresolvedRef"], props: { name: "go" } });
      w.createEdge("p", { type: "CALLS", src: x1, dst: x2, props: { line: 2 } });
      w.createEdge("p", { type: "CALLS", src: x1, dst: y1, props: { line: 3, count: 5 } });
      w.createEdge("p", { type: "CALLS", src: y1, dst: x2, props: { line: 4, count: 2 } });
      w.createEdge("p", { type: "CALLS", src: x2, dst: z1, props: { line: 5 } });
      w.createEdge("p", { type: "CALLS", src: x1, dst: ref, props: { line: 6, _reason: "receiver type unknown" } });
      // A hub with 40 callers in 40 files of src/c, for the caps.
      const hub = sym(w, "pkg/src/c/hub.hub", "src/c/hub.ts");
      for (let i = 0; i < 40; i++) w.createEdge("p", { type: "CALLS", src: sym(w, `pkg/src/c/f${i}.c${i}`, `src/c/f${i}.ts`), dst: hub, props: { line: 1 } });
      // The history plane: HEAD three commits ahead of the synced one.
      w.createPlane("p_git", {});
      const c = [1, 2, 3, 4].map((n) => w.createNode("p_git", { key: commitKey(SHA(n)), labels: ["Commit"], props: { sha: SHA(n) } }));
      for (let i = 1; i < 4; i++) w.createEdge("p_git", { type: "PARENT", src: c[i]!, dst: c[i - 1]!, props: {} });
      w.createNode("p_git", { key: HEAD_KEY, labels: ["Head"], props: { sha: SHA(4), branch: "main" } });
    });
  });
  after(() => t.done());

  test("neighbourhood: an ambiguous name gives candidates, never a guess", async () => {
    const r = await ask(ctx, neighbourhood, { plane: "p", name: "run" });
    assert.equal(r.found, "many");
    assert.deepEqual(r.candidates.map((c: { key: string }) => c.key), ["pkg/src/a/x.K.run", "pkg/src/b/z.J.run"]);
    assert.equal(r.nodes, undefined);
    assert.equal((await ask(ctx, neighbourhood, { plane: "p", name: "nothing_like_it" })).found, "none");
  });

  test("neighbourhood: nodes by hop, edges among them only, unresolved sites with their reason", async () => {
    const r = await ask(ctx, neighbourhood, { plane: "p", name: "pkg/src/a/x.f1", hops: 1 });
    assert.equal(r.found, "one");
    const byKey = new Map(r.nodes.map((n: { key: string }) => [n.key, n]));
    assert.deepEqual([...byKey.keys()].sort(), ["?::src/a/x.ts::dyn.go", "pkg/src/a/x.f1", "pkg/src/a/x.f2", "pkg/src/a/y.g1"]);
    assert.equal((byKey.get("pkg/src/a/x.f1") as { hop: number }).hop, 0);
    assert.equal((byKey.get("?::src/a/x.ts::dyn.go") as { reason: string }).reason, "receiver type unknown");
    const ids = new Set(r.nodes.map((n: { id: number }) => n.id));
    for (const e of r.edges) assert.ok(ids.has(e.src) && ids.has(e.dst), "every edge joins two returned nodes");
    // y.g1 → x.f2 is between two neighbours: it is drawn too.
    assert.equal(r.edges.filter((e: { type: string }) => e.type === "CALLS").length, 4);
    assert.equal(r.capped, false);
  });

  test("neighbourhood: max_nodes caps the answer (the nearest kept) and says so", async () => {
    const r = await ask(ctx, neighbourhood, { plane: "p", name: "pkg/src/c/hub.hub", max_nodes: 10 });
    assert.equal(r.nodes.length, 10);
    assert.equal(r.total, 41);
    assert.equal(r.capped, true);
    const again = await ask(ctx, neighbourhood, { plane: "p", name: "pkg/src/c/hub.hub", max_nodes: 10 });
    assert.deepEqual(again.nodes, r.nodes, "the same nodes every time");
    assert.throws(() => neighbourhood.input.parse({ plane: "p", name: "x", max_nodes: 5001 }));
  });

  test("plane_map: the directory tree, a lone directory entered, heaviest call links first", async () => {
    const r = await ask(ctx, planeMap, { plane: "p" });
    assert.equal(r.under, "src", "the root holds only src/: it is entered");
    assert.deepEqual(r.clusters.map((c: { id: string; symbols: number }) => [c.id, c.symbols]), [
      ["src/c", 41],
      ["src/a", 4],
      ["src/b", 2],
    ]);
    // Calls inside a cluster (src/c's 40 callers of its hub) are not links.
    assert.deepEqual(r.links, [{ src: "src/a", dst: "src/b", calls: 1 }]);
    const a = await ask(ctx, planeMap, { plane: "p", under: "src/a" });
    assert.deepEqual(a.links, [{ src: "src/a/x.ts", dst: "src/a/y.ts", calls: 5 }, { src: "src/a/y.ts", dst: "src/a/x.ts", calls: 2 }]);
    assert.equal(a.calls_crossing_boundary, 1);
    const file = await ask(ctx, planeMap, { plane: "p", under: "src/a/x.ts" });
    assert.deepEqual(file.clusters.map((c: { name: string; kind: string }) => `${c.kind}:${c.name}`).sort(), ["symbol:pkg/src/a/x.K.run", "symbol:pkg/src/a/x.f1", "symbol:pkg/src/a/x.f2"]);
    assert.deepEqual(file.links.map((l: { calls: number }) => l.calls), [1]);
  });

  test("plane_map: the lightest clusters merge under the cap; `..` is refused", async () => {
    const r = await ask(ctx, planeMap, { plane: "p", under: "src/c", max_clusters: 5 });
    assert.equal(r.clusters.length, 5);
    assert.equal(r.total_clusters, 41);
    const rest = r.clusters.find((c: { kind: string }) => c.kind === "rest");
    assert.equal(rest.symbols, 41 - 4);
    assert.equal(r.clusters.reduce((s: number, c: { symbols: number }) => s + c.symbols, 0), 41);
    await assert.rejects(async () => ask(ctx, planeMap, { plane: "p", under: "src/../.." }), (e: unknown) => e instanceof DrsgError && e.code === "BAD_INPUT");
  });

  test("plane_map: louvain communities are stable across calls and descend into their files", async () => {
    const one = await ask(ctx, planeMap, { plane: "p", group: "louvain" });
    const two = await ask(ctx, planeMap, { plane: "p", group: "louvain" });
    assert.deepEqual(one.clusters, two.clusters);
    const ax = one.clusters.find((c: { kind: string; files: number; name: string }) => c.kind === "community" && c.name.includes("x.ts"));
    assert.ok(ax, JSON.stringify(one.clusters));
    const inside = await ask(ctx, planeMap, { plane: "p", group: "louvain", community: ax.community });
    const files = inside.clusters.map((c: { id: string }) => c.id);
    assert.ok(files.includes("src/a/x.ts") && files.includes("src/a/y.ts"), files.join(", "));
    await assert.rejects(async () => ask(ctx, planeMap, { plane: "p", community: 0 }), (e: unknown) => e instanceof DrsgError && e.code === "BAD_INPUT");
  });

  test("plane_overview: commits behind HEAD, siblings, the resolution share and the ledger", async () => {
    const r = await ask(ctx, planeOverview, {});
    const p = r.planes.find((x: { name: string }) => x.name === "p");
    assert.equal(p.kind, "code");
    assert.equal(p.behind, 3);
    assert.equal(p.head, SHA(4));
    assert.deepEqual(p.siblings, { git: "p_git", ops: null });
    assert.deepEqual(p.resolution, { calls: 45, unresolved: 1, share: 0.978 });
    assert.deepEqual(p.ledger.unclaimed, [".kt (2)"]);
    assert.equal(r.planes.find((x: { name: string }) => x.name === "p_git").kind, "git");
  });

  test("fold_log: a bounded ring, newest last, `since` returns only newer folds; health from the server", async () => {
    const log = new FoldLog(3);
    const fold = (n: number): FoldResult => ({ plane: "p", kind: "fold", from: SHA(n - 1), to: SHA(n), filesChanged: 1, parsed: 1, cached: 0, factsChanged: n, ms: n, timings: { diff: 0, walk: 0, build: 0, history: 0, write: 0 } });
    const heard: number[] = [];
    const off = log.subscribe((e) => heard.push(e.seq));
    for (let n = 1; n <= 5; n++) log.record(fold(n));
    off();
    log.record(fold(6));
    assert.deepEqual(heard, [1, 2, 3, 4, 5]);
    const c = ctxOf(t.store, { foldLog: log, health: () => ({ sessions: 2, inflight: 1, queued: 0 }) });
    const r = await ask(c, foldLog, {});
    assert.deepEqual(r.entries.map((e: { seq: number }) => e.seq), [4, 5, 6]);
    assert.equal(r.last, 6);
    assert.deepEqual((await ask(c, foldLog, { since: 5 })).entries.map((e: { to: string }) => e.to), [SHA(6)]);
    assert.equal(r.health.sessions, 2);
    assert.equal(r.health.inflight, 1);
    const none = await ask(ctxOf(t.store), foldLog, {});
    assert.deepEqual(none.entries, []);
    assert.match(none.note, /follows no repository/);
  });
});
