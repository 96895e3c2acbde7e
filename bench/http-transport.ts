// The serve bench's client transport: the MCP Streamable HTTP client side (POST JSON-RPC with the
// session and protocol-version headers, JSON or event-stream answers, the GET for server messages,
// DELETE to end the session) over node:http keep-alive sockets, under the SDK's real `Client`.
//
// Why not the SDK's StreamableHTTPClientTransport: the 50 sessions of the bench share one load
// generator process on the same 2 cores as the server, and that transport (undici Headers, a
// Response per answer, its redirect and auth checks) cost the load generator more CPU per call
// than the server spent answering it, so the latency measured was the load generator's queue.
// This one sends the same requests; the server cannot tell them apart.
import { Agent, request, type IncomingMessage } from "node:http";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** One keep-alive pool for every session of the process, as one host's HTTP client would keep. */
const agent = new Agent({ keepAlive: true, maxSockets: 256 });

export class HttpError extends Error {
  constructor(
    readonly status: number,
    body: string,
  ) {
    super(`HTTP ${status}: ${body.slice(0, 200)}`);
  }
}

interface Answer {
  status: number;
  headers: IncomingMessage["headers"];
  body: string;
}

export class LeanHttpTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  sessionId?: string;
  private protocolVersion?: string;
  private readonly host: string;
  private readonly port: string;
  private readonly path: string;

  constructor(
    url: URL,
    private readonly token: string,
  ) {
    this.host = url.hostname;
    this.port = url.port;
    this.path = `${url.pathname}${url.search}`;
  }

  async start(): Promise<void> {}

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  private headers(): Record<string, string> {
    const h: Record<string, string> = { authorization: `Bearer ${this.token}` };
    if (this.sessionId) h["mcp-session-id"] = this.sessionId;
    if (this.protocolVersion) h["mcp-protocol-version"] = this.protocolVersion;
    return h;
  }

  private exchange(method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = request({ host: this.host, port: this.port, path: this.path, method, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      });
      req.on("error", reject);
      req.end(body);
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const body = JSON.stringify(message);
    const headers = this.headers();
    headers["content-type"] = "application/json";
    headers.accept = "application/json, text/event-stream";
    headers["content-length"] = String(Buffer.byteLength(body));
    const a = await this.exchange("POST", headers, body);
    const sid = a.headers["mcp-session-id"];
    if (typeof sid === "string") this.sessionId = sid;
    if (a.status === 202) {
      // The initialized notification accepted: open the stream for server-initiated messages,
      // as the SDK's transport does; a 405 says the server offers none.
      if ("method" in message && message.method === "notifications/initialized") await this.openServerStream();
      return;
    }
    if (a.status < 200 || a.status >= 300) throw new HttpError(a.status, a.body);
    const type = String(a.headers["content-type"] ?? "");
    const texts = type.startsWith("text/event-stream")
      ? a.body
          .split(/\n\n/)
          .map((ev) => ev.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart()).join("\n"))
          .filter((d) => d.length > 0)
      : [a.body];
    for (const t of texts) {
      const parsed = JSON.parse(t) as JSONRPCMessage | JSONRPCMessage[];
      for (const m of Array.isArray(parsed) ? parsed : [parsed]) this.onmessage?.(m);
    }
  }

  private async openServerStream(): Promise<void> {
    const headers = this.headers();
    headers.accept = "text/event-stream";
    const a = await this.exchange("GET", headers);
    // drsg sends no server-initiated messages and answers 405 (the bench reads no event stream).
    if (a.status !== 405) throw new HttpError(a.status, `GET for server messages: ${a.body}`);
  }

  /** DELETE: end the session on the server. */
  async terminateSession(): Promise<void> {
    if (!this.sessionId) return;
    const a = await this.exchange("DELETE", this.headers());
    if (a.status !== 200 && a.status !== 204 && a.status !== 404 && a.status !== 405) throw new HttpError(a.status, a.body);
    this.sessionId = undefined;
  }

  async close(): Promise<void> {
    this.onclose?.();
  }
}
