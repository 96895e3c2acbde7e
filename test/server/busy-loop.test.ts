// A server whose event loop a long fold holds (a family resolved in full: seconds of CPU) answers
// the requests that came meanwhile — it does not close a keep-alive connection a client has just
// reused. Node runs its timers before it reads sockets; with the default 5 s keep-alive, the
// timer of an idle socket fired first and the request waiting on it got ECONNRESET (seen under
// `serve watch` replaying sqlalchemy's history). The client is another process, so it can send
// while this one is busy.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { GraphViews } from "../../src/graph/view.js";
import { activePlugins } from "../../src/plugin/registry.js";
import { startServer } from "../../src/server/http.js";
import { openStore } from "../../src/store/store.js";
import { TOOLS } from "../../src/tools/index.js";
import type { ToolContext } from "../../src/tools/tool.js";

const TOKEN = randomBytes(32).toString("base64url");

/** A client on one keep-alive connection: a request, "sent" on stdout, a pause, a second request. */
const CLIENT = `
const http = require("node:http");
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const ask = () => new Promise((resolve, reject) => {
  const req = http.request(process.argv[1] + "/rpc", { method: "POST", agent, headers: {
    "content-type": "application/json", authorization: "Bearer " + process.argv[2] } }, (res) => {
    let body = ""; res.on("data", (c) => (body += c)); res.on("end", () => resolve(res.statusCode + " " + body));
  });
  req.on("error", reject);
  req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "list_planes", params: {} }));
});
(async () => {
  const a = await ask();
  process.stdout.write("first " + a.slice(0, 3) + "\\n");
  await new Promise((r) => setTimeout(r, 6500));
  try { const b = await ask(); process.stdout.write("second " + b.slice(0, 3) + "\\n"); }
  catch (e) { process.stdout.write("second failed " + (e.code || e.message) + "\\n"); }
  agent.destroy();
})();
`;

test("a request on a reused keep-alive connection is answered after the loop was held for seconds", { timeout: 60_000 }, async () => {
  const store = openStore(join(mkdtempSync(join(tmpdir(), "drsg-busy-")), "g.drsg"), { create: true });
  const ctx: ToolContext = { store, transport: "http", plugins: activePlugins, views: new GraphViews(store), extras: {} };
  const server = await startServer({ ctx, tools: TOOLS, host: "127.0.0.1", port: 0, token: TOKEN });
  try {
    const base = server.url.replace(/\/mcp$/, "");
    const child = spawn(process.execPath, ["-e", CLIENT, base, TOKEN], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    const done = new Promise<void>((resolve) => child.on("exit", () => resolve()));
    await new Promise<void>((resolve) =>
      child.stdout.on("data", (c: Buffer) => {
        out += c.toString();
        if (out.includes("first")) resolve();
      }),
    );
    assert.match(out, /first 200/);
    // The client sends its second request 6.5 s after the first answer: hold the loop across
    // it (a long fold's resolution), past the default 5 s keep-alive.
    const until = Date.now() + 8000;
    while (Date.now() < until) {
      // busy, as a resolver is
    }
    await done;
    assert.match(out, /second 200/, `the second request was answered: ${out}`);
  } finally {
    await server.close();
    store.close();
  }
});
