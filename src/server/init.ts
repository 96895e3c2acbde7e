// drsg init: from inside a repository, make "drsg is serving this repo" true, idempotently —
// digest into a plane, start `drsg serve watch` detached on a loopback port with a fresh token,
// wait for /health with the child's pid, and write the agent configs whose marker exists.
import { spawn } from "node:child_process";
import { randomInt } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { basename, dirname, join, relative, resolve } from "node:path";
import { GitRepo } from "../git/repo.js";
import { DrsgError } from "../model/errors.js";
import { PACKAGE_ROOT } from "../paths.js";
import type { PluginSet } from "../plugin/host.js";
import { openStore } from "../store/store.js";
import { digest } from "../sync/digest.js";
import { followerSpawn } from "../sync/follower-process.js";
import { probeHealth } from "./endpoint.js";
import { parseAddr } from "./http.js";

export interface InitOptions {
  dir: string;
  plane?: string;
  addr?: string;
  token?: string;
  db?: string;
  rebuild?: boolean;
  plugins: PluginSet;
  out(line: string): void;
}

interface ServerState {
  addr: string;
  token: string;
  pid?: number;
  plane: string;
  db: string;
}

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

export function freshToken(): string {
  let t = "";
  for (let i = 0; i < 44; i++) t += ALNUM[randomInt(ALNUM.length)];
  return t;
}

/** A free loopback port, found by binding port 0. */
export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once("error", rej);
    s.listen(0, host, () => {
      const a = s.address();
      s.close(() => res(a && typeof a === "object" ? a.port : 0));
    });
  });
}

function portFree(host: string, port: number): Promise<boolean> {
  return new Promise((res) => {
    const s = createServer();
    s.once("error", () => res(false));
    s.listen(port, host, () => s.close(() => res(true)));
  });
}

/** Add lines to .git/info/exclude once each, so drsg's own files never show up in git. */
export function excludeFromGit(gitdir: string, lines: string[]): void {
  const f = join(gitdir, "info", "exclude");
  mkdirSync(dirname(f), { recursive: true });
  const have = existsSync(f) ? readFileSync(f, "utf8") : "";
  const present = new Set(have.split("\n").map((l) => l.trim()));
  const missing = lines.filter((l) => !present.has(l));
  if (missing.length === 0) return;
  const head = present.has("# drsg") ? "" : "# drsg\n";
  appendFileSync(f, `${have.endsWith("\n") || have === "" ? "" : "\n"}${head}${missing.join("\n")}\n`);
}

function isDrsgProcess(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("drsg");
  } catch {
    return false;
  }
}

async function waitFor(cond: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return cond();
}

function lastLogLines(dir: string, n = 20): string {
  try {
    const files = readdirSync(dir).filter((f) => f.endsWith(".log")).sort();
    const last = files[files.length - 1];
    if (!last) return "(no log)";
    return readFileSync(join(dir, last), "utf8").trimEnd().split("\n").slice(-n).join("\n");
  } catch {
    return "(no log)";
  }
}

function readJson(file: string): Record<string, unknown> {
  try {
    const v = JSON.parse(readFileSync(file, "utf8")) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function writeJson(file: string, doc: unknown): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
}

export interface InitResult {
  url: string;
  pid: number;
  token: string;
  action: "reused" | "bootstrapped" | "restarted" | "rebuilt";
  written: string[];
}

export async function init(opts: InitOptions): Promise<InitResult> {
  let dir: string;
  try {
    dir = realpathSync(resolve(opts.dir));
  } catch {
    throw new DrsgError("DIR_NOT_FOUND", `init: no directory '${opts.dir}' (--dir)`);
  }
  const repo = await GitRepo.find(dir);
  if (!repo) throw new DrsgError("GIT_ERROR", `init: ${dir} is not inside a git repository — drsg init follows commits; drsg digest ${dir} --apply reads a plain tree`);
  const plane = opts.plane ?? basename(dir);
  const stateDir = join(dir, ".drsg");
  const db = opts.db ? resolve(dir, opts.db) : join(stateDir, "graph.drsg");
  const logs = join(stateDir, "logs");
  mkdirSync(stateDir, { recursive: true });
  excludeFromGit(repo.gitdir, [".drsg/", ".mcp.json", ".cursor/mcp.json"]);
  const stateFile = join(stateDir, "server.json");
  const prior = existsSync(stateFile) ? (readJson(stateFile) as unknown as Partial<ServerState>) : {};

  // A live server for this repository: reuse it, unless asked to rebuild.
  if (prior.addr && prior.token) {
    const url = `http://${prior.addr}/mcp`;
    const h = await probeHealth(url, 2000);
    if (h) {
      if (opts.addr && parseAddr(opts.addr).port !== parseAddr(prior.addr).port)
        throw new DrsgError("BAD_INPUT", `init: drsg already serves ${dir} at ${url} and holds the database — drop --addr, or stop it first (drsg init --rebuild)`);
      if (!opts.rebuild) {
        opts.out(`drsg is already serving ${dir} at ${url} — reusing it, the plane is untouched (pid ${h.pid ?? "?"})`);
        const written = await writeConfigs(dir, url, prior.token, repo, opts.out);
        return { url, pid: h.pid ?? 0, token: prior.token, action: "reused", written };
      }
      if (h.pid && isDrsgProcess(h.pid)) {
        opts.out(`stopping serve watch pid ${h.pid} — the plane is about to be rebuilt`);
        process.kill(h.pid, "SIGTERM");
        const { host, port } = parseAddr(prior.addr);
        const pid = h.pid;
        await waitFor(async () => !(await probeHealth(url, 300)) && (await portFree(host, port)) && !isDrsgProcess(pid), 10_000);
      }
    }
  }

  // The plane: digest now (a dry report on stdout) so serve watch starts in sync.
  const store = openStore(db, { create: true });
  try {
    const needs = opts.rebuild || !store.getPlane(plane)?.props.synced_commit;
    if (needs) {
      if (opts.rebuild && store.getPlane(plane)) store.write((w) => w.dropPlane(plane));
      const r = await digest({ dir, plugins: opts.plugins, plane, store });
      opts.out(`digested ${dir} into plane '${plane}': ${r.report.nodes} node(s), ${r.report.edges} edge(s) at ${r.commit?.slice(0, 12) ?? "the working tree"}`);
    }
  } finally {
    store.close();
  }

  // The endpoint: the recorded address and token when there are any, else fresh ones.
  const token = opts.token ?? prior.token ?? (process.env.DRSG_TOKEN?.trim() || freshToken());
  let host = "127.0.0.1";
  let port: number;
  if (opts.addr) ({ host, port } = parseAddr(opts.addr));
  else if (prior.addr) {
    ({ host, port } = parseAddr(prior.addr));
    if (!(await portFree(host, port))) {
      const old = port;
      port = await freePort(host);
      opts.out(`note: ${host}:${old} is taken by something else now — moving to ${host}:${port}`);
    }
  } else port = await freePort(host);

  let pid = 0;
  for (let attempt = 1; attempt <= 3; attempt++) {
    mkdirSync(logs, { recursive: true });
    const errFd = openSync(join(logs, "serve-watch.stderr"), "a");
    // serve watch follows the repository for as long as drsg watch's follower does: it starts with
    // the same native-memory settings (node flags, malloc environment; src/sync/follower-process.ts).
    const follower = followerSpawn({ ...process.env, DRSG_TOKEN: token, DRSG_LOG_DIR: logs }, []);
    const child = spawn(
      process.execPath,
      [...follower.execArgv, join(PACKAGE_ROOT, "bin", "drsg.js"), "serve", "watch", "--dir", dir, "--plane", plane, "--addr", `${host}:${port}`, "--db", db],
      {
        cwd: dir,
        detached: true,
        stdio: ["ignore", "ignore", errFd],
        env: follower.env,
      },
    );
    child.unref();
    pid = child.pid ?? 0;
    let exited = false;
    child.once("exit", () => {
      exited = true;
    });
    const url = `http://${host}:${port}/mcp`;
    const up = await waitFor(async () => exited || (await probeHealth(url, 500))?.pid === pid, 30_000);
    if (up && !exited) break;
    if (attempt === 3 || opts.addr)
      throw new DrsgError("INTERNAL", `init: serve watch did not come up on ${host}:${port}; its log says:\n${lastLogLines(logs)}`);
    port = await freePort(host);
  }
  const url = `http://${host}:${port}/mcp`;
  const state: ServerState = { addr: `${host}:${port}`, token, pid, plane, db };
  writeFileSync(stateFile, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  const action: InitResult["action"] = opts.rebuild ? "rebuilt" : prior.addr ? "restarted" : "bootstrapped";
  opts.out(`plane '${plane}' ${action} — serve watch pid ${pid}, ${url}`);
  opts.out(`  database ${relative(dir, db) || db}; history → plane '${plane}_git', current with every commit — drsg history --plane ${plane}`);
  const written = await writeConfigs(dir, url, token, repo, opts.out);
  return { url, pid, token, action, written };
}

/** Is `rel` tracked by git (then it must never hold a literal token)? */
async function tracked(repo: GitRepo, dir: string, rel: string): Promise<boolean> {
  const inRepo = relative(repo.root, join(dir, rel)).split("\\").join("/");
  try {
    return await repo.isTracked(inRepo);
  } catch {
    return false;
  }
}

/** Write .mcp.json and the configs of the agents whose marker exists. */
export async function writeConfigs(dir: string, url: string, token: string, repo: GitRepo, out: (l: string) => void): Promise<string[]> {
  const written: string[] = [];
  const envNeeded: string[] = [];
  const trackedNow = new Set<string>();
  for (const rel of [".mcp.json", ".cursor/mcp.json"]) if (await tracked(repo, dir, rel)) trackedNow.add(rel);
  const literalOk = (rel: string) => !trackedNow.has(rel);

  const mcpRel = ".mcp.json";
  const mcp = readJson(join(dir, mcpRel));
  const servers = (mcp.mcpServers as Record<string, unknown> | undefined) ?? {};
  const mcpLiteral = literalOk(mcpRel);
  servers.drsg = { type: "http", url, headers: { Authorization: mcpLiteral ? `Bearer ${token}` : "Bearer ${DRSG_TOKEN}" } };
  mcp.mcpServers = servers;
  writeJson(join(dir, mcpRel), mcp);
  written.push(mcpRel);
  if (!mcpLiteral) envNeeded.push(mcpRel);

  if (existsSync(join(dir, ".cursor"))) {
    const rel = ".cursor/mcp.json";
    const doc = readJson(join(dir, rel));
    const s = (doc.mcpServers as Record<string, unknown> | undefined) ?? {};
    const lit = literalOk(rel);
    s.drsg = { url, headers: { Authorization: lit ? `Bearer ${token}` : "Bearer ${env:DRSG_TOKEN}" } };
    doc.mcpServers = s;
    writeJson(join(dir, rel), doc);
    written.push(rel);
    if (!lit) envNeeded.push(rel);
  }
  if (existsSync(join(dir, ".gemini"))) {
    const rel = ".gemini/settings.json";
    const doc = readJson(join(dir, rel));
    const s = (doc.mcpServers as Record<string, unknown> | undefined) ?? {};
    s.drsg = { httpUrl: url, headers: { Authorization: "Bearer $DRSG_TOKEN" } };
    doc.mcpServers = s;
    writeJson(join(dir, rel), doc);
    written.push(rel);
    envNeeded.push(rel);
  }
  if (existsSync(join(dir, ".codex"))) {
    const rel = ".codex/config.toml";
    const f = join(dir, rel);
    const have = existsSync(f) ? readFileSync(f, "utf8") : "";
    const block = `[mcp_servers.drsg]\nurl = ${JSON.stringify(url)}\nbearer_token_env_var = "DRSG_TOKEN"\n`;
    const re = /\[mcp_servers\.drsg\]\n(?:(?!\[)[^\n]*\n?)*/;
    const next = re.test(have) ? have.replace(re, block) : `${have}${have && !have.endsWith("\n") ? "\n" : ""}${have ? "\n" : ""}${block}`;
    writeFileSync(f, next);
    written.push(rel);
    envNeeded.push(rel);
  }
  if (existsSync(join(dir, "opencode.json"))) {
    const rel = "opencode.json";
    const doc = readJson(join(dir, rel));
    const m = (doc.mcp as Record<string, unknown> | undefined) ?? {};
    m.drsg = { type: "remote", url, headers: { Authorization: "Bearer {env:DRSG_TOKEN}" }, enabled: true };
    doc.mcp = m;
    writeJson(join(dir, rel), doc);
    written.push(rel);
    envNeeded.push(rel);
  }
  for (const w of written) out(`  + ${w}`);
  if (envNeeded.length > 0) out(`  ${envNeeded.join(", ")} reference $DRSG_TOKEN (never a literal token in a tracked file): export DRSG_TOKEN=${token}`);
  return written;
}
