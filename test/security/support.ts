// Shared by the security tests: a strong token, a digested fixture database, `drsg serve` as a
// real process on loopback, raw HTTP requests (so a test can set Host and Origin, which fetch
// forbids), an MCP client over Streamable HTTP, and a loopback listener that records every
// request it receives — the attacker's server, or the one an agent should never reach.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { type IncomingHttpHeaders, type Server, createServer, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { PACKAGE_ROOT } from "../../src/paths.js";
import { activePlugins } from "../../src/plugin/registry.js";
import { openStore } from "../../src/store/store.js";
import { digest } from "../../src/sync/digest.js";
import { makeRepo } from "../git/fixture.js";

export const DRSG = join(PACKAGE_ROOT, "bin", "drsg.js");
export const strongToken = (): string => randomBytes(32).toString("base64url");

export const FILES = {
  "package.json": JSON.stringify({ name: "svc" }),
  "src/a.ts": "/** doc a */\nexport function a(x: number) { return b(); }\nexport function b() { return 1; }\n",
};

/** A repository and a database digested from it (plane `svc`). */
export async function fixtureDb(files: Record<string, string> = FILES): Promise<{ db: string; repo: string }> {
  const repo = mkdtempSync(join(tmpdir(), "drsg-sec-repo-"));
  makeRepo(repo, [{ files, message: "init" }]);
  const db = join(mkdtempSync(join(tmpdir(), "drsg-sec-db-")), "g.drsg");
  const store = openStore(db, { create: true });
  await digest({ dir: repo, plugins: activePlugins(), store, plane: "svc" });
  store.close();
  return { db, repo };
}

export interface Served {
  child: ChildProcess;
  url: string;
  origin: string;
  port: number;
  stderr: () => string;
  stop(): Promise<void>;
}

/** Start `drsg serve <args>` on a free loopback port; resolves once it prints its URL. */
export function serve(args: string[], env: NodeJS.ProcessEnv): Promise<Served> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DRSG, "serve", ...args, "--addr", "127.0.0.1:0"], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let err = "";
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 60_000);
    child.stderr!.on("data", (d: Buffer) => {
      err += d.toString();
      const m = /drsg serve: (http:\/\/[^\s]+\/mcp)/.exec(err);
      if (m) {
        clearTimeout(timer);
        const url = m[1]!;
        resolve({
          child,
          url,
          origin: new URL(url).origin,
          port: Number(new URL(url).port),
          stderr: () => err,
          stop: () =>
            new Promise<void>((r) => {
              if (child.exitCode !== null) return r();
              child.once("exit", () => r());
              child.kill("SIGTERM");
            }),
        });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited ${code}: ${err}`));
    });
  });
}

export interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** One HTTP/1.1 request with exactly these headers (Host and Origin included). */
export function raw(origin: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  const u = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method, headers: { ...(body !== undefined ? { "content-length": String(Buffer.byteLength(body)) } : {}), ...headers } }, (r) => {
      let text = "";
      r.on("data", (d: Buffer) => {
        text += d.toString();
      });
      r.on("end", () => resolve({ status: r.statusCode ?? 0, headers: r.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** The SDK's real MCP client over Streamable HTTP with the bearer token. */
export async function mcpClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: "drsg-sec-test", version: "0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

/** A tool call's text and error flag. */
export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const r = await client.callTool({ name, arguments: args });
  const content = r.content as { type: string; text?: string }[];
  return { text: content.map((c) => c.text ?? "").join("\n"), isError: r.isError === true };
}

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A loopback listener answering like a drsg (/health, /rpc) and recording every request. */
export async function recorder(): Promise<{ server: Server; origin: string; seen: Recorded[]; close(): Promise<void> }> {
  const seen: Recorded[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => {
      body += d.toString();
    });
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      res.writeHead(200, { "content-type": "application/json" });
      if (req.url === "/health") res.end(JSON.stringify({ status: "ok", pid: 4242 }));
      else res.end(JSON.stringify({ jsonrpc: "2.0", id: 1, result: { text: "[]" } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const a = server.address() as { port: number };
  return {
    server,
    origin: `http://127.0.0.1:${a.port}`,
    seen,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
