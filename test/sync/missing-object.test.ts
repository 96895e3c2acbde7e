// A repository missing one object (a pruned or never-fetched blob the digest would not parse
// anyway, such as a PNG) digests and folds: the file is skipped and named in the report, never
// fatal (before: REV_NOT_FOUND naming only a sha aborted the digest and drsg init with it).
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { digest } from "../../src/sync/digest.js";
import { git, makeRepo } from "../git/fixture.js";
import { assertConverged, cleanupAll, closePool, officialSet, openSync, sharedPool, temp, tempStore } from "./helpers.js";

after(async () => {
  await closePool();
  cleanupAll();
});

function dropObject(dir: string, rev: string): string {
  const oid = git(dir, ["rev-parse", rev]).trim();
  rmSync(join(dir, ".git", "objects", oid.slice(0, 2), oid.slice(2)));
  return oid;
}

test("a missing blob is skipped and named; digest and fold go on and converge", { timeout: 120_000 }, async () => {
  const dir = temp("drsg-missing-");
  makeRepo(dir, [{ files: { "src/a.ts": "export function a() { return 1; }\n", "assets/logo.png": "\u0089PNG fake image bytes\n" }, message: "init" }]);
  const oid = dropObject(dir, "HEAD:assets/logo.png");
  const { store } = tempStore();
  const d = await digest({ dir, plugins: officialSet(), plane: "m", store, pool: sharedPool(), git: false });
  assert.ok(store.getNodeByKey("m", `${dir.split("/").pop()}/src/a.a`), "the readable file is in the plane");
  const skip = d.report.skipped.find((s) => s.path === "assets/logo.png");
  assert.match(skip?.reason ?? "", new RegExp(`object ${oid.slice(0, 12)} is missing`));

  // A fold over a commit that adds another missing blob (a claimed file this time) behaves the same.
  const sync = await openSync(store, dir, { plane: "m", git: false });
  try {
    await sync.syncToHead();
    writeFileSync(join(dir, "src/b.ts"), "export function b() { return 2; }\n");
    writeFileSync(join(dir, "src/c.ts"), "export function c() { return 3; }\n");
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-qm", "b c"]);
    dropObject(dir, "HEAD:src/c.ts");
    const r = await sync.foldTo("HEAD");
    assert.equal(r.kind, "fold");
    assert.ok(store.getNodeByKey("m", `${dir.split("/").pop()}/src/b.b`));
    assert.equal(store.getNodeByKey("m", `${dir.split("/").pop()}/src/c.c`), undefined);
    await assertConverged(store, "m", dir, "fold over a missing blob");
  } finally {
    await sync.close();
    store.close();
  }
});
