// The CLI inside the repository `drsg init` prepared, with real processes: a real git repo,
// `drsg init --dir` (its serve watch holds .drsg/graph.drsg), then from a subdirectory, with no
// --db and no --plane: the verbs, history, rebuild and plane list answer through the server;
// after the server is killed (SIGKILL, as a reboot would) the same commands open the file
// themselves and print the same answers. Exit codes, --json, the generated option table and
// help, an empty DRSG_DB, `export | head` and DB_LOCKED with a stale pid file, each checked.
import assert from "node:assert/strict";
import { type SpawnSyncReturns, spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { PACKAGE_ROOT } from "../../src/paths.js";
import { makeRepo } from "../git/fixture.js";

const DRSG = join(PACKAGE_ROOT, "bin", "drsg.js");
const root = mkdtempSync(join(tmpdir(), "drsg-cli-"));
const repo = join(root, "shop");
const sub = join(repo, "src", "sub");
const home = join(root, "home");
let serverPid = 0;

const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => {
  const e: NodeJS.ProcessEnv = { ...process.env, DRSG_HOME: home, DRSG_LOG_DIR: join(root, "logs"), DRSG_TOKEN: "", ...extra };
  for (const k of ["DRSG_DB", "DRSG_PLANE"]) if (!(k in extra)) delete e[k];
  return e;
};

function drsg(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [DRSG, ...args], { cwd: opts.cwd ?? sub, encoding: "utf8", env: env(opts.env), timeout: 120_000 });
}

function ok(r: SpawnSyncReturns<string>, what: string): string {
  assert.equal(r.status, 0, `${what} exited ${r.status}:\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

function alive(pid: number): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0];
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

async function waitGone(pid: number): Promise<void> {
  for (let i = 0; i < 200 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  assert.equal(alive(pid), false, `process ${pid} is still alive`);
}

/** A rebuild report without its timings and cache counts (a server's sync keeps partials in memory). */
function rebuildGist(text: string): string {
  return text
    .split("\n")
    .map((l) => l.replace(/: \d+ file\(s\) read, \d+ parsed, \d+ from cache$/, "").replace(/ in \d+\.\d\d s$/, ""))
    .join("\n");
}

// Enough symbols that `drsg export` writes far more than a pipe holds (64 KiB).
const MANY = Array.from({ length: 600 }, (_, i) => `export function f${i}(x: number): number { return x + ${i}; }`).join("\n");

before(() => {
  mkdirSync(home, { recursive: true });
  makeRepo(repo, [
    {
      message: "shop",
      files: {
        "package.json": JSON.stringify({ name: "shop" }),
        "src/cart.ts": [
          "export class Cart {",
          "  add(x: number): number { return helper(x); }",
          "  remove(x: number): number { return helper(x) - 1; }",
          "}",
          "export function helper(x: number): number { return x + 1; }",
          "export function add(a: number): number { return a; }",
          "",
        ].join("\n"),
        "src/sub/y.ts": "export const y = 1;\n",
        "src/many.ts": `${MANY}\n`,
      },
    },
  ]);
  const r = spawnSync(process.execPath, [DRSG, "init", "--dir", repo], { cwd: root, encoding: "utf8", env: env(), timeout: 120_000 });
  assert.equal(r.status, 0, `drsg init: ${r.stderr}\n${r.stdout}`);
  assert.ok(existsSync(join(repo, ".drsg", "graph.drsg")));
  serverPid = (JSON.parse(readFileSync(join(repo, ".drsg", "server.json"), "utf8")) as { pid: number }).pid;
  assert.ok(Number.isSafeInteger(serverPid) && serverPid > 0 && alive(serverPid), "init started a server");
});

after(() => {
  // Only a real pid: process.kill(0) would signal this whole process group.
  if (serverPid > 0 && alive(serverPid)) process.kill(serverPid, "SIGKILL");
  rmSync(root, { recursive: true, force: true });
});

/** What each phase printed, to compare the server's answers with the in-process ones. */
const seen: Record<"server" | "local", Record<string, string>> = { server: {}, local: {} };

/** The same checks through the server and in-process: the exit codes and shapes must not depend on where it ran. */
function commonChecks(where: "server" | "local"): void {
  const out = seen[where];
  out.history = ok(drsg(["history"]), "history");
  assert.match(out.history, /^synced: commit [0-9a-f]{12}$/m);
  assert.match(out.history, /1 commit\(s\)/);
  out.context = ok(drsg(["context", "helper"]), "context helper");
  assert.match(out.context, /^shop\/src\/cart\.helper {2}Function/m);
  assert.match(out.context, /callers \(2\):/);
  out.planes = ok(drsg(["plane", "list"]), "plane list");
  assert.match(out.planes, /^shop {2}\d+ node\(s\), \d+ edge\(s\) {2}commit [0-9a-f]{12}$/m);
  assert.match(out.planes, /^shop_git /m);
  out.rebuild = ok(drsg(["rebuild"]), "rebuild");
  assert.match(out.rebuild, /^rebuilt plane 'shop' at commit [0-9a-f]{12}/m);
  assert.match(out.rebuild, /builders unchanged/);

  // Exit codes: not found 3, ambiguous 4, an error 1, a usage error 2 — and the answer is printed.
  const miss = drsg(["context", "nothere"]);
  assert.equal(miss.status, 3, miss.stderr);
  assert.match(miss.stdout, /no symbol matches `nothere`/);
  out.miss = miss.stdout;
  const many = drsg(["context", "add"]);
  assert.equal(many.status, 4, many.stderr);
  assert.match(many.stdout, /`add` is ambiguous — 2 matches/);
  out.many = many.stdout;
  const err = drsg(["context", "helper", "--plane", "nope"]);
  assert.equal(err.status, 1);
  assert.match(err.stderr, /^error \[PLANE_NOT_FOUND\]: no plane 'nope'/m);
  assert.equal(err.stderr.split("PLANE_NOT_FOUND").length - 1, 1, `the code is printed once: ${err.stderr}`);
  const usage = drsg(["impact", "helper", "--depth", "9"]);
  assert.equal(usage.status, 2);
  assert.match(usage.stderr, /^error \[BAD_INPUT\]: drsg impact: depth/m);

  // --json: the structured answer, for an answer, a miss and an error.
  const j = JSON.parse(ok(drsg(["context", "helper", "--json"]), "context --json")) as Record<string, unknown>;
  assert.equal(j.tool, "context");
  assert.equal(j.plane, "shop");
  assert.match(String(j.synced), /^[0-9a-f]{12}$/);
  assert.equal(j.outcome, "ok");
  assert.equal(j.text, out.context.trimEnd());
  const jm = drsg(["context", "nothere", "--json"]);
  assert.equal(jm.status, 3);
  assert.equal((JSON.parse(jm.stdout) as { outcome: string }).outcome, "not_found");
  const je = drsg(["context", "helper", "--plane", "nope", "--json"]);
  assert.equal(je.status, 1);
  assert.equal((JSON.parse(je.stdout) as { error: { code: string } }).error.code, "PLANE_NOT_FOUND");
  const jd = JSON.parse(ok(drsg(["describe_plane", "shop", "--json"]), "describe_plane --json")) as { data: { name: string } };
  assert.equal(jd.data.name, "shop", "a tool that answers with data gives it parsed");
  const jp = JSON.parse(ok(drsg(["plane", "list", "--json"]), "plane list --json")) as { name: string; synced: string | null }[];
  assert.deepEqual(
    jp.map((p) => p.name),
    ["shop", "shop_git"],
  );

  // A boolean flag takes no value: `--regex PAT` is regex on, pattern PAT.
  out.grep = ok(drsg(["grep", "--regex", "help.r"]), "grep --regex");
  assert.match(out.grep, /src\/cart\.ts:5: export function helper/);
  assert.match(out.grep, /3 match\(es\)/);
  assert.match(ok(drsg(["grep", "help.r"]), "grep literal"), /no matches for "help\.r"/);

  // Several code planes: no guess, the planes listed with --plane.
  ok(drsg(["plane", "create", "notes"]), "plane create");
  const two = drsg(["context", "helper"]);
  assert.equal(two.status, 2, two.stderr);
  assert.match(two.stderr, /error \[BAD_INPUT\]: drsg context: this database has 2 code planes \(notes, shop\) — pass --plane NAME/);
  assert.match(ok(drsg(["context", "helper", "--plane", "shop"]), "context --plane"), /callers \(2\):/);
  ok(drsg(["plane", "drop", "notes", "--yes"]), "plane drop");
  assert.doesNotMatch(ok(drsg(["plane", "list"]), "plane list"), /^notes /m);
}

describe("drsg in an initialised repository", () => {
  test("through the live server: the verbs, history, rebuild and plane list with no --db or --plane", { timeout: 300_000 }, () => {
    commonChecks("server");
    // Export has no tool: it says who holds the file and how to proceed.
    const ex = drsg(["export"]);
    assert.equal(ex.status, 1);
    assert.match(ex.stderr, new RegExp(`error \\[DB_LOCKED\\]: drsg export opens the database itself, and drsg serve \\(pid ${serverPid}, `));
    assert.match(ex.stderr, /drsg stop/);
    assert.equal(ex.stdout, "");
    const dg = drsg(["digest", repo, "--apply"]);
    assert.equal(dg.status, 1);
    assert.match(dg.stderr, /DB_LOCKED.*drsg rebuild re-reads/);
    // The server is what answered: it holds the file, which this process could not have opened.
    assert.ok(alive(serverPid));
    // The repository's database named outright (init's old hint) goes to the server too.
    const db = join(repo, ".drsg", "graph.drsg");
    assert.equal(ok(drsg(["history", "--db", db]), "history --db"), seen.server.history);
    assert.equal(ok(drsg(["history"], { env: { DRSG_DB: db } }), "DRSG_DB=… history"), seen.server.history);
    // A record this user's drsg could not have written is not used: the file is held, and the error says why.
    const rec = join(repo, ".drsg", "server.json");
    chmodSync(rec, 0o644);
    try {
      const r = drsg(["history"]);
      assert.equal(r.status, 1);
      assert.match(r.stderr, new RegExp(`error \\[DB_LOCKED\\]: .*held by process ${serverPid}\\b.*server\\.json was not used: .*readable or writable by other users`));
    } finally {
      chmodSync(rec, 0o600);
    }
    const direct = drsg(["history", "--db", join(root, "elsewhere.drsg")]);
    assert.equal(direct.status, 1);
    assert.match(direct.stderr, /DB_MISSING.*this repository's database is .*\.drsg\/graph\.drsg — drop --db/);
    assert.doesNotMatch(direct.stderr, /digest <dir> --apply/, "never advises building a second database");
  });

  test("after the server is killed: the same commands open the file and print the same answers", { timeout: 300_000 }, async () => {
    assert.ok(serverPid > 0);
    process.kill(serverPid, "SIGKILL");
    await waitGone(serverPid);
    commonChecks("local");
    for (const k of ["history", "context", "planes", "miss", "many", "grep"])
      assert.equal(seen.local[k], seen.server[k], `${k}: the in-process answer is the server's`);
    assert.equal(rebuildGist(seen.local.rebuild!), rebuildGist(seen.server.rebuild!));
  });

  test("drsg export | head -1 ends quietly (EPIPE is not an error)", { timeout: 120_000 }, async () => {
    await waitGone(serverPid);
    const child = spawn(process.execPath, [DRSG, "export"], { cwd: sub, env: env(), stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
    });
    const first = await new Promise<string>((resolve) => child.stdout.once("data", (d: Buffer) => resolve(d.toString("utf8"))));
    // What `head -1` does once it has its line: close the read end of the pipe.
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    assert.match(first, /^\{"kind":"node"/);
    assert.equal(code, 0, stderr);
    assert.equal(stderr, "", "no stack, no message");
  });

  test("DB_LOCKED held by a non-drsg process with a stale pid file names no dead pid", { timeout: 120_000 }, async () => {
    await waitGone(serverPid);
    const db = join(repo, ".drsg", "graph.drsg");
    // The pid file a killed server leaves behind (the in-process runs since removed theirs).
    writeFileSync(`${db}.pid`, `${serverPid}\n`);
    const holder = spawn(
      process.execPath,
      [
        "-e",
        `const D = require("better-sqlite3"); const d = new D(${JSON.stringify(db)}); d.pragma("locking_mode = EXCLUSIVE"); d.exec("BEGIN EXCLUSIVE"); console.log("held"); process.stdin.resume(); process.stdin.on("end", () => process.exit(0));`,
      ],
      { cwd: PACKAGE_ROOT, stdio: ["pipe", "pipe", "inherit"] },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout.once("data", () => resolve());
        holder.once("exit", (c) => reject(new Error(`holder exited ${c}`)));
      });
      const r = drsg(["history"]);
      assert.equal(r.status, 1);
      assert.match(r.stderr, /error \[DB_LOCKED\]: open database ".*graph\.drsg": it is held by another process/);
      assert.doesNotMatch(r.stderr, new RegExp(`\\b${serverPid}\\b`), "the dead pid is not named");
    } finally {
      holder.stdin.end();
      await new Promise((r) => holder.once("close", r));
    }
  });

  test("an empty DRSG_DB is an error, not the working directory", () => {
    const r = drsg(["history"], { env: { DRSG_DB: "" } });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^error \[BAD_ENV\]: DRSG_DB is set but empty/m);
    assert.equal(existsSync(join(sub, "graph.drsg")), false);
  });

  test("no database at all: DB_MISSING says how to build one", () => {
    const bare = join(root, "bare");
    makeRepo(bare, [{ message: "one", files: { "a.ts": "export const a = 1;\n" } }]);
    const r = drsg(["context", "a"], { cwd: bare });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^error \[DB_MISSING\]: no database found: no .*\.drsg\/graph\.drsg in this repository .*drsg init/m);
  });

  test("each verb's --help lists its fields from the schema", () => {
    const c = ok(drsg(["context", "--help"]), "context --help");
    assert.match(c, /^usage: drsg context NAME /m);
    assert.match(c, /^ {2}NAME, --name <string> +required/m);
    assert.match(c, /^ {2}--plane <string> +default: \$DRSG_PLANE, else the database's only code plane/m);
    const g = ok(drsg(["grep", "--help"]), "grep --help");
    assert.match(g, /^ {2}--regex +a flag \(takes no value\) — pattern is an RE2 regular expression/m);
    assert.match(g, /^ {2}--max-results <integer 1\.\.200> +default 50 — hits shown/m);
    const top = ok(drsg(["--help"]), "--help");
    assert.match(top, /exit codes: 0 ok, 1 error, 2 usage \(bad arguments\), 3 not found \(no such symbol or node\), 4 ambiguous name/);
    assert.match(top, /\.drsg\/graph\.drsg/);
  });
});
