// drsg serve [--addr A] [--db PATH]            — HTTP MCP + JSON-RPC over one open database
// drsg serve watch --dir D [--plane P] [...]   — the same, plus the fold watcher and D attached
// Started from bin/drsg.js, `serve watch` runs in a follower process of its own (src/sync/follower-process.ts).
import { spawn, spawnSync } from "node:child_process";
import { realpathSync } from "node:fs";
import { GraphViews } from "../../graph/view.js";
import { configureLog, log } from "../../log.js";
import { DrsgError } from "../../model/errors.js";
import { activePlugins } from "../../plugin/registry.js";
import { type RunningServer, checkServeConfig, parseAddr, startServer } from "../../server/http.js";
import { attachAllowList } from "../../tools/outbound.js";
import { MountManager } from "../../server/mounts.js";
import { RoutedStore } from "../../store/routed.js";
import { PlaneSync } from "../../sync/fold.js";
import { stopRequests } from "../../sync/follower-process.js";
import { Watcher, followerMode } from "../../sync/watch.js";
import { FoldLog } from "../../tools/fold_log.js";
import { serveMode, toolsFor } from "../../mcp/server.js";
import { TOOLS } from "../../tools/index.js";
import type { ToolContext } from "../../tools/tool.js";
import { type Command, flag, str } from "../command.js";
import { openDb } from "../db.js";

/** A whole number of seconds from the environment, or a start-up error naming the variable. */
export function envInt(name: string, dflt: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return dflt;
  if (!/^\d+$/.test(raw.trim()))
    throw new DrsgError("BAD_ENV", `${name}=${JSON.stringify(raw)} is not a whole number — set a number or unset it`, { variable: name });
  return Number(raw.trim());
}

/**
 * Build the graph views of `planes` now, so the first impact / trace / fathom of a session does
 * not build one while every other session waits (the build is synchronous).
 */
function warmViews(ctx: ToolContext, planes: string[]): void {
  for (const p of planes) {
    try {
      ctx.views.get(p);
    } catch (e) {
      log("warn", `graph view of ${p} not built: ${String(e)}`);
    }
  }
}

/** Open `url` with xdg-open (or the platform's opener) when there is one; otherwise say it. */
export function openUrl(url: string, io: { err(s: string): void }): void {
  const opener = process.platform === "darwin" ? "open" : process.platform === "win32" ? undefined : "xdg-open";
  const found = opener !== undefined && spawnSync("sh", ["-c", `command -v ${opener}`], { stdio: "ignore" }).status === 0;
  if (!found) {
    io.err(`drsg serve: no ${opener ?? "browser opener"} here — open ${url} in a browser`);
    return;
  }
  // Detached and ignored: the browser outlives nothing of ours, and its output is not ours.
  const child = spawn(opener!, [url], { detached: true, stdio: "ignore" });
  child.on("error", () => io.err(`drsg serve: ${opener} failed — open ${url} in a browser`));
  child.unref();
}

export const serveCommand: Command = {
  name: "serve",
  summary: "serve the database over HTTP (MCP on /mcp, JSON-RPC on /rpc); `serve watch` also follows a repository",
  usage: "drsg serve [--addr HOST:PORT] [--db PATH]  |  drsg serve watch --dir D [--plane P] [--addr HOST:PORT] [--db PATH] [--force]  (--open: open the dashboard in a browser; --read-only or DRSG_MCP_MODE=read: no write tool)",
  options: {
    addr: { type: "string" },
    db: { type: "string" },
    dir: { type: "string" },
    plane: { type: "string" },
    force: { type: "boolean" },
    open: { type: "boolean" },
    "read-only": { type: "boolean" },
  },
  async run(args, io) {
    const sub = args.positionals[0];
    if (sub !== undefined && sub !== "watch") throw new DrsgError("BAD_INPUT", `drsg serve: unknown subcommand '${sub}'\nusage: ${this.usage}`);
    configureLog({ name: "drsg-serve" });
    const token = process.env.DRSG_TOKEN?.trim() || undefined;
    const { host, port } = parseAddr(str(args, "addr") ?? "127.0.0.1:7700");
    // Before the database is opened or the first sync runs: a refused configuration costs nothing.
    checkServeConfig(host, token);
    attachAllowList();
    const headersTimeoutMs = envInt("DRSG_HEADERS_TIMEOUT_MS", 20_000);
    const bodyTimeoutMs = envInt("DRSG_BODY_TIMEOUT_MS", 60_000);
    const deadlineSecs = envInt("DRSG_MCP_TOOL_DEADLINE_SECS", 300);
    const idleMs = envInt("DRSG_SESSION_IDLE_MS", 600_000);
    const initMs = envInt("DRSG_SESSION_INIT_MS", 60_000);
    const bodyLimit = envInt("DRSG_MAX_BODY_BYTES", 64 * 1024 * 1024);
    const watch = sub === "watch";
    const dir = str(args, "dir") ?? (watch ? "." : undefined);
    // The database of the followed repository (walking up from --dir) or of the working directory's, unless --db / $DRSG_DB name one.
    const main = await openDb(str(args, "db"), { create: watch, start: dir, maintenance: !watch });
    const store = new RoutedStore(main);
    const mounts = new MountManager(store, activePlugins);
    let sync: PlaneSync | undefined;
    let watcher: Watcher | undefined;
    let server: RunningServer | undefined;
    // Armed before the first sync: a signal during it stops the server once the sync is done.
    const stop = stopRequests((why) => log("info", `${why}, stopping`));
    try {
      const plugins = activePlugins();
      const attached = dir ? realpathSync(dir) : undefined;
      const ctx: ToolContext = {
        store,
        transport: "http",
        attached,
        plugins: activePlugins,
        views: new GraphViews(store),
        // The fold log the watcher records into; the dashboard and the fold_log tool read it.
        extras: { mounts, foldLog: new FoldLog() },
      };
      const foldLog = ctx.extras!.foldLog as FoldLog;
      if (watch) {
        sync = await PlaneSync.open({ store: main, dir: dir!, plugins, pluginsNow: activePlugins, plane: str(args, "plane") });
        // Before the first sync starts the extraction workers: their heap bounds are read then.
        followerMode(sync);
        ctx.extras!.sync = sync;
        const first = flag(args, "force") ? await sync.rebuild("--force") : await sync.syncToHead();
        if (first.kind !== "noop" || first.history) foldLog.record(first);
        log("info", `plane '${sync.plane}' ${first.kind} at ${first.to.slice(0, 12) || "-"}${first.reason ? ` (${first.reason})` : ""}`);
        const followed = sync;
        watcher = new Watcher(sync, {
          onError: (e) => log("error", `watcher: ${String(e)}`),
          // Rebuild the plane's graph view right after a fold, not inside the next agent's call.
          onSync: (r) => {
            warmViews(ctx, [followed.plane]);
            foldLog.record(r);
          },
        });
        await watcher.start();
      }
      server = await startServer({
        ctx,
        tools: toolsFor(TOOLS, serveMode(flag(args, "read-only")), store),
        host,
        port,
        token,
        allowedHosts: (process.env.DRSG_ALLOWED_HOSTS ?? "").split(",").filter(Boolean),
        deadlineSecs,
        idleMs,
        initMs,
        bodyLimit,
        headersTimeoutMs,
        bodyTimeoutMs,
      });
      if (!token) log("warn", "no DRSG_TOKEN: every programmatic client is refused (set DRSG_TOKEN to serve agents)");
      warmViews(ctx, store.listPlanes().map((p) => p.name).filter((n) => !/_(git|ops)$/.test(n)));
      log("info", `serving ${main.path} at ${server.url}${attached ? `, attached tree ${attached}` : ""}`);
      io.err(`drsg serve: ${server.url} (pid ${process.pid})`);
      const page = server.url.replace(/\/mcp$/, "/");
      io.err(`drsg serve: dashboard ${page}${token ? " (asks for DRSG_TOKEN once)" : ""}`);
      if (flag(args, "open")) openUrl(page, io);
      await stop.requested;
      return 0;
    } finally {
      stop.dispose();
      await watcher?.stop().catch(() => undefined);
      await server?.close().catch(() => undefined);
      await sync?.close().catch(() => undefined);
      await mounts.closeAll();
      store.close();
    }
  },
};
