// drsg watch --dir D [--plane P] [--db PATH]: follow a repository's commits in the foreground.
// Brings the plane to HEAD first (in sync, fold the gap, or rebuild after rewritten history),
// then folds every HEAD move until SIGINT/SIGTERM/SIGHUP. One log line per fold on stderr. Started
// from bin/drsg.js, this runs in a follower process of its own (src/sync/follower-process.ts).
import { log } from "../../log.js";
import { activePlugins } from "../../plugin/registry.js";
import { PlaneSync } from "../../sync/fold.js";
import { isFollowerProcess } from "../../sync/follower-process.js";
import { Watcher, followerMode } from "../../sync/watch.js";
import { type Command, str } from "../command.js";
import { dbPath, openDb } from "../db.js";

export const watchCommand: Command = {
  name: "watch",
  summary: "fold every commit of a repository into its plane (foreground, until Ctrl-C)",
  usage: "drsg watch [--dir D=.] [--plane NAME] [--db PATH]",
  options: { dir: { type: "string" }, plane: { type: "string" }, db: { type: "string" } },
  async run(args) {
    const dir = str(args, "dir") ?? args.positionals[0] ?? ".";
    const plugins = activePlugins();
    const store = openDb(str(args, "db"), { create: true });
    let sync: PlaneSync | undefined;
    const stop = stopRequests(() => sync?.plane);
    let watcher: Watcher | undefined;
    try {
      sync = await PlaneSync.open({ store, dir, plugins, plane: str(args, "plane") });
      // Before the first sync starts the extraction workers: their heap bounds are read then.
      followerMode(sync);
      const start = await sync.syncToHead();
      if (start.kind === "noop")
        log("info", `watch ${sync.plane}: ${start.to ? `in sync at ${start.to.slice(0, 12)}` : (start.reason ?? "nothing to do")}`);
      watcher = new Watcher(sync);
      await watcher.start();
      log("info", `watching ${sync.repo.gitdir} (HEAD, refs, packed-refs) for plane '${sync.plane}' in ${dbPath(str(args, "db"))}; Ctrl-C stops`);
      await stop.requested;
      return 0;
    } finally {
      stop.dispose();
      await watcher?.stop();
      await sync?.close();
      store.close();
    }
  },
};

/**
 * SIGINT, SIGTERM, SIGHUP — and, in the follower process of bin/drsg.js, the parent's exit (its
 * IPC channel closes) — from the start of the command on: one that comes during the first sync
 * stops the command once that sync is done. Taken once: a Ctrl-C reaches the follower process
 * from the terminal and again passed on by its parent.
 */
function stopRequests(plane: () => string | undefined): { requested: Promise<void>; dispose(): void } {
  let resolve!: () => void;
  const requested = new Promise<void>((r) => {
    resolve = r;
  });
  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    log("info", `watch ${plane() ?? ""}: ${why}, stopping`);
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
      // Kept for the rest of the process: a repeated signal while closing must not kill it.
      for (const [sig] of handlers) process.on(sig, () => undefined);
      for (const [sig, h] of handlers) process.off(sig, h);
    },
  };
}
