// drsg-mcp: the MCP server over stdio. Database: --db PATH or a bare PATH, else $DRSG_DB, else
// ./graph.drsg; it must exist. stdout carries only the protocol; logs go to stderr and a file.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { resolve } from "node:path";
import { GraphViews } from "../graph/view.js";
import { configureLog, log } from "../log.js";
import { DrsgError, errorText } from "../model/errors.js";
import { activePlugins } from "../plugin/registry.js";
import { MountManager } from "../server/mounts.js";
import { RoutedStore } from "../store/routed.js";
import { openStore } from "../store/store.js";
import { TOOLS } from "../tools/index.js";
import type { ToolContext } from "../tools/tool.js";
import { version } from "../version.js";
import { relayIfConfigured } from "./relay.js";
import { buildMcpServer } from "./server.js";
import { guardStdin } from "./stdio-guard.js";

export const USAGE = `usage: drsg-mcp [--db PATH | PATH]
  Serves a drsg database to an MCP host over stdio.
  Database: --db PATH or a bare PATH, else $DRSG_DB, else ./graph.drsg (it must exist:
  build one with drsg digest <dir> --apply --db <path>, or run drsg init in a repository).
  With no database named, a drsg server named in the repository's .mcp.json is relayed to.
  -h, --help     this text
  -V, --version  the version`;

export interface StdioArgs {
  db?: string;
  help: boolean;
  version: boolean;
}

/** Parse drsg-mcp's arguments: an unknown option or two database names is BAD_INPUT. */
export function parseStdioArgs(argv: string[]): StdioArgs {
  const out: StdioArgs = { help: false, version: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "-h" || a === "--help") out.help = true;
    else if (a === "-V" || a === "--version") out.version = true;
    else if (a === "--db" || a.startsWith("--db=")) {
      const v = a === "--db" ? argv[++i] : a.slice(5);
      if (!v) throw new DrsgError("BAD_INPUT", "drsg-mcp: --db needs a PATH");
      if (out.db !== undefined) throw new DrsgError("BAD_INPUT", `drsg-mcp: two databases named (${out.db}, ${v}); name one`);
      out.db = v;
    } else if (a.startsWith("-")) throw new DrsgError("BAD_INPUT", `drsg-mcp: unknown option ${a}\n${USAGE}`);
    else {
      if (out.db !== undefined) throw new DrsgError("BAD_INPUT", `drsg-mcp: two databases named (${out.db}, ${a}); name one`);
      out.db = a;
    }
  }
  return out;
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
  const named = args.db ?? process.env.DRSG_DB;
  if (named === undefined && (await relayIfConfigured())) return 0;
  const path = resolve(named ?? "graph.drsg");
  let store: ReturnType<typeof openStore>;
  try {
    store = openStore(path);
  } catch (e) {
    process.stderr.write(`error [${(e as DrsgError).code ?? "INTERNAL"}]: ${errorText(e)}\n`);
    return 1;
  }
  const routed = new RoutedStore(store);
  const mounts = new MountManager(routed, activePlugins);
  const ctx: ToolContext = {
    store: routed,
    transport: "stdio",
    plugins: activePlugins,
    views: new GraphViews(routed),
    extras: { mounts },
  };
  const server = buildMcpServer(ctx, TOOLS, { version: version() });
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
