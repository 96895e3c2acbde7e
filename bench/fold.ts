// Fold benchmark (issue: commit-synced planes). A generated TypeScript repository of ≥100k lines
// with a history written by `git fast-import`: the full digest of its first commit, then folds of
// commits touching 1, 10 and 100 files (each beside that digest time, same run), 500 commits
// folded one by one (commits/s, RSS at start and end), and commit → queryable under the watcher
// (a real `git commit`, chokidar, debounce, fold). Run alone: node dist/bench/fold.js [--lines N]
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { setFlagsFromString } from "node:v8";
import { ExtractPool } from "../src/extract/pool.js";
import { PluginSet, officialPlugins } from "../src/plugin/host.js";
import { openStore } from "../src/store/store.js";
import { digest } from "../src/sync/digest.js";
import { type FoldResult, PlaneSync } from "../src/sync/fold.js";
import { Watcher } from "../src/sync/watch.js";
import { generate, rng } from "./gen.js";

export interface FoldBenchOptions {
  /** Lines of the generated tree (default 100 000). */
  lines?: number;
  /** Commits folded one by one (default 500). */
  history?: number;
  /** Folds measured per size (default 5; the median is reported). */
  samples?: number;
  /** Commits made under the watcher (default 5). */
  watcherCommits?: number;
  log?: (line: string) => void;
}

export interface FoldLatency {
  files: number;
  /** Median wall time of the fold (diff, walk, extract, resolve, reconcile, commit). */
  ms: number;
  /** Median CPU time of the process during the fold (main thread and extraction workers). */
  cpuMs: number;
  min: number;
  max: number;
  /** The median against the full digest. */
  ofDigest: number;
  parsed: number;
  factsChanged: number;
  /** Median split of the time. */
  timings: FoldResult["timings"];
}

export interface FoldBenchResult {
  files: number;
  lines: number;
  nodes: number;
  edges: number;
  fullDigestMs: number;
  /** CPU time of the full digest (main thread and extraction workers). */
  fullDigestCpuMs: number;
  folds: FoldLatency[];
  history: { commits: number; ms: number; commitsPerSec: number; rssStartMb: number; rssEndMb: number; rssGrowthPct: number };
  watcher: { commits: number; medianMs: number; maxMs: number };
}

const GIT_ENV = { GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };

function gitIn(dir: string, args: string[], input?: string): string {
  const r = spawnSync("git", ["-c", "user.name=bench", "-c", "user.email=b@e", "-c", "gc.auto=0", ...args], {
    cwd: dir,
    input,
    encoding: "utf8",
    env: { ...process.env, ...GIT_ENV },
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.trim();
}

interface Commit {
  message: string;
  files: Record<string, string>;
}

/** One fast-import stream for the whole history; returns the commit shas in order. */
function importHistory(dir: string, commits: Commit[]): string[] {
  const parts: string[] = [];
  let ts = 1704110400;
  commits.forEach((c, i) => {
    const mark = i + 1;
    parts.push(`commit refs/heads/main\nmark :${mark}\n`);
    parts.push(`author bench <b@e> ${ts} +0000\ncommitter bench <b@e> ${ts} +0000\n`);
    parts.push(`data ${Buffer.byteLength(c.message)}\n${c.message}\n`);
    if (i > 0) parts.push(`from :${i}\n`);
    for (const [p, text] of Object.entries(c.files)) parts.push(`M 100644 inline ${p}\ndata ${Buffer.byteLength(text)}\n${text}\n`);
    parts.push("\n");
    ts += 600;
  });
  for (let i = 1; i <= commits.length; i++) parts.push(`get-mark :${i}\n`);
  const out = gitIn(dir, ["fast-import", "--quiet", "--done"], `${parts.join("")}done\n`);
  return out.split("\n").map((l) => l.replace(/^:\d+ /, "").trim());
}

/** A small edit that changes facts: a new helper on even versions, a changed body on odd ones. */
function edit(text: string, file: number, version: number): string {
  if (version % 2 === 0) return `${text}\nexport function extra${file}_${version}(x: number): number {\n  return x + ${version};\n}\n`;
  return text.replace(/Math\.max\(x, (\d+)\)/, (_m, k: string) => `Math.max(x, ${Number(k) + 1000 + version})`);
}

function rssMb(): number {
  return process.memoryUsage().rss / (1024 * 1024);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

function collectGarbage(): void {
  try {
    setFlagsFromString("--expose-gc");
    (runInNewContext("gc") as () => void)();
  } catch {
    // figures are then a little noisier
  }
}

export async function benchFold(opts: FoldBenchOptions = {}): Promise<FoldBenchResult> {
  const say = opts.log ?? (() => undefined);
  const samples = opts.samples ?? 5;
  const historyN = opts.history ?? 500;
  const corpus = generate("ts", opts.lines ?? 100_000);
  const paths = Object.keys(corpus.files).filter((p) => p.endsWith(".ts")).sort();
  const current = new Map(Object.entries(corpus.files));
  const r = rng(7);
  const versions = new Map<string, number>();
  const touch = (n: number, message: string): Commit => {
    const files: Record<string, string> = {};
    while (Object.keys(files).length < n) {
      const p = paths[Math.floor(r() * paths.length)]!;
      if (files[p]) continue;
      const v = (versions.get(p) ?? 0) + 1;
      versions.set(p, v);
      const text = edit(current.get(p)!, paths.indexOf(p), v);
      current.set(p, text);
      files[p] = text;
    }
    return { message, files };
  };
  const commits: Commit[] = [{ message: "base", files: { "package.json": JSON.stringify({ name: "benchrepo" }), ...corpus.files } }];
  for (let i = 0; i < historyN; i++) commits.push(touch(1 + Math.floor(r() * 3), `history ${i}`));
  const sizes = [1, 10, 100];
  for (const n of sizes) for (let s = 0; s < samples; s++) commits.push(touch(n, `touch ${n} #${s}`));

  const dir = mkdtempSync(join(tmpdir(), "drsg-bench-fold-"));
  const dbDir = mkdtempSync(join(tmpdir(), "drsg-bench-fold-db-"));
  try {
    gitIn(dir, ["init", "-q", "-b", "main"]);
    const t0 = performance.now();
    const shas = importHistory(dir, commits);
    say(`fold bench: ${paths.length} files, ${corpus.lines} lines, ${shas.length} commits imported in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const plugins = new PluginSet(officialPlugins());
    const store = openStore(join(dbDir, "g.drsg"), { create: true });
    // The full digest of the first commit: cold cache, its own pool, as `drsg digest --apply` runs it.
    const d0 = performance.now();
    const dc0 = process.cpuUsage();
    const full = await digest({ dir, plugins, store, plane: "bench", commit: shas[0]! });
    const fullDigestMs = performance.now() - d0;
    const dc = process.cpuUsage(dc0);
    const fullDigestCpuMs = (dc.user + dc.system) / 1000;
    say(`full digest: ${(fullDigestMs / 1000).toFixed(2)} s (cpu ${(fullDigestCpuMs / 1000).toFixed(2)} s), ${full.report.nodes} nodes, ${full.report.edges} edges`);

    const pool = new ExtractPool(plugins.jobs());
    const sync = await PlaneSync.open({ store, dir, plugins, plane: "bench", pool, log: false });
    await sync.warm();
    // Warm the workers' grammars once, as a running watcher would have them.
    await sync.foldTo(shas[1]!);

    collectGarbage();
    const rssStart = rssMb();
    const h0 = performance.now();
    for (let i = 2; i <= historyN; i++) {
      await sync.foldTo(shas[i]!);
      if (process.env.DRSG_BENCH_MEM && i % 20 === 0) {
        collectGarbage();
        const m = process.memoryUsage();
        say(`  after ${i} folds: rss ${rssMb().toFixed(0)} MB, heap ${(m.heapUsed / 2 ** 20).toFixed(0)}/${(m.heapTotal / 2 ** 20).toFixed(0)} MB, external ${(m.external / 2 ** 20).toFixed(0)} MB, buffers ${(m.arrayBuffers / 2 ** 20).toFixed(0)} MB`);
      }
    }
    const historyMs = performance.now() - h0;
    collectGarbage();
    const rssEnd = rssMb();
    say(`history: ${historyN - 1} folds in ${(historyMs / 1000).toFixed(1)} s, RSS ${rssStart.toFixed(0)} → ${rssEnd.toFixed(0)} MB`);

    const folds: FoldLatency[] = [];
    let k = historyN + 1;
    for (const n of sizes) {
      const rs: FoldResult[] = [];
      const cpu: number[] = [];
      for (let s = 0; s < samples; s++) {
        const c0 = process.cpuUsage();
        rs.push(await sync.foldTo(shas[k++]!));
        const c = process.cpuUsage(c0);
        cpu.push((c.user + c.system) / 1000);
      }
      const ms = rs.map((x) => x.ms);
      const mid = rs.slice().sort((a, b) => a.ms - b.ms)[Math.floor(rs.length / 2)]!;
      folds.push({
        files: n,
        ms: median(ms),
        cpuMs: median(cpu),
        min: Math.min(...ms),
        max: Math.max(...ms),
        ofDigest: median(ms) / fullDigestMs,
        parsed: mid.parsed,
        factsChanged: mid.factsChanged,
        timings: mid.timings,
      });
      say(
        `fold of ${n} file(s): median ${median(ms).toFixed(0)} ms, cpu ${median(cpu).toFixed(0)} ms (${((100 * median(ms)) / fullDigestMs).toFixed(2)}% of the digest) ${JSON.stringify(mid.timings, (_k, v: unknown) => (typeof v === "number" ? Math.round(v) : v))} ${JSON.stringify(mid.resolution)}`,
      );
    }

    // Under the watcher: a real commit in the work tree, chokidar, debounce, fold.
    gitIn(dir, ["reset", "-q", "--hard", "main"]);
    const seen: ((r: FoldResult) => void)[] = [];
    const watcher = new Watcher(sync, { onSync: (res) => seen.shift()?.(res) });
    await watcher.start();
    const lat: number[] = [];
    for (let i = 0; i < (opts.watcherCommits ?? 5); i++) {
      const p = paths[(i * 37) % paths.length]!;
      const text = edit(current.get(p)!, paths.indexOf(p), 10_000 + i);
      current.set(p, text);
      writeFileSync(join(dir, p), text);
      const done = new Promise<FoldResult>((res) => seen.push(res));
      gitIn(dir, ["commit", "-qam", `watched ${i}`]);
      const c0 = performance.now();
      await done;
      lat.push(performance.now() - c0);
    }
    await watcher.stop();
    say(`watcher: commit → queryable median ${median(lat).toFixed(0)} ms, max ${Math.max(...lat).toFixed(0)} ms`);
    const info = store.getPlane("bench")!;
    await sync.close();
    await pool.close();
    store.close();
    return {
      files: paths.length,
      lines: corpus.lines,
      nodes: info.nodeCount,
      edges: info.edgeCount,
      fullDigestMs,
      fullDigestCpuMs,
      folds,
      history: {
        commits: historyN - 1,
        ms: historyMs,
        commitsPerSec: ((historyN - 1) * 1000) / historyMs,
        rssStartMb: rssStart,
        rssEndMb: rssEnd,
        rssGrowthPct: (100 * (rssEnd - rssStart)) / rssStart,
      },
      watcher: { commits: lat.length, medianMs: median(lat), maxMs: Math.max(...lat) },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(dbDir, { recursive: true, force: true });
  }
}

/** The BENCHMARKS.md section body for these figures. */
export function foldMarkdown(b: FoldBenchResult): string {
  const f = (x: number, d = 0) => x.toFixed(d);
  const rows = b.folds.map(
    (x) =>
      `| ${x.files} | ${f(x.ms)} (${f(x.min)}–${f(x.max)}) | ${f(x.cpuMs)} | ${f(b.fullDigestMs)} (${f(b.fullDigestCpuMs)}) | **${f(100 * x.ofDigest, 2)}%** | ${x.parsed} | ${x.factsChanged} | ${f(x.timings.walk)} / ${f(x.timings.build)} / ${f(x.timings.write)} |`,
  );
  return [
    "Targets: a 1-file fold ≤ 5% of a full digest and ≤ 150 ms; commit → queryable under the watcher ≤ 500 ms; RSS growth over 500 folds ≤ 10%.",
    `Generated TypeScript repository: ${b.files} files, ${b.lines} lines, ${b.nodes} nodes / ${b.edges} edges; history written with git fast-import.`,
    "",
    "| files touched | fold ms, median (min–max) | fold CPU ms | full digest ms (CPU) | fold ÷ digest | parsed | facts changed | walk / extract+resolve / write ms |",
    "|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    `${b.history.commits} commits folded one by one: ${f(b.history.commitsPerSec, 1)} commits/s; RSS ${f(b.history.rssStartMb)} MB → ${f(b.history.rssEndMb)} MB (${f(b.history.rssGrowthPct, 1)}%).`,
    `Under \`drsg watch\` (chokidar on .git, 120 ms debounce): commit → queryable median ${f(b.watcher.medianMs)} ms, max ${f(b.watcher.maxMs)} ms over ${b.watcher.commits} commits.`,
  ].join("\n");
}

if (process.argv[1]?.endsWith("/bench/fold.js")) {
  const i = process.argv.indexOf("--lines");
  const lines = i > 0 ? Number(process.argv[i + 1]) : undefined;
  const h = process.argv.indexOf("--history");
  const history = h > 0 ? Number(process.argv[h + 1]) : undefined;
  const res = await benchFold({ lines, history, log: (l) => process.stderr.write(`${l}\n`) });
  process.stdout.write(`${foldMarkdown(res)}\n`);
}
