// drsg serve as a real process on loopback: health, token, Host allow-list, body cap, refusal
// of non-loopback binds without a token, MCP sessions over Streamable HTTP (the SDK's real
// Client), session reclaiming, and JSON-RPC.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { PACKAGE_ROOT } from "../../src/paths.js";
import { activePlugins } from "../../src/plugin/registry.js";
import { openStore } from "../../src/store/store.js";
import { digest } from "../../src/sync/digest.js";
import { makeRepo } from "../git/fixture.js";

const DRSG = join(PACKAGE_ROOT, "bin", "drsg.js");
const TOKEN = randomBytes(32).toString("base64url");

export interface Served {
  child: ChildProcess;
  url: string;
  origin: string;
  stderr: () => string;
  stop(): Promise<void>;
}

/** Start `drsg serve` on a free port; resolves once it prints its URL. */
export function serve(args: string[], env: NodeJS.ProcessEnv): Promise<Served> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DRSG, "serve", ...args, "--addr", "127.0.0.1:0"], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let err = "";
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 20_000);
    child.stderr!.on("data", (d: Buffer) => {
      err += d.toString();
      const m = /drsg serve: (http:\/\/[^\s]+\/mcp)/.exec(err);
      if (m) {
        clearTimeout(timer);
        const url = m[1]!;
        resolve({
          child,
          url,
          origin: new URL(url).origin,
          stderr: () => err,
          stop: () =>
            new Promise<void>((r) => {
              if (child.exitCode !== null) return r();
              child.once("exit", () => r());
              child.kill("SIGTERM");
            }),
        });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited ${code}: ${err}`));
    });
  });
}

async function fixtureDb(): Promise<{ db: string; repo: string }> {
  const repo = mkdtempSync(join(tmpdir(), "drsg-serve-repo-"));
  makeRepo(repo, [
    {
      files: {
        "package.json": JSON.stringify({ name: "svc" }),
        "src/a.ts": "export function a() { return b(); }\nexport function b() { return 1; }\n",
      },
      message: "init",
    },
  ]);
  const db = join(mkdtempSync(join(tmpdir(), "drsg-serve-db-")), "g.drsg");
  const store = openStore(db, { create: true });
  await digest({ dir: repo, plugins: activePlugins(), store, plane: "svc" });
  store.close();
  return { db, repo };
}

function rpc(origin: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${origin}/rpc`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}`, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

describe("drsg serve with a token", () => {
  let s: Served;
  before(async () => {
    const { db } = await fixtureDb();
    s = await serve(["--db", db], { DRSG_TOKEN: TOKEN, DRSG_SESSION_IDLE_MS: "3000", DRSG_MAX_BODY_BYTES: "100000" });
  });
  after(async () => s.stop());

  test("GET /health answers without a token and does no database work", async () => {
    const r = await fetch(`${s.origin}/health`);
    assert.equal(r.status, 200);
    assert.deepEqual(await r.json(), { status: "ok", pid: s.child.pid });
  });

  test("a missing or wrong token is 401; a foreign Host is 403", async () => {
    assert.equal((await rpc(s.origin, { jsonrpc: "2.0", id: 1, method: "list_planes" }, { authorization: "" })).status, 401);
    assert.equal((await rpc(s.origin, { jsonrpc: "2.0", id: 1, method: "list_planes" }, { authorization: "Bearer nope" })).status, 401);
    const mcp = await fetch(s.url, { method: "POST", headers: { authorization: "Bearer nope" }, body: "{}" });
    assert.equal(mcp.status, 401);
    // fetch will not let a test set Host, so speak HTTP/1.1 by hand.
    const { request } = await import("node:http");
    const status = await new Promise<number>((res, rej) => {
      const u = new URL(s.origin);
      const req = request(
        { host: u.hostname, port: u.port, path: "/rpc", method: "POST", headers: { host: "evil.example", authorization: `Bearer ${TOKEN}` } },
        (r) => {
          r.resume();
          res(r.statusCode ?? 0);
        },
      );
      req.on("error", rej);
      req.end("{}");
    });
    assert.equal(status, 403);
  });

  test("an oversized body is 413", async () => {
    const r = await rpc(s.origin, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "list_planes", params: { pad: "x".repeat(200_000) } }));
    assert.equal(r.status, 413);
  });

  test("JSON-RPC exposes the tools; bad calls get JSON-RPC errors", async () => {
    const ok = (await (await rpc(s.origin, { jsonrpc: "2.0", id: 7, method: "context", params: { plane: "svc", name: "a" } })).json()) as {
      id: number;
      result: { text: string };
    };
    assert.equal(ok.id, 7);
    assert.match(ok.result.text, /^svc\/src\/a\.a|synced: commit/m);
    const unknown = (await (await rpc(s.origin, { jsonrpc: "2.0", id: 8, method: "nope" })).json()) as { error: { code: number } };
    assert.equal(unknown.error.code, -32601);
    const bad = (await (await rpc(s.origin, { jsonrpc: "2.0", id: 9, method: "context", params: { plane: 3 } })).json()) as {
      error: { code: number };
    };
    assert.equal(bad.error.code, -32602);
    const parse = (await (await rpc(s.origin, "{not json")).json()) as { error: { code: number } };
    assert.equal(parse.error.code, -32700);
  });

  test("MCP sessions over Streamable HTTP share the database; a reclaimed session gets 404", async () => {
    const mk = async () => {
      const c = new Client({ name: "test", version: "1" });
      const t = new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } });
      await c.connect(t);
      return { c, t };
    };
    const one = await mk();
    const two = await mk();
    const tools = (await one.c.listTools()).tools.map((t) => t.name);
    assert.ok(tools.includes("context") && tools.includes("list_planes"));
    const a = await one.c.callTool({ name: "list_planes", arguments: {} });
    const b = await two.c.callTool({ name: "list_planes", arguments: {} });
    assert.deepEqual(a.content, b.content);
    // A write in one session is visible to the other at once; reserved props are stripped.
    await one.c.callTool({ name: "create_plane", arguments: { name: "notes" } });
    const w = await one.c.callTool({
      name: "write_nodes",
      arguments: { plane: "notes", nodes: [{ key: "note:1", labels: ["Note"], properties: { text: "hi", _generated_by: "ts@9" } }] },
    });
    assert.match((w.content as { text: string }[])[0]!.text, /reserved properties stripped: _generated_by/);
    const seen = await two.c.callTool({ name: "get_node", arguments: { plane: "notes", key: "note:1" } });
    const seenText = (seen.content as { text: string }[])[0]!.text;
    assert.match(seenText, /"text": "hi"/);
    assert.doesNotMatch(seenText, /_generated_by/);
    // A live session's GET (the standalone event stream) is 405: drsg sends no server-initiated
    // messages; the SDK's client took that as "no stream" and its calls above went through.
    const g = await fetch(s.url, {
      method: "GET",
      headers: { authorization: `Bearer ${TOKEN}`, "mcp-session-id": two.t.sessionId!, accept: "text/event-stream" },
    });
    assert.equal(g.status, 405);
    assert.equal(g.headers.get("allow"), "POST, DELETE");
    const sid = one.t.sessionId!;
    await one.c.close();
    // Wait past the idle window (3 s: a loaded machine can leave 400 ms between a session's own
    // requests), then use the old session id: 404, so clients re-initialise.
    await new Promise((r) => setTimeout(r, 4500));
    const r = await fetch(s.url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${TOKEN}`,
        "mcp-session-id": sid,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    assert.equal(r.status, 404);
    await two.c.close().catch(() => undefined);
  });
});

describe("drsg serve keeps answers per database state", () => {
  let s: Served;
  before(async () => {
    const { db } = await fixtureDb();
    s = await serve(["--db", db], { DRSG_TOKEN: TOKEN });
  });
  after(async () => s.stop());

  test("the same question after a write gets the written state, over MCP and JSON-RPC", async () => {
    const c = new Client({ name: "test", version: "1" });
    await c.connect(new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
    const text = async (name: string, args: Record<string, unknown>) =>
      ((await c.callTool({ name, arguments: args })).content as { text: string }[])[0]!.text;
    const viaRpc = async (method: string, params: Record<string, unknown>) =>
      ((await (await rpc(s.origin, { jsonrpc: "2.0", id: 1, method, params })).json()) as { result: { text: string } }).result.text;
    await text("create_plane", { name: "kept" });
    await text("write_nodes", { plane: "kept", nodes: [{ key: "k:1", labels: ["Note"], properties: { text: "first" } }] });
    // Asked twice in one state: the same answer both times (the second is the kept one).
    const q = { plane: "kept", key: "k:1" };
    const one = await text("get_node", q);
    assert.match(one, /"text": "first"/);
    assert.equal(await text("get_node", q), one);
    assert.equal(await viaRpc("get_node", q), one);
    assert.match(await text("list_planes", {}), /^kept {2}1 node\(s\), 0 edge\(s\)/m);
    assert.match(await text("context", { plane: "kept", name: "k:2" }), /no symbol matches `k:2`/);
    assert.doesNotMatch(await text("context", { plane: "kept", name: "k:1" }), /k:2/);
    assert.match(await viaRpc("get_node", { plane: "kept", key: "k:2" }), /no symbol matches `k:2`/);
    // Writes move the database on: no kept answer about the old state is served again.
    await text("write_nodes", { plane: "kept", nodes: [{ key: "k:2", labels: ["Note"], properties: { text: "new" } }] });
    await text("write_edges", { plane: "kept", edges: [{ src_key: "k:1", dst_key: "k:2", type: "LINKS" }] });
    assert.match(await text("list_planes", {}), /^kept {2}2 node\(s\), 1 edge\(s\)/m);
    assert.match(await text("context", { plane: "kept", name: "k:2" }), /^k:2 /m);
    assert.match(await text("context", { plane: "kept", name: "k:1" }), /LINKS →[\s\S]*k:2/);
    assert.match(await viaRpc("get_node", { plane: "kept", key: "k:2" }), /"text": "new"/);
    // Many sessions asking one question at once all get the one answer.
    const same = await Promise.all(Array.from({ length: 20 }, () => text("context", { plane: "svc", name: "a" })));
    assert.equal(new Set(same).size, 1);
    assert.match(same[0]!, /synced: commit/);
    await c.close();
  });
});

describe("drsg serve refusals", () => {
  test("no DRSG_TOKEN: every programmatic client is refused, reads included", async () => {
    const { db } = await fixtureDb();
    const s = await serve(["--db", db], { DRSG_TOKEN: "" });
    try {
      const r = await rpc(s.origin, { jsonrpc: "2.0", id: 1, method: "list_planes" });
      assert.equal(r.status, 401);
      assert.equal((await fetch(`${s.origin}/health`)).status, 200);
    } finally {
      await s.stop();
    }
  });

  test("a non-loopback bind without a token refuses to start", async () => {
    const { db } = await fixtureDb();
    const r = spawnSync(process.execPath, [DRSG, "serve", "--db", db, "--addr", "0.0.0.0:0"], {
      env: { ...process.env, DRSG_TOKEN: "" },
      encoding: "utf8",
      timeout: 20_000,
    });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /FORBIDDEN/);
  });

  test("a non-number DRSG_MCP_TOOL_DEADLINE_SECS is a start-up error naming it", async () => {
    const { db } = await fixtureDb();
    const r = spawnSync(process.execPath, [DRSG, "serve", "--db", db, "--addr", "127.0.0.1:0"], {
      env: { ...process.env, DRSG_TOKEN: TOKEN, DRSG_MCP_TOOL_DEADLINE_SECS: "soon" },
      encoding: "utf8",
      timeout: 20_000,
    });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /BAD_ENV.*DRSG_MCP_TOOL_DEADLINE_SECS/);
  });
});
