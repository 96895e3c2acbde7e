// The first journey, with real processes on loopback: drsg init in a repository → an MCP client
// over HTTP asks → a commit lands → the next answer names the new commit → init again reuses
// the server → the server dies → init restarts it on the same address and token → drsg-mcp with
// no database relays to it.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { PACKAGE_ROOT } from "../../src/paths.js";
import { FOLLOWER_MALLOC_ENV, FOLLOWER_NODE_FLAGS } from "../../src/sync/follower-process.js";
import { git, makeRepo } from "../git/fixture.js";

const DRSG = join(PACKAGE_ROOT, "bin", "drsg.js");
const DRSG_MCP = join(PACKAGE_ROOT, "bin", "drsg-mcp.js");
const pids: number[] = [];

after(() => {
  for (const p of pids) {
    try {
      process.kill(p, "SIGTERM");
    } catch {
      // already gone
    }
  }
});

function init(repo: string, extra: string[] = []) {
  const r = spawnSync(process.execPath, [DRSG, "init", ...extra], {
    cwd: repo,
    encoding: "utf8",
    env: { ...process.env, DRSG_TOKEN: "" },
    timeout: 60_000,
  });
  assert.equal(r.status, 0, `drsg init failed: ${r.stderr}\n${r.stdout}`);
  const m = /serve watch pid (\d+)/.exec(r.stdout) ?? /\(pid (\d+)\)/.exec(r.stdout);
  if (m) pids.push(Number(m[1]));
  return r.stdout;
}

function endpoint(repo: string): { url: string; auth: string } {
  const doc = JSON.parse(readFileSync(join(repo, ".mcp.json"), "utf8")) as {
    mcpServers: { drsg: { url: string; headers: { Authorization: string } } };
  };
  return { url: doc.mcpServers.drsg.url, auth: doc.mcpServers.drsg.headers.Authorization };
}

async function httpClient(repo: string): Promise<Client> {
  const { url, auth } = endpoint(repo);
  const c = new Client({ name: "init-test", version: "1" });
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: auth } } }));
  return c;
}

async function text(c: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const r = await c.callTool({ name, arguments: args });
  return (r.content as { text: string }[])[0]!.text;
}

async function until(cond: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, 150));
  }
  return cond();
}

test("drsg init: serve, follow a commit, reuse, restart, relay", { timeout: 180_000 }, async () => {
  const repo = mkdtempSync(join(tmpdir(), "drsg-init-"));
  const [first] = makeRepo(repo, [
    {
      files: {
        "package.json": JSON.stringify({ name: "journey" }),
        "src/core.ts": "export function core() { return 1; }\n",
        "src/api.ts": "import { core } from './core.js';\nexport function handler() { return core(); }\n",
      },
      message: "init",
    },
  ]);
  const out1 = init(repo);
  assert.match(out1, /plane '.*' bootstrapped — serve watch pid \d+, http:\/\/127\.0\.0\.1:\d+\/mcp/);
  assert.match(out1, /\+ \.mcp\.json/);
  assert.ok(readFileSync(join(repo, ".git", "info", "exclude"), "utf8").includes(".drsg/"));
  const { url, auth } = endpoint(repo);
  assert.match(auth, /^Bearer [A-Za-z0-9]{40}$/);
  // serve watch follows for hours: it starts with drsg watch's follower settings.
  const served = Number(/serve watch pid (\d+)/.exec(out1)![1]);
  const argv = readFileSync(`/proc/${served}/cmdline`, "utf8").split("\0");
  for (const f of FOLLOWER_NODE_FLAGS) assert.ok(argv.includes(f), `${f} on serve watch's command line: ${argv.join(" ")}`);
  const environ = readFileSync(`/proc/${served}/environ`, "utf8").split("\0");
  for (const [k, v] of Object.entries(FOLLOWER_MALLOC_ENV)) assert.ok(environ.includes(`${k}=${v}`), `${k}=${v} in serve watch's environment`);

  const c = await httpClient(repo);
  const before = await text(c, "context", { plane: repo.split("/").pop()!, name: "core" });
  assert.match(before, new RegExp(`synced: commit ${first!.slice(0, 12)}`));

  // A commit: the next answer names it and shows the change.
  writeFileSync(join(repo, "src/extra.ts"), "import { core } from './core.js';\nexport function extra() { return core() + 1; }\n");
  git(repo, ["add", "-A"]);
  git(repo, ["commit", "-qm", "extra"]);
  const second = git(repo, ["rev-parse", "HEAD"]);
  const plane = repo.split("/").pop()!;
  const moved = await until(async () => (await text(c, "context", { plane, name: "core" })).includes(`synced: commit ${second.slice(0, 12)}`), 20_000);
  assert.ok(moved, "the plane did not follow the commit");
  assert.match(await text(c, "context", { plane, name: "extra" }), /extra/);
  await c.close();

  // init again: the live server is reused, the plane untouched.
  const out2 = init(repo);
  assert.match(out2, /already serving .* — reusing it, the plane is untouched/);
  assert.deepEqual(endpoint(repo), { url, auth });

  // The server dies: init restarts it on the same address and token.
  const pid = pids[0]!;
  process.kill(pid, "SIGKILL");
  await until(async () => {
    try {
      await fetch(new URL("/health", url));
      return false;
    } catch {
      return true;
    }
  }, 10_000);
  const out3 = init(repo);
  assert.match(out3, /restarted — serve watch pid \d+/);
  assert.deepEqual(endpoint(repo), { url, auth });

  // The client's connection pool may still hold a socket to the killed server: a request on it
  // fails once, then the pool lets it go. Wait until the restarted server answers this process.
  assert.ok(
    await until(async () => {
      try {
        return (await fetch(new URL("/health", url))).ok;
      } catch {
        return false;
      }
    }, 10_000),
  );
  // drsg-mcp with no database named, inside the repository: relays to the server.
  const server = await httpClient(repo);
  const serverTools = (await server.listTools()).tools.map((t) => t.name).sort();
  await server.close();
  const relay = new Client({ name: "relay-test", version: "1" });
  await relay.connect(new StdioClientTransport({ command: process.execPath, args: [DRSG_MCP], cwd: join(repo, "src"), stderr: "pipe" }));
  const relayed = (await relay.listTools()).tools.map((t) => t.name).sort();
  assert.deepEqual(relayed, serverTools);
  assert.match(await text(relay, "list_planes", {}), new RegExp(`synced: commit ${second.slice(0, 12)}`));
  await relay.close();
  assert.equal(existsSync(join(repo, "graph.drsg")), false, "the relay must not open or create a local database");
});
