// recall of a symbol at a revision whose file the partial cache does not hold yet: the first
// answer is already the declaration (issue 18 §3 — the file's bytes were handed to the
// extraction worker and the caller's copy went empty, so the first call showed `a-(a-1)` and no
// lines, and the first `vs` diff showed the whole function as added). Each test digests into a
// fresh database, so its first call is the uncached one.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import type { Store } from "../../src/store/types.js";
import { digest } from "../../src/sync/digest.js";
import { recall } from "../../src/tools/recall.js";
import { callTool, cleanupAll, closePool, officialSet, sharedPool, temp, tempStore, toolCtx } from "../sync/helpers.js";
import { git } from "../git/fixture.js";
import { makeShopHistory, shopDirs } from "../sync/history-fixture.js";

after(async () => {
  await closePool();
  cleanupAll();
});

async function freshPlane(): Promise<Store> {
  const { dir, subDir } = shopDirs(temp("drsg-recall-first-"));
  makeShopHistory(dir, subDir);
  // Packed, as a cloned repository is: a packed blob is read into a buffer of its own, which is
  // what the worker hand-over detached (a loose one is a view into a larger buffer and was copied).
  git(dir, ["repack", "-adq"]);
  const { store } = tempStore();
  await digest({ dir, plugins: officialSet(), plane: "shop", store, pool: sharedPool() });
  return store;
}

async function ok(store: Store, input: Record<string, unknown>): Promise<string> {
  const r = await callTool(toolCtx(store), recall, { plane: "shop", ...input });
  assert.equal(r.isError, false, r.text);
  return r.text;
}

describe("recall: the first call on an uncached file", () => {
  test("a symbol at an old revision: the declaration on the first call, the same on the second", async () => {
    const store = await freshPlane();
    try {
      // src/cart.ts at v0.1 imports ./price, a blob HEAD no longer has: the digest did not cache it.
      const first = await ok(store, { name: "Cart.add", at: "v0.1" });
      assert.match(first, /^shop\/src\/cart\.Cart\.add {2}Method {2}src\/cart\.ts:5-8 at [0-9a-f]{7}$/m, first);
      assert.match(first, /^ {4}7 \| {5}return price\(item\);$/m, first);
      assert.equal(await ok(store, { name: "Cart.add", at: "v0.1" }), first, "the second call answers the same");
    } finally {
      store.close();
    }
  });

  test("the first vs diff against an uncached revision shows no change, not the whole method added", async () => {
    const store = await freshPlane();
    try {
      const d = await ok(store, { name: "Cart.add", at: "HEAD", vs: "v0.1" });
      assert.doesNotMatch(d, /shown as added|shown as removed/, d);
      assert.match(d, /^ {2}no difference$/m, d);
    } finally {
      store.close();
    }
  });
});
