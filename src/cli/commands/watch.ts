// drsg watch --dir D [--plane P] [--db PATH]: follow a repository's commits in the foreground.
// Brings the plane to HEAD first (in sync, fold the gap, or rebuild after rewritten history),
// then folds every HEAD move until SIGINT/SIGTERM/SIGHUP. One log line per fold on stderr. Started
// from bin/drsg.js, this runs in a follower process of its own (src/sync/follower-process.ts).
import { log } from "../../log.js";
import { activePlugins } from "../../plugin/registry.js";
import { PlaneSync } from "../../sync/fold.js";
import { stopRequests } from "../../sync/follower-process.js";
import { Watcher, followerMode } from "../../sync/watch.js";
import { type Command, str } from "../command.js";
import { openDb } from "../db.js";

export const watchCommand: Command = {
  name: "watch",
  summary: "fold every commit of a repository into its plane (foreground, until Ctrl-C)",
  usage: "drsg watch [--dir D=.] [--plane NAME] [--db PATH]",
  options: { dir: { type: "string" }, plane: { type: "string" }, db: { type: "string" } },
  async run(args) {
    const dir = str(args, "dir") ?? args.positionals[0] ?? ".";
    const plugins = activePlugins();
    // The database of the repository followed (walking up from --dir), unless --db / $DRSG_DB name one.
    const store = await openDb(str(args, "db"), { create: true, start: dir });
    let sync: PlaneSync | undefined;
    const stop = stopRequests((why) => log("info", `watch ${sync?.plane ?? ""}: ${why}, stopping`));
    let watcher: Watcher | undefined;
    try {
      sync = await PlaneSync.open({ store, dir, plugins, pluginsNow: activePlugins, plane: str(args, "plane") });
      // Before the first sync starts the extraction workers: their heap bounds are read then.
      followerMode(sync);
      const start = await sync.syncToHead();
      if (start.kind === "noop")
        log("info", `watch ${sync.plane}: ${start.to ? `in sync at ${start.to.slice(0, 12)}` : (start.reason ?? "nothing to do")}`);
      watcher = new Watcher(sync);
      await watcher.start();
      log("info", `watching ${sync.repo.gitdir} (HEAD, refs, packed-refs) for plane '${sync.plane}' in ${store.path}; Ctrl-C stops`);
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
