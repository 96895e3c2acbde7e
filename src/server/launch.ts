// Starting and stopping a repository's `drsg serve watch`: the one spawn shared by `drsg init`
// and `drsg-mcp` (which starts it again after a reboot, so the commits made meanwhile are folded
// before it answers). Detached, on a loopback port, with a strong token; considered up only when
// /health answers with the pid we started; stopped again when it does not come up, so a failed
// start never leaves a process holding the database. A lock file under `.drsg/` makes two hosts
// starting at once share one server.
import { spawn } from "node:child_process";
import { closeSync, constants, existsSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { createServer } from "node:net";
import { basename, join } from "node:path";
import { log } from "../log.js";
import { DrsgError } from "../model/errors.js";
import { PACKAGE_ROOT } from "../paths.js";
import { followerSpawn } from "../sync/follower-process.js";
import { probeHealth } from "./endpoint.js";
import {
  DB_NAME,
  INIT_NAME,
  STATE_DIR,
  type ServerRecord,
  ensureStateDir,
  hostOf,
  isLoopbackHost,
  isServeWatchOf,
  liveServer,
  readRecord,
  readStateJson,
  strongToken,
  tokenWeakness,
  writeRecord,
} from "./state.js";

/** A free port on `host`, found by binding port 0. */
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

/** Whether `host:port` can be bound now. */
export function portFree(host: string, port: number): Promise<boolean> {
  return new Promise((res) => {
    const s = createServer();
    s.once("error", () => res(false));
    s.listen(port, host, () => s.close(() => res(true)));
  });
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
  // A killed process nobody has reaped yet (a container without an init) still answers signal 0.
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true; // no /proc (macOS): signal 0 is the answer
  }
}

async function sleep(ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

/** Ask `pid` to stop (SIGTERM), wait up to `ms`, then SIGKILL. Resolves once it is gone. */
export async function stopProcess(pid: number, ms = 15_000): Promise<"stopped" | "killed" | "gone"> {
  if (!pidAlive(pid)) return "gone";
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    return "gone";
  }
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!pidAlive(pid)) return "stopped";
    await sleep(50);
  }
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // gone meanwhile
  }
  while (pidAlive(pid)) await sleep(50);
  return "killed";
}

export interface LaunchSpec {
  /** The repository root the server follows (its `.drsg/` holds the database and the record). */
  root: string;
  plane: string;
  db: string;
  token: string;
  host: string;
  /** 0 = any free port. */
  port: number;
  /** The user named the address (`--addr`): no other port is tried, a non-loopback host is allowed. */
  addrFromUser: boolean;
  /** How long the first sync (a fold of the commits made while no server ran) may take. */
  waitMs?: number;
}

/**
 * How long a start may take before it counts as failed: the first sync folds what was committed
 * while no server ran (or rebuilds after rewritten history). DRSG_START_WAIT_SECS overrides it.
 */
function defaultWaitMs(): number {
  const raw = process.env.DRSG_START_WAIT_SECS?.trim();
  if (raw === undefined || raw === "") return 120_000;
  if (!/^\d+$/.test(raw)) throw new DrsgError("BAD_ENV", `DRSG_START_WAIT_SECS=${JSON.stringify(raw)} is not a whole number of seconds — set a number or unset it`, { variable: "DRSG_START_WAIT_SECS" });
  return Number(raw) * 1000;
}

function tail(file: string, n = 15): string {
  try {
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    return lines.slice(-n).join("\n") || "(empty)";
  } catch {
    return "(no log)";
  }
}

/**
 * Hold `<root>/.drsg/start.lock` while `fn` runs: a second starter waits for the first (up to
 * `ms`), then finds the server the first one started. A lock whose process is gone is taken over.
 */
async function withStartLock<T>(root: string, ms: number, fn: () => Promise<T>): Promise<T> {
  const lock = join(ensureStateDir(root), "start.lock");
  const until = Date.now() + ms;
  for (;;) {
    try {
      const fd = openSync(lock, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      let held: { text: string; ageMs: number };
      try {
        held = { text: readFileSync(lock, "utf8").trim(), ageMs: Date.now() - statSync(lock).mtimeMs };
      } catch {
        continue; // released between the open and the read
      }
      const holder = Number.parseInt(held.text, 10);
      // An empty lock is one another starter has created and not yet written its pid into: it is
      // held (taking it over would start two servers), unless it has stayed empty for seconds.
      const stale = held.text === "" ? held.ageMs > 5000 : !Number.isSafeInteger(holder) || holder <= 0 || !pidAlive(holder);
      if (stale) {
        try {
          unlinkSync(lock);
        } catch {
          // another starter took it over first
        }
        continue;
      }
      if (Date.now() > until) throw new DrsgError("TIMEOUT", `start drsg serve watch for ${root}: process ${holder} has been starting it for over ${Math.round(ms / 1000)} s`);
      await sleep(100);
    }
  }
  try {
    return await fn();
  } finally {
    try {
      unlinkSync(lock);
    } catch {
      // already gone
    }
  }
}

/**
 * Start `drsg serve watch` for `spec.root` detached, wait until /health answers with its pid, and
 * record it in `.drsg/server.json`. A start that fails is stopped again and reported with the
 * server's own last log lines (SERVER_UNAVAILABLE); a database another process holds is DB_LOCKED.
 */
export async function launchServeWatch(spec: LaunchSpec): Promise<ServerRecord> {
  const waitMs = spec.waitMs ?? defaultWaitMs();
  return withStartLock(spec.root, waitMs + 10_000, async () => {
    // Another starter (a second host, a second drsg-mcp) may have finished while this one waited.
    const already = await liveServer(spec.root);
    if (already) return already;
    const logs = join(ensureStateDir(spec.root), "logs");
    mkdirSync(logs, { recursive: true, mode: 0o700 });
    const errFile = join(logs, "serve-watch.stderr");
    let port = spec.port || (await freePort(spec.host));
    for (let attempt = 1; ; attempt++) {
      const errFd = openSync(errFile, constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | constants.O_NOFOLLOW, 0o600);
      const childEnv: NodeJS.ProcessEnv = { ...process.env, DRSG_TOKEN: spec.token, DRSG_LOG_DIR: logs };
      delete childEnv.DRSG_DB;
      // serve watch follows the repository for as long as drsg watch's follower does: it starts with
      // the same native-memory settings (node flags, malloc environment; src/sync/follower-process.ts).
      const follower = followerSpawn(childEnv, []);
      const addr = `${spec.host.includes(":") ? `[${spec.host}]` : spec.host}:${port}`;
      const child = spawn(
        process.execPath,
        [...follower.execArgv, join(PACKAGE_ROOT, "bin", "drsg.js"), "serve", "watch", "--dir", spec.root, "--plane", spec.plane, "--addr", addr, "--db", spec.db],
        { cwd: spec.root, detached: true, stdio: ["ignore", "ignore", errFd], env: follower.env },
      );
      closeSync(errFd);
      child.unref();
      const pid = child.pid ?? 0;
      let exited = false;
      child.once("exit", () => {
        exited = true;
      });
      child.once("error", () => {
        exited = true;
      });
      const until = Date.now() + waitMs;
      let up = false;
      while (!exited && Date.now() < until) {
        if ((await probeHealth(`http://${addr}/mcp`, 500))?.pid === pid) {
          up = true;
          break;
        }
        await sleep(100);
      }
      if (up) {
        const rec: ServerRecord = { addr, token: spec.token, pid, plane: spec.plane, db: spec.db, dir: spec.root, ...(spec.addrFromUser ? { addr_from_user: true } : {}) };
        writeRecord(spec.root, rec);
        log("info", `started drsg serve watch for ${spec.root}: pid ${pid}, http://${addr}/`);
        return rec;
      }
      // Not up: it must not go on holding the database (or the port) for nothing.
      const exitedByItself = exited;
      if (!exited && pid > 0) await stopProcess(pid, 5000);
      const said = tail(errFile);
      if (/DB_LOCKED/.test(said.split("\n").slice(-5).join("\n")))
        throw new DrsgError("DB_LOCKED", `start drsg serve watch for ${spec.root}: ${spec.db} is held by another process; its log says:\n${said}`);
      if (spec.addrFromUser || attempt >= 3)
        throw new DrsgError(
          "SERVER_UNAVAILABLE",
          `start drsg serve watch for ${spec.root}: it ${exitedByItself ? "exited" : `did not answer /health within ${Math.round(waitMs / 1000)} s and was stopped`} (on ${addr}); its log (${errFile}) says:\n${said}`,
        );
      port = await freePort(spec.host);
    }
  });
}

/** The plane `drsg init` named for `root` (init.json, else the record, else the directory's name). */
export function repoPlane(root: string, rec?: Partial<ServerRecord>): string {
  const init = readStateJson<{ plane?: unknown }>(root, INIT_NAME);
  if (typeof init?.plane === "string" && init.plane) return init.plane;
  if (rec?.plane) return rec.plane;
  return basename(root);
}

/**
 * Start the repository's server again the way init started it (drsg-mcp after a reboot): the
 * recorded address when it is free and the recorded token when it is strong — so HTTP entries
 * written by `init --http` keep working — else a free loopback port and a fresh token.
 */
export async function restartRepoServer(root: string, waitMs?: number): Promise<ServerRecord> {
  const t = await readRecord(root);
  const prior = t.ok ? t.record : undefined;
  const db = join(root, STATE_DIR, DB_NAME);
  if (prior && isServeWatchOf(prior.pid, root)) {
    // Still running, only slow to answer (a loaded machine, a long first fold): wait for it rather
    // than start a second one that could not open the database; one that never answers is stopped.
    const until = Date.now() + 15_000;
    while (Date.now() < until) {
      if ((await probeHealth(`http://${prior.addr}/mcp`, 2000))?.pid === prior.pid) return prior;
      if (!isServeWatchOf(prior.pid, root)) break;
      await sleep(250);
    }
    if (isServeWatchOf(prior.pid, root)) {
      log("warn", `drsg serve watch pid ${prior.pid} for ${root} does not answer /health — stopping it and starting another`);
      await stopProcess(prior.pid);
    }
  }
  if (!existsSync(db)) throw new DrsgError("DB_MISSING", `start drsg serve watch for ${root}: no ${db} — run drsg init there`);
  let host = "127.0.0.1";
  let port = 0;
  const fromUser = prior?.addr_from_user === true;
  if (prior) {
    const h = hostOf(prior.addr);
    const p = Number(prior.addr.slice(prior.addr.lastIndexOf(":") + 1));
    if ((isLoopbackHost(h) || fromUser) && Number.isInteger(p) && p > 0 && (await portFree(h, p))) {
      host = h;
      port = p;
    }
  }
  const token = prior && tokenWeakness(prior.token) === undefined ? prior.token : strongToken();
  return launchServeWatch({ root, plane: repoPlane(root, prior), db, token, host, port, addrFromUser: fromUser && port !== 0, ...(waitMs ? { waitMs } : {}) });
}

/** Stop the live server of `root` if there is one; what happened, for the caller to say. */
export async function stopRepoServer(root: string): Promise<{ pid: number; how: "stopped" | "killed" | "gone" } | undefined> {
  const t = await readRecord(root);
  if (!t.ok) return undefined;
  const pid = t.record.pid;
  // Only the process the record names, and only while it is this repository's serve watch.
  if (!isServeWatchOf(pid, root)) return undefined;
  return { pid, how: await stopProcess(pid) };
}
