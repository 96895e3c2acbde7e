// history pages its commits (issue 18 §3: listings capped can be paged): `limit` is the page,
// `offset` skips the newest; the elision line names the next offset, and the pages join up.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Store } from "../../src/store/types.js";
import { digest } from "../../src/sync/digest.js";
import { history } from "../../src/tools/history.js";
import { callTool, cleanupAll, closePool, officialSet, sharedPool, temp, tempStore, toolCtx } from "../sync/helpers.js";
import { makeShopHistory, shopDirs } from "../sync/history-fixture.js";

let store: Store;

before(async () => {
  const { dir, subDir } = shopDirs(temp("drsg-hist-page-"));
  makeShopHistory(dir, subDir);
  store = tempStore().store;
  await digest({ dir, plugins: officialSet(), plane: "shop", store, pool: sharedPool() });
});
after(async () => {
  store.close();
  await closePool();
  cleanupAll();
});

async function run(input: Record<string, unknown>): Promise<string> {
  const r = await callTool(toolCtx(store), history, { plane: "shop", ...input });
  assert.equal(r.isError, false, r.text);
  return r.text;
}

const commitRows = (text: string) => text.split("\n").filter((l) => /^ {2}[0-9a-f]{7} {2}\d{4}-/.test(l));

test("commits page by offset and limit; the pages join up", async () => {
  const all = commitRows(await run({ limit: 200 }));
  assert.ok(all.length > 6, `${all.length} commits`);
  const first = await run({ limit: 3 });
  assert.match(first, /^ {2}… and \d+ more — offset: 3 reads the next page/m);
  const second = await run({ limit: 3, offset: 3 });
  assert.match(second, /^commits \(4–6 newest of \d+/m);
  assert.deepEqual([...commitRows(first), ...commitRows(second)], all.slice(0, 6));
  assert.match(await run({ offset: 500 }), /offset 500 is past the end/);
});
