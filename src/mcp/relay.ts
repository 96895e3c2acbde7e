// The relay: inside an initialised repository, drsg-mcp pumps the host's MCP session verbatim,
// both ways, to the repository's live `serve watch` (so the one open database, its watcher and a
// newer server's tools are shared by every host). The server is only ever the one in the record
// this user's drsg wrote (src/server/state.ts: untracked, ours, 0600, loopback, a live drsg pid
// answering /health) — never an address or a header read from a file in the tree. When the
// server goes away mid-session, it is started again and the session is re-opened on it.
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { log } from "../log.js";
import type { ServerRecord } from "../server/state.js";
import type { ServeMode } from "./mode.js";
import { guardStdin } from "./stdio-guard.js";

export interface RelayOptions {
  /** A live server again after the current one stopped answering (restart it), or undefined. */
  reconnect?: () => Promise<ServerRecord | undefined>;
  /** `read` (drsg-mcp --read-only, DRSG_MCP_MODE=read): the server opens the session with no write tool. */
  mode?: ServeMode;
}

const REINIT_ID = "drsg-relay-reinit";

function remoteFor(rec: ServerRecord, mode: ServeMode | undefined): StreamableHTTPClientTransport {
  // The token goes only to the recorded loopback address of the server drsg started.
  const headers: Record<string, string> = { Authorization: `Bearer ${rec.token}` };
  if (mode === "read") headers["x-drsg-mode"] = "read";
  return new StreamableHTTPClientTransport(new URL(`http://${rec.addr}/mcp`), { requestInit: { headers } });
}

/** Relay this process's stdio session to `rec` until the host closes it. */
export async function relayTo(first: ServerRecord, opts: RelayOptions = {}): Promise<void> {
  // The same guard as in-process: an over-limit message is answered, never leaves the host hanging.
  const local = new StdioServerTransport(guardStdin());
  let rec = first;
  // The host's session outlives anything going wrong on the way to the server: said, never fatal.
  process.on("unhandledRejection", (e) => log("error", `relay: ${String(e)}`));
  log("info", `relaying this session to drsg serve watch pid ${rec.pid} at http://${rec.addr}/mcp`);
  // What the host opened its session with: replayed on a restarted server (its answer is ours to drop).
  let initialize: JSONRPCMessage | undefined;
  let initialized: JSONRPCMessage | undefined;
  await new Promise<void>((resolve) => {
    let done = false;
    let remote: StreamableHTTPClientTransport = remoteFor(rec, opts.mode);
    let reopening: Promise<boolean> | undefined;
    const finish = () => {
      if (done) return;
      done = true;
      void remote.close().catch(() => undefined);
      void local.close().catch(() => undefined);
      resolve();
    };
    const attach = (t: StreamableHTTPClientTransport) => {
      remote = t;
      t.onmessage = (m) => {
        if ((m as { id?: unknown }).id === REINIT_ID) return;
        void local.send(m).catch(() => finish());
      };
      t.onerror = (e) => log("warn", `relay: ${String(e)}`);
      t.onclose = () => {
        if (remote === t) finish();
      };
    };
    /** Start the server again and re-open the session there; false when that is not possible. */
    const reopen = (): Promise<boolean> => {
      reopening ??= (async () => {
        if (!opts.reconnect || !initialize) return false;
        // A few tries: the first request after a restart can meet a connection the dead server left.
        for (let attempt = 1; attempt <= 3; attempt++) {
          const next = await opts.reconnect().catch((e: unknown) => {
            log("error", `relay: the server could not be started again: ${String(e)}`);
            return undefined;
          });
          if (!next) return false;
          rec = next;
          const old = remote;
          const t = remoteFor(rec, opts.mode);
          attach(t);
          void old.close().catch(() => undefined);
          try {
            await t.start();
            await t.send({ ...(initialize as object), id: REINIT_ID } as JSONRPCMessage);
            if (initialized) await t.send(initialized);
            log("info", `relay: session re-opened on drsg serve watch pid ${rec.pid} at http://${rec.addr}/mcp`);
            return true;
          } catch (e) {
            log("warn", `relay: re-opening the session on drsg serve watch pid ${rec.pid} (try ${attempt} of 3): ${String(e)}`);
            await new Promise((r) => setTimeout(r, 250 * attempt));
          }
        }
        // Said, and the message that needed it answered with an error; the next message tries again.
        log("error", `relay: the session could not be re-opened on drsg serve watch pid ${rec.pid}`);
        return false;
      })().finally(() => {
        reopening = undefined;
      });
      return reopening;
    };
    const forward = async (m: JSONRPCMessage) => {
      const method = (m as { method?: string }).method;
      if (method === "initialize") initialize = m;
      else if (method === "notifications/initialized") initialized = m;
      try {
        await remote.send(m);
      } catch (first) {
        log("warn", `relay → server: ${String(first)}`);
        let e = first;
        if (method !== "initialize" && (await reopen().catch(() => false))) {
          try {
            await remote.send(m);
            return;
          } catch (again) {
            e = again;
          }
        }
        const id = (m as { id?: string | number }).id;
        if (id !== undefined)
          void local
            .send({ jsonrpc: "2.0", id, error: { code: -32000, message: `drsg relay: the server at http://${rec.addr}/mcp did not take the message: ${String(e)}` } })
            .catch(() => finish());
      }
    };
    attach(remote);
    // forward answers every failure itself; nothing it does may end the relay by a rejection.
    local.onmessage = (m) => void forward(m).catch((e: unknown) => log("error", `relay: ${String(e)}`));
    local.onclose = finish;
    process.stdin.once("end", finish);
    void remote
      .start()
      .then(() => local.start())
      .catch((e: unknown) => {
        log("error", `relay could not start: ${String(e)}`);
        finish();
      });
  });
}
