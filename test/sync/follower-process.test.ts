// `drsg watch` runs its follower in a process of its own, started with the follower's node flags
// and malloc environment (src/sync/follower-process.ts): the real command, a real repository; the
// follower folds, and stops when its parent is killed. DRSG_FOLLOWER_EXEC=0 keeps one process.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import {
  FOLLOWER_MALLOC_ENV,
  FOLLOWER_MARK,
  FOLLOWER_NODE_FLAGS,
  followerSpawn,
  followsRepository,
  withoutFollowerEnv,
} from "../../src/sync/follower-process.js";
import { makeRepo } from "../git/fixture.js";
import { cleanupAll, temp } from "./helpers.js";
import { DRSG, run } from "./proc.js";

after(() => cleanupAll());

const BASE = {
  "package.json": JSON.stringify({ name: "shop", version: "1.0.0" }),
  "src/price.ts": "export function price(item: string): number {\n  return item.length;\n}\n",
};

function env(root: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const home = join(root, "home");
  mkdirSync(home, { recursive: true });
  return { DRSG_HOME: home, DRSG_LOG_DIR: join(root, "logs"), DRSG_DB: "", ...extra };
}

/** The pids of a process's children (Linux /proc). */
function children(pid: number): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
  return text ? text.split(/\s+/).map(Number) : [];
}

const nul = (file: string) => readFileSync(file, "utf8").split("\0").filter(Boolean);

/** Assert a follower process runs with the follower's node flags and malloc settings, ending in `args`; answers its environment. */
function followerSetup(pid: number, args: string[]): string[] {
  const argv = nul(`/proc/${pid}/cmdline`);
  assert.deepEqual(argv.slice(1, 1 + FOLLOWER_NODE_FLAGS.length), [...FOLLOWER_NODE_FLAGS]);
  assert.deepEqual(argv.slice(-args.length), args);
  const environ = nul(`/proc/${pid}/environ`);
  for (const [k, v] of Object.entries(FOLLOWER_MALLOC_ENV)) assert.ok(environ.includes(`${k}=${v}`), `${k}=${v} in the follower's environment`);
  return environ;
}

async function gone(pid: number, limitMs = 60_000): Promise<boolean> {
  for (const t0 = Date.now(); Date.now() - t0 < limitMs; ) {
    if (!existsSync(`/proc/${pid}`)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

describe("followerSpawn", () => {
  test("adds the follower's flags before the user's and its malloc settings under the user's own", () => {
    const s = followerSpawn({ MALLOC_ARENA_MAX: "4", PATH: "/bin" }, ["--inspect"]);
    assert.deepEqual(s.execArgv, [...FOLLOWER_NODE_FLAGS, "--inspect"]);
    assert.equal(s.env.MALLOC_ARENA_MAX, "4", "the user's setting wins");
    assert.equal(s.env.MALLOC_MMAP_THRESHOLD_, FOLLOWER_MALLOC_ENV.MALLOC_MMAP_THRESHOLD_);
    assert.equal(s.env[FOLLOWER_MARK], "1");
    assert.equal(s.env.PATH, "/bin");
    assert.deepEqual(withoutFollowerEnv({ ...FOLLOWER_MALLOC_ENV, PATH: "/bin" }), { ...FOLLOWER_MALLOC_ENV, PATH: "/bin" }, "a user's own malloc settings stay");
    assert.deepEqual(withoutFollowerEnv(s.env), { PATH: "/bin" });
  });
});

describe("followsRepository", () => {
  test("names drsg watch and drsg serve watch, wherever serve's options stand, and no other command", () => {
    assert.equal(followsRepository(["watch", "--dir", "x"]), true);
    assert.equal(followsRepository(["serve", "watch", "--dir", "x"]), true);
    assert.equal(followsRepository(["serve", "--db", "g.drsg", "--addr", "127.0.0.1:0", "watch"]), true);
    assert.equal(followsRepository(["serve", "--force", "watch"]), true);
    assert.equal(followsRepository(["serve", "--plane", "watch"]), false, "an option's value is not the subcommand");
    assert.equal(followsRepository(["serve", "--db", "g.drsg"]), false);
    assert.equal(followsRepository(["serve", "watch", "--help"]), false);
    assert.equal(followsRepository(["watch", "-h"]), false);
    assert.equal(followsRepository(["digest", "watch"]), false);
    assert.equal(followsRepository([]), false);
  });
});

describe("drsg watch's follower process", { skip: !existsSync("/proc/self/task") && "needs /proc" }, () => {
  test("runs with the follower settings, folds, and stops when its parent is killed", { timeout: 300_000 }, async () => {
    const root = temp("drsg-follower-");
    const dir = join(root, "shop");
    const db = join(root, "graph.drsg");
    makeRepo(dir, [{ files: BASE, message: "base" }]);
    const w = run([DRSG, "watch", "--dir", dir, "--db", db], env(root));
    let follower: number | undefined;
    try {
      await w.waitFor(/watching .* for plane 'shop'/);
      const kids = children(w.proc.pid!);
      assert.equal(kids.length, 1, `one follower process: ${kids.join(" ")}`);
      follower = kids[0]!;
      const environ = followerSetup(follower, ["watch", "--dir", dir, "--db", db]);
      assert.ok(environ.includes(`${FOLLOWER_MARK}=1`));
      assert.ok(w.lines.some((l) => l.includes(`drsg[${follower}] build shop`)), `the follower built the plane:\n${w.lines.join("\n")}`);

      const [c1] = makeRepo(dir, [{ files: { "src/tax.ts": "export function tax(x: number): number {\n  return x * 2;\n}\n" }, message: "add tax" }]);
      await w.waitFor(new RegExp(`drsg\\[${follower}\\] fold shop [0-9a-f]{7}\\.\\.${c1!.slice(0, 7)}: 1 file\\(s\\) changed`));

      w.proc.kill("SIGKILL");
      assert.ok(await gone(follower), "the follower stopped after its parent was killed");
      assert.ok(w.lines.some((l) => l.includes("parent process gone, stopping")), w.lines.join("\n"));
    } finally {
      if (w.proc.exitCode === null && w.proc.signalCode === null) w.proc.kill("SIGKILL");
      if (follower !== undefined && existsSync(`/proc/${follower}`)) process.kill(follower, "SIGKILL");
    }
  });

  test("drsg serve watch runs in a follower process too, serves, and stops with its parent", { timeout: 300_000 }, async () => {
    const root = temp("drsg-follower-serve-");
    const dir = join(root, "shop");
    const db = join(root, "graph.drsg");
    makeRepo(dir, [{ files: BASE, message: "base" }]);
    const token = randomBytes(32).toString("base64url");
    const args = ["serve", "watch", "--dir", dir, "--db", db, "--addr", "127.0.0.1:0"];
    const s = run([DRSG, ...args], env(root, { DRSG_TOKEN: token }));
    let follower: number | undefined;
    try {
      const line = await s.waitFor(/drsg serve: http:\/\/\S+\/mcp \(pid \d+\)/);
      const [, url, pid] = /drsg serve: (\S+) \(pid (\d+)\)/.exec(line)!;
      follower = Number(pid);
      assert.deepEqual(children(s.proc.pid!), [follower], "the server is the parent's one child");
      followerSetup(follower, args);
      // It serves: the JSON-RPC endpoint answers with the followed plane.
      const res = await fetch(url!.replace(/\/mcp$/, "/rpc"), {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "list_planes", params: {} }),
      });
      const body = (await res.json()) as { result?: unknown };
      assert.match(JSON.stringify(body.result), /shop/, JSON.stringify(body));

      s.proc.kill("SIGKILL");
      assert.ok(await gone(follower), "the server stopped after its parent was killed");
    } finally {
      if (s.proc.exitCode === null && s.proc.signalCode === null) s.proc.kill("SIGKILL");
      if (follower !== undefined && existsSync(`/proc/${follower}`)) process.kill(follower, "SIGKILL");
    }
  });

  test("drsg serve watch: a SIGTERM to the parent stops both, exit 0", { timeout: 300_000 }, async () => {
    const root = temp("drsg-follower-serve-term-");
    const dir = join(root, "shop");
    makeRepo(dir, [{ files: BASE, message: "base" }]);
    const s = run([DRSG, "serve", "watch", "--dir", dir, "--db", join(root, "graph.drsg"), "--addr", "127.0.0.1:0"], env(root));
    try {
      const line = await s.waitFor(/drsg serve: \S+ \(pid \d+\)/);
      const follower = Number(/\(pid (\d+)\)/.exec(line)![1]);
      assert.notEqual(follower, s.proc.pid);
      s.proc.kill("SIGTERM");
      const exit = await s.exited;
      assert.equal(exit.code, 0, s.lines.join("\n"));
      assert.ok(await gone(follower), "the server stopped");
      assert.ok(s.lines.some((l) => l.includes("SIGTERM, stopping")), s.lines.join("\n"));
    } finally {
      if (s.proc.exitCode === null && s.proc.signalCode === null) s.proc.kill("SIGKILL");
    }
  });

  test("DRSG_FOLLOWER_EXEC=0 keeps drsg watch in one process", { timeout: 300_000 }, async () => {
    const root = temp("drsg-follower-off-");
    const dir = join(root, "shop");
    const db = join(root, "graph.drsg");
    makeRepo(dir, [{ files: BASE, message: "base" }]);
    const w = run([DRSG, "watch", "--dir", dir, "--db", db], env(root, { DRSG_FOLLOWER_EXEC: "0" }));
    try {
      await w.waitFor(/watching .* for plane 'shop'/);
      assert.deepEqual(children(w.proc.pid!), []);
      assert.ok(w.lines.some((l) => l.includes(`drsg[${w.proc.pid}] build shop`)), w.lines.join("\n"));
      w.proc.kill("SIGTERM");
      const exit = await w.exited;
      assert.equal(exit.code, 0, w.lines.join("\n"));
    } finally {
      if (w.proc.exitCode === null && w.proc.signalCode === null) w.proc.kill("SIGKILL");
    }
  });
});
