// drsg serve: Streamable HTTP MCP on /mcp (one session per client, all sharing one open
// database; POST and DELETE — GET is 405, drsg sends no server-initiated messages), JSON-RPC 2.0
// on /rpc, GET /health. Bearer token (constant-time compare), Host
// allow-list, body cap, session reaping, and one process-wide tool gate with a deadline.
import { hash, randomUUID, timingSafeEqual } from "node:crypto";
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import { isIP } from "node:net";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { isJsonContentType } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import { SUPPORTED_PROTOCOL_VERSIONS, isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { DrsgError } from "../model/errors.js";
import { attachAllowList } from "../tools/outbound.js";
import { log } from "../log.js";
import { envelopeFault, envelopeReplies, readableId } from "../mcp/envelope.js";
import { buildMcpServer, callResult, readTools, runTool, type ToolAnswer } from "../mcp/server.js";
import { type Tool, type ToolContext, servedOver } from "../tools/tool.js";
import { version } from "../version.js";
import type { PluginSet } from "../plugin/host.js";
import type { RoutedStore } from "../store/routed.js";
import { AnswerCache, type AnswerStats } from "./answers.js";
import { Dashboard } from "./dashboard.js";
import { Gate } from "./gate.js";

export interface ServeOptions {
  ctx: ToolContext;
  tools: Tool[];
  host: string;
  port: number;
  token?: string;
  /** Extra Host values allowed with a token (host or host:port). */
  allowedHosts?: string[];
  idleMs?: number;
  initMs?: number;
  maxTools?: number;
  deadlineSecs?: number;
  bodyLimit?: number;
  /** Deadline for a request's headers, ms (default 20 s; DRSG_HEADERS_TIMEOUT_MS). */
  headersTimeoutMs?: number;
  /** Deadline for a request's body once its headers are in, ms (default 60 s; DRSG_BODY_TIMEOUT_MS). */
  bodyTimeoutMs?: number;
  /** Keep answers of pure read verbs per database state (default on; DRSG_ANSWER_CACHE=0 turns it off). */
  answerCache?: boolean;
  /** Answer plain tools/call requests without the SDK transport's per-request machinery (default on; DRSG_MCP_FAST_PATH=0 turns it off). */
  fastPath?: boolean;
}

export interface RunningServer {
  server: Server;
  host: string;
  port: number;
  url: string;
  sessions(): number;
  /** The answer cache's counters (undefined when it is off). */
  answerStats(): AnswerStats | undefined;
  /** tools/call requests the fast path answered. */
  fastCalls(): number;
  close(): Promise<void>;
}

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);

/** How long an idle keep-alive socket is kept (server.keepAliveTimeout; see where it is set). */
export const KEEP_ALIVE_MS = 65_000;

export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** Parse `host:port` / `[v6]:port` / `port`. */
export function parseAddr(addr: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]*))(?::(\d+))?$/.exec(addr.trim());
  const onlyPort = /^\d+$/.test(addr.trim());
  if (onlyPort) return { host: "127.0.0.1", port: Number(addr) };
  if (!m) throw new DrsgError("BAD_INPUT", `--addr '${addr}' is not host:port`);
  const host = m[1] ?? m[2] ?? "127.0.0.1";
  const port = m[3] === undefined ? 7700 : Number(m[3]);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new DrsgError("BAD_INPUT", `--addr '${addr}': bad port`);
  return { host: host || "127.0.0.1", port };
}

function sha(s: string): Buffer {
  return hash("sha256", s, "buffer");
}

/** Constant-time comparison of a presented bearer with the token (or the token's SHA-256). */
export function tokenMatches(header: string | undefined, token: string | Buffer): boolean {
  if (!header) return false;
  const m = /^Bearer\s+(.+)$/i.exec(header.trim());
  if (!m) return false;
  return timingSafeEqual(sha(m[1]!), typeof token === "string" ? sha(token) : token);
}

/** How to make a token drsg accepts, said in every refusal of a weak one. */
export const TOKEN_HOWTO = "make one with `openssl rand -base64 32` (or node -e \"console.log(require('crypto').randomBytes(32).toString('base64url'))\")";

/**
 * Why `token` is too weak to guard a server, or undefined when it is strong enough: at least
 * 32 random bytes' worth — the length times the bits of the alphabet it draws from (hex 4,
 * alphanumerics ~5.95, base64 6) must reach 250 bits, with at least 16 distinct characters (8 for
 * hex) so a long run of one letter does not pass.
 */
export function weakToken(token: string): string | undefined {
  const t = token.trim();
  if (t.length < 43) return `DRSG_TOKEN is ${t.length} characters; at least 43 (32 random bytes, base64) are needed`;
  let alphabet = 0;
  if (/^[0-9a-fA-F]+$/.test(t)) alphabet = 16;
  // base64 / base64url (what `openssl rand -base64 32` and randomBytes(32) give): 6 bits a
  // character. Judging by the classes present would call a random token weak whenever it
  // happens to hold no digit (about 1 in 1,400 of them).
  else if (/^[A-Za-z0-9+/_-]+=*$/.test(t) && /[A-Z]/.test(t) && /[a-z]/.test(t)) alphabet = 64;
  else {
    if (/[a-z]/.test(t)) alphabet += 26;
    if (/[A-Z]/.test(t)) alphabet += 26;
    if (/[0-9]/.test(t)) alphabet += 10;
    if (/[^A-Za-z0-9]/.test(t)) alphabet += 4;
  }
  const bits = t.length * Math.log2(Math.max(alphabet, 2));
  if (bits < 250) return `DRSG_TOKEN carries about ${Math.floor(bits)} bits; 256 (32 random bytes) are needed`;
  if (new Set(t).size < Math.min(16, alphabet / 2)) return `DRSG_TOKEN repeats too few characters (${new Set(t).size} distinct) to be random`;
  return undefined;
}

/**
 * What `drsg serve` checks before anything else (before the first sync of `serve watch`): a
 * non-loopback bind needs a token, and a token must be strong.
 */
export function checkServeConfig(host: string, token: string | undefined): void {
  if (!isLoopback(host) && !token)
    throw new DrsgError("FORBIDDEN", `serve: refusing to bind ${host} (not loopback) without a token — set DRSG_TOKEN (${TOKEN_HOWTO}) or bind 127.0.0.1`);
  const weak = token === undefined ? undefined : weakToken(token);
  if (weak) throw new DrsgError("BAD_ENV", `serve: ${weak} — ${TOKEN_HOWTO}`, { variable: "DRSG_TOKEN" });
}

/** Host / Origin allow-list: exact `name:port` values, and names allowed on any port. */
export interface HostPolicy {
  exact: Set<string>;
  anyPort: Set<string>;
}

/** Split a Host header value (or an Origin's host) into name and port; undefined when malformed. */
function splitHost(h: string): { name: string; port?: string } | undefined {
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]]*)(?::(\d{1,5}))?$/.exec(h);
  if (!m) return undefined;
  return { name: m[1]!, ...(m[2] !== undefined ? { port: m[2] } : {}) };
}

export function hostAllowed(policy: HostPolicy, host: string): boolean {
  const h = host.trim().toLowerCase();
  if (policy.exact.has(h)) return true;
  const parts = splitHost(h);
  return parts !== undefined && policy.anyPort.has(parts.name);
}

/**
 * A browser's Origin: none (a non-browser client) is allowed; else it must be http(s) on a host
 * the Host check allows — the server's own origin — so a page elsewhere cannot drive it even
 * when it holds (or guesses) the token.
 */
export function originAllowed(policy: HostPolicy, origin: string | undefined): boolean {
  if (origin === undefined) return true;
  let u: URL;
  try {
    u = new URL(origin);
  } catch {
    return false;
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return false;
  // The effective port, spelt out: a page on http://localhost (port 80) is not this server on 7700.
  const port = u.port || (u.protocol === "https:" ? "443" : "80");
  return policy.exact.has(`${u.hostname}:${port}`) || policy.anyPort.has(u.hostname);
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, {
    "content-type": typeof body === "string" ? "text/plain; charset=utf-8" : "application/json",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    ...headers,
  });
  res.end(text);
}

/** Reading a body failed: too big (413) or too slow (408). */
class BodyError extends Error {
  constructor(
    readonly status: 408 | 413,
    message: string,
  ) {
    super(message);
  }
}

function readBody(req: IncomingMessage, limit: number, timeoutMs: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > limit) return Promise.reject(new BodyError(413, `request body of ${declared} bytes is over the ${limit}-byte limit`));
  // Plain events, not an async iterator: the iterator's machinery cost more than the read.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // A body trickled a byte at a time would hold a socket (and a session slot) forever.
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            req.off("data", onData);
            reject(new BodyError(408, `request body not received within ${timeoutMs} ms`));
          }, timeoutMs)
        : undefined;
    timer?.unref();
    const onData = (b: Buffer) => {
      size += b.length;
      if (size > limit) {
        clearTimeout(timer);
        req.off("data", onData);
        reject(new BodyError(413, `request body is over the ${limit}-byte limit`));
        return;
      }
      chunks.push(b);
    };
    req.on("data", onData);
    req.once("end", () => {
      clearTimeout(timer);
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    });
    req.once("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

/** The path of a request target: the common forms directly, anything else as URL parses it. */
function pathOf(target: string | undefined): string {
  const t = target ?? "/";
  const q = t.indexOf("?");
  const p = q < 0 ? t : t.slice(0, q);
  if (p === "/mcp" || p === "/rpc" || p === "/health") return p;
  return new URL(t, "http://x").pathname;
}

/**
 * The request as the SDK's web-standard transport reads it (method, url, headers.get/entries),
 * over node's already-parsed headers: the body is handed over parsed, so no stream is made.
 */
class NodeHeaders {
  constructor(private readonly h: IncomingMessage["headers"]) {}
  get(name: string): string | null {
    const v = this.h[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
  }
  has(name: string): boolean {
    return this.h[name.toLowerCase()] !== undefined;
  }
  *entries(): IterableIterator<[string, string]> {
    for (const k of Object.keys(this.h)) {
      const v = this.get(k);
      if (v !== null) yield [k, v];
    }
  }
  keys(): IterableIterator<string> {
    return Object.keys(this.h)[Symbol.iterator]();
  }
  forEach(fn: (value: string, key: string) => void): void {
    for (const [k, v] of this.entries()) fn(v, k);
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

function webRequest(req: IncomingMessage): Request {
  return { method: req.method ?? "GET", url: `http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, headers: new NodeHeaders(req.headers) } as unknown as Request;
}

/** Write the transport's answer: JSON whole with its length; an event stream as it comes. */
async function writeWeb(res: ServerResponse, r: Response): Promise<void> {
  const headers: Record<string, string> = {};
  r.headers.forEach((v, k) => {
    headers[k] = v;
  });
  const body = r.body;
  if (!body) {
    res.writeHead(r.status, headers);
    res.end();
    return;
  }
  if ((headers["content-type"] ?? "").startsWith("text/event-stream")) {
    res.writeHead(r.status, headers);
    res.flushHeaders();
    const reader = body.getReader();
    res.on("close", () => void reader.cancel().catch(() => undefined));
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || res.destroyed) break;
        res.write(value);
      }
    } catch {
      // cancelled: the client went away
    }
    res.end();
    return;
  }
  const buf = Buffer.from(await r.arrayBuffer());
  headers["content-length"] = String(buf.length);
  res.writeHead(r.status, headers);
  res.end(buf);
}

/** A plain JSON object (not an array, not null). */
function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * The `tools/call` request of a POST that the fast path may answer: exactly one request, in the
 * shape the SDK's client sends (jsonrpc, id, method, params {name, arguments}), on a live
 * session, with the headers the SDK's transport would accept. Anything else — a batch, a
 * notification, `_meta` or task parameters, an unknown tool, a header the transport would
 * refuse — goes the SDK's way, which answers (or refuses) it with the SDK's own words.
 */
function plainToolCall(req: IncomingMessage, body: unknown): { id: string | number; name: string; args: unknown } | undefined {
  if (!isRecord(body) || body.jsonrpc !== "2.0" || body.method !== "tools/call") return undefined;
  const id = body.id;
  if (!(typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)))) return undefined;
  for (const k in body) if (k !== "jsonrpc" && k !== "id" && k !== "method" && k !== "params") return undefined;
  const params = body.params;
  if (!isRecord(params) || typeof params.name !== "string") return undefined;
  for (const k in params) if (k !== "name" && k !== "arguments") return undefined;
  if (params.arguments !== undefined && !isRecord(params.arguments)) return undefined;
  const accept = req.headers.accept;
  if (!accept?.includes("application/json") || !accept.includes("text/event-stream")) return undefined;
  if (!isJsonContentType(req.headers["content-type"] ?? null)) return undefined;
  const version = req.headers["mcp-protocol-version"];
  if (version !== undefined && (typeof version !== "string" || !SUPPORTED_PROTOCOL_VERSIONS.includes(version))) return undefined;
  return { id, name: params.name, args: params.arguments ?? {} };
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  lastSeen: number;
  inflight: number;
  initialized: boolean;
  created: number;
  /** Opened with `x-drsg-mode: read` (drsg-mcp --read-only relaying): no write tool is listed or run. */
  readOnly: boolean;
}

/** The header a client opens a read-only session with; it can only narrow what a server offers. */
export const MODE_HEADER = "x-drsg-mode";

export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  const { ctx, tools } = opts;
  checkServeConfig(opts.host, opts.token);
  // Remote attachments are operator configuration: a malformed DRSG_ATTACH_ALLOW stops the start.
  attachAllowList();
  const idleMs = opts.idleMs ?? 600_000;
  const initMs = opts.initMs ?? 60_000;
  const bodyLimit = opts.bodyLimit ?? 64 * 1024 * 1024;
  const headersTimeoutMs = opts.headersTimeoutMs ?? 20_000;
  const bodyTimeoutMs = opts.bodyTimeoutMs ?? 60_000;
  const gate = new Gate(opts.maxTools ?? 16, (opts.deadlineSecs ?? 300) * 1000);
  const sessions = new Map<string, Session>();
  const pending = new Set<Session>();
  const toolByName = new Map(tools.map((t) => [t.name, t]));
  // What a read session (x-drsg-mode: read) is served: the reads, and cypher's read variant.
  const readOnlyTools = readTools(tools);
  const readByName = new Map(readOnlyTools.map((t) => [t.name, t]));

  // The installed plugins are looked up (a stat of the registry) at most once a second, not on
  // every call: a plugin installed while serving shows in drift lines within a second.
  let pluginsSeen: { at: number; set: PluginSet } | undefined;
  const tctx: ToolContext = {
    ...ctx,
    plugins: () => {
      const now = performance.now();
      if (pluginsSeen && now - pluginsSeen.at < 1000) return pluginsSeen.set;
      const set = ctx.plugins();
      pluginsSeen = { at: now, set };
      return set;
    },
  };
  const answers = (opts.answerCache ?? process.env.DRSG_ANSWER_CACHE?.trim() !== "0") ? new AnswerCache() : undefined;
  const pluginIds = new WeakMap<PluginSet, number>();
  let pluginSets = 0;
  /** What a kept answer depends on besides its arguments: the commit, the plugins, the mounts. */
  const stamp = (): string | undefined => {
    let set: PluginSet;
    try {
      set = tctx.plugins();
    } catch {
      return undefined;
    }
    let pid = pluginIds.get(set);
    if (pid === undefined) pluginIds.set(set, (pid = ++pluginSets));
    const routed = ctx.store as Partial<RoutedStore>;
    const mounts = typeof routed.listMounts === "function" ? routed.listMounts().map((m) => `${m.name}=${m.path}`).join("\u0001") : "";
    return `${ctx.store.currentSeq()}\u0000${pid}\u0000${mounts}`;
  };

  const allowedHosts = (bound: string, port: number): HostPolicy => {
    const exact = new Set<string>();
    const anyPort = new Set<string>();
    for (const n of LOOPBACK_NAMES) {
      exact.add(n);
      exact.add(`${n}:${port}`);
    }
    if (opts.token) {
      const b = isIP(bound) === 6 ? `[${bound}]` : bound;
      exact.add(b);
      exact.add(`${b}:${port}`);
      // An entry without a port (a proxy's name) matches that name on any port.
      for (const raw of opts.allowedHosts ?? []) {
        const h = raw.trim().toLowerCase();
        if (!h) continue;
        const parts = splitHost(h);
        if (parts && parts.port === undefined) anyPort.add(parts.name);
        else exact.add(h);
      }
    }
    return { exact, anyPort };
  };

  type Answer = ToolAnswer;
  type Late = (kind: "busy" | "slow", secs: number) => Answer;

  /**
   * One validated call: a kept answer when the tool is pure and this database state answered
   * the same question already; else run it through the gate (limit + deadline) and keep it.
   */
  const running = new Map<string, Promise<Answer>>();
  const answer = async (tool: Tool, args: unknown, late: Late): Promise<Answer> => {
    // The cache keeps text: a tool answering data (structuredContent) runs each time.
    const pure = answers !== undefined && !tool.output && (tool.pure === true || (typeof tool.pure === "function" && tool.pure(args as never)));
    const st = pure ? stamp() : undefined;
    const run = () =>
      gate.run(() => runTool(tool, tctx, args), late).catch((e) => {
        log("error", `tool ${tool.name}: ${String(e)}`);
        throw e;
      });
    if (st === undefined) return run();
    const key = `${tool.name}\u0000${JSON.stringify(args)}`;
    const hit = answers!.get(st, key);
    if (hit !== undefined) return { text: hit, isError: false };
    // The same question already being answered in this state: wait for that answer.
    const flight = `${st}\u0002${key}`;
    const same = running.get(flight);
    if (same) return same;
    const p = run().then((r) => {
      if (!r.isError && stamp() === st) answers!.set(st, key, r.text);
      return r;
    });
    running.set(flight, p);
    try {
      return await p;
    } finally {
      running.delete(flight);
    }
  };

  const mcpCall = (tool: Tool, args: unknown): Promise<Answer> =>
    answer(tool, args, (kind, secs) => ({
      text:
        kind === "busy"
          ? `${tool.name} failed [BUSY]: server is busy — no slot within ${secs}s; try again`
          : `${tool.name} failed [TIMEOUT]: did not finish within ${secs}s (the server kept running it); narrow the request`,
      isError: true,
    }));

  /**
   * The fast path for the one message that matters under load, a plain `tools/call` on a live
   * session: validated with the tool's own schema, answered by `mcpCall` (the answer cache, the
   * gate) and written as the SDK's transport writes it in JSON-response mode — the same bytes
   * (test/server/fast-path.test.ts compares them), without the transport's per-request
   * Request/Response objects, stream bookkeeping and four re-validations of the envelope,
   * which cost a loaded server more than the cached answer itself. False: not such a call (or
   * arguments the schema refuses) — the SDK's transport takes it.
   */
  const fastPath = opts.fastPath ?? process.env.DRSG_MCP_FAST_PATH?.trim() !== "0";
  let fastCalls = 0;
  const fastCall = async (res: ServerResponse, session: Session, req: IncomingMessage, body: unknown): Promise<boolean> => {
    const call = plainToolCall(req, body);
    if (!call) return false;
    const tool = (session.readOnly ? readByName : toolByName).get(call.name);
    if (!tool || !servedOver(tool, ctx.transport) || (session.readOnly && !tool.readOnly)) return false;
    const parsed = tool.input.safeParse(call.args);
    if (!parsed.success) return false;
    fastCalls++;
    const r = await mcpCall(tool, parsed.data);
    const text = JSON.stringify({ result: callResult(r), jsonrpc: "2.0", id: call.id });
    if (res.destroyed) return true;
    res.writeHead(200, {
      "content-type": "application/json",
      "mcp-session-id": session.transport.sessionId!,
      "content-length": String(Buffer.byteLength(text)),
    });
    res.end(text);
    return true;
  };

  const newSession = async (readOnly: boolean): Promise<Session> => {
    const server = buildMcpServer(tctx, readOnly ? readOnlyTools : tools, { version: version(), call: mcpCall });
    const s: Session = {
      readOnly,
      transport: undefined as unknown as WebStandardStreamableHTTPServerTransport,
      server,
      lastSeen: Date.now(),
      inflight: 0,
      initialized: false,
      created: Date.now(),
    };
    s.transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // Plain JSON answers: drsg sends no server-initiated messages, and SSE framing costs latency.
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        s.initialized = true;
        pending.delete(s);
        sessions.set(id, s);
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    s.transport.onclose = () => {
      if (s.transport.sessionId) sessions.delete(s.transport.sessionId);
      pending.delete(s);
    };
    pending.add(s);
    await server.connect(s.transport);
    return s;
  };

  const reap = setInterval(
    () => {
      const now = Date.now();
      for (const [id, s] of sessions) {
        if (s.inflight === 0 && now - s.lastSeen > idleMs) {
          sessions.delete(id);
          void s.server.close().catch(() => undefined);
          log("info", `session ${id.slice(0, 8)} reclaimed after ${Math.round(idleMs / 1000)} s idle`);
        }
      }
      for (const s of pending) {
        if (!s.initialized && now - s.created > initMs) {
          pending.delete(s);
          void s.server.close().catch(() => undefined);
        }
      }
    },
    Math.max(50, Math.min(idleMs, initMs) / 4),
  );
  reap.unref();

  let boundHost = opts.host;
  let boundPort = opts.port;
  let hostsAllowed = allowedHosts(boundHost, boundPort);
  const tokenSha = opts.token ? sha(opts.token) : undefined;

  const handleRpc = async (body: unknown): Promise<unknown> => {
    const one = async (m: unknown): Promise<unknown> => {
      const msg = m as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
      const id = readableId(m) ?? null;
      const fault = envelopeFault(m, false) ?? (typeof msg.method !== "string" ? { code: -32600, message: "invalid request: no method" } : undefined);
      if (fault || typeof msg.method !== "string") return { jsonrpc: "2.0", id, error: fault };
      if (msg.method === "list_tools" || msg.method === "rpc.discover")
        return {
          jsonrpc: "2.0",
          id,
          result: tools
            .filter((t) => servedOver(t, "http"))
            .map((t) => ({ name: t.name, description: t.description, readOnly: t.readOnly })),
        };
      const tool = toolByName.get(msg.method);
      if (!tool || !servedOver(tool, "http"))
        return { jsonrpc: "2.0", id, error: { code: -32601, message: `method not found: ${msg.method} (list_tools lists them)` } };
      const parsed = tool.input.safeParse(msg.params ?? {});
      if (!parsed.success)
        return {
          jsonrpc: "2.0",
          id,
          error: {
            code: -32602,
            message: `invalid params for ${tool.name}: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(params)"}: ${i.message}`).join("; ")}`,
          },
        };
      const r = await answer(tool, parsed.data, (kind, secs) => ({
        text: kind === "busy" ? `server is busy — no slot within ${secs}s` : `did not finish within ${secs}s`,
        isError: true,
        code: kind === "busy" ? "BUSY" : "TIMEOUT",
      }));
      // data.code: the DrsgError code, so a client (the CLI) reports and exits as it would in-process.
      if (r.isError) return { jsonrpc: "2.0", id, error: { code: -32000, message: r.text, data: { code: r.code ?? "INTERNAL" } } };
      return { jsonrpc: "2.0", id, result: { text: r.text } };
    };
    if (Array.isArray(body)) {
      if (body.length === 0) return { jsonrpc: "2.0", id: null, error: { code: -32600, message: "empty batch" } };
      return Promise.all(body.map(one));
    }
    return one(body);
  };

  // The dashboard (GET /, /assets/*, /events, and /rpc calls carrying the page secret): src/server/dashboard.ts.
  const dashboard = new Dashboard({
    ctx: tctx,
    tools,
    token: opts.token,
    hostAllowed: (h) => hostAllowed(hostsAllowed, h),
    bearerOk: (h) => tokenSha !== undefined && tokenMatches(h, tokenSha),
    rpc: handleRpc,
    health: () => ({ sessions: sessions.size, inflight: gate.active, queued: gate.waiting }),
  });

  /** Refuse with `status` and close the connection once the answer is out (nothing more is read from it). */
  const refuseAndClose = (req: IncomingMessage, res: ServerResponse, status: number, body: unknown): void => {
    res.once("finish", () => req.socket.destroy());
    send(res, status, body, { connection: "close" });
  };

  /**
   * Routes answered without a token (after the Host check): GET /health now; a dashboard adds
   * its page and assets here.
   */
  const publicRoutes = new Map<string, (req: IncomingMessage, res: ServerResponse) => void>([
    ["GET /health", (_req, res) => send(res, 200, { status: "ok", pid: process.pid })],
  ]);

  const server = createServer({ connectionsCheckingInterval: Math.max(100, Math.min(1000, headersTimeoutMs / 4)) }, (req, res) => {
    void (async () => {
      const path = pathOf(req.url);
      const host = (req.headers.host ?? "").toLowerCase();
      // DNS rebinding: a name an attacker controls, pointed at 127.0.0.1, still says its own Host.
      if (!hostAllowed(hostsAllowed, host)) {
        send(res, 403, { error: `Host '${host}' is not allowed (loopback names always; others only with a token and DRSG_ALLOWED_HOSTS)` });
        return;
      }
      const open = publicRoutes.get(`${req.method} ${path}`);
      if (open) {
        open(req, res);
        return;
      }
      if (await dashboard.handle(req, res, path)) return;
      if (path !== "/mcp" && path !== "/rpc") {
        send(res, 404, { error: "not found: drsg serves /mcp, /rpc and /health" });
        return;
      }
      const origin = req.headers.origin;
      if (!originAllowed(hostsAllowed, origin)) {
        send(res, 403, { error: `Origin '${origin}' is not allowed: a web page elsewhere may not drive this server (only its own origin, or none)` });
        return;
      }
      if (!opts.token) {
        send(res, 401, { error: "this server has no DRSG_TOKEN: programmatic clients are refused, reads included — restart it with DRSG_TOKEN set" });
        return;
      }
      if (!tokenMatches(req.headers.authorization, tokenSha!)) {
        send(res, 401, { error: "missing or wrong bearer token (Authorization: Bearer <DRSG_TOKEN>)" }, { "www-authenticate": "Bearer" });
        return;
      }
      let body: unknown;
      if (req.method === "POST") {
        let raw: Buffer;
        try {
          raw = await readBody(req, bodyLimit, bodyTimeoutMs);
        } catch (e) {
          refuseAndClose(req, res, e instanceof BodyError ? e.status : 400, { error: (e as Error).message });
          return;
        }
        try {
          body = JSON.parse(raw.toString("utf8"));
        } catch {
          if (path === "/rpc") send(res, 200, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error: the body is not JSON" } });
          else send(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error: the body is not JSON" } });
          return;
        }
      }
      if (path === "/rpc") {
        if (req.method !== "POST") {
          send(res, 405, { error: "POST JSON-RPC 2.0 to /rpc" }, { allow: "POST" });
          return;
        }
        send(res, 200, await handleRpc(body));
        return;
      }
      // /mcp: a broken envelope is answered here, with its id, before the SDK's transport (which
      // answers most of them with id null, and some not at all).
      if (req.method === "POST") {
        const broken = envelopeReplies(body, true);
        if (broken) {
          send(res, 400, Array.isArray(body) ? broken : (broken[0] ?? { jsonrpc: "2.0", id: null, error: { code: -32600, message: "invalid request" } }));
          return;
        }
      }
      const replyId = readableId(body) ?? null;
      const sid = req.headers["mcp-session-id"];
      const id = Array.isArray(sid) ? sid[0] : sid;
      let session: Session | undefined;
      if (id) {
        session = sessions.get(id);
        if (!session) {
          send(res, 404, { jsonrpc: "2.0", id: replyId, error: { code: -32001, message: "session not found (reclaimed or never opened) — initialize again" } });
          return;
        }
        // The SDK refuses this with id null; answered here with the request's id.
        if (req.method === "POST" && session.initialized && isRecord(body) && body.method === "initialize") {
          send(res, 400, { jsonrpc: "2.0", id: replyId, error: { code: -32600, message: "invalid request: this session is initialized already (one initialize per session)" } });
          return;
        }
      } else if (req.method === "POST" && body !== undefined && isInitializeRequest(body)) {
        session = await newSession(String(req.headers[MODE_HEADER] ?? "").toLowerCase() === "read");
      } else {
        send(res, 400, { jsonrpc: "2.0", id: replyId, error: { code: -32000, message: "no mcp-session-id: send initialize first" } });
        return;
      }
      if (req.method === "GET") {
        // The standalone event stream carries server-initiated messages, and drsg sends none: the
        // spec's answer is 405, which the SDK's client takes as "no stream" (an open stream per
        // session would hold a socket and a reader for nothing).
        send(res, 405, { error: "drsg sends no server-initiated messages: no event stream on GET; POST requests, DELETE to end the session" }, { allow: "POST, DELETE" });
        return;
      }
      session.lastSeen = Date.now();
      session.inflight++;
      try {
        if (fastPath && req.method === "POST" && session.initialized && (await fastCall(res, session, req, body))) return;
        await writeWeb(res, await session.transport.handleRequest(webRequest(req), { parsedBody: body }));
      } finally {
        session.inflight--;
        session.lastSeen = Date.now();
      }
    })().catch((e) => {
      log("error", `request ${req.method} ${req.url}: ${(e as Error)?.stack ?? String(e)}`);
      send(res, 500, { error: "internal error (logged)" });
    });
  });
  // Node's own deadlines: the headers within headersTimeout, the whole request within
  // requestTimeout (408 and the socket closed); the body timer above answers first with words.
  server.headersTimeout = headersTimeoutMs;
  server.requestTimeout = headersTimeoutMs + bodyTimeoutMs + 1000;
  // A fold that resolves a family in full holds the event loop for seconds; when it lets go,
  // Node runs its timers before it reads the sockets, so with the default 5 s an idle keep-alive
  // socket a client has just reused (its request waiting unread) was closed under it: ECONNRESET
  // for a request that was on time. Idle sockets are kept a minute (clients drop theirs sooner).
  server.keepAliveTimeout = KEEP_ALIVE_MS;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const a = server.address();
  if (a && typeof a === "object") {
    boundHost = a.address;
    boundPort = a.port;
  }
  hostsAllowed = allowedHosts(boundHost, boundPort);
  const urlHost = isIP(opts.host) === 6 ? `[${opts.host}]` : opts.host;
  return {
    server,
    host: opts.host,
    port: boundPort,
    url: `http://${urlHost}:${boundPort}/mcp`,
    sessions: () => sessions.size,
    answerStats: () => answers?.stats(),
    fastCalls: () => fastCalls,
    async close() {
      clearInterval(reap);
      for (const s of [...sessions.values(), ...pending]) await s.server.close().catch(() => undefined);
      sessions.clear();
      await new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
    },
  };
}
