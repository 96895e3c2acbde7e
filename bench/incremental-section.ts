// BENCHMARKS.md section: cost proportional to the change on real repositories given to the bench
// (issue: incremental performance). Each repository is cloned into a temp dir (its own files are
// never touched), digested in full, then: one-line commits each applied by `drsg digest --apply`
// in a fresh process (it folds from the plane's commit, seeded from the plane's own facts); commit
// → queryable under `drsg serve watch` (a commit, then `context` over /rpc until it names it);
// cold CLI verbs (whole `drsg impact` / `context` processes opening the database themselves, on a
// leaf and on the most-reached symbol); and the repository's own newest commits replayed both
// ways (replayRow). Wall clock, medians (the replay: median, 90th percentile, max).
import { spawn, spawnSync } from "node:child_process";
import Database from "better-sqlite3";
import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { PACKAGE_ROOT } from "../src/paths.js";
import { strongToken } from "../src/server/state.js";
import { gitRun, median } from "./common.js";

const DRSG = join(PACKAGE_ROOT, "bin", "drsg.js");

/** The key of the function, method or class of `plane` the most incoming edges reach (read-only). */
function mostReached(db: string, plane: string): string {
  const d = new Database(db, { readonly: true });
  try {
    const row = d
      .prepare(
        "SELECT n.key AS key FROM edges e JOIN nodes n ON n.id = e.dst JOIN planes p ON p.id = e.plane " +
          "WHERE p.name = ? AND n.label IN ('Function', 'Method', 'Class') GROUP BY e.dst ORDER BY count(*) DESC, n.key LIMIT 1",
      )
      .get(plane) as { key: string } | undefined;
    if (!row) throw new Error(`plane ${plane} has no reached function, method or class`);
    return row.key;
  } finally {
    d.close();
  }
}

function timed(args: string[], env: NodeJS.ProcessEnv, ok: number[] = [0], cwd?: string): { ms: number; out: string; rssMb: number } {
  const t0 = performance.now();
  const r = spawnSync("/usr/bin/time", ["-f", "%M", process.execPath, DRSG, ...args], { env, encoding: "utf8", maxBuffer: 1 << 26, cwd });
  const ms = performance.now() - t0;
  if (!ok.includes(r.status ?? -1)) throw new Error(`drsg ${args.join(" ")} failed: ${r.stderr}`);
  const rssKb = Number(r.stderr.trim().split("\n").pop());
  return { ms, out: r.stdout, rssMb: rssKb / 1024 };
}

/**
 * Until the live server of the repository at `dir` (its pid in .drsg/server.json) has used under
 * 5 % of a core over half a second, at most a minute: its first views and history read.
 */
async function serverSettled(dir: string): Promise<void> {
  const pid = (JSON.parse(readFileSync(join(dir, ".drsg", "server.json"), "utf8")) as { pid: number }).pid;
  // utime + stime, in clock ticks (100 per second on Linux), fields 14 and 15 of /proc/PID/stat.
  const cpu = () => {
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return Number(f[11]) + Number(f[12]);
  };
  const until = Date.now() + 60_000;
  let before = cpu();
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, 500));
    const now = cpu();
    if (now - before <= 2) return;
    before = now;
  }
}

/**
 * The median of five runs of each command, run in rounds (one of each, five times): this
 * machine's speed drifts over seconds, and a slow stretch then moves every column alike instead
 * of the one that ran in it.
 */
function interleaved(commands: string[][], run: (args: string[]) => number): number[] {
  const times = commands.map(() => [] as number[]);
  for (let i = 0; i < 5; i++) for (const [j, args] of commands.entries()) times[j]!.push(run(args));
  return times.map(median);
}

/** The first function, method or class a search names (a leaf: few edges reach it). */
function leafOf(db: string, plane: string, env: NodeJS.ProcessEnv): string {
  const found = JSON.parse(timed(["search", "a", "--plane", plane, "--db", db, "--json"], env).out) as { text: string };
  const leaf = /^\s*\d+\.\s+(\S+)\s+(Function|Method|Class)\b/m.exec(found.text)?.[1];
  if (!leaf) throw new Error(`no function, method or class in: ${found.text}`);
  return leaf;
}

/** A file of the tree the plugins read, to append a comment line to. */
function pickFile(dir: string): { path: string; comment: string } {
  const files = gitRun(dir, ["ls-files"]).split("\n");
  const byExt: [RegExp, string][] = [
    [/\.py$/, "#"],
    [/\.(ts|js|go|rs|java|c)$/, "//"],
  ];
  for (const [re, c] of byExt) {
    const f = files.filter((x) => re.test(x) && !/test|vendor|node_modules/.test(x)).sort()[Math.floor(files.length / 7) % 50];
    if (f) return { path: f, comment: c };
  }
  throw new Error(`no source file to change in ${dir}`);
}

async function rpc(addr: string, token: string, method: string, params: Record<string, unknown>): Promise<string> {
  const r = await fetch(`http://${addr}/rpc`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await r.json()) as { result?: { text?: string }; error?: { message: string } };
  return body.result?.text ?? body.error?.message ?? "";
}

/** The p-th quantile (0..1) of `xs`, nearest rank. */
function quantile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))] ?? 0;
}

async function waitHealthy(addr: string): Promise<void> {
  for (let t = 0; t < 600; t++) {
    try {
      if ((await fetch(`http://${addr}/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`drsg serve at ${addr} never answered /health`);
}

/**
 * `drsg serve watch` on `db` following `dir`: each step's `move` (a commit, a reset) is timed from
 * just before it to the first `context` answer over /rpc that names the commit it returns. The
 * server is stopped before this returns (its log and database stay open until it exits).
 */
async function followedByServe(
  dir: string,
  plane: string,
  db: string,
  env: NodeJS.ProcessEnv,
  probe: string,
  steps: { before?: () => void; move: () => string }[],
): Promise<number[]> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const token = strongToken();
  const addr = `127.0.0.1:${port}`;
  const server = spawn(process.execPath, [DRSG, "serve", "watch", "--dir", dir, "--plane", plane, "--db", db, "--addr", addr], {
    env: { ...env, DRSG_TOKEN: token },
    stdio: "ignore",
  });
  const queryable: number[] = [];
  try {
    await waitHealthy(addr);
    await rpc(addr, token, "context", { plane, name: probe });
    for (const step of steps) {
      step.before?.();
      const t0 = performance.now();
      const sha = step.move();
      const deadline = t0 + 120_000;
      while (!(await rpc(addr, token, "context", { plane, name: probe })).includes(sha)) {
        if (performance.now() > deadline) throw new Error(`serve watch did not reach ${sha} within 120 s`);
        await new Promise((r) => setTimeout(r, 10));
      }
      queryable.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 300));
    }
  } finally {
    const exited = new Promise((r) => server.once("exit", r));
    server.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  }
  return queryable;
}

/** How a fold output says the families were resolved: "full" when any was resolved in full. */
function resolvedHow(out: string): "full" | "part" | "none" {
  const line = /^\s*resolution — (.*)$/m.exec(out)?.[1];
  if (!line) return "none";
  return /resolved in full/.test(line) ? "full" : "part";
}

/** REPLAY_COMMITS: how many of a repository's own newest commits the real-history rows replay. */
const REPLAY = Math.max(1, Number(process.env.DRSG_BENCH_REPLAY ?? 30) || 30);

/**
 * The repository's own history, commit by commit: its REPLAY newest first-parent commits, from a
 * full digest of the one before them — each applied by `drsg digest --apply` in a fresh process,
 * and, from the same start, followed by `drsg serve watch` (HEAD moved to the commit, then a
 * `context` answer over /rpc naming it). Real commits change many files and interfaces, where a
 * one-line commit changes none.
 */
async function replayRow(src: string, name: string): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), "drsg-bench-replay-"));
  try {
    const dir = join(work, basename(src));
    spawnSync("git", ["clone", "-q", "--no-hardlinks", src, dir], { stdio: "ignore" });
    const commits = gitRun(dir, ["log", "--first-parent", "--format=%H", `-${REPLAY + 1}`]).trim().split("\n").reverse();
    if (commits.length < 2) return `| ${name} | history too short to replay | | | | | |`;
    gitRun(dir, ["checkout", "-q", "-B", "replay", commits[0]!]);
    const env = { ...process.env, DRSG_HOME: join(work, "home"), DRSG_LOG_DIR: join(work, "logs") };
    const plane = basename(dir);
    const fresh = join(work, "fresh.drsg");
    const followed = join(work, "follow.drsg");
    const full = timed(["digest", dir, "--apply", "--db", fresh, "--plane", plane], env);
    copyFileSync(fresh, followed);
    const changed: number[] = [];
    const freshMs: number[] = [];
    let inFull = 0;
    for (const c of commits.slice(1)) {
      gitRun(dir, ["reset", "-q", "--hard", c]);
      changed.push(Number(/(\d+) files? changed/.exec(gitRun(dir, ["diff", "--shortstat", "HEAD~1", "HEAD"]))?.[1] ?? 0));
      const u = timed(["digest", dir, "--apply", "--db", fresh, "--plane", plane], env);
      freshMs.push(u.ms);
      if (resolvedHow(u.out) === "full") inFull++;
    }
    // The same commits under serve watch, from the same start.
    gitRun(dir, ["reset", "-q", "--hard", commits[0]!]);
    const queryable = await followedByServe(dir, plane, followed, env, leafOf(followed, plane, env),
      commits.slice(1).map((c) => ({
        move: () => {
          gitRun(dir, ["reset", "-q", "--hard", c]);
          return c.slice(0, 12);
        },
      })),
    );
    const ms = (x: number) => `${Math.round(x)} ms`;
    const dist = (xs: number[]) => `${ms(median(xs))} · ${ms(quantile(xs, 0.9))} · ${ms(Math.max(...xs))}`;
    return `| ${name} | ${commits.length - 1} (${median(changed)} files changed median, ${Math.max(...changed)} max) | ${(full.ms / 1000).toFixed(1)} s | ${dist(freshMs)} | ${inFull} of ${commits.length - 1} | ${dist(queryable)} | ${((freshMs.reduce((a, b) => a + b, 0) / full.ms)).toFixed(1)}× |`;
  } finally {
    rmSync(work, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

async function repoRow(src: string): Promise<string> {
  const work = mkdtempSync(join(tmpdir(), "drsg-bench-inc-"));
  try {
    const dir = join(work, basename(src));
    spawnSync("git", ["clone", "-q", "--no-hardlinks", src, dir], { stdio: "ignore" });
    gitRun(dir, ["config", "user.email", "bench@drsg.invalid"]);
    gitRun(dir, ["config", "user.name", "drsg bench"]);
    const env = { ...process.env, DRSG_HOME: join(work, "home"), DRSG_LOG_DIR: join(work, "logs") };
    const db = join(work, "g.drsg");
    const plane = basename(dir);
    const lines = Number(spawnSync("sh", ["-c", "git ls-files | grep -E '\\.(py|ts|js|go|rs|java|c)$' | xargs cat | wc -l"], { cwd: dir, encoding: "utf8" }).stdout.trim());
    const full = timed(["digest", dir, "--apply", "--db", db, "--plane", plane], env);
    const f = pickFile(dir);
    const updates: number[] = [];
    for (let i = 0; i < 3; i++) {
      appendFileSync(join(dir, f.path), `${f.comment} bench ${i}\n`);
      gitRun(dir, ["commit", "-qam", `bench ${i}`]);
      const u = timed(["digest", dir, "--apply", "--db", db, "--plane", plane], env);
      if (!/folded plane/.test(u.out)) throw new Error(`digest --apply did not fold: ${u.out}`);
      updates.push(u.ms);
    }

    // Cold CLI verbs: whole processes opening the database themselves — impact on a leaf (the
    // first function, method or class a search names) and impact and context on the symbol most
    // edges reach (a hub: the largest radius, the answer a user waits for longest).
    const leaf = leafOf(db, plane, env);
    const hub = mostReached(db, plane);
    const radius = timed(["impact", hub, "--plane", plane, "--db", db], env).out;
    if (!/^depth 1 \(/m.test(radius)) throw new Error(`impact ${hub} gave no radius: ${radius.slice(0, 400)}`);
    const opened = ["--plane", plane, "--db", db];
    const [leafMs, hubMs, contextMs, startMs] = interleaved([["impact", leaf, ...opened], ["impact", hub, ...opened], ["context", hub, ...opened], ["--version"]], (args) => timed(args, env).ms);
    const nodeStart = startMs!;
    const cold = { leaf: leafMs!, hub: hubMs!, context: contextMs!, hubName: hub, hubReach: /^total affected within depth \d+: (\d+)/m.exec(radius)?.[1] ?? "?" };

    // Commit → queryable under serve watch.
    const queryable = await followedByServe(dir, plane, db, env, leaf,
      [0, 1, 2, 3, 4].map((i) => ({
        before: () => appendFileSync(join(dir, f.path), `${f.comment} watch ${i}\n`),
        move: () => {
          gitRun(dir, ["commit", "-qam", `watch ${i}`]);
          return gitRun(dir, ["rev-parse", "HEAD"]).trim().slice(0, 12);
        },
      })),
    );
    // Cold CLI verbs in the repository `drsg init` set up: no --db, no --plane — the command finds
    // the live server's record in .drsg/ and asks it (what a user in their repository runs).
    timed(["init", "--dir", dir], env);
    let relay: { leaf: number; hub: number; context: number };
    try {
      const answer = timed(["impact", leaf], env, [0], dir).out;
      if (!/^synced: commit /m.test(answer)) throw new Error(`impact through the server gave no answer: ${answer.slice(0, 400)}`);
      // A server just started may still be reading (its history plane, its first view): let it
      // settle, so the timings are of the command, not of a busy neighbour on two cores.
      await serverSettled(dir);
      const [leafVia, hubVia, contextVia] = interleaved([["impact", leaf], ["impact", hub], ["context", hub]], (args) => timed(args, env, [0], dir).ms);
      relay = { leaf: leafVia!, hub: hubVia!, context: contextVia! };
    } finally {
      timed(["stop"], env, [0, 1], dir);
    }
    const ms = (x: number) => `${Math.round(x)} ms`;
    return `| ${basename(src)} | ${lines} | ${(full.ms / 1000).toFixed(1)} s, ${full.rssMb.toFixed(0)} MB (${((full.rssMb * 100_000) / Math.max(1, lines)).toFixed(0)} MB / 100k lines) | ${ms(median(updates))} (${updates.map(ms).join(", ")}) | ${ms(nodeStart)} | ${ms(median(updates) - nodeStart)} | ${ms(median(queryable))} (${queryable.map(ms).join(", ")}) | ${ms(cold.leaf)} · ${ms(cold.hub)} · ${ms(cold.context)} (\`${cold.hubName}\`, ${cold.hubReach} reached) | ${ms(relay.leaf)} · ${ms(relay.hub)} · ${ms(relay.context)} |`;
  } finally {
    rmSync(work, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

export function section(repos: string[]): { name: string; title: string; run(): Promise<string> } {
  return {
    name: "incremental",
    title: "Cost proportional to the change on real repositories (issue: incremental performance)",
    async run() {
      if (repos.length === 0) return "No repository was given to the bench (`npm run bench -- --only incremental REPO`), so nothing was measured.";
      const rows: string[] = [];
      const replays: string[] = [];
      for (const r of repos) {
        rows.push(await repoRow(r));
        replays.push(await replayRow(r, basename(r)));
      }
      return [
        "Each repository is cloned to a temp dir and digested in full; then three one-line commits are each applied by `drsg digest --apply` in a fresh process (it folds from the plane's recorded commit, its incremental index seeded from the plane's own facts), `drsg serve watch` follows five more (commit → a `context` answer over /rpc naming the new commit), and cold CLI verbs run five times each as whole processes opening the database: `impact` on a leaf (the first function, method or class a search names), then `impact` and `context` on the symbol the most edges reach (the largest radius), in five rounds of one each with `drsg --version` (node's start) as a fourth, so a slow stretch of this machine moves every column alike; last, `drsg init` sets the clone up and the same three verbs run in it, in rounds too, as a user types them (no --db, no --plane: the command finds the live server's record and asks it). Targets: one-file update ≤ 1 s plus node's start; commit → queryable ≤ 300 ms median; cold CLI verb ≤ 300 ms; full digest ≤ 150 MB per 100k lines.",
        "",
        "| repository | lines | full digest (wall, peak RSS) | one-file update, fresh process (median; runs) | node start (`drsg --version`) | update less node start | commit → queryable under serve watch (median; runs) | cold verb opening the database (median of 5): impact on a leaf · impact on the most-reached symbol · context on it | the same in the repository `drsg init` set up (through its live server) |",
        "|---|---|---|---|---|---|---|---|---|",
        ...rows,
        "",
        `Real history: each repository's ${REPLAY} newest first-parent commits, from a full digest of the one before them — each applied by \`drsg digest --apply\` in a fresh process, then the same commits followed by \`drsg serve watch\` (HEAD moved to the commit by \`git reset --hard\`, then a \`context\` answer over /rpc naming it). Times are median · 90th percentile · max. A family is resolved in full when a file is added, deleted or renamed, a manifest changes what the resolver reads, or a change reaches more than half the family's files; otherwise only the files that may read a changed interface are resolved again.`,
        "",
        "| repository | commits replayed | full digest | applied in a fresh process | of them resolved in full | commit → queryable under serve watch | fresh-process total ÷ one full digest |",
        "|---|---|---|---|---|---|---|",
        ...replays,
      ].join("\n");
    },
  };
}
