// GitRepo over tiny real repositories built with the git CLI.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { ObjectSizer } from "../../src/git/objsize.js";
import { GitRepo, parseDate } from "../../src/git/repo.js";
import { isDrsgError } from "../../src/model/errors.js";
import { fixtureTs, git, makeRepo, tempDir } from "./fixture.js";

const temps: Array<() => void> = [];
function temp(): string {
  const t = tempDir();
  temps.push(t.cleanup);
  return t.dir;
}
after(() => {
  for (const c of temps) c();
});

async function open(dir: string): Promise<GitRepo> {
  const r = await GitRepo.find(dir);
  assert.ok(r, `a repo at ${dir}`);
  return r;
}

async function rejectsCode(p: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(p, (e: unknown) => isDrsgError(e) && e.code === code);
}

const dec = (b: Uint8Array | undefined) => (b === undefined ? undefined : Buffer.from(b).toString("utf8"));

describe("find / head", () => {
  test("finds the root from a subdirectory; undefined outside a repo", async () => {
    const dir = temp();
    makeRepo(dir, [{ files: { "a/b/c.txt": "x" }, message: "one" }]);
    const r = await open(path.join(dir, "a", "b"));
    assert.equal(r.root, realpathSync(dir));
    assert.equal(r.gitdir, path.join(realpathSync(dir), ".git"));
    assert.equal(await GitRepo.find(temp()), undefined);
    assert.equal(await GitRepo.find(path.join(dir, "missing")), undefined);
  });

  test("unborn repo: no head, a head ref, empty log, HEAD does not resolve", async () => {
    const dir = temp();
    makeRepo(dir, []);
    const r = await open(dir);
    assert.equal(await r.head(), undefined);
    assert.equal(await r.headRef(), "refs/heads/main");
    assert.deepEqual(await r.log(), []);
    assert.deepEqual(await r.branches(), []);
    await rejectsCode(r.resolve("HEAD"), "REV_NOT_FOUND");
  });

  test("detached HEAD has no head ref", async () => {
    const dir = temp();
    const [c0] = makeRepo(dir, [{ files: { a: "1" }, message: "one" }, { files: { a: "2" }, message: "two" }]);
    git(dir, ["checkout", "-q", "--detach", c0!]);
    const r = await open(dir);
    assert.equal(await r.head(), c0);
    assert.equal(await r.headRef(), undefined);
  });

  test("a linked worktree reads its own HEAD and the shared objects", async () => {
    const dir = temp();
    const [c0, c1] = makeRepo(dir, [{ files: { a: "1" }, message: "one" }, { files: { a: "2" }, message: "two" }]);
    const wt = path.join(temp(), "wt");
    git(dir, ["worktree", "add", "-q", "-b", "side", wt, c0!]);
    const r = await open(wt);
    assert.equal(r.root, realpathSync(wt));
    assert.equal(await r.head(), c0);
    assert.equal(await r.headRef(), "refs/heads/side");
    assert.equal(await r.resolve("main"), c1);
    assert.equal(dec(await r.readFileAt("HEAD", "a")), "1");
    assert.equal((await r.reflog("HEAD")).length >= 1, true);
  });
});

describe("resolve", () => {
  let dir: string;
  let r: GitRepo;
  let c: string[];
  before(async () => {
    dir = temp();
    // main: c0 - c1(v1, annotated) - c3(merge of feature) - c4(light)
    // feature:      \- c2 -----------/
    c = makeRepo(dir, [
      { files: { "a.txt": "0" }, message: "c0" },
      { files: { "a.txt": "1" }, message: "c1", tag: "v1", tagMessage: "release 1" },
      { files: { "f.txt": "feature" }, message: "c2", branch: "feature" },
      { files: { "b.txt": "b" }, message: "c3 merge", branch: "main", merge: "feature" },
      { files: { "a.txt": "4" }, message: "c4", tag: "light" },
    ]);
    git(dir, ["update-ref", "refs/remotes/origin/main", c[1]!]);
    git(dir, ["symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main"]);
    r = await open(dir);
  });

  test("shas, prefixes, names and refs", async () => {
    const [c0, c1, c2, , c4] = c;
    assert.equal(await r.resolve(c4!), c4);
    assert.equal(await r.resolve(c1!.slice(0, 7)), c1);
    assert.equal(await r.resolve(c2!.slice(0, 12).toUpperCase()), c2);
    assert.equal(await r.resolve("HEAD"), c4);
    assert.equal(await r.resolve("@"), c4);
    assert.equal(await r.resolve("main"), c4);
    assert.equal(await r.resolve("refs/heads/main"), c4);
    assert.equal(await r.resolve("feature"), c2);
    assert.equal(await r.resolve("v1"), c1, "annotated tag peeled");
    assert.equal(await r.resolve("refs/tags/v1"), c1);
    assert.equal(await r.resolve("light"), c4);
    assert.equal(await r.resolve("origin/main"), c1);
    assert.equal(await r.resolve("origin"), c1, "remote name means its HEAD");
    assert.equal(await r.resolve(c0!), c0);
  });

  test("a 4-hex unique prefix resolves", async () => {
    // Find a commit whose 4-char prefix is unique among all objects.
    const all = git(dir, ["cat-file", "--batch-all-objects", "--batch-check=%(objectname)"]).split("\n");
    const unique = c.find((s) => all.filter((o) => o.startsWith(s.slice(0, 4))).length === 1);
    assert.ok(unique);
    assert.equal(await r.resolve(unique.slice(0, 4)), unique);
  });

  test("~n and ^n suffixes, chained", async () => {
    const [c0, c1, c2, c3, c4] = c;
    assert.equal(await r.resolve("HEAD~"), c3);
    assert.equal(await r.resolve("HEAD~1"), c3);
    assert.equal(await r.resolve("HEAD^"), c3);
    assert.equal(await r.resolve("HEAD^0"), c4);
    assert.equal(await r.resolve("HEAD~2"), c1);
    assert.equal(await r.resolve("HEAD~3"), c0);
    assert.equal(await r.resolve("HEAD^^"), c1);
    assert.equal(await r.resolve("HEAD~1^2"), c2);
    assert.equal(await r.resolve("main^1^2"), c2);
    assert.equal(await r.resolve("v1~1"), c0);
    assert.equal(await r.resolve("v1^{}"), c1);
    assert.equal(await r.resolve("v1^{commit}"), c1);
    assert.equal(await r.resolve(`${c4!.slice(0, 8)}~2`), c1);
  });

  test("dates: last first-parent commit at or before", async () => {
    const [c0, c1, , c3, c4] = c;
    // Commit n is at 2024-01-(n+1)T12:00:00Z.
    assert.equal(await r.resolve("2024-01-01"), c0, "end of that day");
    assert.equal(await r.resolve("2024-01-02"), c1);
    // c2 (2024-01-03, on feature) is not on the first-parent chain.
    assert.equal(await r.resolve("2024-01-03"), c1);
    assert.equal(await r.resolve("2024-01-04"), c3);
    assert.equal(await r.resolve("2030-01-01"), c4);
    assert.equal(await r.resolve("2024-01-02T12:00:00Z"), c1, "at counts");
    assert.equal(await r.resolve("2024-01-02T11:59:59Z"), c0);
    assert.equal(await r.resolve("2024-01-02T13:00:00+01:00"), c1);
    assert.equal(await r.resolve("2024-01-02T12:30:00+01:00"), c0);
    assert.equal(await r.resolve("2024-01-04~1"), c1);
    await rejectsCode(r.resolve("2023-12-31"), "REV_NOT_FOUND");
  });

  test("unknown revisions are REV_NOT_FOUND naming the rev", async () => {
    for (const rev of ["nope", "HEAD~9", "HEAD^3", "main..feature", "deadbeef", "0".repeat(40), "", "~1", "HEAD~x", "2024-02-31", "../config", "feature/../../x"]) {
      await assert.rejects(r.resolve(rev), (e: unknown) => isDrsgError(e, "REV_NOT_FOUND") && e.data.rev === rev, rev);
    }
    const blob = git(dir, ["rev-parse", "HEAD:a.txt"]);
    await rejectsCode(r.resolve(blob), "REV_NOT_FOUND");
  });

  test("parseDate", () => {
    assert.equal(parseDate("2024-01-01"), fixtureTs(0) + 12 * 3600 - 1);
    assert.equal(parseDate("2024-01-01T12:00:00Z"), fixtureTs(0));
    assert.equal(parseDate("2024-01-01T12:00Z"), fixtureTs(0));
    assert.equal(parseDate("2024-01-01 12:00:00.5"), fixtureTs(0));
    assert.equal(parseDate("2024-01-01T14:00:00+0200"), fixtureTs(0));
    assert.equal(parseDate("2024-13-01"), undefined);
    assert.equal(parseDate("main"), undefined);
  });
});

describe("trees and blobs", () => {
  let dir: string;
  let r: GitRepo;
  let c: string[];
  before(async () => {
    dir = temp();
    c = makeRepo(dir, [
      {
        files: {
          "README.md": "# hi\n",
          "src/a.ts": "export const a = 1;\n",
          "src/lib/b.ts": "export const b = 2;\n",
          "src/lib/c-d.ts": "c\n",
          "src.txt": "sorts after src/ by path\n",
          "link": { symlink: "README.md" },
        },
        message: "one",
      },
    ]);
    // A submodule gitlink, without a real submodule.
    git(dir, ["update-index", "--add", "--cacheinfo", `160000,${c[0]},vendor/sub`]);
    git(dir, ["commit", "-q", "-m", "sub"], fixtureTs(1));
    c.push(git(dir, ["rev-parse", "HEAD"]));
    r = await open(dir);
  });

  test("listTree: every blob, sorted, with modes", async () => {
    const t = await r.listTree(c[1]!);
    assert.deepEqual(
      t.map((e) => [e.path, e.mode]),
      [
        ["README.md", "100644"],
        ["link", "120000"],
        ["src.txt", "100644"],
        ["src/a.ts", "100644"],
        ["src/lib/b.ts", "100644"],
        ["src/lib/c-d.ts", "100644"],
        ["vendor/sub", "160000"],
      ],
    );
    assert.equal(t[0]!.oid, git(dir, ["rev-parse", "HEAD:README.md"]));
    assert.deepEqual(await r.listTree("HEAD"), t, "any rev");
  });

  test("listTree with a subdir: paths relative to it", async () => {
    assert.deepEqual(
      (await r.listTree("HEAD", "src")).map((e) => e.path),
      ["a.ts", "lib/b.ts", "lib/c-d.ts"],
    );
    assert.deepEqual(
      (await r.listTree("HEAD", "src/lib/")).map((e) => e.path),
      ["b.ts", "c-d.ts"],
    );
    assert.deepEqual(await r.listTree("HEAD", "nope"), []);
    assert.deepEqual(await r.listTree("HEAD", "README.md"), []);
    assert.equal((await r.listTree("HEAD", "")).length, 7);
    await rejectsCode(r.listTree("HEAD", "../x"), "PATH_OUTSIDE_TREE");
    await rejectsCode(r.listTree("HEAD", "/etc"), "PATH_OUTSIDE_TREE");
    await rejectsCode(r.listTree("nope"), "REV_NOT_FOUND");
  });

  test("readBlob, blobSize and readFileAt", async () => {
    const oid = git(dir, ["rev-parse", "HEAD:src/a.ts"]);
    assert.equal(dec(await r.readBlob(oid)), "export const a = 1;\n");
    assert.equal(await r.blobSize(oid), 20);
    assert.equal(dec(await r.readFileAt("HEAD", "src/lib/b.ts")), "export const b = 2;\n");
    assert.equal(dec(await r.readFileAt(c[0]!, "./src/a.ts")), "export const a = 1;\n");
    assert.equal(await r.readFileAt("HEAD", "src/missing.ts"), undefined);
    assert.equal(await r.readFileAt("HEAD", "src"), undefined, "a directory is not a file");
    await rejectsCode(r.readFileAt("HEAD", "../x"), "PATH_OUTSIDE_TREE");
    await rejectsCode(r.readFileAt("0".repeat(40), "a"), "REV_NOT_FOUND");
    await rejectsCode(r.readBlob("0".repeat(40)), "REV_NOT_FOUND");
  });

  test("isAncestorOrKnown: any existing object", async () => {
    assert.equal(await r.isAncestorOrKnown(c[0]!), true);
    assert.equal(await r.isAncestorOrKnown(git(dir, ["rev-parse", "HEAD:README.md"])), true);
    assert.equal(await r.isAncestorOrKnown("1".repeat(40)), false);
    assert.equal(await r.isAncestorOrKnown("main"), false);
  });
});

describe("packed objects", () => {
  test("everything reads the same after git gc, deltas included", async () => {
    const dir = temp();
    const big = Array.from({ length: 400 }, (_, i) => `line ${i} of a file that is long enough to delta well\n`).join("");
    const commits = makeRepo(dir, [
      { files: { "a.txt": big, "sub/b.txt": "b\n", "empty.txt": "" }, message: "one", tag: "t1", tagMessage: "annotated" },
      { files: { "a.txt": `${big}one more line\n`, "sub/b.txt": null, "c.txt": "c\n" }, message: "two" },
      { files: { "a.txt": `changed head\n${big}one more line\n` }, message: "three" },
    ]);
    git(dir, ["gc", "-q", "--aggressive"]);
    const verify = git(dir, ["verify-pack", "-v", ...listPacks(dir)]);
    assert.match(verify, /^[0-9a-f]{40} blob\s+\d+ \d+ \d+ \d+ [0-9a-f]{40}$/m, "the pack has a blob delta");
    // A loose commit on top of the pack.
    commits.push(...makeRepo(dir, [{ files: { "d.txt": "d\n" }, message: "four" }]));

    const r = await open(dir);
    assert.equal(await r.resolve("t1"), commits[0]);
    assert.equal(await r.resolve("HEAD~3"), commits[0]);
    for (const sha of commits) {
      const tree = await r.listTree(sha);
      const expected = git(dir, ["ls-tree", "-r", "--format=%(path) %(objectname) %(objectsize)", sha]).split("\n");
      assert.deepEqual(
        tree.map((e) => `${e.path} ${e.oid}`),
        expected.map((l) => l.split(" ").slice(0, 2).join(" ")),
      );
      for (const [k, e] of tree.entries()) {
        const size = Number(expected[k]!.split(" ")[2]);
        const bytes = await r.readBlob(e.oid);
        assert.equal(bytes.length, size, e.path);
        assert.equal(await r.blobSize(e.oid), size, `size of ${e.path} at ${sha.slice(0, 7)}`);
        assert.deepEqual(Buffer.from(bytes), catBlob(dir, e.oid), e.path);
      }
    }
    assert.equal((await r.log()).length, 4);
    assert.equal(await r.isAncestorOrKnown(commits[1]!), true);
    assert.deepEqual(
      (await r.diffTrees(commits[0]!, commits[1]!)).map((d) => `${d.change} ${d.path}`),
      ["M a.txt", "A c.txt", "D sub/b.txt"],
    );
  });

  test("every delta-compressed blob's size matches git cat-file -s", async () => {
    const dir = temp();
    const base = Array.from({ length: 3000 }, (_, i) => `row ${i}: ${"x".repeat(i % 50)}\n`).join("");
    const steps = Array.from({ length: 8 }, (_, i) => ({
      files: { "big.txt": base.replace(`row ${i * 100}:`, `ROW ${i}:`) + `tail ${i}\n`, [`f${i}.txt`]: base.slice(i * 10) },
      message: `step ${i}`,
    }));
    makeRepo(dir, steps);
    git(dir, ["gc", "-q", "--aggressive"]);
    const lines = git(dir, ["cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype) %(objectsize)"]).split("\n");
    const deltas = git(dir, ["verify-pack", "-v", ...listPacks(dir)]).split("\n").filter((l) => /^[0-9a-f]{40} blob\s+\d+ \d+ \d+ \d+ [0-9a-f]{40}$/.test(l));
    assert.ok(deltas.length > 0, "some blobs are deltas");
    const r = await open(dir);
    const sizer = new ObjectSizer(path.join(dir, ".git", "objects"));
    for (const l of lines) {
      const [oid, type, size] = l.split(" ");
      // The cheap path itself must answer (blobSize would hide a miss by reading the blob).
      assert.equal(await sizer.size(oid!), Number(size), `${type} ${oid}`);
      if (type === "blob") assert.equal(await r.blobSize(oid!), Number(size), oid);
    }
    // REF_DELTA entries (what repack writes without delta base offsets) are measured too.
    git(dir, ["-c", "repack.useDeltaBaseOffset=false", "repack", "-a", "-d", "-f", "-q"]);
    const refSizer = new ObjectSizer(path.join(dir, ".git", "objects"));
    for (const l of lines) {
      const [oid, , size] = l.split(" ");
      assert.equal(await refSizer.size(oid!), Number(size), oid);
    }
    assert.equal(await refSizer.size("3".repeat(40)), undefined);
    assert.equal(await refSizer.has(lines[0]!.split(" ")[0]!), true);
    assert.equal(await refSizer.has("3".repeat(40)), false);
  });

  test("a loose object measures without inflating it whole", async () => {
    const dir = temp();
    const big = Buffer.alloc(3 * 1024 * 1024, "abcdefgh");
    makeRepo(dir, [{ files: { "big.bin": big, "small.txt": "s" }, message: "loose" }]);
    const sizer = new ObjectSizer(path.join(dir, ".git", "objects"));
    assert.equal(await sizer.size(git(dir, ["rev-parse", "HEAD:big.bin"])), big.length);
    assert.equal(await sizer.size(git(dir, ["rev-parse", "HEAD:small.txt"])), 1);
    assert.equal(await sizer.size("not hex"), undefined);
  });
});

function catBlob(dir: string, oid: string): Buffer {
  return spawnSync("git", ["cat-file", "blob", oid], { cwd: dir }).stdout;
}

function listPacks(dir: string): string[] {
  const packDir = path.join(dir, ".git", "objects", "pack");
  return readdirSync(packDir)
    .filter((n) => n.endsWith(".idx"))
    .map((n) => path.join(packDir, n));
}

describe("diffTrees", () => {
  test("add, modify, delete, rename, mode change, file↔directory", async () => {
    const dir = temp();
    const [c0, c1] = makeRepo(dir, [
      { files: { "keep.txt": "k", "mod.txt": "1", "del.txt": "d", "old/name.txt": "same content", "x": "file", "exe.sh": "#!/bin/sh\n" }, message: "one" },
      {
        files: { "mod.txt": "2", "del.txt": null, "old/name.txt": null, "new/name.txt": "same content", "add.txt": "a", "x": null, "x/inner.txt": "i" },
        message: "two",
      },
    ]);
    git(dir, ["update-index", "--chmod=+x", "exe.sh"]);
    git(dir, ["commit", "-q", "-m", "chmod"], fixtureTs(2));
    const c2 = git(dir, ["rev-parse", "HEAD"]);
    const r = await open(dir);
    const d = await r.diffTrees(c0!, c1!);
    assert.deepEqual(
      d.map((x) => `${x.change} ${x.path}`),
      ["A add.txt", "D del.txt", "M mod.txt", "A new/name.txt", "D old/name.txt", "D x", "A x/inner.txt"],
    );
    const mod = d.find((x) => x.path === "mod.txt")!;
    assert.equal(mod.oldOid, git(dir, ["rev-parse", `${c0}:mod.txt`]));
    assert.equal(mod.newOid, git(dir, ["rev-parse", `${c1}:mod.txt`]));
    const del = d.find((x) => x.path === "del.txt")!;
    assert.equal(del.newOid, undefined);
    assert.ok(del.oldOid);
    assert.deepEqual(await r.diffTrees(c1!, c1!), []);
    assert.deepEqual(
      (await r.diffTrees(c1!, c2)).map((x) => [x.change, x.path, x.oldMode, x.newMode]),
      [["M", "exe.sh", "100644", "100755"]],
    );
    assert.deepEqual(
      (await r.diffTrees(c1!, c0!)).map((x) => `${x.change} ${x.path}`),
      ["D add.txt", "A del.txt", "M mod.txt", "D new/name.txt", "A old/name.txt", "A x", "D x/inner.txt"],
    );
    assert.deepEqual(
      (await r.diffTrees("HEAD~2", "HEAD~1")).map((x) => x.path),
      d.map((x) => x.path),
    );
  });
});

describe("refs, reflog and log", () => {
  let dir: string;
  let r: GitRepo;
  let c: string[];
  before(async () => {
    dir = temp();
    c = makeRepo(dir, [
      { files: { a: "0" }, message: "first\n\nbody line" },
      { files: { a: "1" }, message: "second", tag: "v1", tagMessage: "release" },
      { files: { b: "1" }, message: "on topic", branch: "topic", tag: "lw" },
      { files: { a: "2" }, message: "third", branch: "main" },
    ]);
    git(dir, ["update-ref", "refs/remotes/origin/main", c[0]!]);
    git(dir, ["update-ref", "refs/remotes/upstream/dev/x", c[2]!]);
    git(dir, ["symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main"]);
    git(dir, ["tag", "treetag", `${c[0]}^{tree}`]);
    git(dir, ["pack-refs", "--all"]);
    r = await open(dir);
  });

  test("branches: local then remote, packed refs read", async () => {
    assert.deepEqual(await r.branches(), [
      { name: "main", sha: c[3] },
      { name: "topic", sha: c[2] },
      { name: "origin/main", sha: c[0], remote: "origin" },
      { name: "upstream/dev/x", sha: c[2], remote: "upstream" },
    ]);
  });

  test("tags: peeled, annotated ones with their date, non-commit tags left out", async () => {
    assert.deepEqual(await r.tags(), [
      { name: "lw", sha: c[2] },
      { name: "v1", sha: c[1], taggedTs: fixtureTs(1) },
    ]);
  });

  test("log and commitInfo", async () => {
    const log = await r.log();
    assert.deepEqual(
      log.map((x) => x.summary),
      ["third", "second", "first"],
    );
    const first = log[2]!;
    assert.deepEqual(first, {
      sha: c[0],
      parents: [],
      summary: "first",
      message: "first\n\nbody line",
      author: "t",
      authorEmail: "t@e",
      committedAt: "2024-01-01T12:00:00Z",
      committedTs: fixtureTs(0),
    });
    assert.deepEqual(await r.commitInfo(c[0]!), first);
    assert.deepEqual((await r.commitInfo("topic")).parents, [c[1]]);
    assert.deepEqual((await r.log({ ref: "topic", depth: 2 })).map((x) => x.sha), [c[2], c[1]]);
    assert.deepEqual((await r.log({ ref: "v1" })).map((x) => x.sha), [c[1], c[0]]);
    await rejectsCode(r.commitInfo("nope"), "REV_NOT_FOUND");
    await rejectsCode(r.commitInfo("2".repeat(40)), "REV_NOT_FOUND");
  });

  test("reflog: parsed from .git/logs, oldest first; missing is empty", async () => {
    const head = await r.reflog("HEAD");
    assert.ok(head.length >= 5);
    assert.equal(head[0]!.old, "0".repeat(40));
    assert.equal(head[0]!.new, c[0]);
    assert.equal(head[0]!.who, "t <t@e>");
    assert.equal(head[0]!.ts, fixtureTs(0));
    assert.match(head[0]!.message, /^commit \(initial\): first/);
    assert.equal(head.at(-1)!.new, c[3]);
    assert.ok(head.some((e) => e.message.startsWith("checkout: moving from main to topic")));
    const main = await r.reflog("main");
    assert.deepEqual(main, await r.reflog("refs/heads/main"));
    assert.deepEqual(main.map((e) => e.new), [c[0], c[1], c[3]]);
    assert.deepEqual(await r.reflog("no-such-branch"), []);
    await rejectsCode(r.reflog("../../etc/passwd"), "BAD_INPUT");
  });

  test("reflog tolerates a message-less line and garbage", async () => {
    const d = temp();
    makeRepo(d, [{ files: { a: "0" }, message: "x" }]);
    const f = path.join(d, ".git", "logs", "refs", "heads", "odd");
    mkdirSync(path.dirname(f), { recursive: true });
    writeFileSync(f, `${"0".repeat(40)} ${"1".repeat(40)} A B <a@b> 5 +0100\nnot a line\n`);
    const rr = await open(d);
    assert.deepEqual(await rr.reflog("odd"), [{ old: "0".repeat(40), new: "1".repeat(40), who: "A B <a@b>", ts: 5, message: "" }]);
  });
});

describe("packed repositories", () => {
  test("listTree + readBlob of 800 packed files (timing reported, never asserted)", async (t) => {
    const dir = temp();
    const files: Record<string, string> = {};
    for (let d = 0; d < 20; d++) {
      for (let f = 0; f < 40; f++) files[`src/d${d}/f${f}.ts`] = `export const v${d}_${f} = ${f};\n`.repeat(20);
    }
    makeRepo(dir, [{ files, message: "many" }]);
    git(dir, ["gc", "-q"]);
    const r = await open(dir);
    const t0 = performance.now();
    const tree = await r.listTree("HEAD");
    let bytes = 0;
    for (const e of tree) bytes += (await r.readBlob(e.oid)).length;
    const ms = performance.now() - t0;
    assert.equal(tree.length, 800);
    assert.ok(bytes > 0);
    // Speed is measured in bench/, not asserted here; the figure is printed for the curious.
    t.diagnostic(`800 packed blobs read in ${ms.toFixed(0)} ms`);
  });
});
