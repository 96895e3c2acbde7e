// `drsg watch` and `drsg serve watch` run in a follower process of their own, started with the
// native-memory settings that only a process start can set: glibc reads its malloc tunables from
// the environment before any code runs, and V8 sizes the main thread's young generation when it
// creates the isolate. bin/drsg.js calls followerExec before it loads anything else, so the parent
// that waits for the follower is a bare node (~6 MB of anonymous memory). Light on purpose: no
// other drsg import.
import { type ChildProcess, spawn } from "node:child_process";
import { constants } from "node:os";

/** Set in the follower's environment: the process is the follower (do not start another). */
export const FOLLOWER_MARK = "DRSG_FOLLOWER_PROCESS";
/** DRSG_FOLLOWER_EXEC=0: run `drsg watch` / `drsg serve watch` in the process it was started in (no tuned allocation). */
export const FOLLOWER_EXEC_SWITCH = "DRSG_FOLLOWER_EXEC";

/**
 * A follower folds for hours, each fold allocating ~10–50 MB that it frees before the next, beside
 * ~100 MB held for the whole run. Measured over 120 folds of the fold bench (same machine, runs
 * alternated), against the default process:
 * - the main thread's young generation grows to 2 × 16 MB a few dozen folds in (27 → 32 MB) and
 *   stays there; 2 × 8 MB from the start holds it at 14–16 MB, for no measurable fold CPU time;
 * - glibc's mmap threshold rises to the largest block freed so far (up to 32 MB), after which every
 *   large buffer of the start-up (partials, blobs, JSON) is carved out of an arena and leaves a
 *   hole there that only malloc_trim (which nothing calls) would give back: a fixed 128 KiB
 *   threshold keeps large blocks in mmap, returned as they are freed (RSS at start −25 to −40 MB);
 * - each glibc arena keeps its own high-water mark; two (V8's background threads, the workers and
 *   the main thread share them) and two V8 platform threads instead of four bound how many ratchet.
 * The user's own settings (environment, node flags) win over these.
 */
export const FOLLOWER_NODE_FLAGS: readonly string[] = ["--max-semi-space-size=8", "--min-semi-space-size=8", "--v8-pool-size=2"];
export const FOLLOWER_MALLOC_ENV: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: "131072", MALLOC_ARENA_MAX: "2" };

/** How a follower process is started: the node flags before the script and its environment. */
export function followerSpawn(env: NodeJS.ProcessEnv = process.env, execArgv: readonly string[] = process.execArgv): { execArgv: string[]; env: NodeJS.ProcessEnv } {
  return { execArgv: [...FOLLOWER_NODE_FLAGS, ...execArgv], env: { ...FOLLOWER_MALLOC_ENV, ...env, [FOLLOWER_MARK]: "1" } };
}

/** The environment without what followerSpawn added (for a child that is not a follower). */
export function withoutFollowerEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out = { ...env };
  if (out[FOLLOWER_MARK]) for (const k of [FOLLOWER_MARK, ...Object.keys(FOLLOWER_MALLOC_ENV)]) delete out[k];
  return out;
}

/** Whether this process was started by followerExec. */
export function isFollowerProcess(): boolean {
  return process.env[FOLLOWER_MARK] === "1";
}

/**
 * The options of `drsg serve` and `drsg watch` that take a value (the rest are boolean): a copy of
 * their option tables (src/cli/commands), since this module loads before any other drsg code.
 */
const VALUED = new Set(["--addr", "--db", "--dir", "--plane"]);

/** Whether `args` is a command that follows a repository for hours: `drsg watch`, `drsg serve watch`. */
export function followsRepository(args: readonly string[]): boolean {
  if (args.includes("--help") || args.includes("-h")) return false;
  if (args[0] === "watch") return true;
  if (args[0] !== "serve") return false;
  // serve's subcommand: its first positional (option values skipped).
  for (let i = 1; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith("-")) {
      if (VALUED.has(a)) i++;
      continue;
    }
    return a === "watch";
  }
  return false;
}

/**
 * For `drsg watch` and `drsg serve watch` (not their --help): run the same command in a follower
 * process (followerSpawn) and resolve its exit code; undefined when this process should run the
 * command itself (it is the follower already, or DRSG_FOLLOWER_EXEC=0). SIGINT, SIGTERM and SIGHUP
 * are passed on to the follower (the command takes a repeated signal as one: stopRequests); the
 * follower stops if this process dies (its IPC channel closes).
 */
export function followerExec(args: string[], script = process.argv[1]): Promise<number> | undefined {
  if (!followsRepository(args)) return undefined;
  if (isFollowerProcess() || process.env[FOLLOWER_EXEC_SWITCH] === "0" || !script) return undefined;
  const { execArgv, env } = followerSpawn();
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, [...execArgv, script, ...args], { env, stdio: ["inherit", "inherit", "inherit", "ipc"] });
  } catch {
    return undefined;
  }
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
  const forward = (sig: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(sig);
  };
  for (const sig of signals) process.on(sig, forward);
  return new Promise<number>((resolve) => {
    child.once("error", (e) => {
      process.stderr.write(`error [INTERNAL]: could not start the follower process: ${e.message}\n`);
      resolve(1);
    });
    child.once("exit", (code, signal) => {
      for (const sig of signals) process.off(sig, forward);
      resolve(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 1));
    });
  });
}

/**
 * SIGINT, SIGTERM, SIGHUP — and, in a follower process of bin/drsg.js, the parent's exit (its IPC
 * channel closes) — from the call on: `requested` resolves at the first, after `onStop` heard why.
 * Taken once: a Ctrl-C reaches the follower process from the terminal and again passed on by its
 * parent, and a repeated signal while the command closes must not kill it (dispose keeps the
 * signals ignored for the rest of the process).
 */
export function stopRequests(onStop: (why: string) => void): { requested: Promise<void>; dispose(): void } {
  let resolve!: () => void;
  const requested = new Promise<void>((r) => {
    resolve = r;
  });
  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    onStop(why);
    resolve();
  };
  const handlers = (["SIGINT", "SIGTERM", "SIGHUP"] as const).map((sig) => [sig, () => stop(sig)] as const);
  for (const [sig, h] of handlers) process.on(sig, h);
  const gone = () => stop("parent process gone");
  if (isFollowerProcess() && process.channel) {
    process.channel.unref();
    if (!process.connected) gone();
    else process.once("disconnect", gone);
  }
  return {
    requested,
    dispose() {
      process.off("disconnect", gone);
      for (const [sig] of handlers) process.on(sig, () => undefined);
      for (const [sig, h] of handlers) process.off(sig, h);
    },
  };
}
