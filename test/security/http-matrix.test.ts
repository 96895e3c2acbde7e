// The HTTP front door of a real `drsg serve`: the Origin / Host matrix (a foreign Origin is
// refused even with the right token; /health gets the Host check too; a DRSG_ALLOWED_HOSTS
// entry without a port matches that name on any port), the bind and token-strength refusals
// (made before the database is opened or the first sync runs), and per-request deadlines for
// headers and body (a trickled request gets 408 and its connection closed).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { weakToken } from "../../src/server/http.js";
import { DRSG, type Served, fixtureDb, raw, serve, strongToken } from "./support.js";
import { makeRepo } from "../git/fixture.js";

const TOKEN = strongToken();
const LIST = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "list_planes" });

describe("Origin and Host", () => {
  let s: Served;
  before(async () => {
    const { db } = await fixtureDb();
    s = await serve(["--db", db], { DRSG_TOKEN: TOKEN, DRSG_ALLOWED_HOSTS: "proxy.example, exact.example:9999" });
  });
  after(async () => s.stop());

  test("the matrix", async () => {
    const p = s.port;
    const auth = `Bearer ${TOKEN}`;
    // [path, Host, Origin (undefined: none), expected status]
    const rows: [string, string, string | undefined, number][] = [
      ["/rpc", `127.0.0.1:${p}`, undefined, 200],
      ["/rpc", `localhost:${p}`, undefined, 200],
      ["/rpc", `127.0.0.1:${p}`, `http://127.0.0.1:${p}`, 200],
      ["/rpc", `127.0.0.1:${p}`, `http://localhost:${p}`, 200],
      ["/rpc", `127.0.0.1:${p}`, "http://evil.example", 403],
      ["/rpc", `127.0.0.1:${p}`, "https://evil.example", 403],
      ["/rpc", `127.0.0.1:${p}`, "http://localhost", 403], // port 80: another server's page
      ["/rpc", `127.0.0.1:${p}`, `http://localhost:${p + 1}`, 403],
      ["/rpc", `127.0.0.1:${p}`, "null", 403],
      ["/rpc", `127.0.0.1:${p}`, `file://${p}`, 403],
      ["/rpc", `127.0.0.1:${p}`, "https://proxy.example", 200],
      ["/mcp", `127.0.0.1:${p}`, "http://evil.example", 403],
      ["/rpc", "evil.example", undefined, 403],
      ["/rpc", `evil.example:${p}`, undefined, 403],
      ["/rpc", "proxy.example", undefined, 200],
      ["/rpc", "proxy.example:8443", undefined, 200],
      ["/rpc", "exact.example:9999", undefined, 200],
      ["/rpc", "exact.example:1", undefined, 403],
      ["/rpc", "exact.example", undefined, 403],
      ["/health", `127.0.0.1:${p}`, undefined, 200],
      ["/health", "evil.example", undefined, 403],
      ["/health", `evil.example:${p}`, undefined, 403],
      ["/nope", "evil.example", undefined, 403],
    ];
    const wrong: string[] = [];
    for (const [path, host, origin, want] of rows) {
      const headers: Record<string, string> = { host, authorization: auth, "content-type": "application/json", accept: "application/json, text/event-stream" };
      if (origin !== undefined) headers.origin = origin;
      const body =
        path === "/mcp"
          ? JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } })
          : LIST;
      const r = await raw(s.origin, path === "/health" ? "GET" : "POST", path, headers, path === "/health" ? undefined : body);
      if (r.status !== want) wrong.push(`${path} Host=${host} Origin=${origin ?? "-"}: ${r.status}, wanted ${want}`);
    }
    assert.deepEqual(wrong, []);
  });
});

describe("bind and token refusals, before anything is opened", () => {
  const run = (args: string[], env: Record<string, string>) =>
    spawnSync(process.execPath, [DRSG, "serve", ...args], { env: { ...process.env, ...env }, encoding: "utf8", timeout: 30_000 });

  test("a non-loopback bind without a token: no database created, no sync run", () => {
    const repo = mkdtempSync(join(tmpdir(), "drsg-sec-bind-"));
    makeRepo(repo, [{ files: { "a.ts": "export const a = 1;\n" }, message: "i" }]);
    const db = join(mkdtempSync(join(tmpdir(), "drsg-sec-bind-db-")), "g.drsg");
    for (const addr of ["0.0.0.0:0", "[::]:0", "192.0.2.1:0"]) {
      const r = run(["watch", "--dir", repo, "--db", db, "--addr", addr], { DRSG_TOKEN: "" });
      assert.equal(r.status, 1, `${addr}: ${r.stderr}`);
      assert.match(r.stderr, /FORBIDDEN/);
      assert.match(r.stderr, /openssl rand -base64 32/);
      assert.equal(existsSync(db), false, `${addr}: the database was created before the refusal`);
    }
  });

  test("a weak DRSG_TOKEN refuses to start and says how to make one", () => {
    const db = join(mkdtempSync(join(tmpdir(), "drsg-sec-weak-")), "g.drsg");
    for (const weak of ["secret", "t0ken-for-tests-0123456789abcdefghijklmn", "a".repeat(64), "ab".repeat(40), "0123456789abcdef".repeat(2)]) {
      const r = run(["--db", db, "--addr", "127.0.0.1:0"], { DRSG_TOKEN: weak });
      assert.equal(r.status, 1, `${weak}: ${r.stderr}`);
      assert.match(r.stderr, /BAD_ENV.*DRSG_TOKEN/);
      assert.match(r.stderr, /openssl rand -base64 32/);
    }
  });

  test("what counts as strong", () => {
    for (let i = 0; i < 200; i++) {
      assert.equal(weakToken(randomBytes(32).toString("base64url")), undefined);
      assert.equal(weakToken(randomBytes(32).toString("base64")), undefined);
      assert.equal(weakToken(randomBytes(32).toString("hex")), undefined);
    }
    assert.ok(weakToken(randomBytes(16).toString("hex")));
    assert.ok(weakToken(randomBytes(24).toString("base64url")));
  });
});

describe("slow requests", () => {
  let s: Served;
  before(async () => {
    const { db } = await fixtureDb();
    s = await serve(["--db", db], { DRSG_TOKEN: TOKEN, DRSG_HEADERS_TIMEOUT_MS: "400", DRSG_BODY_TIMEOUT_MS: "400" });
  });
  after(async () => s.stop());

  /** Open a socket, write `head`, then trickle `drip` a byte at a time; resolve with all it got back once it closes. */
  const trickle = (head: string, drip: string): Promise<{ text: string; dripped: number }> =>
    new Promise((resolve, reject) => {
      const sock = connect(s.port, "127.0.0.1");
      let text = "";
      let dripped = 0;
      let timer: NodeJS.Timeout | undefined;
      sock.on("data", (d) => {
        text += d.toString();
      });
      sock.on("error", () => undefined);
      sock.on("close", () => {
        clearInterval(timer);
        resolve({ text, dripped });
      });
      sock.on("connect", () => {
        sock.write(head);
        timer = setInterval(() => {
          if (dripped >= drip.length || sock.destroyed) {
            clearInterval(timer);
            return;
          }
          sock.write(drip[dripped++]!);
        }, 100);
      });
      setTimeout(() => reject(new Error("the server held the connection")), 60_000).unref();
    });

  test("headers trickled: 408, connection closed", async () => {
    const r = await trickle("POST /rpc HTTP/1.1\r\nHost: 127.0.0.1\r\n", "X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    assert.match(r.text, /^HTTP\/1\.1 408/);
    assert.ok(r.dripped < 100, "closed before the headers were done");
  });

  test("body trickled: 408 with the reason, connection closed", async () => {
    const body = `${LIST}${" ".repeat(200)}`;
    const head = `POST /rpc HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const r = await trickle(head, body);
    assert.match(r.text, /^HTTP\/1\.1 408/);
    assert.match(r.text, /request body not received within 400 ms/);
    assert.ok(r.dripped < body.length, "closed before the body was done");
  });

  test("a prompt request on the same server is answered", async () => {
    const r = await raw(s.origin, "POST", "/rpc", { host: `127.0.0.1:${s.port}`, authorization: `Bearer ${TOKEN}`, "content-type": "application/json" }, LIST);
    assert.equal(r.status, 200);
  });
});
