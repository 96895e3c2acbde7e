// One stdio message over the transport's 10 MiB limit: the SDK's transport alone drops the line
// and closes, leaving drsg-mcp deaf while the host waits. Guarded (src/mcp/stdio-guard.ts), a
// request over the limit gets a JSON-RPC error with its id — wherever the id sits in the
// object — and the session goes on; a notification over it is dropped; a line with no readable
// id makes drsg-mcp exit with the reason on stderr. Real drsg-mcp processes over real pipes.
import assert from "node:assert/strict";
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { TopLevelScanner } from "../../src/mcp/stdio-guard.js";
import { BIN, type Sandbox, sandbox, smallDb } from "../mcp/helpers.js";

const LIMIT = 10 * 1024 * 1024;

interface Proc {
  child: ChildProcessWithoutNullStreams;
  /** The reply with this id (waits for it). */
  reply(id: number | string): Promise<{ id: unknown; result?: unknown; error?: { code: number; message: string } }>;
  send(line: string): void;
  exited(): Promise<number | null>;
  stderr(): string;
}

function start(sb: Sandbox, db: string): Proc {
  const child = spawn(process.execPath, [BIN, "--db", db], { cwd: sb.cwd, env: sb.env, stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  const waiters: (() => void)[] = [];
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString("utf8");
    for (const w of waiters.splice(0)) w();
  });
  child.stderr.on("data", (d: Buffer) => {
    err += d.toString("utf8");
  });
  const exit = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  const find = (id: number | string) => {
    for (const line of out.split("\n")) {
      try {
        const m = JSON.parse(line) as { id?: unknown };
        if (m.id === id) return m;
      } catch {
        // partial
      }
    }
    return undefined;
  };
  return {
    child,
    send: (line) => void child.stdin.write(`${line}\n`),
    stderr: () => err,
    exited: () => exit,
    reply(id) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no reply with id ${id}; stdout:\n${out.slice(-2000)}\nstderr:\n${err}`)), 60_000);
        const look = () => {
          const m = find(id);
          if (m) {
            clearTimeout(timer);
            resolve(m as never);
          } else if (child.exitCode !== null) {
            clearTimeout(timer);
            reject(new Error(`exited ${child.exitCode} without a reply to ${id}: ${err}`));
          } else waiters.push(look);
        };
        look();
        void exit.then(() => {
          for (const w of waiters.splice(0)) w();
        });
      });
    },
  };
}

const init = JSON.stringify({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
});
const initialized = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });

describe("an oversize stdio message never leaves drsg-mcp deaf", () => {
  const sb = sandbox();
  const db = join(sb.cwd, "g.drsg");
  smallDb(db);
  after(() => sb.cleanup());

  test("a request over 10 MiB is answered with its id (last or first), and the next one too", { timeout: 120_000 }, async () => {
    const p = start(sb, db);
    try {
      p.send(init);
      await p.reply(0);
      p.send(initialized);
      const pad = "x".repeat(LIMIT + 1024);
      // The id after the huge params, as the SDK's client serialises it.
      p.send(JSON.stringify({ jsonrpc: "2.0", method: "tools/call", params: { name: "context", arguments: { plane: "p", name: pad } }, id: 7 }));
      const r7 = await p.reply(7);
      assert.equal(r7.error?.code, -32600);
      assert.match(r7.error!.message, /over the 10485760-byte stdio limit/);
      p.send(JSON.stringify({ jsonrpc: "2.0", id: "first", method: "tools/call", params: { name: "context", arguments: { plane: "p", name: pad } } }));
      assert.equal((await p.reply("first")).error?.code, -32600);
      // A notification over the limit is dropped, not fatal.
      p.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { pad } }));
      p.send(JSON.stringify({ jsonrpc: "2.0", id: 8, method: "tools/list" }));
      const r8 = await p.reply(8);
      assert.ok(Array.isArray((r8.result as { tools?: unknown[] }).tools), "the session still answers");
      // A message just under the limit passes to the SDK as before (and is answered by it).
      const under = JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "describe", arguments: { plane: "p", name: "run" } }, pad: "" });
      p.send(under.replace('"pad":""', `"pad":"${"y".repeat(LIMIT - under.length - 64)}"`));
      const r9 = await p.reply(9);
      assert.ok(r9.result !== undefined || r9.error !== undefined);
      assert.equal(p.child.exitCode, null, "still running");
    } finally {
      p.child.kill();
    }
  });

  test("an oversize line with no readable id: drsg-mcp exits and says why on stderr", { timeout: 120_000 }, async () => {
    const p = start(sb, db);
    p.send(init);
    await p.reply(0);
    p.send("z".repeat(LIMIT + 10));
    const code = await p.exited();
    assert.equal(code, 1);
    assert.match(p.stderr(), /over the 10485760-byte stdio limit and is not a JSON object/);
  });
});

describe("the top-level scanner reads an id only at the top level", () => {
  const idOf = (text: string, split = 3): string | number | undefined => {
    const s = new TopLevelScanner();
    const b = Buffer.from(text);
    for (let i = 0; i < b.length; i += split) s.feed(b.subarray(i, i + split));
    return s.id();
  };
  test("cases", () => {
    assert.equal(idOf('{"jsonrpc":"2.0","id":5,"method":"x"}'), 5);
    assert.equal(idOf('{"params":{"id":99,"a":[{"id":3}]},"id":"real"}'), "real");
    assert.equal(idOf('{"params":{"id":99},"method":"m"}'), undefined);
    assert.equal(idOf('{"s":"\\"id\\":4","id" : 12 }'), 12);
    assert.equal(idOf('{"id":{"x":1}}'), undefined);
    assert.equal(idOf('{"id":1.5}'), undefined);
    assert.equal(idOf('[{"id":1}]'), undefined);
  });
});
