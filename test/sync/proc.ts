// Real child processes for the sync tests: `drsg` itself (bin/drsg.js) or a test child, with
// stderr/stdout read line by line and waits that fail with what was printed.
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../../src/paths.js";

export const DRSG = join(PACKAGE_ROOT, "bin", "drsg.js");

export interface Proc {
  proc: ChildProcess;
  lines: string[];
  /** The first line (stdout or stderr, from `from` on) matching `re`; rejects on exit or after `limitMs`. */
  waitFor(re: RegExp, limitMs?: number, from?: number): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function run(args: string[], env: NodeJS.ProcessEnv = {}): Proc {
  const proc = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  let ended = false;
  const feed = (stream: NodeJS.ReadableStream) => {
    let buf = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      buf += chunk;
      const parts = buf.split("\n");
      buf = parts.pop()!;
      lines.push(...parts);
      for (const w of [...waiters]) w();
    });
  };
  feed(proc.stdout!);
  feed(proc.stderr!);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    proc.on("close", (code, signal) => {
      ended = true;
      for (const w of [...waiters]) w();
      resolve({ code, signal });
    });
  });
  const waitFor = (re: RegExp, limitMs = 120_000, from = 0) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no line matching ${re} within ${limitMs} ms; printed:\n${lines.join("\n")}`));
      }, limitMs);
      const check = () => {
        const hit = lines.slice(from).find((l) => re.test(l));
        if (hit !== undefined) {
          clearTimeout(timer);
          waiters.delete(check);
          resolve(hit);
        } else if (ended) {
          clearTimeout(timer);
          waiters.delete(check);
          reject(new Error(`exited before printing ${re}; printed:\n${lines.join("\n")}`));
        }
      };
      waiters.add(check);
      check();
    });
  return { proc, lines, waitFor, exited };
}
