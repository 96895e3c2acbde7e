// Shared bench plumbing: write a corpus into a committed git repository, time a raw
// single-thread parse of the same files, and run a digest in a child process for its wall
// time and peak RSS.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Language, Parser, Query } from "web-tree-sitter";
import { activePlugins } from "../src/plugin/registry.js";
import { walkSource } from "../src/sync/walk.js";

/** A full collection of this process's heap (gc exposed at runtime); a no-op where that fails. */
export function collectGarbage(): void {
  try {
    setFlagsFromString("--expose-gc");
    (runInNewContext("gc") as () => void)();
  } catch {
    // figures are then a little noisier
  }
}

export function gitRun(dir: string, args: string[]): string {
  const r = spawnSync("git", ["-c", "user.name=bench", "-c", "user.email=b@e", "-c", "init.defaultBranch=main", ...args], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, GIT_AUTHOR_DATE: "@1704110400 +0000", GIT_COMMITTER_DATE: "@1704110400 +0000" },
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.trim();
}

/** Write files into a fresh directory and commit them. */
export function commitCorpus(files: Record<string, string>, prefix = "drsg-bench-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
  gitRun(dir, ["init", "-q"]);
  gitRun(dir, ["add", "-A"]);
  gitRun(dir, ["commit", "-qm", "corpus"]);
  return dir;
}

/**
 * Raw single-thread web-tree-sitter parse of every file the plugins claim: no queries, no
 * resolution. Beside it (after it, untimed by `ms`): `compileMs`, the time to compile the
 * plugins' queries for the grammars those files use — a cost every extraction thread pays once
 * per process, whatever the size of the tree.
 */
export async function rawParse(dir: string): Promise<{ ms: number; files: number; lines: number; bytes: number; compileMs: number }> {
  const plugins = activePlugins();
  const walk = await walkSource(dir);
  await Parser.init();
  const parsers = new Map<string, Parser>();
  const used: { lang: Language; querySource: string }[] = [];
  const inputs: { text: string; job: string }[] = [];
  let lines = 0;
  let bytes = 0;
  const dec = new TextDecoder();
  for (const f of walk.files) {
    const route = plugins.route(f.path);
    if (!route) continue;
    const data = await walk.read(f);
    const text = dec.decode(data);
    bytes += data.byteLength;
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lines++;
    inputs.push({ text, job: `${route.plugin.manifest.name}/${route.grammar}` });
  }
  for (const j of plugins.jobs()) {
    if (!inputs.some((x) => x.job === j.id)) continue;
    const p = new Parser();
    const lang = await Language.load(j.wasmPath);
    p.setLanguage(lang);
    parsers.set(j.id, p);
    used.push({ lang, querySource: j.querySource });
    p.parse("x")?.delete();
  }
  const t0 = performance.now();
  for (const x of inputs) parsers.get(x.job)!.parse(x.text)?.delete();
  const ms = performance.now() - t0;
  for (const p of parsers.values()) p.delete();
  const c0 = performance.now();
  for (const u of used) new Query(u.lang, u.querySource).delete();
  const compileMs = performance.now() - c0;
  return { ms, files: inputs.length, lines, bytes, compileMs };
}

export interface DigestRun {
  /** Wall time of the digest call inside the child (walk + parse + resolve + write). */
  ms: number;
  /** CPU of every thread over the digest call, and of the main thread alone. */
  cpuMs: number;
  mainCpuMs: number;
  /** Wall time of the whole child process, start-up included. */
  processMs: number;
  maxRssMb: number;
  nodes: number;
  edges: number;
  resolved: number;
  unresolved: number;
  /** Where the digest's wall time went (ms): walk, extraction (on the workers), resolution and the write (main thread). */
  phases: { walkMs: number; extractMs: number; resolveMs: number; writeMs: number };
}

/** `digest --apply` in a fresh child process with a fresh database. */
export function digestInChild(dir: string, extraEnv: NodeJS.ProcessEnv = {}): DigestRun {
  const db = join(mkdtempSync(join(tmpdir(), "drsg-bench-db-")), "g.drsg");
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [join(dirname(new URL(import.meta.url).pathname), "digest-child.js"), dir, db], {
    encoding: "utf8",
    env: { ...process.env, ...extraEnv },
    maxBuffer: 1 << 26,
  });
  const processMs = performance.now() - t0;
  if (r.status !== 0) throw new Error(`digest child failed: ${r.stderr}`);
  const out = JSON.parse(r.stdout.trim().split("\n").pop()!) as Omit<DigestRun, "processMs">;
  return { ...out, processMs };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

export function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
}

export function readJson<T>(p: string): T {
  return JSON.parse(readFileSync(p, "utf8")) as T;
}

/** What every oracle row lists beside its figures: sites judged wrong, unjudged, missed. */
export interface OracleSites {
  name: string;
  wrong: string[];
  unjudgedAt: string[];
  missed: string[];
}

/** Measure each tree in turn, listing its sites on stderr when DRSG_ORACLE_VERBOSE is set (`prefix`: with the tree's name). */
export async function measureTrees<R extends OracleSites>(dirs: string[], measure: (dir: string) => Promise<R>, prefix = false): Promise<R[]> {
  const rows: R[] = [];
  for (const d of dirs) {
    const row = await measure(d);
    if (process.env.DRSG_ORACLE_VERBOSE) {
      const p = prefix ? `${row.name} ` : "";
      for (const w of row.wrong) process.stderr.write(`wrong: ${p}${w}\n`);
      for (const u of row.unjudgedAt) process.stderr.write(`unjudged: ${p}${u}\n`);
      for (const m of row.missed) process.stderr.write(`missed: ${p}${m}\n`);
    }
    rows.push(row);
  }
  return rows;
}

/**
 * An oracle section run as a script (`node dist/bench/oracle-…-section.js REPO_DIR...`): the table
 * on stdout; `missing` says what the oracle lacks on this machine, if anything.
 */
export async function oracleScript<R extends OracleSites>(
  script: string,
  measure: (dir: string) => Promise<R>,
  table: (rows: R[]) => string,
  opts: { missing?: () => string | undefined; prefix?: boolean } = {},
): Promise<void> {
  const dirs = process.argv.slice(2);
  if (dirs.length === 0) {
    process.stderr.write(`usage: node dist/bench/${script} REPO_DIR...\n`);
    process.exit(2);
  }
  const missing = opts.missing?.();
  if (missing !== undefined) {
    process.stderr.write(`${missing}\n`);
    process.exit(1);
  }
  const rows = await measureTrees(
    dirs.map((d) => realpathSync(d)),
    measure,
    opts.prefix,
  );
  process.stdout.write(`${table(rows)}\n`);
}
