// The file reads under a race (issue 14): while a separate process keeps swapping a directory
// of the tree for a symlink to `../out` (which holds a canary file), grep and snippet with
// `worktree: true` run over both transports — the SDK's real Client against a spawned drsg-mcp
// (stdio) and against a spawned `drsg serve --dir` (Streamable HTTP) — for a bounded time. No
// answer may ever hold the canary's text, and no answer names an absolute path. The run's length
// is DRSG_RACE_MS (default 10 s, split between the transports running at once); the calls made
// and the escapes (0) are printed as diagnostics.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { PACKAGE_ROOT } from "../../src/paths.js";
import { openStore } from "../../src/store/store.js";
import { git, makeRepo } from "../git/fixture.js";
import { connect, sandbox, type Sandbox } from "../mcp/helpers.js";
import { strongToken } from "../../src/server/state.js";

const DRSG = join(PACKAGE_ROOT, "bin", "drsg.js");
const TOKEN = strongToken(); // drsg serve refuses a token of fewer than 32 random bytes
const CANARY = `CANARY-${process.pid}-${Date.now()}`;
const RUN_MS = Number(process.env.DRSG_RACE_MS ?? 10_000);

let base: string;
let tree: string;
let sb: Sandbox;
let swapper: ChildProcess | undefined;

/** A database with plane p over `tree` (HEAD as its commit) and a node in the swapped directory. */
function makeDb(file: string, head: string): void {
  const store = openStore(file, { create: true });
  try {
    store.write((w) => {
      w.createPlane("p", { synced_root: tree, synced_commit: head });
      w.createNode("p", { key: "app/sub/x.run", labels: ["Function"], props: { file: "sub/x.ts", line: 1, end_line: 2 } });
    });
  } finally {
    store.close();
  }
}

before(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "drsg-race-")));
  tree = join(base, "tree");
  const out = join(base, "out");
  mkdirSync(tree);
  mkdirSync(out);
  // The canary, under the same names as the tree's files, so an escape would read it.
  writeFileSync(join(out, "x.ts"), `export function run() { return "needle ${CANARY}"; }\n`);
  writeFileSync(join(out, "secret.txt"), `needle ${CANARY}\n`);
  makeRepo(tree, [{ message: "tree", files: { "sub/x.ts": 'export function run() { return "needle inside"; }\n', "top.ts": "// needle at the top\n" } }]);
  const head = git(tree, ["rev-parse", "HEAD"]);
  mkdirSync(join(base, "db"));
  makeDb(join(base, "db", "stdio.drsg"), head);
  copyFileSync(join(base, "db", "stdio.drsg"), join(base, "db", "http.drsg"));
  sb = sandbox();
});

after(() => {
  swapper?.kill("SIGKILL");
  sb?.cleanup();
  rmSync(base, { recursive: true, force: true });
});

/** A process that swaps tree/sub for a link to ../out and back, each step an atomic rename, until killed. */
function startSwapper(): ChildProcess {
  const script = `
    const fs = require("node:fs");
    const d = ${JSON.stringify(tree)};
    try { fs.symlinkSync("../out", d + "/sub.link"); } catch {}
    for (;;) {
      try { fs.renameSync(d + "/sub", d + "/sub.real"); fs.renameSync(d + "/sub.link", d + "/sub"); } catch {}
      try { fs.renameSync(d + "/sub", d + "/sub.link"); fs.renameSync(d + "/sub.real", d + "/sub"); } catch {}
    }`;
  return spawn(process.execPath, ["-e", script], { stdio: "ignore" });
}

/** A tool caller: call(tool, args) → the answer's text. */
type Caller = (tool: string, args: Record<string, unknown>) => Promise<{ text: string; isError: boolean }>;

interface Tally {
  calls: number;
  escapes: number;
  absolute: number;
  /** Answers holding the tree's own text (the reads work while the race runs). */
  inside: number;
  errors: number;
}

const CALLS: [string, Record<string, unknown>][] = [
  ["grep", { plane: "p", pattern: "needle", worktree: true }],
  ["grep", { plane: "p", pattern: "needle", path: "sub", worktree: true }],
  ["grep", { plane: "p", pattern: "needle", path: "sub/x.ts", worktree: true }],
  ["snippet", { plane: "p", name: "sub/x.ts:1", worktree: true }],
  ["snippet", { plane: "p", name: "app/sub/x.run", worktree: true }],
  ["snippet", { plane: "p", name: "sub/secret.txt:1", worktree: true }],
];

async function hammer(call: Caller, ms: number): Promise<Tally> {
  const t: Tally = { calls: 0, escapes: 0, absolute: 0, inside: 0, errors: 0 };
  const end = Date.now() + ms;
  while (Date.now() < end) {
    for (const [tool, args] of CALLS) {
      const r = await call(tool, args);
      t.calls++;
      if (r.text.includes(CANARY)) t.escapes++;
      if (r.text.includes(base)) t.absolute++;
      if (r.text.includes("needle inside")) t.inside++;
      if (r.isError) t.errors++;
    }
  }
  return t;
}

function serveHttp(db: string): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DRSG, "serve", "--dir", tree, "--db", db, "--addr", "127.0.0.1:0"], {
      env: { ...sb.env, DRSG_TOKEN: TOKEN },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let err = "";
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 30_000);
    child.stderr!.on("data", (d: Buffer) => {
      err += d.toString();
      const m = /drsg serve: (http:\/\/[^\s]+\/mcp)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]! });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited ${code}: ${err}`));
    });
  });
}

test("a directory swapped for a link out while grep and snippet read the working tree: no read escapes, over stdio and HTTP", async (t) => {
  const stdio = await connect(sb, ["--db", join(base, "db", "stdio.drsg")]);
  const http = await serveHttp(join(base, "db", "http.drsg"));
  const client = new Client({ name: "drsg-race-test", version: "0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
  const viaHttp: Caller = async (name, args) => {
    const r = await client.callTool({ name, arguments: args });
    return { text: (r.content as { text?: string }[]).map((c) => c.text ?? "").join("\n"), isError: r.isError === true };
  };
  try {
    swapper = startSwapper();
    const [a, b] = await Promise.all([hammer((tool, args) => stdio.call(tool, args), RUN_MS / 2), hammer(viaHttp, RUN_MS / 2)]);
    swapper.kill("SIGKILL");
    t.diagnostic(`stdio: ${a.calls} calls, ${a.escapes} escapes, ${a.inside} answers with the tree's text, ${a.errors} typed refusals`);
    t.diagnostic(`http: ${b.calls} calls, ${b.escapes} escapes, ${b.inside} answers with the tree's text, ${b.errors} typed refusals`);
    assert.ok(a.calls > 0 && b.calls > 0);
    assert.equal(a.escapes + b.escapes, 0, "no answer holds the canary outside the tree");
    assert.equal(a.absolute + b.absolute, 0, "no answer names an absolute path");
    // The reads were really made (the race did not just make every call fail).
    assert.ok(a.inside > 0 && b.inside > 0, `stdio ${a.inside}, http ${b.inside} answers read the tree`);
  } finally {
    swapper?.kill("SIGKILL");
    await client.close().catch(() => undefined);
    await stdio.close();
    await new Promise<void>((r) => {
      if (http.child.exitCode !== null) return r();
      http.child.once("exit", () => r());
      http.child.kill("SIGTERM");
    });
  }
});
