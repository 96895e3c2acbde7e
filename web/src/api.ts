// The page's one API: JSON-RPC on /rpc (method = tool name), the same tool runs an MCP client
// gets. Without a server token the page sends the per-process secret it found in its own HTML;
// with one it asks for the token once (kept in sessionStorage for this tab) and sends a bearer.

export class RpcError extends Error {}

function meta(name: string): string {
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? "";
}

const mode = meta("drsg-auth") === "token" ? "token" : "secret";
const secret = meta("drsg-page-secret");
const TOKEN_KEY = "drsg-token";

/** Ask for the token once (a modal form), then keep it for the tab. */
function askToken(why?: string): Promise<string> {
  return new Promise((resolve) => {
    const dlg = document.createElement("dialog");
    dlg.className = "token";
    dlg.setAttribute("aria-labelledby", "token-title");
    dlg.innerHTML = `<form method="dialog"><h2 id="token-title">This server needs its token</h2>
<p>${why ?? "drsg serve was started with DRSG_TOKEN. Paste it once; it is kept for this tab only."}</p>
<label>token <input type="password" name="token" autocomplete="off" required></label>
<button type="submit">Use it</button></form>`;
    document.body.append(dlg);
    const form = dlg.querySelector("form")!;
    form.addEventListener("submit", () => {
      const v = (form.elements.namedItem("token") as HTMLInputElement).value.trim();
      sessionStorage.setItem(TOKEN_KEY, v);
      dlg.remove();
      resolve(v);
    });
    dlg.showModal();
  });
}

let tokenWait: Promise<string> | undefined;

async function authHeaders(): Promise<Record<string, string>> {
  if (mode === "secret") return { "x-drsg-page": secret };
  let t = sessionStorage.getItem(TOKEN_KEY);
  if (!t) {
    tokenWait ??= askToken();
    t = await tokenWait;
    tokenWait = undefined;
  }
  return { authorization: `Bearer ${t}` };
}

let nextId = 1;

/** Call one tool; its text answer (an error answer throws RpcError with the tool's words). */
export async function rpc(method: string, params: Record<string, unknown> = {}): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch("/rpc", {
      method: "POST",
      headers: { "content-type": "application/json", ...(await authHeaders()) },
      body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
    });
    if (res.status === 401 && mode === "token" && attempt === 0) {
      sessionStorage.removeItem(TOKEN_KEY);
      tokenWait ??= askToken("That token was refused. Paste the server's DRSG_TOKEN.");
      await tokenWait;
      tokenWait = undefined;
      continue;
    }
    const body = (await res.json().catch(() => ({}))) as { result?: { text: string } | unknown[]; error?: { message: string } };
    if (body.error) throw new RpcError(body.error.message);
    if (!res.ok) throw new RpcError(`HTTP ${res.status}`);
    const r = body.result as { text?: string } | undefined;
    return r?.text ?? JSON.stringify(body.result);
  }
}

/** Call a tool whose answer is JSON. */
export async function rpcJson<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
  const text = await rpc(method, params);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new RpcError(text);
  }
}

/** The tools this server serves (names). */
export async function toolNames(): Promise<Set<string>> {
  const res = await fetch("/rpc", {
    method: "POST",
    headers: { "content-type": "application/json", ...(await authHeaders()) },
    body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method: "list_tools" }),
  });
  const body = (await res.json()) as { result?: { name: string }[] };
  return new Set((body.result ?? []).map((t) => t.name));
}

/**
 * Follow /events (server-sent events, read with fetch so the secret or bearer can go in a
 * header); reconnects after a drop, asking only for what came after the last fold seen.
 */
export function follow(on: (event: string, data: unknown) => void, since: () => number): void {
  const connect = async () => {
    try {
      const res = await fetch(`/events?since=${since()}`, { headers: await authHeaders() });
      if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
      on("open", null);
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buf = "";
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buf += value;
        let i: number;
        while ((i = buf.indexOf("\n\n")) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          let event = "message";
          let data = "";
          for (const line of block.split("\n")) {
            if (line.startsWith("event: ")) event = line.slice(7);
            else if (line.startsWith("data: ")) data += line.slice(6);
          }
          try {
            on(event, JSON.parse(data));
          } catch {
            // a malformed event is skipped
          }
        }
      }
    } catch {
      // dropped or refused: retry below
    }
    on("closed", null);
    setTimeout(() => void connect(), 2000);
  };
  void connect();
}
