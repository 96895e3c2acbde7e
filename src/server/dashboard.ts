// The dashboard drsg serve shows at `/`: the page and its assets (built into dist/web at package
// time — no toolchain at run time), the page's API (the same JSON-RPC /rpc as every client, so
// every view reads through the tools' own `run`s) and /events (the fold log as server-sent
// events). Guard: same-origin only. Without DRSG_TOKEN the server is loopback-only and the page
// carries a per-process secret it received in its HTML, which no other origin can read (no CORS
// headers; Host is checked, so a rebound DNS name cannot load the page either); with a token the
// page asks for it once and sends it as a bearer, like any client.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { log } from "../log.js";
import { PACKAGE_ROOT } from "../paths.js";
import { FoldLog, type ServerHealth } from "../tools/fold_log.js";
import type { Tool, ToolContext } from "../tools/tool.js";

/** The header carrying the page secret. */
export const PAGE_SECRET_HEADER = "x-drsg-page";

/** The page API takes small bodies only (a tool's arguments). */
const PAGE_BODY_LIMIT = 1024 * 1024;

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

/** The page may run its own scripts and styles and talk to this origin only. */
const CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export interface DashboardOptions {
  ctx: ToolContext;
  tools: Tool[];
  /** Set: the page asks for it and sends it as a bearer; no secret is embedded. */
  token?: string;
  /** Whether a Host header value is one this server answers to (the transport's own allow-list). */
  hostAllowed(host: string): boolean;
  /** Whether an Authorization header carries the token (the transport's constant-time check). */
  bearerOk(header: string | undefined): boolean;
  /** The transport's JSON-RPC dispatcher (the same as for /rpc). */
  rpc(body: unknown): Promise<unknown>;
  health(): ServerHealth;
  /** Where the built page lives (default <package>/dist/web). */
  webDir?: string;
}

function head(res: ServerResponse, status: number, type: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, {
    "content-type": type,
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
    ...extra,
  });
}

function plain(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  head(res, status, "text/plain; charset=utf-8");
  res.end(text);
}

function rpcError(res: ServerResponse, status: number, message: string): void {
  head(res, status, "application/json");
  res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32001, message } }));
}

function readSmall(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (b: Buffer) => {
      size += b.length;
      if (size > PAGE_BODY_LIMIT) {
        req.destroy();
        reject(new Error(`body over ${PAGE_BODY_LIMIT} bytes`));
        return;
      }
      chunks.push(b);
    });
    req.once("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.once("error", reject);
  });
}

export class Dashboard {
  /** The per-process page secret (32 random bytes), embedded in the page when there is no token. */
  private readonly secret = randomBytes(32).toString("base64url");
  private readonly secretBuf = Buffer.from(this.secret);
  private readonly webDir: string;
  private readonly assets = new Map<string, { type: string; body: Buffer }>();
  private html: string | undefined;
  readonly foldLog: FoldLog;
  private readonly pageTools: Set<string>;

  constructor(private readonly opts: DashboardOptions) {
    this.webDir = opts.webDir ?? join(PACKAGE_ROOT, "dist", "web");
    // The fold log: the one the server was given (its watcher records into it), else a new one.
    const extras = (opts.ctx.extras ??= {});
    if (!(extras.foldLog instanceof FoldLog)) extras.foldLog = new FoldLog();
    this.foldLog = extras.foldLog as FoldLog;
    extras.health = () => opts.health();
    // The page only reads: read-only tools (and cypher, which refuses writes itself without confirm).
    this.pageTools = new Set(opts.tools.filter((t) => t.readOnly || t.name === "cypher").map((t) => t.name));
    this.load();
  }

  /** Read the built page once: a fixed set of files, so no request path ever reaches the disk. */
  private load(): void {
    const index = join(this.webDir, "index.html");
    if (!existsSync(index)) return;
    this.html = readFileSync(index, "utf8");
    const dir = join(this.webDir, "assets");
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const ext = name.slice(name.lastIndexOf("."));
      const type = TYPES[ext];
      if (type) this.assets.set(name, { type, body: readFileSync(join(dir, name)) });
    }
  }

  private secretOk(req: IncomingMessage): boolean {
    const v = req.headers[PAGE_SECRET_HEADER];
    if (typeof v !== "string" || this.opts.token) return false;
    const b = Buffer.from(v);
    return b.length === this.secretBuf.length && timingSafeEqual(b, this.secretBuf);
  }

  /**
   * Same origin: an Origin header, when the browser sends one, must be this very origin (the
   * scheme and the Host the request came to); a fetch metadata header must not say cross-site.
   */
  private sameOrigin(req: IncomingMessage, host: string, required: boolean): boolean {
    const origin = req.headers.origin;
    if (origin === undefined) {
      if (required) return false;
    } else if (origin !== `http://${host}`) return false;
    const site = req.headers["sec-fetch-site"];
    return site === undefined || site === "same-origin" || site === "none";
  }

  /** Whether this request is the page's (or for the page); false leaves it to the transport. */
  async handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> {
    const pageApi = path === "/rpc" && req.headers[PAGE_SECRET_HEADER] !== undefined;
    const mine = path === "/" || path === "/index.html" || path.startsWith("/assets/") || path === "/events" || pageApi;
    if (!mine) return false;
    const host = (req.headers.host ?? "").toLowerCase();
    if (!this.opts.hostAllowed(host)) {
      plain(res, 403, `Host '${host}' is not allowed`);
      return true;
    }
    if (path === "/rpc") {
      await this.pageRpc(req, res, host);
      return true;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      plain(res, 405, "GET only");
      return true;
    }
    if (path === "/events") {
      this.events(req, res, host);
      return true;
    }
    if (!this.sameOrigin(req, host, false)) {
      plain(res, 403, "cross-origin request refused");
      return true;
    }
    if (path.startsWith("/assets/")) {
      const a = this.assets.get(path.slice("/assets/".length));
      if (!a) plain(res, 404, "no such asset");
      else {
        head(res, 200, a.type, { "content-length": String(a.body.length), "cache-control": "no-cache" });
        res.end(req.method === "HEAD" ? undefined : a.body);
      }
      return true;
    }
    if (this.html === undefined) {
      plain(res, 503, `the dashboard is not built (no ${join(this.webDir, "index.html")}): run npm run build`);
      return true;
    }
    const page = this.html
      .replace("{{DRSG_AUTH}}", this.opts.token ? "token" : "secret")
      .replace("{{DRSG_PAGE_SECRET}}", this.opts.token ? "" : this.secret);
    head(res, 200, "text/html; charset=utf-8", { "content-security-policy": CSP, "cache-control": "no-store" });
    res.end(req.method === "HEAD" ? undefined : page);
    return true;
  }

  private authorized(req: IncomingMessage): boolean {
    return this.opts.token ? this.opts.bearerOk(req.headers.authorization) : this.secretOk(req);
  }

  /** POST /rpc from the page: same origin, the secret, JSON; then the transport's dispatcher, read-only tools only. */
  private async pageRpc(req: IncomingMessage, res: ServerResponse, host: string): Promise<void> {
    if (req.method !== "POST") {
      rpcError(res, 405, "POST JSON-RPC 2.0 to /rpc");
      return;
    }
    // A browser always sends Origin on a POST: its absence means no browser page sent this.
    if (!this.sameOrigin(req, host, true)) {
      rpcError(res, 403, "cross-origin request refused: the page API answers its own origin only");
      return;
    }
    if (!this.secretOk(req)) {
      rpcError(res, 401, this.opts.token ? "this server has a token: send it as a bearer, not a page secret" : "missing or wrong page secret — reload the page");
      return;
    }
    if (!/^application\/json\b/i.test(req.headers["content-type"] ?? "")) {
      rpcError(res, 415, "the page API takes application/json");
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(await readSmall(req));
    } catch (e) {
      rpcError(res, 400, `bad body: ${(e as Error).message}`);
      return;
    }
    const msgs = Array.isArray(body) ? body : [body];
    for (const m of msgs) {
      const method = (m as { method?: unknown } | null)?.method;
      if (typeof method === "string" && method !== "list_tools" && !this.pageTools.has(method) && this.opts.tools.some((t) => t.name === method)) {
        rpcError(res, 403, `the page API is read-only: ${method} writes — use an MCP client with the token`);
        return;
      }
    }
    const out = await this.opts.rpc(body);
    const text = JSON.stringify(out);
    head(res, 200, "application/json", { "content-length": String(Buffer.byteLength(text)), "cache-control": "no-store" });
    res.end(text);
  }

  /** GET /events: the fold log and health as server-sent events, read by the page with fetch (it sends the secret or bearer). */
  private events(req: IncomingMessage, res: ServerResponse, host: string): void {
    if (!this.sameOrigin(req, host, false)) {
      plain(res, 403, "cross-origin request refused");
      return;
    }
    if (!this.authorized(req)) {
      plain(res, 401, this.opts.token ? "missing or wrong bearer token" : "missing or wrong page secret — reload the page");
      return;
    }
    head(res, 200, "text/event-stream; charset=utf-8", { "cache-control": "no-store", connection: "keep-alive" });
    res.flushHeaders();
    const send = (event: string, data: unknown) => {
      if (!res.destroyed) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    const since = Number(new URL(req.url ?? "/", "http://x").searchParams.get("since") ?? "0") || 0;
    for (const e of this.foldLog.entries(since)) send("fold", e);
    send("health", this.opts.health());
    const off = this.foldLog.subscribe((e) => send("fold", e));
    const beat = setInterval(() => send("health", this.opts.health()), 5000);
    beat.unref();
    res.on("close", () => {
      off();
      clearInterval(beat);
    });
    log("debug", "dashboard: event stream opened");
  }
}
