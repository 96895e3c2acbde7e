// BENCHMARKS.md section: cost proportional to the change on real repositories given to the bench
// (issue: incremental performance). Each repository is cloned into a temp dir (its own files are
// never touched), digested in full, then: one-line commits each applied by `drsg digest --apply`
// in a fresh process (it folds from the plane's commit, seeded from the plane's own facts); commit
// → queryable under `drsg serve watch` (a commit, then `context` over /rpc until it names it); a
// cold CLI verb (a whole `drsg impact` process opening the database itself). Wall clock, medians.
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { PACKAGE_ROOT } from "../src/paths.js";
import { strongToken } from "../src/server/state.js";
import { gitRun, median } from "./common.js";

const DRSG = join(PACKAGE_ROOT, "bin", "drsg.js");

function timed(args: string[], env: NodeJS.ProcessEnv, ok: number[] = [0]): { ms: number; out: string; rssMb: number } {
  const t0 = performance.now();
  const r = spawnSync("/usr/bin/time", ["-f", "%M", process.execPath, DRSG, ...args], { env, encoding: "utf8", maxBuffer: 1 << 26 });
  const ms = performance.now() - t0;
  if (!ok.includes(r.status ?? -1)) throw new Error(`drsg ${args.join(" ")} failed: ${r.stderr}`);
  const rssKb = Number(r.stderr.trim().split("\n").pop());
  return { ms, out: r.stdout, rssMb: rssKb / 1024 };
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
    const nodeStart = median([0, 1, 2].map(() => timed(["--version"], env).ms));

    // Cold CLI verb: a whole process opening the database itself.
    const sym = JSON.parse(timed(["search", "a", "--plane", plane, "--db", db, "--json"], env).out) as { text: string };
    const name = /^\s*(\S+)\s+(Function|Method|Class)\b/m.exec(sym.text)?.[1] ?? "main";
    // An exact key, so the answer is an impact radius (3 and 4 — not found, ambiguous — are answers too).
    const cold = [0, 1, 2, 3, 4].map(() => timed(["impact", name, "--plane", plane, "--db", db], env, [0, 3, 4]).ms);

    // Commit → queryable under serve watch.
    const port = 20000 + Math.floor(Math.random() * 20000);
    const token = strongToken();
    const server = spawn(process.execPath, [DRSG, "serve", "watch", "--dir", dir, "--plane", plane, "--db", db, "--addr", `127.0.0.1:${port}`], {
      env: { ...env, DRSG_TOKEN: token },
      stdio: "ignore",
    });
    const queryable: number[] = [];
    try {
      const addr = `127.0.0.1:${port}`;
      for (let t = 0; t < 600; t++) {
        try {
          if ((await fetch(`http://${addr}/health`)).ok) break;
        } catch {
          // not up yet
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      await rpc(addr, token, "context", { plane, name });
      for (let i = 0; i < 5; i++) {
        appendFileSync(join(dir, f.path), `${f.comment} watch ${i}\n`);
        const t0 = performance.now();
        gitRun(dir, ["commit", "-qam", `watch ${i}`]);
        const sha = gitRun(dir, ["rev-parse", "HEAD"]).trim().slice(0, 12);
        while (!(await rpc(addr, token, "context", { plane, name })).includes(sha)) await new Promise((r) => setTimeout(r, 10));
        queryable.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 300));
      }
    } finally {
      // Stopped before the temp dir goes: its log and database are still open until it exits.
      const exited = new Promise((r) => server.once("exit", r));
      server.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    }
    const ms = (x: number) => `${Math.round(x)} ms`;
    return `| ${basename(src)} | ${lines} | ${(full.ms / 1000).toFixed(1)} s, ${full.rssMb.toFixed(0)} MB (${((full.rssMb * 100_000) / Math.max(1, lines)).toFixed(0)} MB / 100k lines) | ${ms(median(updates))} (${updates.map(ms).join(", ")}) | ${ms(nodeStart)} | ${ms(median(updates) - nodeStart)} | ${ms(median(queryable))} (${queryable.map(ms).join(", ")}) | ${ms(median(cold))} |`;
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
      for (const r of repos) rows.push(await repoRow(r));
      return [
        "Each repository is cloned to a temp dir and digested in full; then three one-line commits are each applied by `drsg digest --apply` in a fresh process (it folds from the plane's recorded commit, its incremental index seeded from the plane's own facts), `drsg serve watch` follows five more (commit → a `context` answer over /rpc naming the new commit), and `drsg impact` runs five times as a whole process opening the database. Targets: one-file update ≤ 1 s plus node's start; commit → queryable ≤ 300 ms median; cold CLI verb ≤ 300 ms; full digest ≤ 150 MB per 100k lines.",
        "",
        "| repository | lines | full digest (wall, peak RSS) | one-file update, fresh process (median; runs) | node start (`drsg --version`) | update less node start | commit → queryable under serve watch (median; runs) | cold `drsg impact` |",
        "|---|---|---|---|---|---|---|---|",
        ...rows,
      ].join("\n");
    },
  };
}
