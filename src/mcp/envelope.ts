// JSON-RPC envelopes as MCP takes them, checked before the SDK sees them: the SDK's transports
// refuse a broken envelope with id null (HTTP) or not at all (stdio — the line is dropped and
// the host waits), so a host never learns which request failed. Every message here that carries
// a readable id gets an error reply with that id: −32600 for a broken envelope, −32602 for
// params of the wrong shape.

/** A plain JSON object (not an array, not null). */
function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const REQUEST_KEYS = new Set(["jsonrpc", "id", "method", "params"]);
const RESPONSE_KEYS = new Set(["jsonrpc", "id", "result", "error"]);

/** A JSON-RPC id as the spec allows it (string, or an integer number), else undefined. */
export function readableId(m: unknown): string | number | undefined {
  if (!isRecord(m)) return undefined;
  const id = m.id;
  return typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)) ? id : undefined;
}

/** One message of a body: what is wrong with its envelope (code + words), or undefined when it is well formed. */
export function envelopeFault(m: unknown, mcp: boolean): { code: number; message: string } | undefined {
  if (!isRecord(m)) return { code: -32600, message: "invalid request: a message is a JSON object" };
  if (m.jsonrpc !== "2.0") return { code: -32600, message: "invalid request: jsonrpc must be \"2.0\"" };
  if ("id" in m && m.id !== null && readableId(m) === undefined) return { code: -32600, message: "invalid request: id must be a string or an integer" };
  if (!("method" in m)) {
    // A response the client sends back (drsg sends no requests, so it is only acknowledged).
    if ("id" in m && ("result" in m || "error" in m)) {
      if (mcp && Object.keys(m).some((k) => !RESPONSE_KEYS.has(k))) return { code: -32600, message: "invalid request: a response has only jsonrpc, id, result or error" };
      return undefined;
    }
    return { code: -32600, message: "invalid request: no method" };
  }
  // MCP's envelope is strict: a member beyond these makes the SDK drop the message.
  if (mcp) {
    const extra = Object.keys(m).find((k) => !REQUEST_KEYS.has(k));
    if (extra !== undefined) return { code: -32600, message: `invalid request: unknown member '${extra.slice(0, 40)}' (a request has jsonrpc, id, method, params)` };
  }
  if (typeof m.method !== "string" || m.method === "") return { code: -32600, message: "invalid request: method must be a non-empty string" };
  if ("params" in m && m.params !== undefined) {
    const p = m.params;
    if (mcp ? !isRecord(p) : !isRecord(p) && !Array.isArray(p))
      return { code: -32602, message: `invalid params: params must be an object${mcp ? "" : " or an array"}` };
    if (mcp && isRecord(p) && p._meta !== undefined) {
      const meta = p._meta;
      const token = isRecord(meta) ? meta.progressToken : undefined;
      const task = isRecord(meta) ? meta["io.modelcontextprotocol/related-task"] : undefined;
      if (!isRecord(meta) || (token !== undefined && typeof token !== "string" && typeof token !== "number") || (task !== undefined && !isRecord(task)))
        return { code: -32602, message: "invalid params: _meta must be an object (progressToken a string or number)" };
    }
    if (mcp && m.method === "tools/call" && isRecord(p) && (typeof p.name !== "string" || (p.arguments !== undefined && !isRecord(p.arguments))))
      return { code: -32602, message: "invalid params: tools/call needs {name: string, arguments?: object}" };
  }
  return undefined;
}

/**
 * The error replies for a body whose envelopes are broken, or undefined when every message is
 * well formed. Every message carrying an id gets a reply: its own fault, or — in a batch with a
 * broken member, which is refused whole — that it was not run.
 */
export function envelopeReplies(body: unknown, mcp: boolean, opts: { batches?: boolean } = {}): unknown[] | undefined {
  const msgs = Array.isArray(body) ? body : [body];
  if (Array.isArray(body) && opts.batches === false)
    return msgs.flatMap((m) => {
      const id = readableId(m);
      return id === undefined ? [] : [{ jsonrpc: "2.0", id, error: { code: -32600, message: "invalid request: batches are not accepted here; send one message per line" } }];
    });
  if (msgs.length === 0) return [{ jsonrpc: "2.0", id: null, error: { code: -32600, message: "invalid request: empty batch" } }];
  const faults = msgs.map((m) => envelopeFault(m, mcp));
  if (faults.every((f) => f === undefined)) return undefined;
  const out: unknown[] = [];
  msgs.forEach((m, i) => {
    const f = faults[i];
    const id = readableId(m);
    if (f) out.push({ jsonrpc: "2.0", id: id ?? null, error: f });
    else if (id !== undefined && isRecord(m) && "method" in m)
      out.push({ jsonrpc: "2.0", id, error: { code: -32600, message: "invalid request: not run — another message of this batch is broken" } });
  });
  return out;
}

