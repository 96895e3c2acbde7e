// The dashboard's guard against a real `drsg serve`: the page API (/rpc with the page secret,
// /events) answers only its own origin with the per-process secret the page received; a foreign
// Origin, a missing or wrong secret, a rebound Host, a write tool and a plain programmatic
// client are refused. With DRSG_TOKEN no secret is handed out and the bearer is what counts.
// And in Chromium: a page of another origin cannot read the dashboard or call its API.
import assert from "node:assert/strict";
import { request } from "node:http";
import { createServer } from "node:http";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { makeRepo } from "../git/fixture.js";
import { type Served, ensureWebBuilt, launchChromium, serveDashboard } from "./support.js";
import { strongToken } from "../../src/server/state.js";

declare const window: Record<string, unknown>;
declare function fetch(url: string, init?: Record<string, unknown>): Promise<{ status: number; text(): Promise<string> }>;

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request with exactly these headers (Host included), the body read whole (or the first chunk of a stream). */
function raw(url: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method, path, headers, setHost: !("host" in headers) }, (res) => {
      let text = "";
      res.on("data", (d: Buffer) => {
        text += d.toString();
        if ((res.headers["content-type"] ?? "").startsWith("text/event-stream")) {
          res.destroy();
          resolve({ status: res.statusCode!, headers: res.headers, body: text });
        }
      });
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      res.on("error", reject);
    });
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const rpcBody = (method: string, params: Record<string, unknown> = {}) => JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });

async function fixture(): Promise<{ repo: string; db: string }> {
  const repo = mkdtempSync(join(tmpdir(), "drsg-guard-repo-"));
  makeRepo(repo, [{ files: { "package.json": JSON.stringify({ name: "g" }), "src/a.ts": "export function a() { return b(); }\nexport function b() { return 1; }\n" }, message: "init" }]);
  return { repo, db: join(mkdtempSync(join(tmpdir(), "drsg-guard-db-")), "g.drsg") };
}

describe("dashboard guard, no token", () => {
  let served: Served;
  let secret: string;

  before(async () => {
    ensureWebBuilt();
    const { repo, db } = await fixture();
    served = await serveDashboard(["watch", "--dir", repo, "--db", db, "--plane", "g"]);
    const page = await raw(served.url, "GET", "/", {});
    assert.equal(page.status, 200);
    secret = /name="drsg-page-secret" content="([^"]+)"/.exec(page.body)?.[1] ?? "";
  });
  after(async () => {
    await served?.stop();
  });

  test("the page is served with a secret, a strict CSP and no CORS headers", async () => {
    assert.match(secret, /^[A-Za-z0-9_-]{43}$/);
    const page = await raw(served.url, "GET", "/", { origin: "http://evil.example" });
    // A cross-origin GET of the page itself (a browser would not hand the body over, but the
    // server refuses anyway when it is told the origin).
    assert.equal(page.status, 403);
    const ok = await raw(served.url, "GET", "/", {});
    assert.match(String(ok.headers["content-security-policy"]), /default-src 'none'.*connect-src 'self'/);
    assert.equal(ok.headers["access-control-allow-origin"], undefined);
    assert.equal(ok.headers["x-frame-options"], "DENY");
    const asset = await raw(served.url, "GET", "/assets/app.js", {});
    assert.equal(asset.status, 200);
    assert.match(String(asset.headers["content-type"]), /javascript/);
    assert.equal((await raw(served.url, "GET", "/assets/../package.json", {})).status, 404);
    assert.equal((await raw(served.url, "GET", "/assets/%2e%2e%2fpackage.json", {})).status, 404);
  });

  test("a rebound Host (DNS rebinding) gets neither the page nor the API", async () => {
    const r = await raw(served.url, "GET", "/", { host: "evil.example" });
    assert.equal(r.status, 403);
    assert.doesNotMatch(r.body, new RegExp(secret));
    const api = await raw(served.url, "POST", "/rpc", { host: "evil.example", origin: "http://evil.example", "x-drsg-page": secret, "content-type": "application/json" }, rpcBody("list_planes"));
    assert.equal(api.status, 403);
  });

  test("the page API answers its own origin with the secret", async () => {
    const r = await raw(served.url, "POST", "/rpc", { origin: served.origin, "x-drsg-page": secret, "content-type": "application/json" }, rpcBody("list_planes"));
    assert.equal(r.status, 200);
    assert.match(JSON.parse(r.body).result.text, /^\d+ plane\(s\):/);
  });

  test("a foreign Origin, a missing Origin, a missing or wrong secret are refused", async () => {
    const call = (headers: Record<string, string>) => raw(served.url, "POST", "/rpc", { "content-type": "application/json", ...headers }, rpcBody("list_planes"));
    assert.equal((await call({ origin: "http://evil.example", "x-drsg-page": secret })).status, 403);
    assert.equal((await call({ origin: `http://localhost.evil.example:${new URL(served.url).port}`, "x-drsg-page": secret })).status, 403);
    assert.equal((await call({ "x-drsg-page": secret })).status, 403, "no Origin: not a page");
    assert.equal((await call({ origin: served.origin, "x-drsg-page": `${secret.slice(0, -1)}x` })).status, 401);
    assert.equal((await call({ origin: served.origin, "x-drsg-page": "" })).status, 401);
    assert.equal((await call({ origin: served.origin, "x-drsg-page": secret, "sec-fetch-site": "cross-site" })).status, 403);
    // Without the page header it is a programmatic client, refused when the server has no token.
    assert.equal((await call({ origin: served.origin })).status, 401);
    const form = await raw(served.url, "POST", "/rpc", { origin: served.origin, "x-drsg-page": secret, "content-type": "text/plain" }, rpcBody("list_planes"));
    assert.equal(form.status, 415);
  });

  test("the page API is read-only: a write tool is refused, batches included", async () => {
    const body = JSON.stringify([JSON.parse(rpcBody("list_planes")), { jsonrpc: "2.0", id: 2, method: "drop_plane", params: { plane: "g", confirm: true } }]);
    const r = await raw(served.url, "POST", "/rpc", { origin: served.origin, "x-drsg-page": secret, "content-type": "application/json" }, body);
    assert.equal(r.status, 403);
    assert.match(r.body, /read-only/);
    const still = await raw(served.url, "POST", "/rpc", { origin: served.origin, "x-drsg-page": secret, "content-type": "application/json" }, rpcBody("list_planes"));
    assert.match(JSON.parse(still.body).result.text, /\bg\s+\d+ node/);
  });

  test("/events needs the secret and the same origin", async () => {
    assert.equal((await raw(served.url, "GET", "/events", {})).status, 401);
    assert.equal((await raw(served.url, "GET", "/events", { "x-drsg-page": secret, origin: "http://evil.example" })).status, 403);
    const ok = await raw(served.url, "GET", "/events", { "x-drsg-page": secret });
    assert.equal(ok.status, 200);
    assert.match(String(ok.headers["content-type"]), /^text\/event-stream/);
  });

  test("in Chromium, a page of another origin can neither read the dashboard nor call its API", async () => {
    const evil = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<!doctype html><title>evil</title><p>hi</p>");
    });
    await new Promise<void>((r) => evil.listen(0, "127.0.0.1", () => r()));
    const port = (evil.address() as { port: number }).port;
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      // Another origin on the same machine (another port): the classic drive-by from a local page.
      await page.goto(`http://127.0.0.1:${port}/`);
      const out = await page.evaluate(
        async ([url, s]) => {
          const res: Record<string, string> = {};
          try {
            const r = await fetch(url!);
            res.read = `read ${r.status}: ${(await r.text()).slice(0, 40)}`;
          } catch (e) {
            res.read = `blocked: ${String(e)}`;
          }
          try {
            const r = await fetch(`${url}rpc`, { method: "POST", headers: { "content-type": "application/json", "x-drsg-page": s }, body: '{"jsonrpc":"2.0","id":1,"method":"list_planes"}' });
            res.call = `called ${r.status}`;
          } catch (e) {
            res.call = `blocked: ${String(e)}`;
          }
          try {
            // A "simple" request needs no preflight: the server must refuse it on its own.
            const r = await fetch(`${url}rpc`, { method: "POST", mode: "no-cors", headers: { "content-type": "text/plain" }, body: '{"jsonrpc":"2.0","id":1,"method":"list_planes"}' });
            res.simple = `opaque ${r.status}`;
          } catch (e) {
            res.simple = `blocked: ${String(e)}`;
          }
          return res;
        },
        [served.url, secret],
      );
      assert.match(out.read!, /^blocked: TypeError/, out.read);
      assert.match(out.call!, /^blocked: TypeError/, out.call);
      assert.equal(out.simple, "opaque 0");
    } finally {
      await browser.close();
      evil.close();
    }
  });
});

describe("dashboard guard, with DRSG_TOKEN", () => {
  let served: Served;
  const TOKEN = strongToken(); // drsg serve refuses a token of fewer than 32 random bytes

  before(async () => {
    ensureWebBuilt();
    const { repo, db } = await fixture();
    served = await serveDashboard(["watch", "--dir", repo, "--db", db, "--plane", "g"], { DRSG_TOKEN: TOKEN });
  });
  after(async () => {
    await served?.stop();
  });

  test("no secret is handed out; the page asks for the token and the bearer opens the API", async () => {
    const page = await raw(served.url, "GET", "/", {});
    assert.equal(page.status, 200);
    assert.match(page.body, /name="drsg-auth" content="token"/);
    assert.match(page.body, /name="drsg-page-secret" content=""/);
    const call = (headers: Record<string, string>) => raw(served.url, "POST", "/rpc", { "content-type": "application/json", origin: served.origin, ...headers }, rpcBody("list_planes"));
    assert.equal((await call({ "x-drsg-page": "anything" })).status, 401);
    assert.equal((await call({ "x-drsg-page": "" })).status, 401);
    assert.equal((await call({ authorization: "Bearer wrong" })).status, 401);
    const ok = await call({ authorization: `Bearer ${TOKEN}` });
    assert.equal(ok.status, 200);
    assert.equal((await raw(served.url, "GET", "/events", { authorization: "Bearer wrong" })).status, 401);
    assert.equal((await raw(served.url, "GET", "/events", { authorization: `Bearer ${TOKEN}` })).status, 200);
  });

  test("in Chromium the page asks once for the token, then shows the planes", async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(served.url);
      const dialog = page.locator("dialog.token");
      await dialog.waitFor();
      await page.fill('dialog.token input[name="token"]', TOKEN);
      await page.click('dialog.token button[type="submit"]');
      await page.waitForSelector('body[data-ready="1"]');
      await page.locator('article[aria-label="plane g"]').waitFor();
      assert.equal(await page.evaluate(() => (window.sessionStorage as { getItem(k: string): string | null }).getItem("drsg-token")), TOKEN);
      assert.equal(await page.locator("dialog.token").count(), 0, "asked once");
    } finally {
      await browser.close();
    }
  });
});
