// npm run bench: every benchmark, ratios taken in one run, written into BENCHMARKS.md (each
// section replaced in place). Usage: npm run bench -- [--only digest,languages,...] [REPO...]
// Extra REPO paths are digested beside the generated corpus.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { basename, join } from "node:path";
import { PACKAGE_ROOT } from "../src/paths.js";
import { commitCorpus, digestInChild, rawParse } from "./common.js";
import { type Lang, generate } from "./gen.js";

type Section = { name: string; title: string; run(): Promise<string> };

const args = process.argv.slice(2);
const onlyIdx = args.indexOf("--only");
const only = onlyIdx >= 0 ? new Set((args[onlyIdx + 1] ?? "").split(",")) : undefined;
const repos = args.filter((a, i) => !a.startsWith("--") && (onlyIdx < 0 || i !== onlyIdx + 1));

function f1(x: number): string {
  return x.toFixed(1);
}
function f2(x: number): string {
  return x.toFixed(2);
}

/**
 * Runs of each side per row (DRSG_BENCH_REPEAT, default 3): the raw parse and the digest
 * alternate, and each side's fastest run is taken — this machine's speed drifts by 10–20% from
 * one second to the next, and one slow raw parse made a flattering ratio.
 */
const REPEAT = Math.max(1, Number(process.env.DRSG_BENCH_REPEAT ?? 3) || 3);

async function digestRow(label: string, dir: string): Promise<string> {
  let raw: Awaited<ReturnType<typeof rawParse>> | undefined;
  let d: ReturnType<typeof digestInChild> | undefined;
  let maxRss = 0;
  for (let i = 0; i < REPEAT; i++) {
    const r = await rawParse(dir);
    if (!raw || r.ms < raw.ms) raw = r;
    const x = digestInChild(dir);
    maxRss = Math.max(maxRss, x.maxRssMb);
    if (!d || x.ms < d.ms) d = x;
  }
  d!.maxRssMb = maxRss;
  return rowOf(label, raw!, d!);
}

function rowOf(label: string, raw: Awaited<ReturnType<typeof rawParse>>, d: ReturnType<typeof digestInChild>): string {
  const ratio = d.ms / raw.ms;
  const rssPer100k = (d.maxRssMb * 100_000) / Math.max(1, raw.lines);
  const res = d.resolved + d.unresolved > 0 ? `${f1((100 * d.resolved) / (d.resolved + d.unresolved))}%` : "—";
  return `| ${label} | ${raw.files} | ${raw.lines} | ${f2(raw.ms / 1000)} | ${f2(d.ms / 1000)} | ${f2(d.processMs / 1000)} | **${f2(ratio)}×** | ${f1(d.maxRssMb)} | ${f1(rssPer100k)} | ${d.nodes} / ${d.edges} | ${res} | ${f2(d.cpuMs / 1000)} / ${f2(d.mainCpuMs / 1000)} | ${f2(d.cpuMs / raw.ms)}× | ${phaseCells(d, raw.ms)} | ${f2(raw.compileMs / 1000)} (${f2(raw.compileMs / raw.ms)}×) |`;
}

/** Walk, extract, resolve, write: seconds, and each as a multiple of the raw parse. */
function phaseCells(d: ReturnType<typeof digestInChild>, rawMs: number): string {
  const p = d.phases;
  return [p.walkMs, p.extractMs, p.resolveMs, p.writeMs].map((ms) => `${f2(ms / 1000)} (${f2(ms / rawMs)}×)`).join(" / ");
}

const DIGEST_HEAD =
  "| tree | files | lines | raw parse (s, 1 thread) | digest --apply (s) | process (s) | digest ÷ raw | peak RSS (MB) | RSS per 100k lines (MB) | nodes / edges | calls resolved | digest CPU, all threads / main (s) | CPU ÷ raw | walk / extract / resolve / write, s (× raw) | query compile, s a thread (× raw) |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|";

const REPEAT_NOTE = `Each row: the raw parse and the digest run ${REPEAT} times each, alternating; each side's fastest run is shown (its CPU figures too), and the peak RSS is the highest of the ${REPEAT} digests.`;

const CPU_NOTE = `\`digest CPU\` is every thread's CPU over the digest call (the extraction workers and the main thread) and the main thread's alone; on ${cpus().length} cores the wall time cannot fall below CPU ÷ ${cpus().length}, so \`CPU ÷ raw\` ÷ ${cpus().length} is the floor of \`digest ÷ raw\` for this work. The last column splits the digest's wall time into its phases (the digest's own timings): the walk of the commit's blobs (the extraction workers start beside it), extraction (reading each blob, parse, query and extraction on the workers; the main thread parses their partials and writes the partial cache meanwhile), resolution and the write (both on the main thread alone, one core idle). \`query compile\` is the time to compile the plugin's queries for the grammars the tree uses, on one thread (measured after the raw parse): each extraction thread pays it once before its first file, so with ${cpus().length} threads it is a fixed cost inside the extraction phase.`;

const sections: Section[] = [
  {
    name: "digest",
    title: "Full digest against the raw parse (issue: foundation)",
    async run() {
      const corpus = generate("ts", 100_000);
      const dir = commitCorpus(corpus.files);
      const rows = [await digestRow(`generated TypeScript (${Object.keys(corpus.files).length} files)`, dir)];
      for (const r of repos) rows.push(await digestRow(basename(r), r));
      return [
        "Target: digest wall ≤ 2× the raw single-thread web-tree-sitter parse of the same files; peak RSS ≤ 300 MB per 100k lines.",
        "`digest` is the digest call inside a fresh process (walk of the commit's blobs, parse + extract on worker threads, resolution, one write transaction into a new SQLite file); `process` adds node start-up.",
        REPEAT_NOTE,
        CPU_NOTE,
        "",
        DIGEST_HEAD,
        ...rows,
      ].join("\n");
    },
  },
  {
    name: "languages",
    title: "Digest throughput per official language (issue: polyglot plugins)",
    async run() {
      const rows: string[] = [];
      for (const lang of ["ts", "python", "go", "rust", "java", "c"] as Lang[]) {
        const corpus = generate(lang, 50_000);
        rows.push(await digestRow(`${lang} (generated)`, commitCorpus(corpus.files)));
      }
      return ["Target: every language within 2× of its raw parse time.", REPEAT_NOTE, CPU_NOTE, "", DIGEST_HEAD, ...rows].join("\n");
    },
  },
];

// Benchmarks other modules contribute (each exports `section()` returning { name, title, run }).
for (const mod of ["verbs", "fold", "grep", "serve", "cypher", "algo", "web", "incremental", "oracle", "oracle-go", "oracle-py"]) {
  const file = join(PACKAGE_ROOT, "dist", "bench", `${mod}-section.js`);
  if (!existsSync(file)) continue;
  const m = (await import(file)) as { section(repos: string[]): Section };
  sections.push(m.section(repos));
}

const target = join(PACKAGE_ROOT, "BENCHMARKS.md");
let doc = existsSync(target)
  ? readFileSync(target, "utf8")
  : "# Benchmarks\n\nMeasured by `npm run bench` (bench/run.ts); each section is rewritten in place when it runs. Ratios are taken within one run on one machine.\n";
const machine = `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
for (const s of sections) {
  if (only && !only.has(s.name)) continue;
  process.stderr.write(`bench: ${s.name} …\n`);
  const t0 = performance.now();
  // The 1-minute load average before and after: wall-clock ratios mean little on a busy machine.
  const load0 = loadavg()[0]!;
  const body = await s.run();
  const load = `load average ${f1(load0)} → ${f1(loadavg()[0]!)}`;
  const stamp = `_Run ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC on ${machine}; ${load}; took ${f1((performance.now() - t0) / 1000)} s._`;
  const block = `<!-- section:${s.name} -->\n## ${s.title}\n\n${stamp}\n\n${body}\n<!-- /section:${s.name} -->`;
  const re = new RegExp(`<!-- section:${s.name} -->[\\s\\S]*?<!-- /section:${s.name} -->`);
  doc = re.test(doc) ? doc.replace(re, block) : `${doc.trimEnd()}\n\n${block}\n`;
  writeFileSync(target, doc);
  process.stderr.write(`${body}\n\n`);
}
