// A CLI command sent to the live server that holds the repository's database: one JSON-RPC 2.0
// call on its `POST /rpc` (method = the tool's name, params = its input), with the bearer token
// from the trusted `.drsg/server.json`. The server answers `{result: {text}}`, or an error whose
// `data.code` is the DrsgError code (message `TOOL failed [CODE]: ...`), which becomes the same
// typed error an in-process run throws — so the CLI prints and exits the same either way.
import { DrsgError, ERROR_CODES, type ErrorCode } from "../model/errors.js";
import { type HttpAnswer, httpRequest } from "../server/endpoint.js";
import type { ServerRecord } from "../server/state.js";

/** The server could not be reached at all (it died after the probe): the caller may open the file itself. */
export class Unreachable extends Error {}

export interface RemoteAnswer {
  text: string;
  isError: boolean;
  code?: ErrorCode;
}

function asCode(v: unknown): ErrorCode {
  return typeof v === "string" && (ERROR_CODES as readonly string[]).includes(v) ? (v as ErrorCode) : "INTERNAL";
}

/** The message without the `TOOL failed [CODE]: ` prefix the server's text carries (the CLI prints the code once). */
export function stripFailed(tool: string, code: string, text: string): string {
  const prefix = `${tool} failed [${code}]: `;
  return text.startsWith(prefix) ? text.slice(prefix.length) : text;
}

/**
 * Call `method` on the server; resolves with its answer (a tool error is an answer with
 * isError and code, as runTool gives in-process). Throws Unreachable when nothing answers,
 * DrsgError for a refusal (token, method, params).
 */
export async function rpcCall(rec: ServerRecord, method: string, params: unknown, timeoutMs = 0): Promise<RemoteAnswer> {
  let res: HttpAnswer;
  try {
    res = await httpRequest(`http://${rec.addr}/rpc`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${rec.token}`, accept: "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      timeoutMs,
    });
  } catch (e) {
    throw new Unreachable(`drsg serve at ${rec.addr} (pid ${rec.pid}) did not answer: ${(e as Error).message}`);
  }
  const where = `drsg serve at ${rec.addr} (pid ${rec.pid})`;
  if (res.status === 401 || res.status === 403)
    throw new DrsgError(
      res.status === 401 ? "UNAUTHORIZED" : "FORBIDDEN",
      `${where} refused the CLI's call (${res.status}: ${res.text.slice(0, 200)}) — the token in .drsg/server.json is not the server's; drsg init restarts it with a fresh record`,
    );
  let body: { result?: { text?: unknown }; error?: { code?: number; message?: unknown; data?: { code?: unknown } } };
  try {
    body = JSON.parse(res.text) as typeof body;
  } catch {
    throw new DrsgError("SERVER_UNAVAILABLE", `${where} answered ${res.status} without JSON-RPC`);
  }
  if (body.error) {
    const msg = typeof body.error.message === "string" ? body.error.message : "error";
    if (body.error.code === -32000) {
      const code = asCode(body.error.data?.code ?? /\[([A-Z_]+)\]/.exec(msg)?.[1]);
      return { text: msg, isError: true, code };
    }
    if (body.error.code === -32601)
      throw new DrsgError("SERVER_UNAVAILABLE", `${where} does not serve '${method}' (a server started by another drsg version?) — drsg stop, then run the command again`);
    if (body.error.code === -32602) throw new DrsgError("BAD_INPUT", msg);
    throw new DrsgError("SERVER_UNAVAILABLE", `${where}: ${msg}`);
  }
  const text = body.result?.text;
  if (typeof text !== "string") throw new DrsgError("SERVER_UNAVAILABLE", `${where} answered '${method}' without a text result`);
  return { text, isError: false };
}
