// The drsg command line: `drsg <command> [args]`. Errors print `error [CODE]: message` on
// stderr and exit 1; usage errors exit 2.
import { DrsgError, errorText } from "../model/errors.js";
import { version } from "../version.js";
import { type CliIO, parseCommandArgs } from "./command.js";
import { COMMANDS } from "./commands/index.js";
import { runToolCommand, toolCommands } from "./tools.js";

export { version };

function allCommands() {
  return [...COMMANDS, ...toolCommands()];
}

function help(): string {
  const all = allCommands();
  const w = Math.max(...all.map((c) => c.name.length));
  return [
    `drsg ${version()} — a commit-synced code graph for coding agents`,
    "",
    "usage: drsg <command> [options]   (drsg <command> --help for one command)",
    "",
    ...all.map((c) => `  ${c.name.padEnd(w)}  ${c.summary}`),
    "",
    "database: --db PATH, else $DRSG_DB, else ./graph.drsg",
  ].join("\n");
}

export async function main(argv: string[], io?: CliIO): Promise<number> {
  const out: CliIO = io ?? {
    out: (t) => process.stdout.write(`${t}\n`),
    err: (t) => process.stderr.write(`${t}\n`),
    isTTY: Boolean(process.stderr.isTTY),
  };
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    out.out(help());
    return 0;
  }
  if (name === "--version" || name === "-V") {
    out.out(version());
    return 0;
  }
  const toolCmd = toolCommands().find((c) => c.name === name);
  const cmd = COMMANDS.find((c) => c.name === name);
  if (toolCmd && !cmd) {
    try {
      if (rest.includes("--help") || rest.includes("-h")) {
        out.out(`usage: ${toolCmd.usage}\n\n${toolCmd.tool.description}`);
        return 0;
      }
      return await runToolCommand(toolCmd.tool, rest, out);
    } catch (e) {
      return reportError(e, out);
    }
  }
  if (!cmd) {
    out.err(`error [BAD_INPUT]: unknown command '${name}'\n\n${help()}`);
    return 2;
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
  if (e instanceof DrsgError) {
    out.err(`error [${e.code}]: ${e.message}`);
    return e.code === "BAD_INPUT" ? 2 : 1;
  }
  out.err(`error [INTERNAL]: ${errorText(e)}`);
  if (process.env.DRSG_DEBUG) out.err(String((e as Error).stack));
  return 1;
}
