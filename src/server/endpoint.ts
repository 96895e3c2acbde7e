// Talking to a running drsg server from outside: probing /health (shared by `drsg init`, the
// drsg-mcp relay and `drsg status`). Which server to talk to is never read from a file in the
// working tree: only from the record this user's drsg wrote (src/server/state.ts).

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

/**
 * Call one tool of a live server over its JSON-RPC endpoint (`POST /rpc`): the text of the
 * answer, or a thrown error carrying the server's message. Used by `drsg status`.
 */
export async function rpcCall(addr: string, token: string, method: string, params: unknown, timeoutMs = 10_000): Promise<string> {
  const r = await fetch(`http://${addr}/rpc`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await r.json()) as { result?: { text?: string }; error?: { message?: string } };
  if (body.error) throw new Error(body.error.message ?? `HTTP ${r.status}`);
  return body.result?.text ?? "";
}
