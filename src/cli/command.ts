// The CLI's command shape: parsing (node's util.parseArgs) is separate from the action.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { DrsgError, type ErrorCode, errorText } from "../model/errors.js";

export type OptionSpec = NonNullable<ParseArgsConfig["options"]>;

export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  isTTY: boolean;
  /** True once stdout is gone (`drsg export | head`): stop producing output. */
  closed?(): boolean;
}

/** The exit codes (documented in `drsg --help` and the README). */
export const EXIT = { ok: 0, error: 1, usage: 2, notFound: 3, ambiguous: 4 } as const;

/** The exit code of a typed error: usage, not found (a symbol or node), ambiguous, else error. */
export function exitCodeOf(code: ErrorCode): number {
  if (code === "BAD_INPUT") return EXIT.usage;
  if (code === "NAME_NOT_FOUND" || code === "NODE_NOT_FOUND") return EXIT.notFound;
  if (code === "AMBIGUOUS_NAME") return EXIT.ambiguous;
  return EXIT.error;
}

/** A message without the code it would repeat (`CODE: ...`, `tool failed [CODE]: ...`). */
export function bareMessage(code: string, message: string): string {
  const m = new RegExp(`^(?:[a-z_]+ failed )?\\[${code}\\]:\\s*|^${code}:\\s*`).exec(message);
  return m ? message.slice(m[0].length) : message;
}

/** Print an error once: `error [CODE]: message` on stderr. */
export function printError(e: unknown, io: CliIO): void {
  if (e instanceof DrsgError) io.err(`error [${e.code}]: ${bareMessage(e.code, e.message)}`);
  else {
    io.err(`error [INTERNAL]: ${errorText(e)}`);
    if (process.env.DRSG_DEBUG) io.err(String((e as Error)?.stack));
  }
}

export interface Parsed {
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  positionals: string[];
}

export interface Command {
  name: string;
  /** One line for the command list. */
  summary: string;
  usage: string;
  options: OptionSpec;
  run(args: Parsed, io: CliIO): Promise<number>;
}

/** Parse a command's arguments strictly: an unknown option is BAD_INPUT naming it. */
export function parseCommandArgs(cmd: Command, argv: string[]): Parsed {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { help: { type: "boolean", short: "h" }, ...cmd.options },
      allowPositionals: true,
      strict: true,
    });
    return { values: values as Parsed["values"], positionals };
  } catch (e) {
    throw new DrsgError("BAD_INPUT", `drsg ${cmd.name}: ${(e as Error).message}\nusage: ${cmd.usage}`);
  }
}

export function str(p: Parsed, name: string): string | undefined {
  const v = p.values[name];
  return typeof v === "string" ? v : undefined;
}

export function flag(p: Parsed, name: string): boolean {
  return p.values[name] === true;
}

/** An integer option within bounds, else BAD_INPUT naming the flag. */
export function int(p: Parsed, name: string, dflt: number, min: number, max: number): number {
  const v = str(p, name);
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new DrsgError("BAD_INPUT", `--${name} takes a whole number from ${min} to ${max}, got '${v}'`);
  return n;
}
