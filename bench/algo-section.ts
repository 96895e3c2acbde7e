// BENCHMARKS.md section (issue: the graph surface): `algo` pagerank and louvain time and memory
// on the generated ~133k-line TypeScript plane (targets ≤ 2 s on ~17k nodes / 57k edges), the
// as-of `context` beside the current one, and trace's own CALLS search against
// graphology-shortest-path's bidirectional BFS on the same pairs.
// Run alone: node dist/bench/algo-section.js [--lines N]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { bidirectional } from "graphology-shortest-path/unweighted.js";
import { restrict, seededRng } from "../src/graph/algo.js";
import { GraphViews } from "../src/graph/view.js";
import { impactLevels } from "../src/graph/walk.js";
import { runTool } from "../src/mcp/server.js";
import { PluginSet, officialPlugins } from "../src/plugin/host.js";
import { openStore } from "../src/store/store.js";
import type { Store } from "../src/store/types.js";
import { digest } from "../src/sync/digest.js";
import { algo } from "../src/tools/algo.js";
import { context } from "../src/tools/context.js";
import type { Tool, ToolContext } from "../src/tools/tool.js";
import { shortestCallPath, TRACE_VISIT_LIMIT } from "../src/tools/trace.js";
import { collectGarbage, commitCorpus, median, pct } from "./common.js";
import { generate } from "./gen.js";

const RUNS = 3;

interface AlgoRun {
  what: string;
  nodes: number;
  edges: number;
  /** The first call: the restricted copy of the view built, then the algorithm and the answer. */
  coldMs: number;
  /** Median of the calls after it (the copy reused while the commit stays). */
  ms: number;
  /** Heap growth across the call, before collection (what the call allocated and still held at its end). */
  heapMb: number;
  /** RSS high-water growth over the runs. */
  rssMb: number;
}

async function callOnce(ctx: ToolContext, tool: Tool, input: Record<string, unknown>): Promise<{ text: string; data?: Record<string, unknown> }> {
  const r = await runTool(tool, ctx, tool.input.parse(input));
  if (r.isError) throw new Error(`${tool.name}: ${r.text}`);
  return r;
}

async function timeAlgo(ctx: ToolContext, what: string, input: Record<string, unknown>): Promise<AlgoRun> {
  const ms: number[] = [];
  let heap = 0;
  let nodes = 0;
  let edges = 0;
  collectGarbage();
  const rss0 = process.memoryUsage().rss;
  let rssPeak = rss0;
  for (let i = 0; i < RUNS + 1; i++) {
    collectGarbage();
    const h0 = process.memoryUsage().heapUsed;
    const t0 = performance.now();
    const r = await callOnce(ctx, algo, input);
    ms.push(performance.now() - t0);
    heap = Math.max(heap, process.memoryUsage().heapUsed - h0);
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    nodes = r.data?.nodes as number;
    edges = r.data?.edges as number;
  }
  return { what, nodes, edges, coldMs: ms[0]!, ms: median(ms.slice(1)), heapMb: heap / 2 ** 20, rssMb: (rssPeak - rss0) / 2 ** 20 };
}

async function latency(ctx: ToolContext, tool: Tool, input: Record<string, unknown>, calls: number): Promise<{ first: number; p50: number; p95: number }> {
  const t0 = performance.now();
  await callOnce(ctx, tool, input);
  const first = performance.now() - t0;
  const ms: number[] = [];
  for (let i = 0; i < calls; i++) {
    const t = performance.now();
    await callOnce(ctx, tool, input);
    ms.push(performance.now() - t);
  }
  return { first, p50: pct(ms, 50), p95: pct(ms, 95) };
}

export interface AlgoBench {
  lines: number;
  nodes: number;
  edges: number;
  runs: AlgoRun[];
  hub: string;
  contextNow: { first: number; p50: number; p95: number };
  contextAsOf: { first: number; p50: number; p95: number };
  asOfSeq: number;
  trace: { indexMs: number; pairs: number; found: number; ownP50: number; ownP95: number; graphologyP50: number; graphologyP95: number; restrictMs: number; sameLength: boolean };
}

/** The figures, on `plane` of an open store (one commit is added: the as-of read looks one back). */
export async function benchAlgo(store: Store, plane: string, lines: number): Promise<AlgoBench> {
  const plugins = new PluginSet(officialPlugins());
  const ctx: ToolContext = { store, transport: "cli", plugins: () => plugins, views: new GraphViews(store) };
  const g = ctx.views.get(plane);
  const runs = [
    await timeAlgo(ctx, "pagerank, whole plane", { plane, algo: "pagerank" }),
    await timeAlgo(ctx, "pagerank, CALLS", { plane, algo: "pagerank", edge_types: ["CALLS"] }),
    await timeAlgo(ctx, "louvain, whole plane", { plane, algo: "louvain" }),
    await timeAlgo(ctx, "louvain, CALLS", { plane, algo: "louvain", edge_types: ["CALLS"] }),
    await timeAlgo(ctx, "components (weak), whole plane", { plane, algo: "components" }),
    await timeAlgo(ctx, "betweenness, CALLS (sampled if above the work cap)", { plane, algo: "betweenness", edge_types: ["CALLS"] }),
  ];

  // The hub: most incoming CALLS.
  let hub = "";
  let most = -1;
  g.forEachNode((id, a) => {
    if (a.label === "UnresolvedRef") return;
    let n = 0;
    g.forEachInEdge(id, (_e, ea) => {
      if (ea.type === "CALLS") n++;
    });
    if (n > most) {
      most = n;
      hub = id;
    }
  });
  const hubKey = g.getNodeAttribute(hub, "key");

  // As of the commit before a new one (a plane property touched: the graph is the same).
  const asOfSeq = store.currentSeq();
  store.write((w) => w.setPlaneProps(plane, { bench_touch: Date.now() }));
  const contextNow = await latency(ctx, context, { plane, name: hubKey }, 30);
  const contextAsOf = await latency(ctx, context, { plane, name: hubKey, as_of: asOfSeq }, 30);

  // trace: its CALLS index against graphology-shortest-path on a CALLS-only copy, same pairs.
  const view = ctx.views.get(plane);
  const t0 = performance.now();
  const calls = restrict(view, { edgeTypes: ["CALLS"], labels: undefined });
  const restrictMs = performance.now() - t0;
  const sources = impactLevels(view, String(view.nodes().find((id) => view.getNodeAttribute(id, "key") === hubKey)), 4, ["CALLS"]).flat();
  const rng = seededRng(1);
  const hubId = view.nodes().find((id) => view.getNodeAttribute(id, "key") === hubKey)!;
  const ids = view.nodes().filter((id) => view.getNodeAttribute(id, "label") !== "UnresolvedRef");
  const pairs: [string, string][] = [];
  for (const s of sources.slice(0, 50)) pairs.push([s.id, hubId]);
  while (pairs.length < 100) pairs.push([ids[Math.floor(rng() * ids.length)]!, ids[Math.floor(rng() * ids.length)]!]);
  const own: number[] = [];
  const gr: number[] = [];
  let found = 0;
  let sameLength = true;
  const i0 = performance.now();
  shortestCallPath(view, pairs[0]![0], pairs[0]![1], TRACE_VISIT_LIMIT); // builds its CALLS index, once per view
  const indexMs = performance.now() - i0;
  for (const [a, b] of pairs) {
    let t = performance.now();
    const x = shortestCallPath(view, a, b, TRACE_VISIT_LIMIT);
    own.push(performance.now() - t);
    t = performance.now();
    const y = calls.hasNode(a) && calls.hasNode(b) ? bidirectional(calls, a, b) : null;
    gr.push(performance.now() - t);
    if (x.nodes) found++;
    if ((x.nodes?.length ?? 0) !== (y?.length ?? 0)) sameLength = false;
  }
  return {
    lines,
    nodes: g.order,
    edges: g.size,
    runs,
    hub: hubKey,
    contextNow,
    contextAsOf,
    asOfSeq,
    trace: { indexMs, pairs: pairs.length, found, ownP50: pct(own, 50), ownP95: pct(own, 95), graphologyP50: pct(gr, 50), graphologyP95: pct(gr, 95), restrictMs, sameLength },
  };
}

export function algoMarkdown(b: AlgoBench): string {
  const f = (x: number, d = 1) => x.toFixed(d);
  return [
    `Generated TypeScript corpus, ${b.lines} lines; plane ${b.nodes} nodes, ${b.edges} edges. Each \`algo\` call through the tool: the first builds the restricted copy of the plane's view (kept while the commit stays), then ${RUNS} more reuse it; heap is the largest growth across one call before collection, RSS the high-water growth over the runs. Target: pagerank and louvain ≤ 2 s.`,
    "",
    "| algo | graph (nodes / edges) | first call (ms) | later calls, median (ms) | heap (MB) | RSS growth (MB) |",
    "|---|---|---|---|---|---|",
    ...b.runs.map((r) => `| ${r.what} | ${r.nodes} / ${r.edges} | **${f(r.coldMs, 0)}** | ${f(r.ms, 0)} | ${f(r.heapMb)} | ${f(r.rssMb)} |`),
    "",
    `\`context\` on the hub \`${b.hub}\`, 30 calls after a first: current p50 **${f(b.contextNow.p50, 2)} ms** / p95 ${f(b.contextNow.p95, 2)} ms (first ${f(b.contextNow.first)} ms); as of commit ${b.asOfSeq} (one back, read from the history tables) p50 **${f(b.contextAsOf.p50, 2)} ms** / p95 ${f(b.contextAsOf.p95, 2)} ms (first ${f(b.contextAsOf.first)} ms, which builds that commit's graph view).`,
    "",
    `trace's own search (its CALLS index: ${f(b.trace.indexMs, 0)} ms to build, once per commit) vs graphology-shortest-path (bidirectional BFS on a CALLS-only copy: ${f(b.trace.restrictMs, 0)} ms to build, once per commit), ${b.trace.pairs} pairs (${b.trace.found} with a path; same path lengths: ${b.trace.sameLength ? "yes" : "NO"}): own p50 ${f(b.trace.ownP50, 3)} ms / p95 ${f(b.trace.ownP95, 3)} ms; graphology p50 ${f(b.trace.graphologyP50, 3)} ms / p95 ${f(b.trace.graphologyP95, 3)} ms.`,
  ].join("\n");
}

async function build(lines: number): Promise<{ store: Store; dir: string; tmp: string; lines: number }> {
  const corpus = generate("ts", lines);
  const dir = commitCorpus(corpus.files, "drsg-bench-algo-");
  const tmp = mkdtempSync(join(tmpdir(), "drsg-bench-algo-db-"));
  const store = openStore(join(tmp, "g.drsg"), { create: true, retainCommits: 0 });
  await digest({ dir, plugins: new PluginSet(officialPlugins()), store, plane: "bench" });
  return { store, dir, tmp, lines: corpus.lines };
}

export function section(): { name: string; title: string; run(): Promise<string> } {
  return {
    name: "algo",
    title: "Graph algorithms and as-of reads (issue: the graph surface)",
    async run() {
      const b = await build(100_000);
      try {
        return algoMarkdown(await benchAlgo(b.store, "bench", b.lines));
      } finally {
        b.store.close();
        rmSync(b.dir, { recursive: true, force: true });
        rmSync(b.tmp, { recursive: true, force: true });
      }
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const i = process.argv.indexOf("--lines");
  const lines = i >= 0 ? Number(process.argv[i + 1]) : 100_000;
  build(lines)
    .then(async (b) => {
      try {
        console.log(algoMarkdown(await benchAlgo(b.store, "bench", b.lines)));
      } finally {
        b.store.close();
        rmSync(b.dir, { recursive: true, force: true });
        rmSync(b.tmp, { recursive: true, force: true });
      }
    })
    .catch((e) => {
      console.error(e);
      process.exit(1);
    });
}
