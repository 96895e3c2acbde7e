// The index reader against git's own `ls-files`, on indexes git writes: versions 2, 3 (an
// intent-to-add entry carries the extended flags) and 4 (prefix-compressed paths), a merge
// conflict (three stages of one path), long and non-ASCII names, a zero checksum; and what it
// declines (a split index, a truncated or corrupted file), which GitRepo leaves to isomorphic-git.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, describe, test } from "node:test";
import { indexPaths } from "../../src/git/indexfile.js";
import { GitRepo } from "../../src/git/repo.js";
import { git, makeRepo, tempDir } from "./fixture.js";

const temps: Array<() => void> = [];
after(() => {
  for (const c of temps) c();
});

/** A 2 kB path (its length still fits the entry's 12 bits; the OS refuses one that would not). */
const LONG = `${`${"d".repeat(199)}/`.repeat(10)}x.ts`;
const NAMES = ["a.ts", "b/c.py", "b/ç-ü.go", LONG, "z/🙂.txt", "b/c.pyi", "b0.ts"];

function repo(): string {
  const t = tempDir();
  temps.push(t.cleanup);
  makeRepo(t.dir, [{ files: Object.fromEntries(NAMES.map((n) => [n, `${n}\n`])), message: "files" }]);
  return t.dir;
}

function lsFiles(dir: string): string[] {
  return [...new Set(git(dir, ["ls-files", "-z"]).split("\0").filter(Boolean))];
}

function read(dir: string): string[] | undefined {
  return indexPaths(readFileSync(path.join(dir, ".git", "index")));
}

describe("indexPaths", () => {
  for (const version of [2, 4]) {
    test(`index version ${version}: the paths git lists, in its order`, () => {
      const dir = repo();
      git(dir, ["update-index", "--index-version", String(version)]);
      assert.equal(readFileSync(path.join(dir, ".git", "index")).readUInt32BE(4), version);
      assert.deepEqual(read(dir), lsFiles(dir));
    });
  }

  test("an intent-to-add entry (extended flags) among the others", () => {
    const dir = repo();
    writeFileSync(path.join(dir, "new.ts"), "x\n");
    git(dir, ["add", "-N", "new.ts"]);
    assert.equal(readFileSync(path.join(dir, ".git", "index")).readUInt32BE(4), 3, "git wrote version 3 for the extended flags");
    const got = read(dir);
    assert.ok(got?.includes("new.ts"));
    assert.deepEqual(got, lsFiles(dir));
  });

  test("GitRepo.trackedFiles reads it: git's list, sorted", async () => {
    const dir = repo();
    const r = await GitRepo.find(dir);
    assert.deepEqual(await r!.trackedFiles(), [...lsFiles(dir)].sort());
  });

  test("a conflicted path (stages 1–3) is listed once", () => {
    const dir = repo();
    git(dir, ["checkout", "-q", "-b", "other"]);
    writeFileSync(path.join(dir, "a.ts"), "other\n");
    git(dir, ["commit", "-qam", "other"]);
    git(dir, ["checkout", "-q", "-"]);
    writeFileSync(path.join(dir, "a.ts"), "main\n");
    git(dir, ["commit", "-qam", "main"]);
    const merge = path.join(dir, ".git", "index");
    try {
      git(dir, ["merge", "-q", "other"]);
    } catch {
      // the conflict is the point
    }
    assert.ok(git(dir, ["ls-files", "-u"]).includes("a.ts"), "a.ts is conflicted");
    assert.deepEqual(indexPaths(readFileSync(merge)), lsFiles(dir));
  });

  test("a zero checksum (what git ≥ 2.40 writes under index.skipHash) is read", () => {
    const dir = repo();
    const buf = Buffer.from(readFileSync(path.join(dir, ".git", "index")));
    buf.fill(0, buf.length - 20);
    assert.deepEqual(indexPaths(buf), lsFiles(dir));
  });

  test("declined: a split index, a truncated file, a flipped byte, not an index", () => {
    const dir = repo();
    git(dir, ["update-index", "--split-index"]);
    assert.equal(read(dir), undefined, "a split index keeps its entries in the shared file");

    const plain = repo();
    const buf = readFileSync(path.join(plain, ".git", "index"));
    assert.equal(indexPaths(buf.subarray(0, buf.length - 7)), undefined);
    const flipped = Buffer.from(buf);
    flipped[80] = flipped[80]! ^ 0x20;
    assert.equal(indexPaths(flipped), undefined);
    assert.equal(indexPaths(Buffer.from("DIRC")), undefined);
    assert.equal(indexPaths(Buffer.from("not an index at all")), undefined);
  });
});
