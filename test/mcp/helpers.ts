// Spawning the real drsg-mcp for contract tests: a temp working directory outside any repository
// (so no .mcp.json relay applies), logs in a temp $DRSG_LOG_DIR, and either the MCP SDK's real
// Client over stdio or a plain child process whose stdout and stderr are kept whole.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { PACKAGE_ROOT } from "../../src/paths.js";
import { openStore } from "../../src/store/store.js";

export const BIN = join(PACKAGE_ROOT, "bin", "drsg-mcp.js");

export interface Sandbox {
  /** An empty working directory outside any repository. */
  cwd: string;
  logDir: string;
  home: string;
  env: Record<string, string>;
  cleanup(): void;
}

/** A temp cwd, log dir and DRSG_HOME; DRSG_DB is never inherited. */
export function sandbox(): Sandbox {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "drsg-mcp-")));
  const cwd = join(base, "cwd");
  const logDir = join(base, "logs");
  const home = join(base, "home");
  mkdirSync(cwd);
  mkdirSync(home);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== "DRSG_DB") env[k] = v;
  env.DRSG_HOME = home;
  env.DRSG_LOG_DIR = logDir;
  return { cwd, logDir, home, env, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

/** A small database at `file`: plane `p` (rooted at `root` when given) with two functions; closed again. */
export function smallDb(file: string, root?: string): void {
  const store = openStore(file, { create: true });
  try {
    store.write((w) => {
      w.createPlane("p", root ? { synced_root: root } : {});
      w.createNode("p", { key: "app/main.run", labels: ["Function"], props: { file: "main.ts", line: 1, end_line: 3 } });
      w.createNode("p", { key: "app/main.stop", labels: ["Function"], props: { file: "main.ts", line: 5, end_line: 7 } });
    });
  } finally {
    store.close();
  }
}

export interface Session {
  client: Client;
  transport: StdioClientTransport;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  call(tool: string, args: unknown): Promise<{ text: string; isError: boolean }>;
  close(): Promise<void>;
}

/** Spawn drsg-mcp with `args` in the sandbox and connect the SDK's Client. */
export async function connect(sb: Sandbox, args: string[], env: Record<string, string> = {}): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, ...args],
    cwd: sb.cwd,
    env: { ...sb.env, ...env },
    stderr: "pipe",
  });
  let err = "";
  transport.stderr?.on("data", (d: Buffer) => {
    err += d.toString("utf8");
  });
  const client = new Client({ name: "drsg-contract-test", version: "0" });
  await client.connect(transport);
  return {
    client,
    transport,
    stderr: () => err,
    async call(tool, args) {
      const r = await client.callTool({ name: tool, arguments: args as Record<string, unknown> });
      const content = r.content as { type: string; text?: string }[];
      return { text: content.map((c) => c.text ?? "").join("\n"), isError: r.isError === true };
    },
    close: () => client.close(),
  };
}

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Run drsg-mcp to completion with stdin closed at once. */
export function runMcp(sb: Sandbox, args: string[], env: Record<string, string> = {}): Ran {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: sb.cwd, env: { ...sb.env, ...env }, input: "", encoding: "utf8", timeout: 30_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * A raw session: write JSON-RPC lines to drsg-mcp's stdin, end it, and collect the whole of
 * stdout and stderr once the process exits.
 */
export function rawSession(sb: Sandbox, args: string[], messages: unknown[], waitForIds: (number | string)[]): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: sb.cwd, env: sb.env, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    const pending = new Set(waitForIds.map(String));
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`raw session timed out; stdout so far:\n${out}\nstderr:\n${err}`));
    }, 30_000);
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString("utf8");
      for (const line of out.split("\n")) {
        try {
          const m = JSON.parse(line) as { id?: number | string };
          if (m.id !== undefined) pending.delete(String(m.id));
        } catch {
          // a partial line, or not JSON (the test judges that)
        }
      }
      if (pending.size === 0) child.stdin.end();
    });
    child.stderr.on("data", (d: Buffer) => {
      err += d.toString("utf8");
    });
    child.on("error", reject);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout: out, stderr: err });
    });
    for (const m of messages) child.stdin.write(`${typeof m === "string" ? m : JSON.stringify(m)}\n`);
    if (pending.size === 0) child.stdin.end();
  });
}
