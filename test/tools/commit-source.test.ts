// grep and snippet read the commit the plane reflects by default (issue 18 §3): with the working
// tree edited (lines inserted above a symbol, a new hit, an untracked file) the default answers
// are the commit's lines and symbols; `worktree: true` reads the edits, names the files that
// differ from the commit and names no symbol in them; a plane without a commit reads the working
// tree and says so; scoping, paging and errors (typed, relative paths only) hold in both modes.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { GraphViews } from "../../src/graph/view.js";
import { isDrsgError } from "../../src/model/errors.js";
import { PluginSet } from "../../src/plugin/host.js";
import { grep } from "../../src/tools/grep.js";
import { snippet } from "../../src/tools/snippet.js";
import type { ToolContext } from "../../src/tools/tool.js";
import { git, makeRepo } from "../git/fixture.js";
import { tempStore } from "../store/helpers.js";
import { LIB, type GrepFixture, grepFixture } from "./text-fixture.js";

async function g(ctx: ToolContext, args: Record<string, unknown>): Promise<string> {
  return (await grep.run(ctx, grep.input.parse({ plane: "p", ...args }))) as string;
}
async function s(ctx: ToolContext, args: Record<string, unknown>): Promise<string> {
  return (await snippet.run(ctx, snippet.input.parse({ plane: "p", ...args }))) as string;
}
async function fails(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (e) {
    assert.ok(isDrsgError(e), String(e));
    return { code: e.code, message: e.message };
  }
  assert.fail("expected an error");
}

const hitLines = (text: string) => text.split("\n").filter((l) => /^[^\s-][^:]*:\d+: /.test(l));

describe("grep and snippet read the plane's commit", () => {
  let fx: GrepFixture;
  before(() => {
    fx = grepFixture();
    // An agent's edit: two lines inserted at the top (every line below moves down by two) and a new hit.
    writeFileSync(join(fx.root, "src", "lib.ts"), `// inserted\n// needle(99) inserted\n${LIB}\n`);
  });
  after(() => fx.done());

  test("grep by default: the commit's lines, each hit in its symbol; no untracked file", async () => {
    const text = await g(fx.ctx, { pattern: "needle(", path: "src" });
    assert.match(text, new RegExp(`^synced: commit ${fx.head.slice(0, 12)}\n`), "the synced line opens the answer");
    assert.deepEqual(hitLines(text), [
      "src/lib.ts:3:   return needle(1);",
      "src/lib.ts:8:     needle(2);",
      "src/lib.ts:9:     needle(3);",
      "src/lib.ts:15: export const last = needle(4); // Needle",
    ]);
    assert.match(text, /^src\/lib\.ts:3: .*\n {4}in app\/src\/lib\.alpha$/m);
    assert.match(text, /^src\/lib\.ts:8: .*\n {4}in app\/src\/lib\.Box\.open$/m);
    assert.doesNotMatch(text, /needle\(99\)|fresh\.ts|read from the working tree/);
  });

  test("grep worktree: true reads the edits, names the files that differ, and names no symbol in them", async () => {
    const text = await g(fx.ctx, { pattern: "needle", path: "src", worktree: true });
    assert.match(text, /^read from the working tree \(worktree: true\), compared with commit [0-9a-f]{12}$/m);
    assert.match(text, /^src\/lib\.ts:2: \/\/ needle\(99\) inserted$/m);
    assert.match(text, /^src\/lib\.ts:5: {3}return needle\(1\);$/m);
    assert.match(text, /^src\/fresh\.ts:1: /m);
    // src/lib.ts changed: none of its hits names a symbol; src/util.py did not: its hit does.
    assert.doesNotMatch(text, /in app\/src\/lib/);
    assert.match(text, /^src\/util\.py:2: .*\n {4}in app\/src\/util\.helper$/m);
    assert.match(text, /^2 file\(s\) with hits differ from commit [0-9a-f]{12} \(uncommitted edits or untracked\) — their hits name no symbol: src\/fresh\.ts, src\/lib\.ts$/m);
  });

  test("snippet by default: a symbol's recorded extent is the commit's text", async () => {
    const text = await s(fx.ctx, { name: "Box.open" });
    assert.equal(
      text,
      [
        `synced: commit ${fx.head.slice(0, 12)}`,
        "src/lib.ts:7-10 (4 lines of 15)",
        "in app/src/lib.Box.open",
        "    7 |   open(): void {",
        "    8 |     needle(2);",
        "    9 |     needle(3);",
        "   10 |   }",
        "context app/src/lib.Box.open — callers, callees and every other edge",
      ].join("\n"),
    );
    assert.match(await s(fx.ctx, { name: "src/lib.ts:1-2" }), /^ {4}1 \| \/\/ the library$/m);
  });

  test("snippet worktree: true says the file differs and names no symbol", async () => {
    const text = await s(fx.ctx, { name: "src/lib.ts:4-5", worktree: true });
    assert.match(text, /^src\/lib\.ts differs from commit [0-9a-f]{12} \(uncommitted edits\): these are the working file's lines/m);
    assert.match(text, /^ {4}4 \| export function alpha\(\): number \{$/m);
    assert.doesNotMatch(text, /^in app\//m);
    const sym = await s(fx.ctx, { name: "Box.open", worktree: true });
    assert.match(sym, /differs from commit/);
    assert.doesNotMatch(sym, /^in app\/src\/lib\.Box\.open$/m);
    // An unchanged file reads the same either way, and names its symbol.
    const util = await s(fx.ctx, { name: "src/util.py:1", worktree: true });
    assert.match(util, /^in app\/src\/util\.helper$/m);
    assert.doesNotMatch(util, /differs/);
  });

  test("scoping against the commit: a directory, a file, an extension, a missing path, a path out", async () => {
    // link-in.py is a link made after the commit: not part of it.
    assert.deepEqual([...new Set(hitLines(await g(fx.ctx, { pattern: "needle", path: ".py" })).map((l) => l.split(":")[0]))], ["src/util.py"]);
    assert.match(await g(fx.ctx, { pattern: "needle", path: "src/deep", ignore_case: true }), /^src\/deep\/inner\.ts:1: /m);
    const missing = await fails(g(fx.ctx, { pattern: "needle", path: "src/fresh.ts" }));
    assert.equal(missing.code, "PATH_NOT_FOUND", "an untracked file is not in the commit");
    assert.match(missing.message, /worktree: true/);
    assert.equal((await fails(g(fx.ctx, { pattern: "x", path: "../x" }))).code, "PATH_OUTSIDE_TREE");
    // A tracked file that .gitignore matches is part of the commit: searched.
    assert.match(await g(fx.ctx, { pattern: "tracked beats ignored" }), /^tracked\.log:1: /m);
  });

  test("grep pages by offset: the elision names the next offset, and the pages join up", async () => {
    const all = hitLines(await g(fx.ctx, { pattern: "needle", ignore_case: true }));
    const first = await g(fx.ctx, { pattern: "needle", ignore_case: true, max_results: 2 });
    assert.match(first, /^… showing the first 2: capped at 2 — offset: 2 reads the next page/m);
    const second = await g(fx.ctx, { pattern: "needle", ignore_case: true, max_results: 2, offset: 2 });
    assert.match(second, /^… showing hits 3–4: capped at 2 — offset: 4 reads the next page/m);
    assert.deepEqual([...hitLines(first), ...hitLines(second)], all.slice(0, 4));
    assert.match(await g(fx.ctx, { pattern: "needle", offset: 1000 }), /offset 1000 is past the last hit/);
  });

  test("errors never echo an absolute path", async () => {
    for (const args of [
      { name: "nope/missing.ts:1", worktree: true },
      { name: "nope/missing.ts:1" },
      { name: "link-out.txt:1", worktree: true },
      { name: "linkdir/more.ts:1", worktree: true },
    ]) {
      const e = await fails(s(fx.ctx, args));
      assert.ok(!e.message.includes(fx.root) && !e.message.includes(fx.outside) && !/\/tmp\//.test(e.message), e.message);
      assert.ok(["PATH_NOT_FOUND", "PATH_OUTSIDE_TREE"].includes(e.code), `${e.code}: ${e.message}`);
    }
  });

  test("a plane that records no commit reads the working tree and says so", async () => {
    fx.store.write((w) => w.setPlaneProps("p", { synced_commit: null }));
    try {
      const text = await g(fx.ctx, { pattern: "needle(99)" });
      assert.match(text, /^read from the working tree: the plane records no commit$/m);
      assert.match(text, /^src\/lib\.ts:2: /m);
    } finally {
      fx.store.write((w) => w.setPlaneProps("p", { synced_commit: fx.head }));
    }
  });
});

describe("links a commit holds", () => {
  test("a committed link inside the tree is read as its target; one out of the tree never is", async () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), "drsg-commit-links-")));
    const root = join(base, "tree");
    mkdirSync(root);
    mkdirSync(join(base, "out"));
    writeFileSync(join(base, "out", "secret.txt"), "needle outside\n");
    makeRepo(root, [
      {
        message: "links",
        files: {
          "src/a.ts": "export const a = 'needle a';\n",
          "src/in.ts": { symlink: "a.ts" },
          "out.txt": { symlink: "../out/secret.txt" },
          "abs.txt": { symlink: join(base, "out", "secret.txt") },
          "dir": { symlink: "../out" },
        },
      },
    ]);
    const head = git(root, ["rev-parse", "HEAD"]);
    const t = tempStore();
    try {
      t.store.write((w) => w.createPlane("p", { synced_root: root, synced_commit: head }));
      const ctx: ToolContext = { store: t.store, transport: "stdio", plugins: () => new PluginSet([]), views: new GraphViews(t.store) };
      const text = await g(ctx, { pattern: "needle" });
      assert.deepEqual(hitLines(text), ["src/a.ts:1: export const a = 'needle a';", "src/in.ts:1: export const a = 'needle a';"]);
      assert.doesNotMatch(text, /outside/);
      assert.match(await s(ctx, { name: "src/in.ts:1" }), /^src\/a\.ts:1-1 /m);
      for (const name of ["out.txt:1", "abs.txt:1", "dir/secret.txt:1"]) {
        const e = await fails(s(ctx, { name }));
        assert.equal(e.code, "PATH_OUTSIDE_TREE", `${name}: ${e.message}`);
        assert.ok(!e.message.includes(base), e.message);
      }
      assert.equal((await fails(g(ctx, { pattern: "needle", path: "out.txt" }))).code, "PATH_OUTSIDE_TREE");
    } finally {
      t.done();
      rmSync(base, { recursive: true, force: true });
    }
  });
});

describe("a tree that is a subdirectory of its repository", () => {
  test("the commit's files under the tree root only, with paths relative to it", async () => {
    const repo = realpathSync(mkdtempSync(join(tmpdir(), "drsg-commit-sub-")));
    makeRepo(repo, [
      {
        message: "two trees",
        files: { "top.ts": "needle at the top\n", "svc/a.ts": "needle in svc\n", "svc/deep/b.ts": "needle deeper\n" },
      },
    ]);
    const head = git(repo, ["rev-parse", "HEAD"]);
    const t = tempStore();
    try {
      t.store.write((w) => w.createPlane("p", { synced_root: join(repo, "svc"), synced_commit: head }));
      const ctx: ToolContext = { store: t.store, transport: "stdio", plugins: () => new PluginSet([]), views: new GraphViews(t.store) };
      const text = await g(ctx, { pattern: "needle" });
      assert.deepEqual(hitLines(text), ["a.ts:1: needle in svc", "deep/b.ts:1: needle deeper"]);
      assert.match(await s(ctx, { name: "deep/b.ts:1" }), /^ {4}1 \| needle deeper$/m);
      assert.equal((await fails(s(ctx, { name: "top.ts:1" }))).code, "PATH_NOT_FOUND");
    } finally {
      t.done();
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
