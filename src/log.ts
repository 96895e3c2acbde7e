// Logging: one line per event to stderr and to a daily-rolling file under $DRSG_LOG_DIR
// (default <data dir>/logs). Never stdout: that belongs to the protocol.
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { dataDir } from "./paths.js";

export type Level = "info" | "warn" | "error" | "debug";

let dir: string | undefined;
let name = "drsg";
let quiet = false;

export function configureLog(opts: { name?: string; dir?: string; quiet?: boolean }): void {
  if (opts.name) name = opts.name;
  if (opts.dir) dir = opts.dir;
  if (opts.quiet !== undefined) quiet = opts.quiet;
}

export function logDir(): string {
  return dir ?? process.env.DRSG_LOG_DIR ?? join(dataDir(), "logs");
}

export function log(level: Level, msg: string): void {
  if (level === "debug" && !process.env.DRSG_DEBUG) return;
  const now = new Date();
  const line = `${now.toISOString()} ${level.padEnd(5)} ${name}[${process.pid}] ${msg}\n`;
  if (!quiet) process.stderr.write(line);
  try {
    const d = logDir();
    mkdirSync(d, { recursive: true });
    appendFileSync(join(d, `${name}.${now.toISOString().slice(0, 10)}.log`), line);
  } catch {
    // A log file that cannot be written must not take the server down.
  }
}
