// A follower takes the installed plugin set as it is now: a plugin installed while it runs is
// used by its next fold and by rebuild (never "0 parsed, builders unchanged"), and the folded
// plane equals a fresh digest with that set. A rebuild whose process died leaves a marker that
// answers call interrupted, and the next start redoes the read.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { PluginSet, officialPlugins } from "../../src/plugin/host.js";
import { readPluginFolder } from "../../src/plugin/manifest.js";
import { CATALOG_DIR } from "../../src/paths.js";
import { digest } from "../../src/sync/digest.js";
import { exportPlane } from "../../src/sync/export.js";
import { context } from "../../src/tools/context.js";
import { git, makeRepo } from "../git/fixture.js";
import { callTool, cleanupAll, closePool, openSync, temp, tempStore, toolCtx } from "./helpers.js";

after(async () => {
  await closePool();
  cleanupAll();
});

const ruby = { ...readPluginFolder(join(CATALOG_DIR, "ruby")), source: "catalog:ruby", official: false };

test("a plugin installed under a running follower is used by its next fold, converging with a fresh digest", { timeout: 120_000 }, async () => {
  const dir = temp("drsg-live-");
  makeRepo(dir, [
    {
      files: { "lib/cart.rb": "class Cart\n  def add(item)\n    item\n  end\nend\n", "src/a.ts": "export function a() { return 1; }\n" },
      message: "init",
    },
  ]);
  const { store } = tempStore();
  let installed = new PluginSet(officialPlugins());
  // No shared pool: a changed set needs workers that hold its grammars.
  const sync = await openSync(store, dir, { pool: undefined, pluginsNow: () => installed });
  try {
    const first = await sync.syncToHead();
    assert.equal(first.kind, "build");
    const plane = sync.plane;
    assert.equal(store.getNodeByKey(plane, "lib/cart.rb::Cart"), undefined, "no ruby plugin yet");

    installed = new PluginSet([...officialPlugins(), ruby]);
    writeFileSync(join(dir, "src/b.ts"), "export function b() { return 2; }\n");
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-qm", "b"]);
    const r = await sync.foldTo("HEAD");
    assert.equal(r.kind, "rebuild", "a changed plugin set reads the whole tree");
    assert.match(r.reason ?? "", /installed plugins changed \(\+ruby@/);
    assert.ok(store.getNodeByKey(plane, "lib/cart.rb::Cart.add"), "the Ruby method is in the plane");
    assert.deepEqual(store.getPlane(plane)?.props.built_by, installed.builtBy);

    // The plane equals a fresh digest of the same commit with the same set.
    const fresh = tempStore();
    await digest({ dir, plugins: installed, plane, store: fresh.store, git: false, commit: String(store.getPlane(plane)?.props.synced_commit) });
    assert.deepEqual([...exportPlane(store, plane)], [...exportPlane(fresh.store, plane)]);
    fresh.store.close();

    // The next fold is an ordinary fold again.
    writeFileSync(join(dir, "src/c.ts"), "export function c() { return 3; }\n");
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-qm", "c"]);
    assert.equal((await sync.foldTo("HEAD")).kind, "fold");

    // Removing the plugin: rebuild drops its facts.
    installed = new PluginSet(officialPlugins());
    const rb = await sync.rebuild();
    assert.equal(rb.kind, "rebuild");
    assert.equal(store.getNodeByKey(plane, "lib/cart.rb::Cart.add"), undefined);
  } finally {
    await sync.close();
    store.close();
  }
});

test("an interrupted rebuild says so on every answer, and the next start redoes it", { timeout: 120_000 }, async () => {
  const dir = temp("drsg-marker-");
  makeRepo(dir, [{ files: { "src/a.ts": "export function a() { return 1; }\n" }, message: "init" }]);
  const { store } = tempStore();
  const first = await openSync(store, dir);
  await first.syncToHead();
  const plane = first.plane;
  await first.close();
  // What a killed rebuild leaves: the marker, naming a process that is not this one.
  store.write((w) => w.setPlaneProps(plane, { rebuilding_since: "2026-01-01T00:00:00.000Z", rebuilding_pid: 999_999_999 }));
  const ctx = toolCtx(store);
  const answer = await callTool(ctx, context, { name: "a", plane });
  assert.equal(answer.isError, false, answer.text);
  assert.match(answer.text, /a rebuild started 2026-01-01T00:00:00\.000Z was interrupted/);
  assert.match(answer.text, new RegExp(`drsg rebuild --plane ${plane}`));
  assert.doesNotMatch(answer.text, /being rebuilt/);

  const again = await openSync(store, dir);
  try {
    const r = await again.syncToHead();
    assert.equal(r.kind, "rebuild");
    assert.match(r.reason ?? "", /interrupted/);
    const props = store.getPlane(plane)?.props ?? {};
    assert.equal(props.rebuilding_since, undefined);
    assert.equal(props.rebuilding_pid, undefined);
    const after = await callTool(ctx, context, { name: "a", plane });
    assert.doesNotMatch(after.text, /interrupted|being rebuilt/);
  } finally {
    await again.close();
    store.close();
  }
});
