// BENCHMARKS.md section (issue 16 §4): the ts family's CALLS / INSTANTIATES against the TypeScript
// compiler as oracle, per repository given: site-level precision over the sites the compiler binds
// in the tree, recall over the compiler's sites whose target is a function, method or class in
// the tree (matched by file, line and column of the callee's name), the edge-level figures of
// oracle.test.ts beside them, and the digest time per 100k lines. Runnable alone:
//   node dist/bench/oracle-section.js REPO_DIR...   (each a directory inside a git repository)
import { realpathSync } from "node:fs";
import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import { activePlugins } from "../src/plugin/registry.js";
import { digest } from "../src/sync/digest.js";
import { compare, compareSites, programOf } from "../test/resolve-ts/oracle.js";
import { digestInChild, measureTrees, oracleScript } from "./common.js";

const RUNS = 2;

export interface OracleRow {
  name: string;
  lines: number;
  digestMs: number;
  precision: number;
  judged: number;
  unjudged: number;
  recall: number;
  compilerSites: number;
  edgeRecall: number;
  edgeChecked: number;
  edgeDisagreements: number;
  wrong: string[];
  unjudgedAt: string[];
  missed: string[];
}

const pct = (x: number) => `${(100 * x).toFixed(2)}%`;

/** One repository: facts by a dry-run digest, the compiler's view, the digest's wall time (fastest of RUNS). */
export async function measure(dir: string): Promise<OracleRow> {
  const d = await digest({ dir, plugins: activePlugins() });
  const facts = d.build.facts;
  let lines = 0;
  for (const n of facts.nodes) if (n.labels[0] === "Module" && typeof n.props.end_line === "number") lines += n.props.end_line;
  const program = programOf(dir);
  const s = compareSites(dir, facts, program);
  const e = compare(dir, facts);
  let digestMs = Number.POSITIVE_INFINITY;
  for (let i = 0; i < RUNS; i++) digestMs = Math.min(digestMs, digestInChild(dir).ms);
  return {
    name: basename(dir) === "src" ? basename(dir.slice(0, -4)) : basename(dir),
    lines,
    digestMs,
    precision: s.judged === 0 ? 1 : s.agreed / s.judged,
    judged: s.judged,
    unjudged: s.unjudged,
    recall: s.compilerSites === 0 ? 1 : s.found / s.compilerSites,
    compilerSites: s.compilerSites,
    edgeRecall: e.compilerEdges === 0 ? 1 : e.found / e.compilerEdges,
    edgeChecked: e.checked,
    edgeDisagreements: e.disagreements.length,
    wrong: s.wrong,
    unjudgedAt: s.unjudgedAt,
    missed: s.missed,
  };
}

export function table(rows: OracleRow[]): string {
  const head =
    "| tree | lines | site precision (judged) | unjudged sites | site recall (compiler sites) | edge recall | edge disagreements | digest (s) | digest per 100k lines (s) |\n|---|---|---|---|---|---|---|---|---|";
  const body = rows.map(
    (r) =>
      `| ${r.name} | ${r.lines} | ${pct(r.precision)} (${r.judged}) | ${r.unjudged} | ${pct(r.recall)} (${r.compilerSites}) | ${pct(r.edgeRecall)} | ${r.edgeDisagreements} of ${r.edgeChecked} | ${(r.digestMs / 1000).toFixed(2)} | ${((r.digestMs * 100) / Math.max(1, r.lines)).toFixed(2)} |`,
  );
  return [head, ...body].join("\n");
}

export function section(repos: string[] = []): { name: string; title: string; run(): Promise<string> } {
  return {
    name: "oracle",
    title: "Call resolution against the TypeScript compiler (issue 16)",
    async run() {
      if (repos.length === 0) return "No repository given (npm run bench -- REPO...): nothing measured.";
      const rows = await measureTrees(
        repos.map((r) => realpathSync(r)),
        measure,
      );
      return [
        "Goals: precision ≥ 99.9 % of judged sites, recall ≥ 95 %, digest time ≤ +10 % per 100k lines. A site is drsg's `[line, col]` on a bound CALLS / INSTANTIATES edge, judged when the compiler's resolved declaration of the call at that position is in the tree; recall is over the compiler's sites whose target is a function, method or class in the tree. Edge figures are oracle.test.ts's (one per caller and callee).",
        "",
        table(rows),
      ].join("\n");
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href)
  await oracleScript("oracle-section.js", measure, table);
