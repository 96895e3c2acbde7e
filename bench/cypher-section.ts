// BENCHMARKS.md section: cypher latency (p50/p95) of ten representative statements — one-hop,
// three-hop variable length, aggregates over a label, a regex filter — on the generated
// TypeScript plane the verb bench builds (~133k lines), through the tool's own run path.
// Run alone: node dist/bench/cypher-section.js [--lines N] [--calls N] | --db PATH --plane P
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { GraphViews } from "../src/graph/view.js";
import { keyName } from "../src/model/facts.js";
import { runTool } from "../src/mcp/server.js";
import { PluginSet, officialPlugins } from "../src/plugin/host.js";
import { openStore } from "../src/store/store.js";
import { digest } from "../src/sync/digest.js";
import { cypher } from "../src/tools/cypher.js";
import type { ToolContext } from "../src/tools/tool.js";
import { commitCorpus, pct } from "./common.js";
import { generate } from "./gen.js";

interface Row {
  name: string;
  statement: string;
  p50: number;
  p95: number;
  /** Median CPU time of this process per call (user + system): steadier than wall time on a shared machine. */
  cpu50: number;
  rows: string;
  target: string;
}

/** The statements, with the hub (most-called symbol) and a far caller filled in. */
function statements(hub: string, far: string, hubName: string): { name: string; q: string; target: string }[] {
  const k = (s: string) => JSON.stringify(s).replace(/^"|"$/g, "").replace(/'/g, "\\'");
  return [
    { name: "one-hop callers of the hub (key)", q: `MATCH (f {key: '${k(hub)}'})<-[:CALLS]-(g) RETURN g.key, g.file`, target: "≤ 20 ms" },
    { name: "one-hop callees (key)", q: `MATCH (f {key: '${k(far)}'})-[:CALLS]->(g) RETURN g.key`, target: "≤ 20 ms" },
    { name: "one-hop, two types, both ways (key)", q: `MATCH (f {key: '${k(hub)}'})-[r:CALLS|REFERENCES]-(g) RETURN type(r), count(*)`, target: "≤ 20 ms" },
    { name: "three-hop variable length out (key)", q: `MATCH (f {key: '${k(far)}'})-[:CALLS*1..3]->(g) RETURN DISTINCT g.key`, target: "—" },
    { name: "three-hop variable length in (key)", q: `MATCH (f {key: '${k(hub)}'})<-[:CALLS*1..3]-(g) RETURN count(DISTINCT g) AS callers`, target: "—" },
    { name: "aggregate: count over a label", q: "MATCH (f:Function) RETURN count(*) AS n", target: "≤ 20 ms" },
    { name: "aggregate: functions per file, top 10", q: "MATCH (f:Function) RETURN f.file AS file, count(*) AS n ORDER BY n DESC, file LIMIT 10", target: "≤ 20 ms" },
    { name: "regex filter on a label", q: "MATCH (f:Function) WHERE f.name =~ 'helper1[0-9]*5' RETURN f.key LIMIT 50", target: "—" },
    { name: "label + name, one hop", q: `MATCH (f:Function {name: '${k(hubName)}'})<-[:CALLS]-(g) RETURN g.key LIMIT 50`, target: "—" },
    { name: "OPTIONAL MATCH per caller", q: `MATCH (f {key: '${k(hub)}'})<-[:CALLS]-(g) OPTIONAL MATCH (g)<-[:CALLS]-(h) RETURN g.key, count(h) AS callers`, target: "—" },
  ];
}

export async function benchCypher(dbPath: string, plane: string, calls = 30): Promise<{ rows: Row[]; nodes: number; edges: number; hub: string; calls: number }> {
  const store = openStore(dbPath);
  try {
    const plugins = new PluginSet(officialPlugins());
    const ctx: ToolContext = { store, transport: "cli", plugins: () => plugins, views: new GraphViews(store) };
    // Setup (untimed): the hub is the symbol with the most incoming CALLS, `far` its farthest caller by one hop.
    const g = ctx.views.get(plane);
    let hub = "";
    let best = -1;
    g.forEachNode((id, a) => {
      if (a.label === "UnresolvedRef" || a.label === "External") return;
      let n = 0;
      g.forEachInEdge(id, (_e, ea) => {
        if (ea.type === "CALLS") n++;
      });
      if (n > best) {
        best = n;
        hub = id;
      }
    });
    let far = hub;
    g.forEachInEdge(hub, (_e, ea, src) => {
      if (ea.type === "CALLS" && far === hub) far = src;
    });
    const hubNode = store.getNode(plane, Number(hub))!;
    const farNode = store.getNode(plane, Number(far))!;
    const hubName = typeof hubNode.props.name === "string" ? hubNode.props.name : keyName(hubNode.key);
    const rows: Row[] = [];
    for (const s of statements(hubNode.key, farNode.key, hubName)) {
      const input = cypher.input.parse({ plane, query: s.q });
      const once = async () => {
        const r = await runTool(cypher, ctx, input);
        if (r.isError) throw new Error(`cypher bench: ${s.name}: ${r.text}`);
        return r.text;
      };
      let text = await once();
      const ms: number[] = [];
      const cpu: number[] = [];
      for (let i = 0; i < calls; i++) {
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        text = await once();
        ms.push(performance.now() - t0);
        const c = process.cpuUsage(c0);
        cpu.push((c.user + c.system) / 1000);
      }
      const head = /^(\d+) row\(s\)/m.exec(text);
      rows.push({ name: s.name, statement: s.q, p50: pct(ms, 50), p95: pct(ms, 95), cpu50: pct(cpu, 50), rows: head ? head[1]! : "?", target: s.target });
    }
    return { rows, nodes: store.countNodes(plane), edges: store.countEdges(plane), hub: hubNode.key, calls };
  } finally {
    store.close();
  }
}

export function cypherTable(r: Awaited<ReturnType<typeof benchCypher>>): string {
  return [
    `plane: ${r.nodes} nodes, ${r.edges} edges; hub \`${r.hub}\`. Each statement through the cypher tool's run path (parse, plan, execute on the store, render), one warm-up then ${r.calls} timed calls.`,
    "",
    "| statement | p50 (ms) | p95 (ms) | CPU p50 (ms) | target p50 | rows |",
    "|---|---|---|---|---|---|",
    ...r.rows.map(
      (x) => `| ${x.name}: \`${x.statement.replace(/\|/g, "\\|")}\` | ${x.p50.toFixed(2)} | ${x.p95.toFixed(2)} | ${x.cpu50.toFixed(2)} | ${x.target} | ${x.rows} |`,
    ),
  ].join("\n");
}

async function planeOfLines(lines: number): Promise<{ db: string; cleanup: () => void; corpusLines: number }> {
  const corpus = generate("ts", lines);
  const dir = commitCorpus(corpus.files, "drsg-bench-cypher-");
  const home = mkdtempSync(join(tmpdir(), "drsg-bench-cypher-db-"));
  const db = join(home, "g.drsg");
  const store = openStore(db, { create: true });
  try {
    await digest({ dir, plugins: new PluginSet(officialPlugins()), store, plane: "bench" });
  } finally {
    store.close();
  }
  return {
    db,
    corpusLines: corpus.lines,
    cleanup: () => {
      rmSync(dir, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    },
  };
}

export function section(): { name: string; title: string; run(): Promise<string> } {
  return {
    name: "cypher",
    title: "cypher latency (issue: the graph surface)",
    async run() {
      const p = await planeOfLines(100_000);
      try {
        const r = await benchCypher(p.db, "bench");
        return [`Generated TypeScript corpus, ${p.corpusLines} lines.`, "", cypherTable(r)].join("\n");
      } finally {
        p.cleanup();
      }
    },
  };
}

async function main(argv: string[]): Promise<void> {
  const flag = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const calls = Number(flag("--calls") ?? 30);
  const db = flag("--db");
  if (db) {
    console.log(cypherTable(await benchCypher(db, flag("--plane") ?? "bench", calls)));
    return;
  }
  const p = await planeOfLines(Number(flag("--lines") ?? 100_000));
  try {
    console.log(`${p.corpusLines} lines of TypeScript`);
    console.log(cypherTable(await benchCypher(p.db, "bench", calls)));
  } finally {
    p.cleanup();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
