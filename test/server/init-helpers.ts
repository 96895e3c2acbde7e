// Shared by the init tests: a sandboxed environment (own HOME, DRSG_HOME, no inherited DRSG_*),
// the real `drsg init` / `drsg status` run as child processes, the SDK's Client over the stdio
// entry init wrote, and the cleanup of every serve watch a test started.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { PACKAGE_ROOT } from "../../src/paths.js";

export const DRSG = join(PACKAGE_ROOT, "bin", "drsg.js");
export const DRSG_MCP = join(PACKAGE_ROOT, "bin", "drsg-mcp.js");

/** Every sandbox made: a serve watch of a repository under one is the tests' own (killServers). */
const bases = new Set<string>();

export interface Env {
  base: string;
  home: string;
  env: Record<string, string>;
}

/** A temp base holding HOME and DRSG_HOME; the environment drops every DRSG_* variable. */
export function sandboxEnv(extra: Record<string, string> = {}): Env {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "drsg-init-")));
  bases.add(base);
  const home = join(base, "home");
  mkdirSync(home);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("DRSG_")) env[k] = v;
  Object.assign(env, { HOME: home, DRSG_HOME: join(base, "drsg-home"), DRSG_LOG_DIR: join(base, "logs"), ...extra });
  return { base, home, env };
}

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

const started = new Set<number>();

/** Run `drsg <args>` in `cwd`; remembers the server a run started, for killServers. */
export function drsg(cwd: string, args: string[], env: Env, extraEnv: Record<string, string> = {}): Ran {
  const r = spawnSync(process.execPath, [DRSG, ...args], { cwd, env: { ...env.env, ...extraEnv }, encoding: "utf8", timeout: 120_000 });
  for (const m of `${r.stdout}`.matchAll(/serve watch pid (\d+)/g)) started.add(Number(m[1]));
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The server record init wrote. */
export function record(repo: string): { addr: string; token: string; pid: number; plane: string } {
  return JSON.parse(readFileSync(join(repo, ".drsg", "server.json"), "utf8"));
}

export function remember(pid: number): void {
  started.add(pid);
}

/** The hosts' server processes (drsg-mcp) the tests started, closed or not. */
const hosts = new Set<number>();

/**
 * SIGKILL every server and every host child the tests started: a test that failed before its
 * close() must not leave a process that keeps the test file (and CI) running.
 */
export function killServers(): void {
  const underSandbox = (dir: string) => [...bases].some((b) => dir.startsWith(`${b}/`));
  for (const p of [...hosts, ...started, ...serveProcesses(underSandbox)]) {
    try {
      process.kill(p, "SIGKILL");
    } catch {
      // gone
    }
  }
}

/** Live `drsg serve … --dir D` processes whose D `dirMatches` (a serve watch of that repository). */
export function serveProcesses(dirMatches: (dir: string) => boolean): number[] {
  const out: number[] = [];
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((p) => /^\d+$/.test(p));
  } catch {
    return out;
  }
  for (const p of pids) {
    try {
      const argv = readFileSync(`/proc/${p}/cmdline`, "utf8").split("\0");
      const at = argv.indexOf("--dir");
      if (argv.includes("serve") && at >= 0 && argv[at + 1] !== undefined && dirMatches(argv[at + 1]!)) out.push(Number(p));
    } catch {
      // gone
    }
  }
  return out;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export interface Host {
  client: Client;
  stderr(): string;
  pid: number | null;
  close(): Promise<void>;
}

/** Start `command args` the way a host starts an MCP server (cwd, environment) and connect the SDK's Client. */
export async function host(command: string, args: string[], cwd: string, env: Env, extraEnv: Record<string, string> = {}): Promise<Host> {
  const transport = new StdioClientTransport({ command, args, cwd, env: { ...env.env, ...extraEnv }, stderr: "pipe" });
  let err = "";
  transport.stderr?.on("data", (d: Buffer) => {
    err += d.toString("utf8");
  });
  const client = new Client({ name: "drsg-init-test", version: "0" });
  try {
    await client.connect(transport);
  } finally {
    if (transport.pid) hosts.add(transport.pid);
  }
  return { client, stderr: () => err, pid: transport.pid, close: () => client.close() };
}

/** The text of one tool call. */
export async function text(c: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const r = await c.callTool({ name, arguments: args });
  return (r.content as { text: string }[]).map((x) => x.text).join("\n");
}

/** `text` on a host's client; a failure carries what the host's server wrote to stderr. */
export async function ask(h: Host, name: string, args: Record<string, unknown>): Promise<string> {
  try {
    return await text(h.client, name, args);
  } catch (e) {
    throw new Error(`${name}: ${String(e)}\n--- drsg-mcp stderr (pid ${h.pid}) ---\n${h.stderr().slice(-4000)}`);
  }
}

export async function until(cond: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return cond();
}

/** The file's mode bits. */
export function mode(statMode: number): string {
  return (statMode & 0o777).toString(8);
}
