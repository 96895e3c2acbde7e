// The /mcp fast path for plain tools/call requests: two real HTTP servers on one digested store,
// one answering through the SDK's transport alone and one with the fast path, must answer every
// request byte for byte alike — the calls the fast path takes and the ones it hands back to the
// SDK (bad arguments, unknown tools, batches, _meta, refused headers, other methods).
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { GraphViews } from "../../src/graph/view.js";
import { activePlugins } from "../../src/plugin/registry.js";
import { type RunningServer, startServer } from "../../src/server/http.js";
import type { Store } from "../../src/store/store.js";
import { openStore } from "../../src/store/store.js";
import { digest } from "../../src/sync/digest.js";
import { TOOLS } from "../../src/tools/index.js";
import type { ToolContext } from "../../src/tools/tool.js";
import { makeRepo } from "../git/fixture.js";

const TOKEN = randomBytes(32).toString("base64url");
const ACCEPT = "application/json, text/event-stream";

interface Reply {
  status: number;
  type: string | null;
  body: string;
}

/** A raw MCP session over HTTP: initialize, initialized, then `post` sends one body. */
async function session(url: string): Promise<(body: unknown, headers?: Record<string, string>) => Promise<Reply>> {
  const base = { "content-type": "application/json", accept: ACCEPT, authorization: `Bearer ${TOKEN}` };
  const init = await fetch(url, {
    method: "POST",
    headers: base,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
  });
  assert.equal(init.status, 200);
  await init.text();
  const sid = init.headers.get("mcp-session-id")!;
  const withSession = { ...base, "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18" };
  const note = await fetch(url, { method: "POST", headers: withSession, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
  assert.equal(note.status, 202);
  return async (body, headers = {}) => {
    const r = await fetch(url, { method: "POST", headers: { ...withSession, ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
    return { status: r.status, type: r.headers.get("content-type"), body: await r.text() };
  };
}

const call = (id: unknown, name: string, args?: unknown, extra: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, ...(args === undefined ? {} : { arguments: args }), ...extra },
});

describe("the /mcp fast path answers as the SDK's transport does", () => {
  let store: Store;
  let sdk: RunningServer;
  let fast: RunningServer;

  before(async () => {
    const repo = mkdtempSync(join(tmpdir(), "drsg-fast-repo-"));
    makeRepo(repo, [
      {
        files: {
          "package.json": JSON.stringify({ name: "svc" }),
          "src/a.ts": "export function a() { return b(); }\nexport function b() { return 1; }\nexport class K { b() { return a(); } }\n",
        },
        message: "init",
      },
    ]);
    store = openStore(join(mkdtempSync(join(tmpdir(), "drsg-fast-db-")), "g.drsg"), { create: true });
    await digest({ dir: repo, plugins: activePlugins(), store, plane: "svc" });
    const ctx: ToolContext = { store, transport: "http", plugins: activePlugins, views: new GraphViews(store), extras: {} };
    const opts = { ctx, tools: TOOLS, host: "127.0.0.1", port: 0, token: TOKEN };
    sdk = await startServer({ ...opts, fastPath: false });
    fast = await startServer({ ...opts, fastPath: true });
  });
  after(async () => {
    await sdk.close();
    await fast.close();
    store.close();
  });

  test("every kind of request gets the same status, type and bytes from both", async () => {
    const viaSdk = await session(sdk.url);
    const viaFast = await session(fast.url);
    const cases: { why: string; body: unknown; headers?: Record<string, string>; fast: boolean }[] = [
      { why: "context of a name", body: call(1, "context", { plane: "svc", name: "a" }), fast: true },
      { why: "the same again (a kept answer)", body: call(2, "context", { plane: "svc", name: "a" }), fast: true },
      { why: "a string id", body: call("req-3", "impact", { plane: "svc", name: "b" }), fast: true },
      { why: "no arguments", body: call(4, "list_planes"), fast: true },
      { why: "a typed tool error (unknown plane)", body: call(5, "context", { plane: "nope", name: "a" }), fast: true },
      { why: "an ambiguous name", body: call(6, "context", { plane: "svc", name: "b" }), fast: true },
      { why: "arguments the schema refuses", body: call(7, "context", { plane: "svc" }), fast: false },
      { why: "an unknown argument", body: call(8, "context", { plane: "svc", name: "a", extra: 1 }), fast: false },
      { why: "an unknown tool", body: call(9, "nope", {}), fast: false },
      { why: "a progress token in _meta", body: call(10, "context", { plane: "svc", name: "a" }, { _meta: { progressToken: 1 } }), fast: false },
      { why: "a batch", body: [call(11, "list_planes")], fast: false },
      { why: "tools/list", body: { jsonrpc: "2.0", id: 12, method: "tools/list" }, fast: false },
      { why: "arguments that are not an object", body: call(13, "context", [1]), fast: false },
      { why: "a fractional id", body: call(14.5, "list_planes"), fast: false },
      { why: "an unsupported protocol version", body: call(15, "list_planes"), headers: { "mcp-protocol-version": "1999-01-01" }, fast: false },
      { why: "no event-stream in Accept", body: call(16, "list_planes"), headers: { accept: "application/json" }, fast: false },
      { why: "a text/plain body", body: call(17, "list_planes"), headers: { "content-type": "text/plain" }, fast: false },
    ];
    let taken = 0;
    for (const c of cases) {
      const before = fast.fastCalls();
      const a = await viaSdk(c.body, c.headers);
      const b = await viaFast(c.body, c.headers);
      assert.deepEqual(b, a, c.why);
      assert.equal(fast.fastCalls() - before, c.fast ? 1 : 0, `${c.why}: fast path ${c.fast ? "taken" : "not taken"}`);
      if (c.fast) {
        taken++;
        assert.equal(a.status, 200, c.why);
        assert.equal(a.type, "application/json", c.why);
      }
    }
    assert.equal(fast.fastCalls(), taken);
    assert.equal(sdk.fastCalls(), 0);
    // The answers are real: the first names the function and its commit.
    const first = JSON.parse((await viaFast(call(20, "context", { plane: "svc", name: "a" }))).body) as {
      result: { content: { text: string }[]; isError: boolean };
    };
    assert.equal(first.result.isError, false);
    assert.match(first.result.content[0]!.text, /svc\/src\/a\.a/);
    assert.match(first.result.content[0]!.text, /commit [0-9a-f]{7}/);
  });

  test("the SDK's own client is answered through the fast path", async () => {
    const client = new Client({ name: "t", version: "1" });
    const t = new StreamableHTTPClientTransport(new URL(fast.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } });
    await client.connect(t);
    const before = fast.fastCalls();
    const r = (await client.callTool({ name: "context", arguments: { plane: "svc", name: "K.b" } })) as { content: { text: string }[]; isError?: boolean };
    assert.notEqual(r.isError, true);
    assert.match(r.content[0]!.text, /svc\/src\/a\.K\.b/);
    const bad = (await client.callTool({ name: "context", arguments: { plane: "svc" } })) as { content: { text: string }[]; isError?: boolean };
    assert.equal(bad.isError, true);
    assert.equal(fast.fastCalls() - before, 1);
    await client.close();
  });
});
