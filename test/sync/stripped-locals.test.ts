// Incremental resolution strips the partials of files a change does not touch down to what other
// files may see. A class body's assignments (`registry = Registry()`) are locals scoped to the
// class, and other files' calls are typed through them: they must survive the stripping, or a
// fold binds less than a full digest (found on sqlalchemy: `util.preload_module`, 64 facts apart).
import assert from "node:assert/strict";
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { git, makeRepo } from "../git/fixture.js";
import { assertConverged, cleanupAll, closePool, openSync, temp, tempStore } from "./helpers.js";

after(async () => {
  await closePool();
  cleanupAll();
});

test("a class-level attribute typed in one file binds calls in another after a fold of the caller", { timeout: 120_000 }, async () => {
  const dir = temp("drsg-stripped-");
  makeRepo(dir, [
    {
      files: {
        "pkg/__init__.py": "",
        "pkg/reg.py": "class Registry:\n    def load(self):\n        return 1\n\n\nclass Holder:\n    registry = Registry()\n",
        "pkg/use.py": "from pkg.reg import Holder\n\n\ndef run():\n    return Holder.registry.load()\n",
      },
      message: "init",
    },
  ]);
  const { store } = tempStore();
  const sync = await openSync(store, dir, { plane: "p", git: false });
  try {
    await sync.syncToHead();
    const bound = () =>
      store.edgesOut("p", store.getNodeByKey("p", "pkg.use.run")!.id, "CALLS").map((e) => store.getNode("p", e.dst)!.key);
    assert.deepEqual(bound(), ["pkg.reg.Registry.load"], "a full digest binds it");
    appendFileSync(join(dir, "pkg/use.py"), "# touched\n");
    git(dir, ["commit", "-qam", "touch the caller"]);
    const r = await sync.syncToHead();
    assert.equal(r.resolution?.partial.length, 1, "resolved incrementally");
    assert.deepEqual(bound(), ["pkg.reg.Registry.load"], "the fold binds it too");
    await assertConverged(store, "p", dir, "after touching the caller");

    // The attribute's type changes in its own file: the caller elsewhere is re-resolved.
    writeFileSync(
      join(dir, "pkg/reg.py"),
      "class Registry:\n    def load(self):\n        return 1\n\n\nclass Other:\n    def load(self):\n        return 2\n\n\nclass Holder:\n    registry = Other()\n\n    def __init__(self):\n        self.cache = Registry()\n",
    );
    git(dir, ["commit", "-qam", "retype the attribute"]);
    await sync.syncToHead();
    assert.deepEqual(bound(), ["pkg.reg.Other.load"], "re-bound to the new type");
    await assertConverged(store, "p", dir, "after retyping the attribute");
    // A field typed in a method (`self.cache = …`) is seen from another file, and retyped too.
    writeFileSync(join(dir, "pkg/use.py"), "from pkg.reg import Holder\n\n\ndef run():\n    return Holder().cache.load()\n");
    git(dir, ["commit", "-qam", "use the field"]);
    await sync.syncToHead();
    await assertConverged(store, "p", dir, "after using the field");
    writeFileSync(
      join(dir, "pkg/reg.py"),
      "class Registry:\n    def load(self):\n        return 1\n\n\nclass Other:\n    def load(self):\n        return 2\n\n\nclass Holder:\n    registry = Other()\n\n    def __init__(self):\n        self.cache = Other()\n",
    );
    git(dir, ["commit", "-qam", "retype the field"]);
    await sync.syncToHead();
    await assertConverged(store, "p", dir, "after retyping the field");
  } finally {
    await sync.close();
    store.close();
  }
});
