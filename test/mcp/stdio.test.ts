// The drsg-mcp contract (DESIGN §9), against the real binary: how the database is named (--db, a
// bare path, $DRSG_DB, ./graph.drsg), --help and --version, argument errors, a missing database
// (an error saying how to build one; nothing created), stdout carrying only JSON-RPC, logs on
// stderr and in $DRSG_LOG_DIR, the instructions at initialize, strict tool schemas, and the
// exclusive open held for the life of the process.
import assert from "node:assert/strict";
import { copyFileSync, existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { INSTRUCTIONS } from "../../src/mcp/server.js";
import { version } from "../../src/version.js";
import { buildFixtureDb } from "../tools/graph-fixture.js";
import { type Sandbox, connect, rawSession, runMcp, sandbox, smallDb } from "./helpers.js";

/** Which database a session serves: the plane list names it through the plane we wrote. */
async function servesPlane(sb: Sandbox, args: string[], env: Record<string, string> = {}): Promise<string> {
  const s = await connect(sb, args, env);
  try {
    const r = await s.call("list_planes", {});
    assert.ok(!r.isError, r.text);
    return r.text;
  } finally {
    await s.close();
  }
}

describe("drsg-mcp: naming the database", () => {
  let sb: Sandbox;
  let db: string;
  before(() => {
    sb = sandbox();
    db = join(sb.cwd, "..", "named.drsg");
    smallDb(db);
  });
  after(() => sb.cleanup());

  test("--db PATH, --db=PATH and a bare PATH", async () => {
    assert.match(await servesPlane(sb, ["--db", db]), /\bp\b/);
    assert.match(await servesPlane(sb, [`--db=${db}`]), /\bp\b/);
    assert.match(await servesPlane(sb, [db]), /\bp\b/);
  });

  test("$DRSG_DB when no path is given", async () => {
    assert.match(await servesPlane(sb, [], { DRSG_DB: db }), /\bp\b/);
  });

  test("./graph.drsg in the working directory by default", async () => {
    copyFileSync(db, join(sb.cwd, "graph.drsg"));
    try {
      assert.match(await servesPlane(sb, []), /\bp\b/);
    } finally {
      for (const f of readdirSync(sb.cwd)) if (f.startsWith("graph.drsg")) (await import("node:fs")).rmSync(join(sb.cwd, f));
    }
  });
});

describe("drsg-mcp: arguments and a missing database", () => {
  let sb: Sandbox;
  before(() => {
    sb = sandbox();
  });
  after(() => sb.cleanup());

  test("--help and -h print the usage and exit 0, leaving stdout empty", () => {
    for (const a of ["--help", "-h"]) {
      const r = runMcp(sb, [a]);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, /^usage: drsg-mcp \[--db PATH \| PATH\]/);
      assert.match(r.stderr, /DRSG_DB/);
    }
  });

  test("--version and -V print the version", () => {
    for (const a of ["--version", "-V"]) {
      const r = runMcp(sb, [a]);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, "");
      assert.equal(r.stderr.trim(), `drsg-mcp ${version()}`);
    }
  });

  test("an unknown option is an error (exit 2), never taken for a database", () => {
    for (const args of [["--bogus"], ["-x"], ["--db", "a.drsg", "--verbose"]]) {
      const r = runMcp(sb, args);
      assert.equal(r.status, 2, `${args.join(" ")}: ${r.stderr}`);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, /^error \[BAD_INPUT\]: drsg-mcp: unknown option/m);
    }
    assert.deepEqual(readdirSync(sb.cwd), []);
  });

  test("two database names are an error (exit 2)", () => {
    for (const args of [["a.drsg", "b.drsg"], ["--db", "a.drsg", "--db", "b.drsg"], ["--db", "a.drsg", "b.drsg"], ["--db"]]) {
      const r = runMcp(sb, args);
      assert.equal(r.status, 2, `${args.join(" ")}: ${r.stderr}`);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, /^error \[BAD_INPUT\]: drsg-mcp: (two databases named|--db needs a PATH)/m);
    }
  });

  test("a missing database is an error saying how to build one, and nothing is created", () => {
    for (const [args, env] of [
      [["--db", "missing.drsg"], {}],
      [[], { DRSG_DB: join(sb.cwd, "env.drsg") }],
      [[], {}],
    ] as [string[], Record<string, string>][]) {
      const r = runMcp(sb, args, env);
      assert.equal(r.status, 1, r.stderr);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, /error \[DB_MISSING\]/);
      assert.match(r.stderr, /drsg digest <dir> --apply --db /);
    }
    assert.deepEqual(readdirSync(sb.cwd), [], "a missing database must not be created");
  });
});

describe("drsg-mcp: a session", () => {
  let sb: Sandbox;
  let db: string;
  before(() => {
    sb = sandbox();
    db = join(sb.cwd, "..", "s.drsg");
    smallDb(db);
  });
  after(() => sb.cleanup());

  test("stdout carries only JSON-RPC; logs go to stderr and to $DRSG_LOG_DIR", async () => {
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
    };
    const r = await rawSession(
      sb,
      ["--db", db],
      [
        init,
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", id: 2, method: "tools/list" },
        { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "list_planes", arguments: {} } },
        { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "grep", arguments: { plane: "p", pattern: "x" } } },
        { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "no_such_tool", arguments: {} } },
        "this is not json",
        { jsonrpc: "2.0", id: 6, method: "no/such/method" },
      ],
      [1, 2, 3, 4, 5, 6],
    );
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.split("\n").filter((l) => l !== "");
    assert.ok(lines.length >= 6, r.stdout);
    const ids = new Set<unknown>();
    for (const l of lines) {
      const m = JSON.parse(l) as { jsonrpc?: string; id?: unknown; result?: unknown; error?: unknown };
      assert.equal(m.jsonrpc, "2.0", l);
      ids.add(m.id);
    }
    for (const id of [1, 2, 3, 4, 5, 6]) assert.ok(ids.has(id), `no answer to request ${id}`);
    assert.ok(r.stdout.endsWith("\n"));
    assert.match(r.stderr, /drsg-mcp\[\d+\] serving .*s\.drsg over stdio/);
    const logs = readdirSync(sb.logDir).filter((f) => f.startsWith("drsg-mcp."));
    assert.equal(logs.length, 1, `log files: ${readdirSync(sb.logDir).join(", ")}`);
    assert.match(readFileSync(join(sb.logDir, logs[0]!), "utf8"), /serving .*s\.drsg over stdio/);
  });

  test("stdout stays protocol-only through a rebuild (parse workers) and the verbs on a digested plane", async () => {
    const fx = await buildFixtureDb("verbs-ts");
    try {
      const call = (id: number, name: string, args: Record<string, unknown>) => ({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name, arguments: { plane: "verbs-ts", ...args } },
      });
      const r = await rawSession(
        sb,
        ["--db", fx.db],
        [
          {
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
          },
          { jsonrpc: "2.0", method: "notifications/initialized" },
          call(2, "rebuild", {}),
          call(3, "context", { name: "Cart.addItem" }),
          call(4, "grep", { pattern: "this.lines", context: 2 }),
          call(5, "snippet", { name: "Cart.addItem" }),
          call(6, "impact", { name: "log" }),
        ],
        [1, 2, 3, 4, 5, 6],
      );
      const lines = r.stdout.split("\n").filter((l) => l !== "");
      for (const l of lines) assert.equal((JSON.parse(l) as { jsonrpc?: string }).jsonrpc, "2.0", l);
      const byId = new Map(lines.map((l) => JSON.parse(l) as { id?: number; result?: { isError?: boolean; content: { text: string }[] } }).map((m) => [m.id, m]));
      for (const id of [2, 3, 4, 5, 6]) assert.equal(byId.get(id)?.result?.isError, false, JSON.stringify(byId.get(id)));
    } finally {
      fx.cleanup();
    }
  });

  test("initialize returns the instructions; every tool schema refuses unknown fields", async () => {
    const s = await connect(sb, ["--db", db]);
    try {
      const instructions = s.client.getInstructions() ?? "";
      assert.equal(instructions, INSTRUCTIONS);
      for (const w of ["list_planes", "describe_plane", "context", "grep"]) assert.ok(instructions.includes(w), w);
      const { tools } = await s.client.listTools();
      assert.ok(tools.some((t) => t.name === "grep") && tools.some((t) => t.name === "snippet"));
      for (const t of tools) {
        assert.equal((t.inputSchema as { additionalProperties?: unknown }).additionalProperties, false, `${t.name} accepts unknown fields`);
        const r = await s.client.callTool({ name: t.name, arguments: { surely_not_a_field: 1 } }).then(
          (x) => ({ isError: x.isError === true, text: JSON.stringify(x.content) }),
          (e: Error) => ({ isError: true, text: e.message }),
        );
        assert.ok(r.isError, `${t.name} took an unknown field: ${r.text}`);
      }
    } finally {
      await s.close();
    }
  });

  test("the exclusive open is held for the life of the process: a second drsg-mcp gets DB_LOCKED naming the pid", async () => {
    const s = await connect(sb, ["--db", db]);
    try {
      const pid = s.transport.pid;
      assert.ok(pid);
      await s.call("list_planes", {});
      await new Promise((r) => setTimeout(r, 300));
      const second = runMcp(sb, ["--db", db]);
      assert.equal(second.status, 1, second.stderr);
      assert.equal(second.stdout, "");
      assert.match(second.stderr, /error \[DB_LOCKED\]/);
      assert.match(second.stderr, new RegExp(`process ${pid}\\b`));
      // Still held after more calls; the first session keeps answering.
      assert.ok(!(await s.call("list_planes", {})).isError);
      assert.match(runMcp(sb, ["--db", db]).stderr, /DB_LOCKED/);
    } finally {
      await s.close();
    }
    // Released when the process ends.
    await new Promise((r) => setTimeout(r, 200));
    assert.match(await servesPlane(sb, ["--db", db]), /\bp\b/);
    assert.ok(existsSync(db));
  });
});
