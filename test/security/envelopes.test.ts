// Broken JSON-RPC envelopes, each with an id, sent to a real `drsg serve` over /mcp (inside a
// live session, through both the fast path's server and the SDK transport's) and /rpc, and to a
// real drsg-mcp over stdio: every one gets an error reply carrying its id (or id null when the
// id itself is unreadable) — none is dropped in silence.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { rawSession, sandbox, smallDb } from "../mcp/helpers.js";
import { type Served, fixtureDb, serve, strongToken } from "./support.js";

const TOKEN = strongToken();

/** [what, message, the id its reply must carry (null: unreadable)]. */
const MCP_CASES: [string, unknown, string | number | null][] = [
  ["jsonrpc 1.0", { jsonrpc: "1.0", id: 1, method: "tools/list" }, 1],
  ["no jsonrpc", { id: 2, method: "tools/list" }, 2],
  ["no method", { jsonrpc: "2.0", id: 3 }, 3],
  ["method a number", { jsonrpc: "2.0", id: 4, method: 5 }, 4],
  ["method empty", { jsonrpc: "2.0", id: 5, method: "" }, 5],
  ["params a string", { jsonrpc: "2.0", id: 6, method: "tools/call", params: "x" }, 6],
  ["params an array", { jsonrpc: "2.0", id: 7, method: "tools/call", params: [1] }, 7],
  ["tools/call without name", { jsonrpc: "2.0", id: 8, method: "tools/call", params: {} }, 8],
  ["arguments a string", { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "context", arguments: "x" } }, 9],
  ["an extra member", { jsonrpc: "2.0", id: 10, method: "tools/list", extra: 1 }, 10],
  ["unknown method", { jsonrpc: "2.0", id: "s11", method: "nope" }, "s11"],
  ["method and result", { jsonrpc: "2.0", id: 12, method: "tools/list", result: {} }, 12],
  ["arguments the tool refuses", { jsonrpc: "2.0", id: 13, method: "tools/call", params: { name: "context", arguments: { plane: 5 } } }, 13],
  ["unknown tool", { jsonrpc: "2.0", id: 14, method: "tools/call", params: { name: "nope", arguments: {} } }, 14],
  ["_meta a string", { jsonrpc: "2.0", id: 15, method: "tools/call", params: { name: "list_planes", arguments: {}, _meta: "x" } }, 15],
  ["initialize again", { jsonrpc: "2.0", id: 16, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } }, 16],
  ["id an object", { jsonrpc: "2.0", id: { a: 1 }, method: "tools/list" }, null],
  ["id a fraction", { jsonrpc: "2.0", id: 1.5, method: "tools/list" }, null],
  ["id a boolean", { jsonrpc: "2.0", id: true, method: "tools/list" }, null],
  ["not an object", 17, null],
  ["a string", "hello", null],
];

interface Reply {
  id?: unknown;
  error?: { code: number; message: string };
  result?: { isError?: boolean };
}

/** Every reply in a body (one, or a batch's). */
function replies(text: string): Reply[] {
  const v = JSON.parse(text) as Reply | Reply[];
  return Array.isArray(v) ? v : [v];
}

/** A reply is an error answer: a JSON-RPC error, or (tools/call) a tool result flagged isError. */
function isErrorReply(r: Reply): boolean {
  return r.error !== undefined || r.result?.isError === true;
}

async function mcpSession(s: Served): Promise<(body: unknown) => Promise<{ status: number; text: string }>> {
  const base = { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${TOKEN}` };
  const init = await fetch(s.url, {
    method: "POST",
    headers: base,
    body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } }),
  });
  assert.equal(init.status, 200);
  await init.text();
  const headers = { ...base, "mcp-session-id": init.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-06-18" };
  await (await fetch(s.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).text();
  return async (body) => {
    const r = await fetch(s.url, { method: "POST", headers, body: JSON.stringify(body) });
    return { status: r.status, text: await r.text() };
  };
}

describe("broken envelopes get a reply with their id", () => {
  let fast: Served;
  let sdk: Served;
  before(async () => {
    const { db } = await fixtureDb();
    // Two servers on copies of one database: the fast path on, and off (the SDK transport alone).
    const { db: db2 } = await fixtureDb();
    fast = await serve(["--db", db], { DRSG_TOKEN: TOKEN });
    sdk = await serve(["--db", db2], { DRSG_TOKEN: TOKEN, DRSG_MCP_FAST_PATH: "0" });
  });
  after(async () => {
    await fast.stop();
    await sdk.stop();
  });

  for (const which of ["fast", "sdk"] as const)
    test(`/mcp (${which === "fast" ? "fast path on" : "SDK transport only"}): ${MCP_CASES.length} cases, and a batch with a broken member`, async () => {
      const post = await mcpSession(which === "fast" ? fast : sdk);
      let answered = 0;
      for (const [what, msg, id] of MCP_CASES) {
        const r = await post(msg);
        assert.ok(r.text.length > 0, `${what}: HTTP ${r.status} with no body`);
        const [reply] = replies(r.text);
        assert.equal(reply?.id ?? null, id, `${what}: reply ${r.text.slice(0, 300)}`);
        assert.ok(isErrorReply(reply!), `${what}: not an error: ${r.text.slice(0, 300)}`);
        answered++;
      }
      assert.equal(answered, MCP_CASES.length);
      const batch = await post([
        { jsonrpc: "2.0", id: 20, method: "tools/list" },
        { jsonrpc: "2.0", id: 21, method: "tools/call", params: "x" },
        { jsonrpc: "2.0", method: "notifications/cancelled", params: {} },
      ]);
      const ids = replies(batch.text).map((x) => x.id);
      assert.deepEqual(ids.sort(), [20, 21], batch.text);
    });

  test("/rpc: broken envelopes and params answered with their ids", async () => {
    const cases: [string, unknown, string | number | null, number][] = [
      ["jsonrpc 1.0", { jsonrpc: "1.0", id: 1, method: "list_planes" }, 1, -32600],
      ["no method", { jsonrpc: "2.0", id: 2 }, 2, -32600],
      ["method a number", { jsonrpc: "2.0", id: 3, method: 7 }, 3, -32600],
      ["params a string", { jsonrpc: "2.0", id: 4, method: "context", params: "x" }, 4, -32602],
      ["params the tool refuses", { jsonrpc: "2.0", id: 5, method: "context", params: { plane: 5 } }, 5, -32602],
      ["params an array", { jsonrpc: "2.0", id: 6, method: "context", params: ["svc", "a"] }, 6, -32602],
      ["unknown method", { jsonrpc: "2.0", id: "s7", method: "nope" }, "s7", -32601],
      ["id an object", { jsonrpc: "2.0", id: { a: 1 }, method: "list_planes" }, null, -32600],
      ["not an object", 8, null, -32600],
    ];
    for (const [what, msg, id, code] of cases) {
      const r = await fetch(`${fast.origin}/rpc`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` }, body: JSON.stringify(msg) });
      const [reply] = replies(await r.text());
      assert.equal(reply?.id ?? null, id, what);
      assert.equal(reply?.error?.code, code, `${what}: ${JSON.stringify(reply)}`);
    }
  });
});

describe("broken envelopes over stdio get a reply with their id", () => {
  const sb = sandbox();
  const db = join(sb.cwd, "g.drsg");
  smallDb(db);
  after(() => sb.cleanup());

  test(`${MCP_CASES.length} cases, a batch, a line that is not JSON`, { timeout: 60_000 }, async () => {
    const init = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } };
    const readable = MCP_CASES.filter((c) => c[2] !== null && c[0] !== "initialize again").map((c) => c[2] as string | number);
    const msgs = [init, { jsonrpc: "2.0", method: "notifications/initialized" }, ...MCP_CASES.filter((c) => c[0] !== "initialize again").map((c) => c[1]), [{ jsonrpc: "2.0", id: 30, method: "tools/list" }], "{not json", { jsonrpc: "2.0", id: 99, method: "tools/list" }];
    const r = await rawSession(sb, ["--db", db], msgs, [0, ...readable, 30, 99]);
    const got = r.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Reply);
    for (const id of [...readable, 30]) {
      const reply = got.find((x) => x.id === id);
      assert.ok(reply && isErrorReply(reply), `id ${JSON.stringify(id)}: ${JSON.stringify(reply)}`);
    }
    const nulls = got.filter((x) => x.id === null).length;
    assert.equal(nulls, MCP_CASES.filter((c) => c[2] === null).length + 1, "each unreadable id and the non-JSON line get an id-null error");
    assert.ok(got.find((x) => x.id === 99 && x.result !== undefined), "the session goes on");
  });
});
