// Talking to a running drsg server from outside: probing /health, and reading the endpoint an
// agent config (.mcp.json) names — shared by `drsg init` and the drsg-mcp relay.
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";

export interface Health {
  status: string;
  pid?: number;
}

/** GET <origin>/health within `timeoutMs`; undefined when nothing healthy answers. */
export async function probeHealth(url: string, timeoutMs = 2000): Promise<Health | undefined> {
  try {
    const origin = new URL(url).origin;
    const r = await fetch(`${origin}/health`, { signal: AbortSignal.timeout(timeoutMs) });
    if (r.status !== 200) return undefined;
    const body = (await r.json()) as Health;
    return body && body.status === "ok" ? body : undefined;
  } catch {
    return undefined;
  }
}

export interface McpEntry {
  name: string;
  url: string;
  /** The Authorization header value as written (may reference ${DRSG_TOKEN}). */
  authorization?: string;
  file: string;
}

/** Expand `${DRSG_TOKEN}` / `$DRSG_TOKEN` / `${env:DRSG_TOKEN}` references from the environment. */
export function expandEnv(value: string, env: NodeJS.ProcessEnv = process.env): string {
  return value.replace(/\$\{(?:env:)?([A-Z0-9_]+)\}|\$([A-Z0-9_]+)/g, (_, a: string | undefined, b: string | undefined) => env[a ?? b ?? ""] ?? "");
}

/** The drsg entry of an .mcp.json: `drsg`, else any entry whose name contains "drsg", with a url. */
export function readMcpEntry(file: string): McpEntry | undefined {
  let doc: { mcpServers?: Record<string, { url?: unknown; headers?: Record<string, unknown> }> };
  try {
    doc = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
  const servers = doc.mcpServers ?? {};
  const names = Object.keys(servers);
  const name = names.includes("drsg") ? "drsg" : names.find((n) => n.includes("drsg"));
  if (!name) return undefined;
  const e = servers[name]!;
  if (typeof e.url !== "string") return undefined;
  const auth = e.headers?.Authorization ?? e.headers?.authorization;
  return { name, url: e.url, authorization: typeof auth === "string" ? auth : undefined, file };
}

/** Is this file safe to trust: owned by us and not writable by everyone? */
export function trustworthy(file: string): boolean {
  try {
    const st = statSync(file);
    if (typeof process.getuid === "function" && st.uid !== process.getuid()) return false;
    return (st.mode & 0o002) === 0;
  } catch {
    return false;
  }
}

/** Walk up from `start` to the repository root (the first directory holding .git) for a trustworthy .mcp.json. */
export function findMcpJson(start: string): string | undefined {
  let dir = start;
  for (;;) {
    const f = join(dir, ".mcp.json");
    if (existsSync(f) && trustworthy(f)) return f;
    if (existsSync(join(dir, ".git"))) return undefined;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}
