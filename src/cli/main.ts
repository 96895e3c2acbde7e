// The drsg command line: `drsg <command> [args]`. Errors print `error [CODE]: message` once on
// stderr; the exit code says what kind of failure it was (EXIT in command.ts).
import { DrsgError } from "../model/errors.js";
import { version } from "../version.js";
import { type CliIO, EXIT, exitCodeOf, parseCommandArgs, printError } from "./command.js";
import { loadCommand } from "./commands/load.js";
import { COMMAND_NAMES } from "./commands/names.js";

export { version };

// Commands and verbs are loaded when asked for: a cold `drsg impact` reads no server, init or
// MCP SDK code, and a command reads no tool module.
const commands = async () => (await import("./commands/index.js")).COMMANDS;
const verbs = () => import("./tools.js");

async function help(): Promise<string> {
  const { EXIT_LINE, JSON_SHAPE, toolCommands } = await verbs();
  const all = [...(await commands()), ...(await toolCommands())];
  const w = Math.max(...all.map((c) => c.name.length));
  return [
    `drsg ${version()} — a commit-synced code graph for coding agents`,
    "",
    "usage: drsg <command> [options]   (drsg <command> --help for one command)",
    "",
    ...all.map((c) => `  ${c.name.padEnd(w)}  ${c.summary}`),
    "",
    "database: --db PATH, else $DRSG_DB (set but empty is an error), else the repository's",
    "  .drsg/graph.drsg (found walking up from here, as git finds .git), else ./graph.drsg.",
    "  When the live server drsg init started holds it, commands go to that server and print",
    "  the same answer; otherwise they open the file themselves.",
    "plane: --plane NAME, else $DRSG_PLANE, else the database's only code plane.",
    `--json (every verb): ${JSON_SHAPE}`,
    EXIT_LINE,
  ].join("\n");
}

/**
 * The process's own stdout and stderr. A reader that goes away (`drsg export | head -1`) ends
 * the output quietly: EPIPE is not an error of ours, so no stack, and commands stop producing.
 */
function processIO(): CliIO {
  let gone = false;
  const quiet = (e: NodeJS.ErrnoException) => {
    if (e.code !== "EPIPE") throw e;
    gone = true;
  };
  process.stdout.on("error", quiet);
  process.stderr.on("error", () => undefined);
  const closed = () => gone || process.stdout.destroyed;
  return {
    out: (t) => {
      if (!closed()) process.stdout.write(`${t}\n`);
    },
    err: (t) => {
      if (!process.stderr.destroyed) process.stderr.write(`${t}\n`);
    },
    isTTY: Boolean(process.stderr.isTTY),
    closed,
  };
}

export async function main(argv: string[], io?: CliIO): Promise<number> {
  const out: CliIO = io ?? processIO();
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    out.out(await help());
    return 0;
  }
  if (name === "--version" || name === "-V") {
    out.out(version());
    return 0;
  }
  const cmd = COMMAND_NAMES.includes(name) ? await loadCommand(name) : undefined;
  if (!cmd) {
    const { runToolCommand, toolCommand } = await verbs();
    const toolCmd = await toolCommand(name);
    if (toolCmd) return runToolCommand(toolCmd.tool, rest, out);
    out.err(`error [BAD_INPUT]: unknown command '${name}'\n\n${await help()}`);
    return EXIT.usage;
  }
  try {
    const args = parseCommandArgs(cmd, rest);
    if (args.values.help === true) {
      out.out(`usage: ${cmd.usage}\n\n${cmd.summary}`);
      return 0;
    }
    return await cmd.run(args, out);
  } catch (e) {
    return reportError(e, out);
  }
}

function reportError(e: unknown, out: CliIO): number {
  printError(e, out);
  return e instanceof DrsgError ? exitCodeOf(e.code) : EXIT.error;
}
