// Fold benchmark (issue: commit-synced planes). A generated TypeScript repository of ≥100k lines
// with a history written by `git fast-import`: the full digest of its first commit, then folds of
// commits touching 1, 10 and 100 files (each beside that digest time, same run), 500 commits
// folded one by one (commits/s, RSS at start and end), and commit → queryable under the watcher
// (a real `git commit`, chokidar, debounce, fold). Run alone: node dist/bench/fold.js [--lines N]
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ExtractPool } from "../src/extract/pool.js";
import { activePlugins } from "../src/plugin/registry.js";
import { openStore } from "../src/store/store.js";
import { FOLLOWER_TRIM_MS, type FoldResult, PlaneSync } from "../src/sync/fold.js";
import { withoutFollowerEnv } from "../src/sync/follower-process.js";
import { Watcher, boundHeapGrowth, followerMode } from "../src/sync/watch.js";
import { collectGarbage, median } from "./common.js";
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
  /** Peak RSS of the digest's process. */
  fullDigestRssMb: number;
  folds: FoldLatency[];
  history: {
    commits: number;
    ms: number;
    commitsPerSec: number;
    rssStartMb: number;
    rssEndMb: number;
    rssGrowthPct: number;
    /** The same RSS split: anonymous memory (heaps: V8, C) and file-backed pages (code, mapped files). */
    anonStartMb: number;
    anonEndMb: number;
    fileStartMb: number;
    fileEndMb: number;
    /** The database file (main + WAL) at the start and the end: the data the folds add. */
    dbStartMb: number;
    dbEndMb: number;
    /** RSS after every 100 folds. */
    rssAt: { folds: number; mb: number }[];
  };
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

/** One fast-import stream for a run of commits on main (after `parent` when given); returns their shas. */
function importHistory(dir: string, commits: Commit[], parent?: string, ts0 = 1704110400): string[] {
  const parts: string[] = [];
  let ts = ts0;
  commits.forEach((c, i) => {
    const mark = i + 1;
    parts.push(`commit refs/heads/main\nmark :${mark}\n`);
    parts.push(`author bench <b@e> ${ts} +0000\ncommitter bench <b@e> ${ts} +0000\n`);
    parts.push(`data ${Buffer.byteLength(c.message)}\n${c.message}\n`);
    if (i > 0) parts.push(`from :${i}\n`);
    else if (parent) parts.push(`from ${parent}\n`);
    for (const [p, text] of Object.entries(c.files)) parts.push(`M 100644 inline ${p}\ndata ${Buffer.byteLength(text)}\n${text}\n`);
    parts.push("\n");
    ts += 600;
  });
  for (let i = 1; i <= commits.length; i++) parts.push(`get-mark :${i}\n`);
  const out = gitIn(dir, ["fast-import", "--quiet", "--done", "--force"], `${parts.join("")}done\n`);
  return out.split("\n").map((l) => l.replace(/^:\d+ /, "").trim());
}

/** `drsg digest --apply` of HEAD in a fresh child process (bench/digest-child.ts), as a user runs it. */
function digestInChild(dir: string, db: string): { ms: number; maxRssMb: number; nodes: number; edges: number } {
  const child = fileURLToPath(new URL("./digest-child.js", import.meta.url));
  // As a user runs it: not with the follower's malloc settings this process may have been started with.
  const r = spawnSync(process.execPath, [child, dir, db], { env: withoutFollowerEnv(), encoding: "utf8", maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`digest child failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop()!) as { ms: number; maxRssMb: number; nodes: number; edges: number };
}

/** A small edit that changes facts: a new helper on even versions, a changed body on odd ones. */
function edit(text: string, file: number, version: number): string {
  if (version % 2 === 0) return `${text}\nexport function extra${file}_${version}(x: number): number {\n  return x + ${version};\n}\n`;
  return text.replace(/Math\.max\(x, (\d+)\)/, (_m, k: string) => `Math.max(x, ${Number(k) + 1000 + version})`);
}

function rssMb(): number {
  return process.memoryUsage().rss / (1024 * 1024);
}

/** Resident memory by kind (MB): anonymous vs file-backed (/proc/self/status), and the brk heap ([heap], glibc's main arena) from smaps. */
export function memKinds(): { anon: number; file: number; shmem: number; brk: number } {
  const kb = (text: string, key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? Number.NaN) / 1024;
  let status = "";
  let smaps = "";
  try {
    status = readFileSync("/proc/self/status", "utf8");
    smaps = readFileSync("/proc/self/smaps", "utf8");
  } catch {
    // not Linux
  }
  const heap = /\[heap\]\n(?:.*\n)*?Rss:\s+(\d+) kB/.exec(smaps);
  return { anon: kb(status, "RssAnon"), file: kb(status, "RssFile"), shmem: kb(status, "RssShmem"), brk: Number(heap?.[1] ?? 0) / 1024 };
}

/** Every mapping's resident size (KiB) by start address, with what it is (DRSG_BENCH_MEM). */
function mappings(): Map<string, { desc: string; sizeKb: number; rssKb: number }> {
  const out = new Map<string, { desc: string; sizeKb: number; rssKb: number }>();
  let text = "";
  try {
    text = readFileSync("/proc/self/smaps", "utf8");
  } catch {
    return out;
  }
  let cur: { desc: string; sizeKb: number; rssKb: number } | undefined;
  for (const line of text.split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      cur = { desc: `${head[3]} ${head[4] || "[anon]"}`, sizeKb: 0, rssKb: 0 };
      out.set(head[1]!, cur);
      continue;
    }
    const kv = /^(Size|Rss):\s+(\d+) kB/.exec(line);
    if (kv && cur) {
      if (kv[1] === "Size") cur.sizeKb = Number(kv[2]);
      else cur.rssKb = Number(kv[2]);
    }
  }
  return out;
}

/** The mappings whose resident size grew most between two readings (stderr). */
function growth(say: (s: string) => void, a: ReturnType<typeof mappings>, b: ReturnType<typeof mappings>): void {
  const rows: { at: string; desc: string; sizeKb: number; fromKb: number; toKb: number }[] = [];
  for (const [at, m] of b) rows.push({ at, desc: m.desc, sizeKb: m.sizeKb, fromKb: a.get(at)?.rssKb ?? 0, toKb: m.rssKb });
  for (const [at, m] of a) if (!b.has(at)) rows.push({ at, desc: m.desc, sizeKb: m.sizeKb, fromKb: m.rssKb, toKb: 0 });
  rows.sort((x, y) => y.toKb - y.fromKb - (x.toKb - x.fromKb));
  const total = rows.reduce((s, r) => s + r.toKb - r.fromKb, 0);
  say(`  mappings: resident ${(total / 1024).toFixed(1)} MB more; most grown:`);
  for (const r of rows.slice(0, 12)) {
    say(`    ${r.at} ${r.desc} size ${(r.sizeKb / 1024).toFixed(1)} MB: ${(r.fromKb / 1024).toFixed(1)} → ${(r.toKb / 1024).toFixed(1)} MB`);
  }
  const gone = rows.filter((r) => r.toKb === 0 && r.fromKb > 0).reduce((s, r) => s + r.fromKb, 0);
  const fresh = rows.filter((r) => r.fromKb === 0 && r.toKb > 0).reduce((s, r) => s + r.toKb, 0);
  say(`    new mappings ${(fresh / 1024).toFixed(1)} MB resident, unmapped ${(gone / 1024).toFixed(1)} MB`);
}

/**
 * The follower idle, as between two commits: a full collection, then a pause past its workers'
 * idle collection and its C-heap trim (FOLLOWER_TRIM_MS). V8 also hands the pages it freed back
 * to the OS from a background thread, so RSS read right after gc() still counts some of them.
 */
async function settle(): Promise<void> {
  collectGarbage();
  await new Promise((r) => setTimeout(r, FOLLOWER_TRIM_MS + 150));
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
  const base: Commit = { message: "base", files: { "package.json": JSON.stringify({ name: "benchrepo" }), ...corpus.files } };
  const commits: Commit[] = [];
  for (let i = 0; i < historyN; i++) commits.push(touch(1 + Math.floor(r() * 3), `history ${i}`));
  const sizes = [1, 10, 100];
  for (const n of sizes) for (let s = 0; s < samples; s++) commits.push(touch(n, `touch ${n} #${s}`));

  const dir = mkdtempSync(join(tmpdir(), "drsg-bench-fold-"));
  const dbDir = mkdtempSync(join(tmpdir(), "drsg-bench-fold-db-"));
  try {
    gitIn(dir, ["init", "-q", "-b", "main"]);
    const t0 = performance.now();
    const [baseSha] = importHistory(dir, [base]);
    // The full digest of the first commit, in its own process with a cold cache (drsg digest --apply).
    const db = join(dbDir, "g.drsg");
    const full = digestInChild(dir, db);
    const fullDigestMs = full.ms;
    say(`full digest: ${(fullDigestMs / 1000).toFixed(2)} s, peak RSS ${full.maxRssMb.toFixed(0)} MB, ${full.nodes} nodes, ${full.edges} edges`);
    const shas = [baseSha!, ...importHistory(dir, commits, baseSha, 1704110400 + 600)];
    say(`fold bench: ${paths.length} files, ${corpus.lines} lines, ${shas.length} commits imported in ${((performance.now() - t0 - fullDigestMs) / 1000).toFixed(1)} s`);
    commits.length = 0;

    // What `drsg watch` holds: the store, the plugins, a pool, the sync — warmed at start-up —
    // with the memory bounds a watcher sets (followerMode; the heap flags before the pool starts,
    // as the CLI sets them before its first sync starts the workers).
    boundHeapGrowth();
    const plugins = activePlugins();
    const store = openStore(db);
    const pool = new ExtractPool(plugins.jobs());
    const sync = await PlaneSync.open({ store, dir, plugins, pool, log: false });
    followerMode(sync);
    await sync.warm();
    await sync.foldTo(shas[1]!);

    const size = (f: string) => {
      try {
        return statSync(f).size / 2 ** 20;
      } catch {
        return 0;
      }
    };
    // DRSG_BENCH_MEM=N: a line of memory figures every N folds (stderr).
    const memEvery = Number(process.env.DRSG_BENCH_MEM ?? 0);
    const memLine = (folds: number) => {
      const m = process.memoryUsage();
      const k = memKinds();
      say(
        `  after ${folds} folds: rss ${rssMb().toFixed(0)} MB (anon ${k.anon.toFixed(0)} of which brk heap ${k.brk.toFixed(0)}, file ${k.file.toFixed(0)}), V8 heap ${(m.heapUsed / 2 ** 20).toFixed(0)}/${(m.heapTotal / 2 ** 20).toFixed(0)} MB, external ${(m.external / 2 ** 20).toFixed(0)} MB; db ${size(db).toFixed(0)} MB, wal ${size(`${db}-wal`).toFixed(0)} MB`,
      );
    };
    await settle();
    const rssStart = rssMb();
    const kindsStart = memKinds();
    const dbStartMb = size(db) + size(`${db}-wal`);
    if (memEvery) memLine(1);
    const mapsStart = memEvery ? mappings() : undefined;
    const rssAt: { folds: number; mb: number }[] = [];
    let paused = 0;
    const h0 = performance.now();
    for (let i = 2; i <= historyN; i++) {
      await sync.foldTo(shas[i]!);
      const sample = i % 100 === 0 || (memEvery > 0 && (i - 1) % memEvery === 0);
      if (!sample) continue;
      const p0 = performance.now();
      await settle();
      if (i % 100 === 0) rssAt.push({ folds: i - 1, mb: rssMb() });
      if (memEvery > 0 && (i - 1) % memEvery === 0) memLine(i - 1);
      paused += performance.now() - p0;
    }
    const historyMs = performance.now() - h0 - paused;
    await settle();
    const rssEnd = rssMb();
    if (mapsStart) growth(say, mapsStart, mappings());
    const kindsEnd = memKinds();
    const dbEndMb = size(db) + size(`${db}-wal`);
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
    const info = store.getPlane(sync.plane)!;
    await sync.close();
    await pool.close();
    store.close();
    return {
      files: paths.length,
      lines: corpus.lines,
      nodes: info.nodeCount,
      edges: info.edgeCount,
      fullDigestMs,
      fullDigestRssMb: full.maxRssMb,
      folds,
      history: {
        commits: historyN - 1,
        ms: historyMs,
        commitsPerSec: ((historyN - 1) * 1000) / historyMs,
        rssStartMb: rssStart,
        rssEndMb: rssEnd,
        rssGrowthPct: (100 * (rssEnd - rssStart)) / rssStart,
        anonStartMb: kindsStart.anon,
        anonEndMb: kindsEnd.anon,
        fileStartMb: kindsStart.file,
        fileEndMb: kindsEnd.file,
        dbStartMb,
        dbEndMb,
        rssAt,
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
      `| ${x.files} | ${f(x.ms)} (${f(x.min)}–${f(x.max)}) | ${f(x.cpuMs)} | ${f(b.fullDigestMs)} | **${f(100 * x.ofDigest, 2)}%** | ${x.parsed} | ${x.factsChanged} | ${f(x.timings.walk)} / ${f(x.timings.build)} / ${f(x.timings.write)} |`,
  );
  return [
    "Targets: a 1-file fold ≤ 5% of a full digest and ≤ 150 ms; commit → queryable under the watcher ≤ 500 ms; RSS growth over 500 folds ≤ 10%.",
    `Generated TypeScript repository: ${b.files} files, ${b.lines} lines, ${b.nodes} nodes / ${b.edges} edges; history written with git fast-import.`,
    "",
    "| files touched | fold ms, median (min–max) | fold CPU ms | full digest ms | fold ÷ digest | parsed | facts changed | walk / extract+resolve / write ms |",
    "|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    `${b.history.commits} commits folded one by one in a process of their own, started and set up as \`drsg watch\`'s follower process is (its node flags and malloc settings, its memory bounds): ${f(b.history.commitsPerSec, 1)} commits/s; process RSS ${f(b.history.rssStartMb)} MB → ${f(b.history.rssEndMb)} MB (**${f(b.history.rssGrowthPct, 1)}%**; ${b.history.rssAt.map((x) => `${x.mb.toFixed(0)} after ${x.folds}`).join(", ")}), read with the follower idle (after a full GC and ${FOLLOWER_TRIM_MS + 150} ms: past its workers' idle collection and its C-heap trim); of it anonymous ${f(b.history.anonStartMb)} → ${f(b.history.anonEndMb)} MB, file-backed ${f(b.history.fileStartMb)} → ${f(b.history.fileEndMb)} MB (no SQLite mmap: the database is read, not mapped). The database (with its WAL) grew ${f(b.history.dbStartMb)} → ${f(b.history.dbEndMb)} MB, the history's own data. Full digest (own process): peak RSS ${f(b.fullDigestRssMb)} MB.`,
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
