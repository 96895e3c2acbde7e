// Talking to a running drsg server from outside: one request at a time (httpRequest: the CLI's
// calls on /rpc, `drsg status`) and probing /health (`drsg init`, the drsg-mcp relay). Which server to talk to is never read from a file in the
// working tree: only from the record this user's drsg wrote (src/server/state.ts).

import { nodeHttp } from "../lazy.js";

export interface Health {
  status: string;
  pid?: number;
}

/** An HTTP answer: its status and its body as text. */
export interface HttpAnswer {
  status: number;
  text: string;
}

/** The most of an answer read from a server (a whole-plane listing is far less). */
const MAX_ANSWER_BYTES = 256 * 1024 * 1024;

/**
 * One request to a local drsg server with node:http, its socket closed with the answer (no
 * keep-alive pool): a short process — a CLI verb, `drsg status`, a probe — exits as soon as it
 * has printed. (fetch cost such a process ~50 ms to load and kept it alive ~150 ms after its
 * answer on the pooled socket.) `timeoutMs` 0: no deadline. Rejects when nothing answers.
 */
export function httpRequest(url: string, opts: { method?: "GET" | "POST"; headers?: Record<string, string>; body?: string; timeoutMs?: number } = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const body = opts.body === undefined ? undefined : Buffer.from(opts.body, "utf8");
    const headers = { ...opts.headers, ...(body ? { "content-length": String(body.length) } : {}), connection: "close" };
    const req = nodeHttp().request(url, { method: opts.method ?? "GET", headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (c: Buffer) => {
        size += c.length;
        if (size > MAX_ANSWER_BYTES) req.destroy(new Error(`answer larger than ${MAX_ANSWER_BYTES} bytes`));
        else chunks.push(c);
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    const deadline = (opts.timeoutMs ?? 0) > 0 ? setTimeout(() => req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)), opts.timeoutMs) : undefined;
    req.on("close", () => clearTimeout(deadline));
    req.on("error", reject);
    req.end(body);
  });
}

/** GET <origin>/health within `timeoutMs`; undefined when nothing healthy answers. */
export async function probeHealth(url: string, timeoutMs = 2000): Promise<Health | undefined> {
  try {
    const r = await httpRequest(`${new URL(url).origin}/health`, { timeoutMs });
    if (r.status !== 200) return undefined;
    const body = JSON.parse(r.text) as Health;
    return body && body.status === "ok" ? body : undefined;
  } catch {
    return undefined;
  }
}
