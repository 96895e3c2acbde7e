// drsg-mcp: the MCP server over stdio. Database: --db PATH or a bare PATH, else $DRSG_DB, else
// the repository's .drsg/graph.drsg (found by walking up like git, or named by --repo DIR), else
// ./graph.drsg; it must exist. In a repository `drsg init` set up, the session is relayed to its
// live `serve watch` — started again when none is alive — and only if that fails is the database
// opened here. stdout carries only the protocol; logs go to stderr and a file.
import { realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { configureLog, log } from "../log.js";
import { DrsgError, errorText } from "../model/errors.js";
import { restartRepoServer } from "../server/launch.js";
import { DB_NAME, STATE_DIR, assertTrustedState, findRepoRoot, isInitialised, liveServer, repoDb } from "../server/state.js";
import type { ToolContext } from "../tools/tool.js";
import { version } from "../version.js";
import { type ServeMode, serveMode } from "./mode.js";
import { relayTo } from "./relay.js";
import { guardStdin } from "./stdio-guard.js";

export const USAGE = `usage: drsg-mcp [--db PATH | PATH] [--repo DIR] [--read-only]
  Serves a drsg database to an MCP host over stdio.
  Database: --db PATH or a bare PATH, else $DRSG_DB, else the repository's .drsg/graph.drsg
  (the repository holding the working directory, or --repo DIR), else ./graph.drsg. It must
  exist: run drsg init in a repository, or build one with drsg digest <dir> --apply --db <path>.
  In a repository drsg init set up, the session goes to its drsg serve watch (started again
  when it is not running), so every host shares one server that follows the commits.
  --repo DIR     the repository to serve (agent configs name it; default: walk up from here)
  --read-only    list and serve no tool that writes (also DRSG_MCP_MODE=read); cypher stays,
                 for reads only; the default is read-write: this is the user's own machine
  -h, --help     this text
  -V, --version  the version`;

export interface StdioArgs {
  db?: string;
  repo?: string;
  readOnly: boolean;
  help: boolean;
  version: boolean;
}

/** Parse drsg-mcp's arguments (node's parseArgs): an unknown option or two database names is BAD_INPUT. */
export function parseStdioArgs(argv: string[]): StdioArgs {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; strict: true }>>;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const msg = (e as Error).message;
    if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
      const opt = /--(\w[\w-]*)/.exec(msg)?.[1] ?? "db";
      throw new DrsgError("BAD_INPUT", `drsg-mcp: --${opt} needs a ${opt === "repo" ? "DIR" : "PATH"}`);
    }
    const opt = /'([^']+)'/.exec(msg)?.[1] ?? msg;
    throw new DrsgError("BAD_INPUT", `drsg-mcp: unknown option ${opt}\n${USAGE}`);
  }
  const v = parsed.values;
  const names = [...(v.db ?? []), ...parsed.positionals];
  if (names.length > 1) throw new DrsgError("BAD_INPUT", `drsg-mcp: two databases named (${names.join(", ")}); name one`);
  if (names[0] === "") throw new DrsgError("BAD_INPUT", "drsg-mcp: --db needs a PATH");
  if ((v.repo ?? []).length > 1) throw new DrsgError("BAD_INPUT", `drsg-mcp: two repositories named (${(v.repo ?? []).join(", ")}); name one`);
  const repo = v.repo?.[0];
  if (repo === "") throw new DrsgError("BAD_INPUT", "drsg-mcp: --repo needs a DIR");
  if (repo !== undefined && names.length > 0) throw new DrsgError("BAD_INPUT", "drsg-mcp: --repo and a database name both given; name one");
  return {
    ...(names[0] !== undefined ? { db: names[0] } : {}),
    ...(repo !== undefined ? { repo } : {}),
    readOnly: v["read-only"] === true,
    help: v.help === true,
    version: v.version === true,
  };
}

const OPTIONS = {
  db: { type: "string", multiple: true },
  repo: { type: "string", multiple: true },
  "read-only": { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "V" },
} as const;

/** Where the session's answers come from: a database file, or a repository drsg init set up. */
export type Source = { kind: "file"; path: string } | { kind: "repo"; root: string; db: string };

/**
 * Which database this drsg-mcp serves (DESIGN §9): --db / a bare path, else $DRSG_DB (an empty
 * value is an error, never the working directory), else the repository's .drsg/graph.drsg, else
 * ./graph.drsg. A repository's `.drsg/` that this user's drsg did not write is refused.
 */
export async function chooseSource(args: StdioArgs, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Promise<Source> {
  if (args.db !== undefined) return { kind: "file", path: resolve(args.db) };
  const fromEnv = env.DRSG_DB;
  if (fromEnv !== undefined) {
    if (fromEnv.trim() === "") throw new DrsgError("BAD_ENV", "drsg-mcp: DRSG_DB is set but empty — set it to a database path or unset it", { variable: "DRSG_DB" });
    return { kind: "file", path: resolve(fromEnv) };
  }
  let root: string | undefined;
  if (args.repo !== undefined) {
    let dir: string;
    try {
      dir = realpathSync(resolve(args.repo));
    } catch {
      throw new DrsgError("DIR_NOT_FOUND", `drsg-mcp: no directory '${args.repo}' (--repo)`);
    }
    root = findRepoRoot(dir) ?? dir;
  } else {
    const found = findRepoRoot(cwd);
    root = found ? realpathSync(found) : undefined;
  }
  if (root) {
    await assertTrustedState(root, "drsg-mcp");
    const db = repoDb(root);
    if (db) return { kind: "repo", root, db };
    if (args.repo !== undefined)
      throw new DrsgError("DB_MISSING", `drsg-mcp: ${join(root, STATE_DIR, DB_NAME)} does not exist — run drsg init in ${root}`, { path: join(root, STATE_DIR, DB_NAME) });
  }
  return { kind: "file", path: resolve(cwd, "graph.drsg") };
}

export async function mainStdio(argv: string[]): Promise<number> {
  configureLog({ name: "drsg-mcp" });
  let args: StdioArgs;
  try {
    args = parseStdioArgs(argv);
  } catch (e) {
    process.stderr.write(`error [${(e as DrsgError).code ?? "BAD_INPUT"}]: ${(e as Error).message}\n`);
    return 2;
  }
  if (args.help) {
    process.stderr.write(`${USAGE}\n`);
    return 0;
  }
  if (args.version) {
    process.stderr.write(`drsg-mcp ${version()}\n`);
    return 0;
  }
  let source: Source;
  let mode: ServeMode;
  try {
    mode = serveMode(args.readOnly);
    source = await chooseSource(args);
  } catch (e) {
    const code = (e as DrsgError).code ?? "INTERNAL";
    process.stderr.write(`error [${code}]: ${(e as Error).message}\n`);
    return code === "BAD_ENV" ? 2 : 1;
  }
  const path = source.kind === "repo" ? source.db : source.path;
  if (source.kind === "repo" && isInitialised(source.root)) {
    const root = source.root;
    const live =
      (await liveServer(root)) ??
      (await restartRepoServer(root).catch((e: unknown) => {
        log("warn", `drsg serve watch for ${root} could not be started (${errorText(e)}) — opening ${path} in this process instead`);
        return undefined;
      }));
    if (live) {
      await relayTo(live, { reconnect: async () => (await liveServer(root)) ?? restartRepoServer(root), mode });
      return 0;
    }
  }
  return serveInProcess(path, mode);
}

/**
 * Serve `path` from this process. Loaded only here: a relayed session (the common case in an
 * initialised repository) never pays for the tools, graph and store modules at start-up.
 */
async function serveInProcess(path: string, mode: ServeMode): Promise<number> {
  const [{ StdioServerTransport }, { GraphViews }, { activeBuilds, activePlugins }, { MountManager }, { RoutedStore }, { openStore }, { TOOLS }, { buildMcpServer, toolsFor }] = await Promise.all([
    import("@modelcontextprotocol/sdk/server/stdio.js"),
    import("../graph/view.js"),
    import("../plugin/registry.js"),
    import("../server/mounts.js"),
    import("../store/routed.js"),
    import("../store/store.js"),
    import("../tools/index.js"),
    import("./server.js"),
  ]);
  let store: ReturnType<typeof openStore>;
  try {
    store = openStore(path, { maintenance: true });
  } catch (e) {
    // The code once: errorText would repeat it ("error [X]: X: ...").
    process.stderr.write(e instanceof DrsgError ? `error [${e.code}]: ${e.message}\n` : `error [INTERNAL]: ${errorText(e)}\n`);
    return 1;
  }
  const routed = new RoutedStore(store);
  const mounts = new MountManager(routed, activePlugins);
  const ctx: ToolContext = {
    store: routed,
    transport: "stdio",
    plugins: activePlugins,
    pluginBuilds: activeBuilds,
    views: new GraphViews(routed),
    extras: { mounts },
  };
  const server = buildMcpServer(ctx, toolsFor(TOOLS, mode, routed), { version: version() });
  const transport = new StdioServerTransport(guardStdin());
  const closed = new Promise<void>((res) => {
    transport.onclose = () => res();
    process.stdin.on("end", () => res());
  });
  await server.connect(transport);
  log("info", `serving ${path} over stdio`);
  await closed;
  await server.close().catch(() => undefined);
  await mounts.closeAll();
  routed.close();
  return 0;
}
