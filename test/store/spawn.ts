// Spawning test/store/child.ts as a real second process and reading its stdout lines.

import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const CHILD = fileURLToPath(new URL("./child.js", import.meta.url));

export interface Child {
  proc: ChildProcess;
  /** Resolves with the first stdout line starting with `prefix`; rejects if the child exits first. */
  line(prefix: string): Promise<string>;
  /** Resolves with the exit code and signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnChild(mode: "hold" | "bulk", file: string): Child {
  const proc = spawn(process.execPath, [CHILD, mode, file], { stdio: ["pipe", "pipe", "inherit"] });
  const lines: string[] = [];
  const waiters: { prefix: string; resolve: (l: string) => void; reject: (e: Error) => void }[] = [];
  let buf = "";
  let ended = false;
  const settle = (): void => {
    for (const w of [...waiters]) {
      const hit = lines.find((l) => l.startsWith(w.prefix));
      if (hit !== undefined) w.resolve(hit);
      else if (ended) w.reject(new Error(`child exited before printing "${w.prefix}" (printed: ${JSON.stringify(lines)})`));
      else continue;
      waiters.splice(waiters.indexOf(w), 1);
    }
  };
  proc.stdout!.setEncoding("utf8");
  proc.stdout!.on("data", (chunk: string) => {
    buf += chunk;
    const parts = buf.split("\n");
    buf = parts.pop()!;
    lines.push(...parts);
    settle();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    proc.on("close", (code, signal) => {
      ended = true;
      settle();
      resolve({ code, signal });
    });
  });
  return {
    proc,
    exited,
    line: (prefix) =>
      new Promise((resolve, reject) => {
        waiters.push({ prefix, resolve, reject });
        settle();
      }),
  };
}
