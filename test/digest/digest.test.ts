// drsg digest end to end: contents from git objects at HEAD, deterministic export, the report,
// and bad input — each a clear typed error or a note, never a crash or a half-written plane.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { isDrsgError } from "../../src/model/errors.js";
import { activePlugins } from "../../src/plugin/registry.js";
import { openStore } from "../../src/store/store.js";
import { ExtractPool } from "../../src/extract/pool.js";
import { digest, warmFor } from "../../src/sync/digest.js";
import { exportPlane } from "../../src/sync/export.js";
import { PACKAGE_ROOT } from "../../src/paths.js";
import { makeRepo } from "../git/fixture.js";

const DRSG = join(PACKAGE_ROOT, "bin", "drsg.js");

function temp(prefix = "drsg-digest-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

function drsg(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, [DRSG, ...args], { cwd, encoding: "utf8", env: { ...process.env, ...env } });
}

const FILES = {
  "package.json": JSON.stringify({ name: "shop" }),
  "src/cart.ts": "import { price } from './price.js';\nexport class Cart {\n  total(): number { return price(1); }\n}\n",
  "src/price.ts": "export function price(n: number): number { return n * 2; }\n",
  "README.md": "# shop\n",
};

describe("digest", () => {
  test("reads the commit's blobs: an uncommitted edit and an untracked file never enter the plane", async () => {
    const repo = temp();
    makeRepo(repo, [{ files: FILES, message: "init" }]);
    writeFileSync(join(repo, "src/price.ts"), "export function uncommittedEdit() {}\n");
    writeFileSync(join(repo, "src/untracked.ts"), "export function untracked() {}\n");
    const db = join(temp(), "g.drsg");
    const store = openStore(db, { create: true });
    try {
      const r = await digest({ dir: repo, plugins: activePlugins(), store });
      assert.equal(r.source, "git");
      assert.match(r.commit ?? "", /^[0-9a-f]{40}$/);
      const text = [...exportPlane(store, r.plane)].join("\n");
      assert.ok(!text.includes("uncommittedEdit"), "uncommitted edit leaked into the plane");
      assert.ok(!text.includes("untracked"), "untracked file leaked into the plane");
      assert.ok(text.includes('"price"') || text.includes(".price"), "the committed function is missing");
      const p = store.getPlane(r.plane)!;
      assert.equal(p.props.synced_commit, r.commit);
      assert.equal(p.props.synced_root, r.dir);
      assert.deepEqual(p.props.built_by, activePlugins().builtBy);
      assert.equal(typeof p.props.ledger, "object");
      assert.equal(r.report.unclaimed[".md"], 1);
      // The phases account for the wall time, each measured apart and in order.
      const { walkMs, extractMs, resolveMs, writeMs } = r.phases;
      for (const ms of [walkMs, extractMs, resolveMs, writeMs]) assert.ok(Number.isFinite(ms) && ms >= 0, JSON.stringify(r.phases));
      assert.ok(writeMs > 0, "an applied digest has a write phase");
      assert.ok(walkMs + extractMs + resolveMs + writeMs <= r.ms + 1, `${JSON.stringify(r.phases)} within ${r.ms} ms`);
    } finally {
      store.close();
    }
  });

  test("two digests of one commit export byte-identical text", async () => {
    const repo = temp();
    makeRepo(repo, [{ files: FILES, message: "init" }]);
    const out: string[] = [];
    for (let i = 0; i < 2; i++) {
      const store = openStore(join(temp(), "g.drsg"), { create: true });
      try {
        const r = await digest({ dir: repo, plugins: activePlugins(), store });
        out.push([...exportPlane(store, r.plane)].join("\n"));
      } finally {
        store.close();
      }
    }
    assert.ok(out[0]!.length > 0);
    assert.equal(out[0], out[1]);
  });

  test("re-digesting an unchanged commit changes nothing and keeps node ids", async () => {
    const repo = temp();
    makeRepo(repo, [{ files: FILES, message: "init" }]);
    const store = openStore(join(temp(), "g.drsg"), { create: true });
    try {
      const a = await digest({ dir: repo, plugins: activePlugins(), store });
      const ids = [...store.allNodes(a.plane)].map((n) => `${n.id}:${n.key}`);
      const b = await digest({ dir: repo, plugins: activePlugins(), store });
      assert.deepEqual(b.applied, {
        nodesCreated: 0,
        nodesPatched: 0,
        nodesDeleted: 0,
        nodesReclaimed: 0,
        edgesCreated: 0,
        edgesPatched: 0,
        edgesDeleted: 0,
      });
      assert.equal(b.report.parsed, 0, "nothing should be parsed again");
      assert.ok(b.report.cached > 0, "the second digest should take partials from the cache");
      assert.deepEqual([...store.allNodes(a.plane)].map((n) => `${n.id}:${n.key}`), ids);
    } finally {
      store.close();
    }
  });

  test("the grammars a listed tree needs are loaded on every worker before its first file", async () => {
    const plugins = activePlugins();
    const pool = new ExtractPool(plugins.jobs(), 2);
    try {
      const held = await warmFor(pool, plugins, ["src/a.ts", "lib/b.py", "src/c.ts", "README.md", "web/d.tsx"]);
      assert.deepEqual(
        held?.map((jobs) => [...jobs].sort()),
        [
          ["python/python", "ts/tsx", "ts/typescript"],
          ["python/python", "ts/tsx", "ts/typescript"],
        ],
      );
      // Nothing claimed, nothing loaded.
      assert.equal(await warmFor(pool, plugins, ["README.md", "Makefile"]), undefined);
    } finally {
      await pool.close();
    }
  });

  test("a grammar with under a tenth of the files is loaded by one worker, which extracts all of them", async () => {
    const plugins = activePlugins();
    const pool = new ExtractPool(plugins.jobs(), 2);
    try {
      const paths = [...Array.from({ length: 30 }, (_, i) => `src/m${i}.ts`), "tools/a.js", "tools/b.js"];
      assert.deepEqual(await warmFor(pool, plugins, paths), [["ts/typescript"], ["ts/typescript"]]);
      const js = "export function f() { return g(); }\nfunction g() { return 1; }\n";
      const out = await Promise.all(
        ["tools/a.js", "tools/b.js", "tools/a.js"].map((p) => pool.extract(p, "ts/javascript", new TextEncoder().encode(js))),
      );
      assert.deepEqual(out[1]!.partial.defs.map((d) => d.name), ["f", "g"]);
      // Every worker answers with the jobs it holds: the JavaScript grammar on exactly one.
      const held = (await pool.warm([])).map((jobs) => jobs.includes("ts/javascript"));
      assert.deepEqual(held.sort(), [false, true]);
    } finally {
      await pool.close();
    }
  });

  test("outside git the working tree is read and .gitignore honoured", async () => {
    const dir = temp();
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "src/a.ts"), "export function kept() {}\n");
    writeFileSync(join(dir, "src/gen.ts"), "export function ignoredFn() {}\n");
    writeFileSync(join(dir, ".gitignore"), "src/gen.ts\n");
    const r = await digest({ dir, plugins: activePlugins() });
    assert.equal(r.source, "worktree");
    assert.equal(r.commit, undefined);
    const keys = r.build.facts.nodes.map((n) => n.key).join("\n");
    assert.match(keys, /kept/);
    assert.doesNotMatch(keys, /ignoredFn/);
  });
});

describe("digest: bad input", () => {
  test("a missing directory is DIR_NOT_FOUND", async () => {
    await assert.rejects(digest({ dir: join(temp(), "nope"), plugins: activePlugins() }), (e) => isDrsgError(e, "DIR_NOT_FOUND"));
  });

  test("a binary .ts, a syntax-error file and a 50 MB file are noted, the rest digested", async () => {
    const repo = temp();
    const binary = new Uint8Array(4096);
    binary[10] = 0;
    binary[0] = 0x7f;
    makeRepo(repo, [
      {
        files: {
          "good.ts": "export function good() { return 1; }\n",
          "blob.ts": binary,
          "broken.ts": "export function ok() {}\nexport function broken( {{{ \n class {\n",
        },
        message: "init",
      },
    ]);
    // Big files are skipped by their size in the object store, before they are read.
    writeFileSync(join(repo, "huge.ts"), `// ${"x".repeat(50 * 1024 * 1024)}\n`);
    spawnSync("git", ["-C", repo, "add", "huge.ts"]);
    spawnSync("git", ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "huge"]);
    const r = await digest({ dir: repo, plugins: activePlugins() });
    const skipped = new Map(r.report.skipped.map((s) => [s.path, s.reason]));
    assert.equal(skipped.get("blob.ts"), "binary");
    assert.match(skipped.get("huge.ts") ?? "", /2 MiB/);
    assert.ok(r.report.syntaxErrors.some((s) => s.path === "broken.ts"), "broken.ts should be noted");
    const keys = r.build.facts.nodes.map((n) => n.key).join("\n");
    assert.match(keys, /good/);
    assert.match(keys, /\bok\b/, "facts from what parses in broken.ts");
  });

  test("an odd plane name is refused and nothing is written", async () => {
    const repo = temp();
    makeRepo(repo, [{ files: FILES, message: "init" }]);
    const store = openStore(join(temp(), "g.drsg"), { create: true });
    try {
      await assert.rejects(digest({ dir: repo, plugins: activePlugins(), store, plane: "../../etc" }), (e) =>
        isDrsgError(e, "BAD_PLANE_NAME"),
      );
      assert.deepEqual(store.listPlanes(), []);
    } finally {
      store.close();
    }
  });

  test("CLI: a database in a missing directory is a clear error and creates nothing", () => {
    const repo = temp();
    makeRepo(repo, [{ files: FILES, message: "init" }]);
    const missing = join(temp(), "no", "such", "dir", "g.drsg");
    const r = drsg(["digest", repo, "--apply", "--db", missing], repo);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /error \[DB_OPEN_FAILED\]/);
    assert.equal(existsSync(join(missing, "..")), false);
  });

  test("CLI: an empty repository (no commit) digests its working tree and says so", () => {
    const repo = temp();
    spawnSync("git", ["init", "-q", repo]);
    writeFileSync(join(repo, "a.ts"), "export function a() {}\n");
    const r = drsg(["digest", repo], repo);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /working tree \(no commit\)/);
    assert.match(r.stdout, /dry run/);
  });

  test("CLI: digest --apply then export, through real processes", () => {
    const repo = temp();
    makeRepo(repo, [{ files: FILES, message: "init" }]);
    const db = join(temp(), "g.drsg");
    const a = drsg(["digest", repo, "--apply", "--db", db, "--plane", "shop"], repo);
    assert.equal(a.status, 0, a.stderr);
    assert.match(a.stdout, /applied to plane 'shop'.* in \d+\.\d\d s \(walk \d+\.\d\d s, extract \d+\.\d\d s, resolve \d+\.\d\d s, write \d+\.\d\d s\)/);
    const e1 = drsg(["export", "--plane", "shop", "--db", db], repo);
    assert.equal(e1.status, 0, e1.stderr);
    const lines = e1.stdout.trim().split("\n").map((l) => JSON.parse(l) as { kind: string });
    assert.ok(lines.length > 3);
    const firstEdge = lines.findIndex((l) => l.kind === "edge");
    assert.ok(firstEdge > 0 && lines.slice(firstEdge).every((l) => l.kind === "edge"), "nodes first, then edges");
    const e2 = drsg(["export", "--plane", "nope", "--db", db], repo);
    assert.equal(e2.status, 1);
    assert.match(e2.stderr, /PLANE_NOT_FOUND/);
    const drop = drsg(["plane", "drop", "shop", "--db", db], repo);
    assert.equal(drop.status, 1);
    assert.match(drop.stderr, /CONFIRM_REQUIRED/);
    assert.equal(drsg(["plane", "drop", "shop", "--db", db, "--yes"], repo).status, 0);
    const left = drsg(["plane", "list", "--db", db], repo).stdout;
    assert.doesNotMatch(left, /^shop /m, "the dropped plane is gone");
    assert.match(left, /^shop_git /m, "its history plane is a plane of its own and stays");
  });

  test("drsg match lists only the matches extraction keeps (#parent-is? filters re-rooted patterns)", () => {
    const dir = temp();
    const file = join(dir, "m.ts");
    writeFileSync(file, "exports.top = function () { return 1; };\nfunction outer(o: any) {\n  o.inner = function () { return 2; };\n}\n");
    const r = drsg(["match", file], dir);
    assert.equal(r.status, 0, r.stderr);
    const defs = r.stdout.split("\n").filter((l) => l.includes("@definition.function"));
    assert.ok(defs.some((l) => l.includes('"exports.top = ')), r.stdout);
    assert.ok(!defs.some((l) => l.includes('"o.inner = ')), `an assignment inside a function is not a module-level definition:\n${r.stdout}`);
  });
});
