// walkSource: committed blobs inside git, the .gitignore-filtered working tree outside it.
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, describe, test } from "node:test";
import { isDrsgError } from "../../src/model/errors.js";
import { isBinary, SKIP_DIRS, walkSource } from "../../src/sync/walk.js";
import { fixtureTs, git, makeRepo, tempDir } from "./fixture.js";

const temps: Array<() => void> = [];
function temp(): string {
  const t = tempDir("drsg-walk-");
  temps.push(t.cleanup);
  return t.dir;
}
after(() => {
  for (const c of temps) c();
});

function write(root: string, files: Record<string, string | Buffer>) {
  for (const [p, content] of Object.entries(files)) {
    const full = path.join(root, p);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

const text = (b: Uint8Array) => Buffer.from(b).toString("utf8");

describe("in a git repository", () => {
  test("reads HEAD's blobs: uncommitted edits and untracked files never appear", async () => {
    const dir = temp();
    const [c0] = makeRepo(dir, [{ files: { "src/a.ts": "committed\n", "b.py": "x = 1\n" }, message: "one" }]);
    write(dir, { "src/a.ts": "EDITED, not committed\n", "untracked.ts": "nope\n" });
    git(dir, ["add", "untracked.ts"]); // staged is still not committed
    const w = await walkSource(dir);
    assert.equal(w.source, "git");
    assert.equal(w.commit, c0);
    assert.ok(w.repo);
    assert.deepEqual(
      w.files.map((f) => [f.path, f.size]),
      [
        ["b.py", 6],
        ["src/a.ts", 10],
      ],
    );
    assert.equal(w.files[1]!.oid, git(dir, ["rev-parse", "HEAD:src/a.ts"]));
    assert.equal(text(await w.read(w.files[1]!)), "committed\n");
    // Without an oid the file is read by path at the commit.
    assert.equal(text(await w.read({ path: "src/a.ts", size: 10 })), "committed\n");
  });

  test("a subdirectory: only its files, paths relative to it", async () => {
    const dir = temp();
    makeRepo(dir, [{ files: { "pkg/lib/a.go": "package lib\n", "pkg/main.go": "package main\n", "other.go": "x" }, message: "one" }]);
    const w = await walkSource(path.join(dir, "pkg"));
    assert.deepEqual(
      w.files.map((f) => f.path),
      ["lib/a.go", "main.go"],
    );
    assert.equal(text(await w.read({ path: "lib/a.go", size: 12 })), "package lib\n");
    mkdirSync(path.join(dir, "untracked-dir"));
    assert.deepEqual((await walkSource(path.join(dir, "untracked-dir"))).files, []);
  });

  test("skips vendored and generated trees, submodules, symlinks and big files", async () => {
    const dir = temp();
    const [c0] = makeRepo(dir, [
      {
        files: {
          "src/ok.ts": "ok\n",
          "node_modules/left-pad/index.js": "x",
          "node_modules/left-pad/lib/deep.js": "x",
          "web/node_modules/y/i.js": "y",
          "dist/out.js": "z",
          "src/vendor/v.go": "v",
          "big.txt": "0123456789".repeat(20),
          "bin.dat": Buffer.from([1, 0, 2, 3]),
          "alias.ts": { symlink: "src/ok.ts" },
          "distribution/keep.ts": "not dist\n",
        },
        message: "one",
      },
    ]);
    git(dir, ["update-index", "--add", "--cacheinfo", `160000,${c0},ext/sub`]);
    git(dir, ["commit", "-q", "-m", "sub"], fixtureTs(1));
    const listed: string[][] = [];
    const w = await walkSource(dir, { maxBytes: 100, onListed: (paths) => listed.push([...paths]) });
    assert.deepEqual(
      w.files.map((f) => f.path),
      ["bin.dat", "distribution/keep.ts", "src/ok.ts"],
    );
    // Told once, before sizes: every blob not skipped by its path, the one later too big included.
    assert.deepEqual(listed, [["big.txt", "bin.dat", "distribution/keep.ts", "src/ok.ts"]]);
    assert.deepEqual(w.skipped, [
      { path: "alias.ts", reason: "symlink" },
      { path: "big.txt", reason: "over 100 bytes (200 bytes)" },
      { path: "dist", reason: "generated (dist)" },
      { path: "ext/sub", reason: "submodule" },
      { path: "node_modules", reason: "vendored (node_modules)" },
      { path: "src/vendor", reason: "vendored (vendor)" },
      { path: "web/node_modules", reason: "vendored (node_modules)" },
    ]);
    // Binary detection is the caller's, on the bytes it reads.
    const bin = w.files.find((f) => f.path === "bin.dat")!;
    assert.equal(isBinary(await w.read(bin)), true);
    // The default limit is 2 MiB.
    assert.equal((await walkSource(dir)).skipped.some((s) => s.path === "big.txt"), false);
  });

  test("a big file after git gc is measured from the pack", async () => {
    const dir = temp();
    makeRepo(dir, [{ files: { "huge.txt": "y".repeat(3 * 1024 * 1024), "small.ts": "s" }, message: "one" }]);
    git(dir, ["gc", "-q"]);
    const w = await walkSource(dir);
    assert.deepEqual(w.skipped, [{ path: "huge.txt", reason: `over 2 MiB (${3 * 1024 * 1024} bytes)` }]);
    assert.deepEqual(w.files.map((f) => f.path), ["small.ts"]);
  });

  test("an unborn repository walks the working tree with git's ignore rules", async () => {
    const dir = temp();
    makeRepo(dir, []);
    write(dir, {
      ".gitignore": "*.log\nbuild/\n",
      "a.ts": "a",
      "debug.log": "x",
      "build/x.ts": "x",
      "sub/.gitignore": "local.ts\n",
      "sub/local.ts": "x",
      "sub/kept.ts": "k",
    });
    writeFileSync(path.join(dir, ".git", "info", "exclude"), "secret.ts\n");
    write(dir, { "secret.ts": "s" });
    const w = await walkSource(dir);
    assert.equal(w.source, "worktree");
    assert.equal(w.commit, undefined);
    assert.ok(w.repo);
    assert.deepEqual(
      w.files.map((f) => f.path),
      [".gitignore", "a.ts", "sub/.gitignore", "sub/kept.ts"],
    );
    const sub = await walkSource(path.join(dir, "sub"));
    assert.deepEqual(
      sub.files.map((f) => f.path),
      [".gitignore", "kept.ts"],
    );
  });
});

describe("outside git", () => {
  test("honours nested .gitignore files, skips vendored, hidden and symlinked dirs", async () => {
    const dir = temp();
    write(dir, {
      ".gitignore": "*.log\n/out.txt\ngen/\n!important.log\n",
      "a.ts": "aaa",
      "x.log": "x",
      "important.log": "keep",
      "out.txt": "o",
      "deep/out.txt": "not anchored here",
      "gen/g.ts": "g",
      "lib/gen": "a file named gen is not a directory",
      "lib/.gitignore": "*.tmp\n",
      "lib/b.ts": "b",
      "lib/c.tmp": "c",
      "c.tmp": "outer tmp is kept",
      "node_modules/m/index.js": "m",
      ".cache/x.ts": "hidden",
      "real/r.ts": "r",
      "nested/.git": "gitdir: elsewhere\n",
      "nested/n.ts": "n",
    });
    symlinkSync(path.join(dir, "real"), path.join(dir, "linked"));
    symlinkSync(path.join(dir, "a.ts"), path.join(dir, "alias.ts"));
    const w = await walkSource(dir);
    assert.equal(w.source, "worktree");
    assert.equal(w.repo, undefined);
    assert.equal(w.commit, undefined);
    assert.deepEqual(
      w.files.map((f) => f.path),
      [".gitignore", "a.ts", "c.tmp", "deep/out.txt", "important.log", "lib/.gitignore", "lib/b.ts", "lib/gen", "nested/n.ts", "real/r.ts"],
    );
    assert.equal(w.files[1]!.size, 3);
    assert.deepEqual(w.skipped, [
      { path: ".cache", reason: "hidden directory" },
      { path: "alias.ts", reason: "symlink" },
      { path: "linked", reason: "symlink" },
      { path: "node_modules", reason: "vendored (node_modules)" },
    ]);
    assert.equal(text(await w.read(w.files[1]!)), "aaa");
    await assert.rejects(w.read({ path: "../x", size: 1 }), (e: unknown) => isDrsgError(e, "PATH_OUTSIDE_TREE"));
    await assert.rejects(w.read({ path: "alias.ts", size: 1 }), (e: unknown) => isDrsgError(e, "PATH_NOT_FOUND"));
  });

  test("big files are skipped by size; output is deterministic", async () => {
    const dir = temp();
    write(dir, { "z.ts": "z", "m.ts": "x".repeat(50), "a.ts": "a" });
    const w = await walkSource(dir, { maxBytes: 10 });
    assert.deepEqual(
      w.files.map((f) => f.path),
      ["a.ts", "z.ts"],
    );
    assert.deepEqual(w.skipped, [{ path: "m.ts", reason: "over 10 bytes (50 bytes)" }]);
    const again = await walkSource(dir, { maxBytes: 10 });
    assert.deepEqual(
      { files: again.files, skipped: again.skipped },
      { files: w.files, skipped: w.skipped },
    );
  });

  test("a missing directory or a file is DIR_NOT_FOUND naming it", async () => {
    const dir = temp();
    const missing = path.join(dir, "nope");
    await assert.rejects(walkSource(missing), (e: unknown) => isDrsgError(e, "DIR_NOT_FOUND") && e.data.dir === missing);
    write(dir, { "f.txt": "x" });
    await assert.rejects(walkSource(path.join(dir, "f.txt")), (e: unknown) => isDrsgError(e, "DIR_NOT_FOUND"));
  });
});

test("isBinary and SKIP_DIRS", () => {
  assert.equal(isBinary(new Uint8Array([104, 105, 0])), true);
  assert.equal(isBinary(Buffer.from("plain text\n")), false);
  const late = new Uint8Array(9000).fill(65);
  late[8500] = 0;
  assert.equal(isBinary(late), false, "only the first 8 KiB count");
  assert.equal(isBinary(new Uint8Array(0)), false);
  for (const d of ["node_modules", "dist", "build", "target", "vendor", ".venv", "__pycache__", ".git", ".drsg"]) {
    assert.ok(SKIP_DIRS.has(d), d);
  }
});
