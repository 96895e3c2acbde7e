// `drsg watch` runs its follower in a process of its own, started with the native-memory settings
// that only a process start can set: glibc reads its malloc tunables from the environment before
// any code runs, and V8 sizes the main thread's young generation when it creates the isolate.
// bin/drsg.js calls followerExec before it loads anything else, so the parent that waits for the
// follower is a bare node (~6 MB of anonymous memory). Light on purpose: no other drsg import.
import { type ChildProcess, spawn } from "node:child_process";
import { constants } from "node:os";

/** Set in the follower's environment: the process is the follower (do not start another). */
export const FOLLOWER_MARK = "DRSG_FOLLOWER_PROCESS";
/** DRSG_FOLLOWER_EXEC=0: run `drsg watch` in the process it was started in (no tuned allocation). */
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
 * For `drsg watch` (not its --help): run the same command in a follower process (followerSpawn)
 * and resolve its exit code; undefined when this process should run the command itself (it is the
 * follower already, or DRSG_FOLLOWER_EXEC=0). SIGINT, SIGTERM and SIGHUP are passed on to the
 * follower (the watch command takes a repeated signal as one); the follower stops if this
 * process dies (its IPC channel closes).
 */
export function followerExec(args: string[], script = process.argv[1]): Promise<number> | undefined {
  if (args[0] !== "watch" || args.includes("--help") || args.includes("-h")) return undefined;
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
