// The tool surface over the real transports: annotations on every tool of tools/list, output
// schemas on the data tools with structuredContent that validates against them, and read-only
// mode — `drsg-mcp --read-only`, DRSG_MCP_MODE=read, and `drsg serve` both ways — listing and
// serving no write tool (MCP and /rpc); a mode that is not one is a start-up error.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { PACKAGE_ROOT } from "../../src/paths.js";
import { TOOLS } from "../../src/tools/index.js";
import { connect, runMcp, type Sandbox, sandbox, smallDb } from "../mcp/helpers.js";
import { strongToken } from "../../src/server/state.js";

const DRSG = join(PACKAGE_ROOT, "bin", "drsg.js");
// A token of real strength (drsg serve refuses fewer than 32 random bytes).
const TOKEN = strongToken(); // drsg serve refuses a token of fewer than 32 random bytes
const WRITERS = TOOLS.filter((t) => !t.readOnly).map((t) => t.name).sort();
// What read-only mode lists under no name: the writers without a read variant (cypher keeps its reads).
const HIDDEN = TOOLS.filter((t) => !t.readOnly && !t.readVariant).map((t) => t.name).sort();
const DATA_TOOLS = ["list_planes", "describe_plane", "get_node", "algo", "changes", "cypher", "query"];

type Listed = { name: string; annotations?: Record<string, unknown>; outputSchema?: Record<string, unknown> };

let sb: Sandbox;
let db: string;
before(() => {
  sb = sandbox();
  db = join(sb.cwd, "graph.drsg");
  smallDb(db);
});
after(() => sb.cleanup());

describe("stdio", () => {
  test("every tool is annotated; destructive and open-world only where they should be; data tools have output schemas", async () => {
    const s = await connect(sb, ["--db", db]);
    try {
      const { tools } = (await s.client.listTools()) as { tools: Listed[] };
      assert.ok(WRITERS.length >= 5 && WRITERS.every((w) => tools.some((t) => t.name === w)), "read-write by default");
      for (const t of tools) {
        const a = t.annotations ?? {};
        assert.equal(typeof a.title, "string", `${t.name} has a title`);
        for (const h of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"])
          assert.equal(typeof a[h], "boolean", `${t.name} says ${h}`);
        assert.equal(a.readOnlyHint, !WRITERS.includes(t.name), `${t.name} readOnlyHint`);
      }
      const destructive = tools.filter((t) => t.annotations?.destructiveHint).map((t) => t.name).sort();
      // cypher can delete (DELETE / DETACH DELETE with confirm): destructive too.
      assert.deepEqual(destructive, ["cypher", "detach", "drop_plane", "unmount"]);
      const open = tools.filter((t) => t.annotations?.openWorldHint).map((t) => t.name).sort();
      assert.deepEqual(open, ["attach", "attachments"]);
      const withOutput = tools.filter((t) => t.outputSchema).map((t) => t.name).sort();
      assert.deepEqual(withOutput, [...DATA_TOOLS].sort());

      // structuredContent beside the text, validating against the listed schema.
      const ajv = new AjvJsonSchemaValidator();
      const calls: [string, Record<string, unknown>][] = [
        ["list_planes", {}],
        ["describe_plane", { plane: "p" }],
        ["get_node", { plane: "p", key: "app/main.run" }],
        ["get_node", { plane: "p", key: "nothing" }],
        ["algo", { plane: "p", algo: "pagerank" }],
        ["algo", { plane: "p", algo: "louvain" }],
        ["cypher", { plane: "p", query: "MATCH (n) RETURN n.key AS key ORDER BY key LIMIT 3" }],
        ["query", { plane: "p", plan: { steps: [{ op: "scan", as: "n" }, { op: "project", columns: ["n.key"] }, { op: "limit", n: 2 }] } }],
        ["changes", { plane: "p", since: 0 }],
        ["list_planes", { as_of: 1 }],
      ];
      for (const [name, args] of calls) {
        const r = await s.client.callTool({ name, arguments: args });
        assert.notEqual(r.isError, true, `${name}: ${JSON.stringify(r.content)}`);
        assert.ok(r.structuredContent, `${name} answers structuredContent`);
        const schema = tools.find((t) => t.name === name)!.outputSchema!;
        const v = ajv.getValidator(schema as never)(r.structuredContent);
        assert.ok(v.valid, `${name}: ${v.errorMessage}`);
        assert.ok((r.content as { text: string }[])[0]!.text.length > 0, `${name} has text too`);
      }
      const np = (await s.client.callTool({ name: "get_node", arguments: { plane: "p", key: "app/main.run" } })) as unknown as {
        structuredContent: { node: { key: string } };
      };
      assert.equal(np.structuredContent.node.key, "app/main.run");
    } finally {
      await s.close();
    }
  });

  for (const [how, args, env] of [
    ["--read-only", ["--read-only"], {}],
    ["DRSG_MCP_MODE=read", [], { DRSG_MCP_MODE: "read" }],
  ] as [string, string[], Record<string, string>][]) {
    test(`${how}: no write tool is listed or served`, async () => {
      const s = await connect(sb, ["--db", db, ...args], env);
      try {
        const { tools } = (await s.client.listTools()) as { tools: Listed[] };
        assert.ok(tools.length > 10);
        assert.deepEqual(
          tools.filter((t) => t.annotations?.readOnlyHint !== true).map((t) => t.name),
          [],
        );
        for (const w of HIDDEN) assert.ok(!tools.some((t) => t.name === w), `${w} not listed`);
        const r = await s.call("write_nodes", { plane: "p", nodes: [{ key: "x", labels: ["X"] }] });
        assert.equal(r.isError, true);
        assert.match(r.text, /write_nodes/);
        // cypher is served for reads: a MATCH answers, a write (even confirmed) is refused READ_ONLY.
        const listed = tools.find((t) => t.name === "cypher");
        assert.ok(listed, "cypher listed for reads");
        const q = await s.call("cypher", { plane: "p", query: "MATCH (n) RETURN count(n) AS c" });
        assert.equal(q.isError, false, q.text);
        for (const query of ["CREATE (n:X {key: 'w'})", "MATCH (n) DETACH DELETE n"]) {
          const w = await s.call("cypher", { plane: "p", query });
          assert.equal(w.isError, true, query);
          assert.match(w.text, /READ_ONLY/, query);
        }
        const confirmed = await s.call("cypher", { plane: "p", query: "MATCH (n) DETACH DELETE n", confirm: true });
        assert.equal(confirmed.isError, true, "confirm is not an input of the read variant");
        const read = await s.call("list_planes", {});
        assert.equal(read.isError, false);
      } finally {
        await s.close();
      }
    });
  }

  test("DRSG_MCP_MODE that is not a mode: a start-up error naming the variable, nothing served", () => {
    const r = runMcp(sb, ["--db", db], { DRSG_MCP_MODE: "readonyl" });
    assert.equal(r.status, 2);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /BAD_ENV.*DRSG_MCP_MODE/);
  });

  test("--help documents --read-only", () => {
    const r = runMcp(sb, ["--help"]);
    assert.match(r.stderr, /--read-only/);
    assert.match(r.stderr, /DRSG_MCP_MODE=read/);
  });
});

interface Served {
  child: ChildProcess;
  url: string;
  origin: string;
  stop(): Promise<void>;
}

/** `drsg serve` on a free loopback port; resolves once it prints its URL. */
function serve(args: string[], env: Record<string, string>): Promise<Served> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DRSG, "serve", ...args, "--addr", "127.0.0.1:0"], {
      env: { ...sb.env, DRSG_TOKEN: TOKEN, ...env },
      cwd: sb.cwd,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let err = "";
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 20_000);
    child.stderr!.on("data", (d: Buffer) => {
      err += d.toString();
      const m = /drsg serve: (http:\/\/[^\s]+\/mcp)/.exec(err);
      if (!m) return;
      clearTimeout(timer);
      resolve({
        child,
        url: m[1]!,
        origin: new URL(m[1]!).origin,
        stop: () =>
          new Promise<void>((r) => {
            if (child.exitCode !== null) return r();
            child.once("exit", () => r());
            child.kill("SIGTERM");
          }),
      });
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited ${code}: ${err}`));
    });
  });
}

describe("drsg serve", () => {
  for (const [how, args, env] of [
    ["DRSG_MCP_MODE=read", [], { DRSG_MCP_MODE: "read" }],
    ["--read-only", ["--read-only"], {}],
  ] as [string, string[], Record<string, string>][]) {
    test(`${how}: MCP over HTTP and /rpc list no write tool`, async () => {
      const s = await serve(["--db", db, ...args], env);
      const c = new Client({ name: "surface-test", version: "0" });
      try {
        await c.connect(new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
        const { tools } = (await c.listTools()) as { tools: Listed[] };
        assert.ok(tools.length > 10);
        for (const w of HIDDEN) assert.ok(!tools.some((t) => t.name === w), `${w} not listed over HTTP`);
        assert.ok(tools.every((t) => t.annotations?.readOnlyHint === true));
        const r = await c.callTool({ name: "drop_plane", arguments: { name: "p", confirm: true } });
        assert.equal(r.isError, true);
        const read = (await c.callTool({ name: "cypher", arguments: { plane: "p", query: "MATCH (n) RETURN count(n) AS c" } })) as CallToolResult;
        assert.notEqual(read.isError, true);
        const del = (await c.callTool({ name: "cypher", arguments: { plane: "p", query: "MATCH (n) DETACH DELETE n" } })) as CallToolResult;
        assert.equal(del.isError, true);
        assert.match(JSON.stringify(del.content), /READ_ONLY/);
        // structuredContent over HTTP too (the fast path).
        const lp = await c.callTool({ name: "list_planes", arguments: {} });
        assert.ok(lp.structuredContent);
        const rpc = await fetch(`${s.origin}/rpc`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "list_tools" }),
        });
        const listed = ((await rpc.json()) as { result: { name: string }[] }).result.map((t) => t.name);
        for (const w of HIDDEN) assert.ok(!listed.includes(w), `${w} not in /rpc list_tools`);
        const call = await fetch(`${s.origin}/rpc`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
          body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "create_plane", params: { name: "q" } }),
        });
        assert.equal(((await call.json()) as { error: { code: number } }).error.code, -32601);
      } finally {
        await c.close().catch(() => undefined);
        await s.stop();
      }
    });
  }
  test("a read session (x-drsg-mode: read, as drsg-mcp --read-only relays) on a read-write server: cypher reads, writes refused", async () => {
    const s = await serve(["--db", db], {});
    const c = new Client({ name: "surface-test", version: "0" });
    try {
      const headers = { Authorization: `Bearer ${TOKEN}`, "x-drsg-mode": "read" };
      await c.connect(new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers } }));
      const { tools } = (await c.listTools()) as { tools: Listed[] };
      for (const w of HIDDEN) assert.ok(!tools.some((t) => t.name === w), `${w} not listed in a read session`);
      const cy = tools.find((t) => t.name === "cypher");
      assert.equal(cy?.annotations?.readOnlyHint, true, "the read variant is listed");
      const read = (await c.callTool({ name: "cypher", arguments: { plane: "p", query: "MATCH (n) RETURN count(n) AS c" } })) as CallToolResult;
      assert.notEqual(read.isError, true, JSON.stringify(read.content));
      const before = JSON.stringify(read.structuredContent);
      const w = (await c.callTool({ name: "cypher", arguments: { plane: "p", query: "CREATE (n:X {key: 'read-session'})" } })) as CallToolResult;
      assert.equal(w.isError, true);
      assert.match(JSON.stringify(w.content), /READ_ONLY/);
      const again = (await c.callTool({ name: "cypher", arguments: { plane: "p", query: "MATCH (n) RETURN count(n) AS c" } })) as CallToolResult;
      assert.equal(JSON.stringify(again.structuredContent), before, "nothing written");
    } finally {
      await c.close().catch(() => undefined);
      await s.stop();
    }
  });
});
