// mount / unmount / mounts: another database served beside the main one, its repository folded
// by its own watcher while mounted; confinement to the mount root; unmounting frees the lock.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { GraphViews } from "../../src/graph/view.js";
import { activePlugins } from "../../src/plugin/registry.js";
import { MountManager } from "../../src/server/mounts.js";
import { RoutedStore } from "../../src/store/routed.js";
import { openStore } from "../../src/store/store.js";
import { digest } from "../../src/sync/digest.js";
import { context } from "../../src/tools/context.js";
import { mount, mounts, unmount } from "../../src/tools/mount.js";
import type { ToolContext } from "../../src/tools/tool.js";
import { git, makeRepo } from "../git/fixture.js";

async function until(cond: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return cond();
}

test("mount a database, follow its repository while mounted, unmount and free the lock", { timeout: 120_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), "drsg-mount-"));
  const mountRoot = join(root, "mounts");
  mkdirSync(mountRoot);
  const repo = join(root, "other");
  makeRepo(repo, [{ files: { "package.json": '{"name":"other"}', "src/a.ts": "export function first() { return 1; }\n" }, message: "one" }]);
  const otherDb = join(mountRoot, "other.drsg");
  const o = openStore(otherDb, { create: true });
  await digest({ dir: repo, plugins: activePlugins(), store: o, plane: "other" });
  o.close();

  const main = openStore(join(root, "main.drsg"), { create: true });
  const routed = new RoutedStore(main);
  const manager = new MountManager(routed, activePlugins, mountRoot);
  const ctx: ToolContext = { store: routed, transport: "http", plugins: activePlugins, views: new GraphViews(routed), extras: { mounts: manager } };
  try {
    await assert.rejects(async () => mount.run(ctx, { path: "../main.drsg" }), /outside the mount root/);
    await assert.rejects(async () => mount.run(ctx, { path: "/etc/passwd" }), /outside the mount root/);
    await assert.rejects(async () => unmount.run(ctx, { name: "nothing" }), /nothing of that name is mounted/);

    const said = String(await mount.run(ctx, { path: "other.drsg" }));
    assert.match(said, /mounted 'other' .* planes other, other_git; watching other/);
    assert.match(String(await mounts.run(ctx, {})), new RegExp(`mount 'other': ${otherDb}[\\s\\S]*other  ${repo.replace(/[/.]/g, "\\$&")}.*\\(watched\\)`));
    assert.match(String(await context.run(ctx, { plane: "other", name: "first" })), /other\/src\/a\.first/);

    // A commit in the mounted repository is folded by the mount's own watcher.
    writeFileSync(join(repo, "src/b.ts"), "export function second() { return 2; }\n");
    git(repo, ["add", "-A"]);
    git(repo, ["commit", "-qm", "two"]);
    const head = git(repo, ["rev-parse", "HEAD"]);
    assert.ok(await until(() => routed.getPlane("other")?.props.synced_commit === head, 20_000), "the mount's watcher did not fold");
    assert.match(String(await context.run(ctx, { plane: "other", name: "second" })), /other\/src\/b\.second/);

    const out = String(await unmount.run(ctx, { name: "other" }));
    assert.match(out, /its lock came free; nothing was deleted/);
    assert.equal(routed.getPlane("other"), undefined);
    const again = openStore(otherDb);
    assert.ok(again.getPlane("other"), "nothing was deleted");
    again.close();
  } finally {
    await manager.closeAll();
    routed.close();
  }
});
