// Verb latency (issue: the agent verbs): p50/p95 of `context` on a hub symbol, `impact` depth 3,
// `trace` over a multi-hop call path and `fathom`, each ~50 calls after one warm-up, through the
// same parse → run path the MCP registrar takes; the first graph-view build is timed apart.
// Run alone: node dist/bench/verbs.js [--lines N] | --db PATH --plane P
import { rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { GraphViews } from "../src/graph/view.js";
import { impactLevels } from "../src/graph/walk.js";
import { runTool } from "../src/mcp/server.js";
import { PluginSet, officialPlugins } from "../src/plugin/host.js";
import { openStore } from "../src/store/store.js";
import { digest } from "../src/sync/digest.js";
import { context } from "../src/tools/context.js";
import { fathom } from "../src/tools/fathom.js";
import { impact } from "../src/tools/impact.js";
import type { Tool, ToolContext } from "../src/tools/tool.js";
import { trace } from "../src/tools/trace.js";
import { commitCorpus, pct } from "./common.js";
import { generate } from "./gen.js";

export interface Latency {
  p50: number;
  p95: number;
  calls: number;
  /** Characters of the last answer (a check that real work was done). */
  chars: number;
}

export interface VerbsBenchResult {
  plane: string;
  nodes: number;
  edges: number;
  /** The symbol with the most incoming CALLS. */
  hub: string;
  hubCallers: number;
  traceFrom: string;
  traceHops: number;
  /** Building the plane's graph view the first time (store scan → graphology). */
  firstGraphBuildMs: number;
  context: Latency;
  impact: Latency;
  trace: Latency;
  fathom: Latency;
}

async function time(ctx: ToolContext, tool: Tool, input: Record<string, unknown>, calls: number): Promise<Latency> {
  const once = async () => {
    const r = await runTool(tool, ctx, tool.input.parse(input));
    if (r.isError) throw new Error(`${tool.name} failed: ${r.text}`);
    return r.text;
  };
  await once();
  const ms: number[] = [];
  let text = "";
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    text = await once();
    ms.push(performance.now() - t0);
  }
  return { p50: pct(ms, 50), p95: pct(ms, 95), calls, chars: text.length };
}

/** Latencies of the graph verbs on `plane` of the database at `dbPath` (opened here; it must not be open elsewhere). */
export async function benchVerbs(dbPath: string, plane: string, opts: { calls?: number } = {}): Promise<VerbsBenchResult> {
  const calls = opts.calls ?? 50;
  const store = openStore(dbPath);
  try {
    // Loaded once, as a long-lived server should: loading the plugin set costs more than a verb.
    const plugins = new PluginSet(officialPlugins());
    const ctx: ToolContext = { store, transport: "cli", plugins: () => plugins, views: new GraphViews(store) };
    const t0 = performance.now();
    const g = ctx.views.get(plane);
    const firstGraphBuildMs = performance.now() - t0;
    // The hub: most incoming CALLS among real symbols (a setup scan, not part of any timed call).
    let hub = "";
    let hubCallers = -1;
    g.forEachNode((id, a) => {
      if (a.label === "UnresolvedRef" || a.label === "External") return;
      let n = 0;
      g.forEachInEdge(id, (_e, ea) => {
        if (ea.type === "CALLS") n++;
      });
      if (n > hubCallers) {
        hub = id;
        hubCallers = n;
      }
    });
    if (!hub) throw new Error(`bench verbs: plane '${plane}' has no symbols`);
    const hubKey = g.getNodeAttribute(hub, "key");
    // The trace source: the farthest caller (≤ 4 hops over CALLS) of the hub.
    const levels = impactLevels(g, hub, 4, ["CALLS"]);
    const far = levels[levels.length - 1]?.[0];
    const traceFrom = far ? g.getNodeAttribute(far.id, "key") : hubKey;
    const result: VerbsBenchResult = {
      plane,
      nodes: g.order,
      edges: g.size,
      hub: hubKey,
      hubCallers,
      traceFrom,
      traceHops: levels.length,
      firstGraphBuildMs,
      context: await time(ctx, context, { plane, name: hubKey }, calls),
      impact: await time(ctx, impact, { plane, name: hubKey, depth: 3 }, calls),
      trace: await time(ctx, trace, { plane, from: traceFrom, to: hubKey }, calls),
      fathom: await time(ctx, fathom, { plane, name: hubKey }, calls),
    };
    return result;
  } finally {
    store.close();
  }
}

/** A markdown table of one result. */
export function verbsTable(r: VerbsBenchResult): string {
  const row = (name: string, l: Latency, target: string) => `| ${name} | ${l.p50.toFixed(2)} | ${l.p95.toFixed(2)} | ${target} | ${l.calls} |`;
  return [
    `plane \`${r.plane}\`: ${r.nodes} nodes, ${r.edges} edges; hub \`${r.hub}\` (${r.hubCallers} callers); trace over ${r.traceHops} hop(s); first graph build ${r.firstGraphBuildMs.toFixed(0)} ms`,
    "",
    "| verb | p50 (ms) | p95 (ms) | target p50 | calls |",
    "|---|---|---|---|---|",
    row("context (hub)", r.context, "≤ 10 ms"),
    row("impact depth 3 (hub)", r.impact, "≤ 10 ms"),
    row("trace", r.trace, "≤ 10 ms"),
    row("fathom depth 2 (hub)", r.fathom, "—"),
  ].join("\n");
}

async function main(argv: string[]): Promise<void> {
  const flag = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const db = flag("--db");
  if (db) {
    const plane = flag("--plane");
    if (!plane) throw new Error("bench verbs: --db needs --plane");
    console.log(verbsTable(await benchVerbs(db, plane)));
    return;
  }
  const corpus = generate("ts", Number(flag("--lines") ?? 100_000));
  const dir = commitCorpus(corpus.files, "drsg-bench-verbs-");
  const file = join(dir, ".bench.drsg");
  try {
    const store = openStore(file, { create: true });
    try {
      await digest({ dir, plugins: new PluginSet(officialPlugins()), store, plane: "bench" });
    } finally {
      store.close();
    }
    console.log(`${corpus.lines} lines of TypeScript`);
    console.log(verbsTable(await benchVerbs(file, "bench")));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
