// The .mcp.json relay: with no database named, drsg-mcp looks for a drsg server in the
// repository's .mcp.json; if it answers, the host's MCP session is pumped to it verbatim in
// both directions (so a newer server's tools pass through), and nothing local is opened.
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { log } from "../log.js";
import { expandEnv, findMcpJson, probeHealth, readMcpEntry } from "../server/endpoint.js";

/** Relay when a live drsg server is configured; resolves true after the relayed session ends. */
export async function relayIfConfigured(cwd = process.cwd()): Promise<boolean> {
  const file = findMcpJson(cwd);
  if (!file) return false;
  const entry = readMcpEntry(file);
  if (!entry) return false;
  const health = await probeHealth(entry.url, 1500);
  if (!health) {
    log("info", `${file} names ${entry.url}, which does not answer — opening the database instead`);
    return false;
  }
  const headers: Record<string, string> = {};
  if (entry.authorization) headers.Authorization = expandEnv(entry.authorization);
  const remote = new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers } });
  const local = new StdioServerTransport();
  log("info", `relaying this session to ${entry.url} (pid ${health.pid ?? "?"}, named by ${file})`);
  await new Promise<void>((resolve) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      void remote.close().catch(() => undefined);
      void local.close().catch(() => undefined);
      resolve();
    };
    local.onmessage = (m) => {
      remote.send(m).catch((e: unknown) => {
        log("error", `relay → server: ${String(e)}`);
        const id = (m as { id?: string | number }).id;
        if (id !== undefined)
          void local.send({ jsonrpc: "2.0", id, error: { code: -32000, message: `drsg relay: the server at ${entry.url} did not take the message: ${String(e)}` } });
      });
    };
    remote.onmessage = (m) => {
      void local.send(m).catch(() => finish());
    };
    local.onclose = finish;
    remote.onclose = finish;
    remote.onerror = (e) => log("warn", `relay: ${String(e)}`);
    process.stdin.once("end", finish);
    void remote.start().then(() => local.start()).catch((e: unknown) => {
      log("error", `relay could not start: ${String(e)}`);
      finish();
    });
  });
  return true;
}
