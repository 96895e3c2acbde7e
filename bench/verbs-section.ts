// BENCHMARKS.md section: verb latency on a ≥100k-line plane, and drsg-mcp cold start.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { PACKAGE_ROOT } from "../src/paths.js";
import { activePlugins } from "../src/plugin/registry.js";
import { openStore } from "../src/store/store.js";
import { digest } from "../src/sync/digest.js";
import { commitCorpus, median, pct } from "./common.js";
import { generate } from "./gen.js";
import { benchVerbs, verbsTable } from "./verbs.js";

/** spawn drsg-mcp → initialize → first answer, a few times. */
async function coldStart(db: string, plane: string, name: string, runs = 7): Promise<number[]> {
  const out: number[] = [];
  const cwd = mkdtempSync(join(tmpdir(), "drsg-cold-"));
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const c = new Client({ name: "bench", version: "1" });
    await c.connect(new StdioClientTransport({ command: process.execPath, args: [join(PACKAGE_ROOT, "bin", "drsg-mcp.js"), "--db", db], cwd, stderr: "ignore" }));
    const r = await c.callTool({ name: "context", arguments: { plane, name } });
    if (r.isError) throw new Error(`cold start: ${JSON.stringify(r.content)}`);
    out.push(performance.now() - t0);
    await c.close();
  }
  return out;
}

export function section(): { name: string; title: string; run(): Promise<string> } {
  return {
    name: "verbs",
    title: "Verb latency and cold start (issue: agent verbs)",
    async run() {
      const corpus = generate("ts", 100_000);
      const dir = commitCorpus(corpus.files);
      const db = join(mkdtempSync(join(tmpdir(), "drsg-bench-verbs-")), "g.drsg");
      const store = openStore(db, { create: true });
      const d = await digest({ dir, plugins: activePlugins(), store, plane: "bench" });
      store.close();
      const r = await benchVerbs(db, "bench");
      const cold = await coldStart(db, "bench", r.hub);
      return [
        `Generated TypeScript corpus, ${corpus.lines} lines (${d.report.nodes} nodes, ${d.report.edges} edges). Latency of each verb's \`run\` in-process after one warm-up (the graph view built once and reused while the commit stays).`,
        "",
        verbsTable(r),
        "",
        `Cold start — spawn \`drsg-mcp --db\` → initialize → first \`context\` answer, ${cold.length} runs: median **${median(cold).toFixed(0)} ms**, p95 ${pct(cold, 95).toFixed(0)} ms (target ≤ 500 ms).`,
      ].join("\n");
    },
  };
}
