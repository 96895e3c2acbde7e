// grep latency (issue: the agent verbs): p50/p95 of a literal and a regex `grep` over a whole tree
// through the tool's own parse → run — the commit's blobs by default (the plane's synced_commit),
// and once over the working tree (`worktree: true`) — beside ripgrep on the same tree when `rg` is installed
// (same patterns, line numbers, every match counted, output discarded; spawn included, as an
// agent's shell pays it). Target: grep ≤ 3× ripgrep.
// Run alone: node dist/bench/grep.js ROOT [--db PATH --plane P] [--literal S] [--regex R]
import { spawnSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { GitRepo } from "../src/git/repo.js";
import { GraphViews } from "../src/graph/view.js";
import { PluginSet } from "../src/plugin/host.js";
import { openStore } from "../src/store/store.js";
import type { Store } from "../src/store/types.js";
import { grep } from "../src/tools/grep.js";
import { listTree } from "../src/tools/text/tree.js";
import type { ToolContext } from "../src/tools/tool.js";
import { pct } from "./common.js";

export interface Timing {
  p50: number;
  p95: number;
  runs: number;
  /** The true count the answer states (grep) or the lines rg printed. */
  matches: number;
}

export interface GrepBenchCase {
  label: string;
  pattern: string;
  regex: boolean;
  ignoreCase: boolean;
  grep: Timing;
  rg?: Timing;
}

export interface GrepBenchResult {
  root: string;
  files: number;
  lines: number;
  bytes: number;
  /** `rg --version`'s first line, or why it was not run. */
  rg: string;
  cases: GrepBenchCase[];
}

export interface GrepBenchOptions {
  /** A database and plane whose synced_root is `root` (symbols then name the hits); else a bare plane. */
  db?: string;
  plane?: string;
  runs?: number;
  literal?: string;
  regex?: string;
}

function rgVersion(): string | undefined {
  const r = spawnSync("rg", ["--version"], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.split("\n")[0] : undefined;
}

function timeRg(root: string, pattern: string, regex: boolean, ignoreCase: boolean, runs: number): Timing {
  const args = ["-n", "--no-heading", ...(regex ? [] : ["-F"]), ...(ignoreCase ? ["-i"] : []), "-e", pattern, "."];
  const ms: number[] = [];
  let matches = 0;
  for (let i = 0; i <= runs; i++) {
    const t0 = performance.now();
    const r = spawnSync("rg", args, { cwd: root, encoding: "utf8", maxBuffer: 1 << 30 });
    const dt = performance.now() - t0;
    if (r.status !== 0 && r.status !== 1) throw new Error(`rg ${args.join(" ")}: ${r.stderr}`);
    matches = r.stdout === "" ? 0 : r.stdout.split("\n").length - 1;
    if (i > 0) ms.push(dt); // the first run warms the page cache
  }
  return { p50: pct(ms, 50), p95: pct(ms, 95), runs, matches };
}

async function timeGrep(ctx: ToolContext, plane: string, args: Record<string, unknown>, runs: number): Promise<Timing> {
  const once = async () => (await grep.run(ctx, grep.input.parse({ plane, ...args }))) as string;
  let text = await once();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    text = await once();
    ms.push(performance.now() - t0);
  }
  const m = /^(\d+) match\(es\)/m.exec(text);
  return { p50: pct(ms, 50), p95: pct(ms, 95), runs, matches: m ? Number(m[1]) : 0 };
}

/** Time literal and regex grep over `root` (p50 of `runs` after a warm-up), and rg beside it when installed. */
export async function benchGrep(root: string, opts: GrepBenchOptions = {}): Promise<GrepBenchResult> {
  const runs = opts.runs ?? 9;
  const canon = realpathSync(root);
  let tmp: string | undefined;
  let store: Store;
  let plane: string;
  if (opts.db) {
    store = openStore(opts.db);
    plane = opts.plane ?? "bench";
  } else {
    tmp = mkdtempSync(join(tmpdir(), "drsg-bench-grep-"));
    store = openStore(join(tmp, "g.drsg"), { create: true });
    plane = "bench";
    // A checkout's HEAD as the plane's commit, so grep reads its blobs as it does on a digested plane.
    const head = await (await GitRepo.find(canon))?.head().catch(() => undefined);
    store.write((w) => w.createPlane(plane, { synced_root: canon, ...(head ? { synced_commit: head } : {}) }));
  }
  try {
    const plugins = new PluginSet([]);
    const ctx: ToolContext = { store, transport: "cli", plugins: () => plugins, views: new GraphViews(store) };
    // The tree as grep sees it, measured once (not timed).
    const listing = await listTree(canon, { kind: "tree" }, false);
    let lines = 0;
    let bytes = 0;
    const { readFileSync } = await import("node:fs");
    for (const f of listing.files) {
      const b = readFileSync(join(canon, f.rel));
      bytes += b.length;
      for (let i = b.indexOf(10); i !== -1; i = b.indexOf(10, i + 1)) lines++;
    }
    const rg = rgVersion();
    const specs: { label: string; pattern: string; regex: boolean; ignoreCase: boolean; worktree?: boolean }[] = [
      { label: "literal", pattern: opts.literal ?? "return", regex: false, ignoreCase: false },
      { label: "literal, ignore_case", pattern: opts.literal ?? "return", regex: false, ignoreCase: true },
      { label: "regex", pattern: opts.regex ?? "(class|function)\\s+\\w+", regex: true, ignoreCase: false },
      { label: "regex, rare", pattern: "zz[0-9]+qq", regex: true, ignoreCase: false },
      { label: "literal, worktree: true", pattern: opts.literal ?? "return", regex: false, ignoreCase: false, worktree: true },
    ];
    const cases: GrepBenchCase[] = [];
    for (const s of specs) {
      const args = { pattern: s.pattern, regex: s.regex, ignore_case: s.ignoreCase, ...(s.worktree ? { worktree: true } : {}) };
      const g = await timeGrep(ctx, plane, args, runs);
      cases.push({ ...s, grep: g, ...(rg ? { rg: timeRg(canon, s.pattern, s.regex, s.ignoreCase, runs) } : {}) });
    }
    return { root: canon, files: listing.files.length, lines, bytes, rg: rg ?? "rg not installed — ripgrep columns skipped", cases };
  } finally {
    store.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }
}

/** A markdown table of one result. */
export function grepTable(r: GrepBenchResult): string {
  const f = (x: number | undefined) => (x === undefined ? "—" : x.toFixed(1));
  const rows = r.cases.map((c) => {
    const ratio = c.rg ? `**${(c.grep.p50 / c.rg.p50).toFixed(2)}×**` : "—";
    const pat = c.regex ? `/${c.pattern}/` : `"${c.pattern}"`;
    return `| ${c.label} \`${pat.replace(/\|/g, "\\|")}\` | ${c.grep.matches} | ${f(c.grep.p50)} | ${f(c.grep.p95)} | ${f(c.rg?.p50)} | ${f(c.rg?.p95)} | ${ratio} |`;
  });
  return [
    `${r.files} files, ${r.lines} lines, ${(r.bytes / 1024 / 1024).toFixed(1)} MiB; ${r.rg}; ${r.cases[0]?.grep.runs ?? 0} timed runs each after a warm-up.`,
    "",
    "| search | matches | grep p50 (ms) | grep p95 (ms) | rg p50 (ms) | rg p95 (ms) | grep ÷ rg (p50) |",
    "|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

async function main(argv: string[]): Promise<void> {
  const flag = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const root = argv.find((a, i) => !a.startsWith("--") && !argv[i - 1]?.startsWith("--"));
  if (!root) throw new Error("usage: node dist/bench/grep.js ROOT [--db PATH --plane P] [--literal S] [--regex R] [--runs N]");
  const r = await benchGrep(root, {
    db: flag("--db"),
    plane: flag("--plane"),
    literal: flag("--literal"),
    regex: flag("--regex"),
    runs: flag("--runs") ? Number(flag("--runs")) : undefined,
  });
  console.log(grepTable(r));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
