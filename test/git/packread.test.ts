// PackReader on its own (GitRepo.readBlob would hide a miss by falling back to isomorphic-git):
// every object of gc'd repositories, OFS_DELTA and REF_DELTA chains, equals git cat-file.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { after, describe, test } from "node:test";
import { ObjectSizer } from "../../src/git/objsize.js";
import { applyDelta, PackReader } from "../../src/git/packread.js";
import { git, makeRepo, tempDir } from "./fixture.js";

const temps: Array<() => void> = [];
after(() => {
  for (const c of temps) c();
});

function catFile(dir: string, type: string, oid: string): Buffer {
  return spawnSync("git", ["cat-file", type, oid], { cwd: dir }).stdout;
}

function reader(dir: string): PackReader {
  const sizer = new ObjectSizer(path.join(dir, ".git", "objects"));
  return new PackReader(
    (oid) => sizer.packed(oid),
    () => undefined,
  );
}

function deltaCount(dir: string): number {
  const packDir = path.join(dir, ".git", "objects", "pack");
  const idx = readdirSync(packDir).filter((n) => n.endsWith(".idx")).map((n) => path.join(packDir, n));
  return git(dir, ["verify-pack", "-v", ...idx]).split("\n").filter((l) => /^[0-9a-f]{40} \w+\s+\d+ \d+ \d+ \d+ [0-9a-f]{40}$/.test(l)).length;
}

async function readsAll(dir: string): Promise<number> {
  const lines = git(dir, ["cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype)"]).split("\n");
  const r = reader(dir);
  for (const l of lines) {
    const [oid, type] = l.split(" ") as [string, string];
    const got = await r.read(oid);
    assert.ok(got, `${type} ${oid} read from the pack`);
    assert.equal(got.type, type, oid);
    assert.deepEqual(got.data, catFile(dir, type, oid), `${type} ${oid}`);
  }
  return lines.length;
}

describe("PackReader", () => {
  test("every object of a gc'd repository, with delta chains by offset and by oid", async () => {
    const t = tempDir();
    temps.push(t.cleanup);
    const dir = t.dir;
    const base = Array.from({ length: 3000 }, (_, i) => `row ${i}: ${"x".repeat(i % 50)}\n`).join("");
    makeRepo(
      dir,
      Array.from({ length: 10 }, (_, i) => ({
        files: { "big.txt": base.replace(`row ${i * 100}:`, `ROW ${i}:`) + `tail ${i}\n`, [`f${i}.txt`]: base.slice(i * 10), "e.txt": "" },
        message: `step ${i}`,
      })),
    );
    git(dir, ["gc", "-q", "--aggressive"]);
    assert.ok(deltaCount(dir) > 5, "the pack holds deltas");
    assert.ok((await readsAll(dir)) > 30);
    // REF_DELTA entries: what repack writes without delta base offsets.
    git(dir, ["-c", "repack.useDeltaBaseOffset=false", "repack", "-a", "-d", "-f", "-q"]);
    assert.ok(deltaCount(dir) > 5, "the repacked pack holds deltas");
    await readsAll(dir);
    assert.equal(await reader(dir).read("3".repeat(40)), undefined, "not in any pack");
  });

  test("only blobs' delta bases are kept between reads: trees and commits leave the cache empty", async () => {
    const t = tempDir();
    temps.push(t.cleanup);
    const dir = t.dir;
    const files = (i: number) => Object.fromEntries(Array.from({ length: 40 }, (_, k) => [`d/f${k}.txt`, `${k === i ? "changed" : "same"} ${k}\n`]));
    makeRepo(dir, Array.from({ length: 8 }, (_, i) => ({ files: files(i), message: `step ${i}` })));
    git(dir, ["gc", "-q", "--aggressive"]);
    const byType = (type: string) =>
      git(dir, ["cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype) %(deltabase)"])
        .split("\n")
        .map((l) => l.split(" "))
        .filter(([, ty, base]) => ty === type && base !== "0".repeat(40));
    const trees = byType("tree");
    assert.ok(trees.length > 0, "some trees are stored as deltas");
    const r = reader(dir);
    for (const [oid] of trees) assert.ok(await r.read(oid!));
    assert.equal((r as unknown as { cached: number }).cached, 0);
  });

  test("a cached base asked for itself is handed over: transferring it to a worker cannot empty the cache", async () => {
    const t = tempDir();
    temps.push(t.cleanup);
    const dir = t.dir;
    const base = Array.from({ length: 400 }, (_, i) => `line ${i}\n`).join("");
    makeRepo(dir, Array.from({ length: 4 }, (_, i) => ({ files: { "f.txt": `${base}tail ${i}\n` }, message: `v${i}` })));
    git(dir, ["gc", "-q", "--aggressive"]);
    const [delta, , baseOid] = git(dir, ["cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype) %(deltabase)"])
      .split("\n")
      .map((l) => l.split(" "))
      .find(([, ty, b]) => ty === "blob" && b !== "0".repeat(40))!;
    const r = reader(dir);
    const cache = (r as unknown as { cache: Map<string, { data: Buffer }> }).cache;
    const want = catFile(dir, "blob", delta!);
    assert.deepEqual((await r.read(delta!))?.data, want); // reads (and keeps) its base
    assert.equal(cache.size, 1, "the base is kept");
    const b = await r.read(baseOid!);
    assert.deepEqual(b?.data, catFile(dir, "blob", baseOid!));
    assert.ok(b && ![...cache.values()].some((o) => o.data.buffer === b.data.buffer), "the cache no longer holds what it handed over");
    // Detach it as a transfer to a worker would (never Node's shared small-buffer pool), then read the delta on it again.
    assert.notEqual(b.data.buffer.byteLength, Buffer.poolSize);
    structuredClone(b.data.buffer, { transfer: [b.data.buffer as ArrayBuffer] });
    assert.equal(b.data.byteLength, 0);
    assert.deepEqual((await r.read(delta!))?.data, want);
  });

  test("applyDelta refuses a delta for another base or one that runs past it", () => {
    const baseBuf = Buffer.from("hello world");
    // base size 11, result size 5, copy offset 6 length 5 ("world")
    const ok = Buffer.from([11, 5, 0x80 | 0x01 | 0x10, 6, 5]);
    assert.equal(applyDelta(baseBuf, ok)?.toString(), "world");
    assert.equal(applyDelta(Buffer.from("short"), ok), undefined);
    assert.equal(applyDelta(baseBuf, Buffer.from([11, 5, 0x80 | 0x01 | 0x10, 9, 5])), undefined);
    assert.equal(applyDelta(baseBuf, Buffer.from([11, 3, 3, 0x61, 0x62, 0x63]))?.toString(), "abc");
    assert.equal(applyDelta(baseBuf, Buffer.from([11, 3, 0])), undefined);
  });
});
