// A sync that starts on an existing plane seeds its incremental index from the plane without
// reading it (src/sync/lazy.ts): each fold reads the changed files' facts through the nodes' file
// index. Held here to the convergence invariant across a run of folds by one such sync (deltas,
// and structural changes that need every fact read back), and refused — a full resolution — when
// the plane does not vouch for itself; a database that lost the file index gets it back.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import Database from "better-sqlite3";
import { NODES_FILE_INDEX } from "../../src/store/schema.js";
import { openStore } from "../../src/store/store.js";
import type { Store } from "../../src/store/types.js";
import { makeRepo } from "../git/fixture.js";
import { assertConverged, cleanupAll, closePool, openSync, temp, tempStore } from "./helpers.js";

after(async () => {
  await closePool();
  cleanupAll();
});

const BASE = {
  "package.json": JSON.stringify({ name: "shop", version: "1.0.0" }),
  "src/cart.ts": 'import { price } from "./price";\n\nexport function add(item: string): number {\n  return price(item);\n}\n',
  "src/price.ts": "export function price(item: string): number {\n  return item.length;\n}\n",
  "shop/__init__.py": "",
  "shop/util.py": "import os\n\n\ndef helper(x):\n    return os.path.join(x)\n",
  "shop/main.py": "from shop.util import helper\n\n\ndef run(x):\n    return helper(x)\n",
};

/** `store`, counting the file-index reads a sync makes through it (the real store answers them). */
function counted(store: Store): { store: Store; reads: () => number } {
  let n = 0;
  const proxy = new Proxy(store, {
    get(target, key) {
      const v = Reflect.get(target, key, target) as unknown;
      if (typeof v !== "function") return v;
      if (key === "nodesByFile")
        return (...args: unknown[]) => {
          n++;
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      return (v as (...a: unknown[]) => unknown).bind(target);
    },
  });
  return { store: proxy, reads: () => n };
}

async function built(dir: string, store: Store): Promise<void> {
  const s = await openSync(store, dir, { plane: "shop", git: false });
  try {
    await s.syncToHead();
  } finally {
    await s.close();
  }
}

describe("a fold seeded from the plane", () => {
  test("one sync started on an existing plane folds a run of commits, each equal to a full digest", { timeout: 300_000 }, async () => {
    const dir = temp("drsg-lazy-");
    makeRepo(dir, [{ files: BASE, message: "base" }]);
    const { store } = tempStore();
    try {
      await built(dir, store);
      const spy = counted(store);
      const sync = await openSync(spy.store, dir, { plane: "shop", git: false });
      try {
        const steps: [string, Record<string, string | null>, "partial" | "full"][] = [
          ["a comment line", { "shop/util.py": `${BASE["shop/util.py"]}# note\n` }, "partial"],
          ["a new function called from another file", {
            "shop/util.py": `${BASE["shop/util.py"]}\n\ndef other(y):\n    return y\n`,
            "shop/main.py": "from shop.util import helper, other\n\n\ndef run(x):\n    return other(helper(x))\n",
          }, "partial"],
          ["a call dropped, a stand-in with it", { "shop/util.py": "def helper(x):\n    return x\n\n\ndef other(y):\n    return y\n" }, "partial"],
          ["a rename across two files", {
            "src/price.ts": "export function cost(item: string): number {\n  return item.length;\n}\n",
            "src/cart.ts": 'import { cost } from "./price";\n\nexport function add(item: string): number {\n  return cost(item);\n}\n',
          }, "partial"],
          ["a file added (every fact read back)", { "shop/extra.py": "from shop.util import other\n\n\ndef more(z):\n    return other(z)\n" }, "full"],
          ["a file deleted", { "shop/extra.py": null }, "full"],
        ];
        for (const [what, files, how] of steps) {
          makeRepo(dir, [{ files, message: what }]);
          const r = await sync.syncToHead();
          assert.equal(r.kind, "fold", what);
          if (how === "partial") assert.ok(r.resolution?.partial.length, `${what}: resolved in part (${JSON.stringify(r.resolution)})`);
          else assert.ok(r.resolution?.full.length, `${what}: resolved in full (${JSON.stringify(r.resolution)})`);
          await assertConverged(store, "shop", dir, what);
        }
        assert.ok(spy.reads() > 0, "the folds read the plane through the file index");
      } finally {
        await sync.close();
      }
    } finally {
      store.close();
    }
  });

  test("a plane that does not vouch for its facts (a reported key collision) is never read as the index: its partials are resolved", { timeout: 300_000 }, async () => {
    const dir = temp("drsg-lazy-");
    makeRepo(dir, [{ files: BASE, message: "base" }]);
    const { store } = tempStore();
    try {
      await built(dir, store);
      const ledger = store.getPlane("shop")!.props.ledger as Record<string, unknown>;
      store.write((w) => w.setPlaneProps("shop", { ledger: { ...ledger, notes: ["python: 1 key collision(s) between files"] } }));
      makeRepo(dir, [{ files: { "shop/util.py": `${BASE["shop/util.py"]}# note\n` }, message: "comment" }]);
      const spy = counted(store);
      const sync = await openSync(spy.store, dir, { plane: "shop", git: false });
      try {
        const r = await sync.syncToHead();
        assert.equal(r.kind, "fold");
        assert.equal(spy.reads(), 0, "no fact of the plane was read as the index");
        await assertConverged(store, "shop", dir, "after a fold on an untrusted plane");
      } finally {
        await sync.close();
      }
    } finally {
      store.close();
    }
  });

  test("a database that lost its file index gets it back at open, and the next fold reads through it", { timeout: 300_000 }, async () => {
    const root = temp("drsg-lazy-");
    const dir = join(root, "shop");
    makeRepo(dir, [{ files: BASE, message: "base" }]);
    const file = join(root, "graph.drsg");
    let store = openStore(file, { create: true });
    await built(dir, store);
    store.close();
    const raw = new Database(file);
    raw.exec(`DROP INDEX ${NODES_FILE_INDEX}`);
    raw.close();
    makeRepo(dir, [{ files: { "src/price.ts": "export function price(item: string): number {\n  return item.length + 1;\n}\n" }, message: "body" }]);
    store = openStore(file);
    try {
      const sync = await openSync(store, dir, { plane: "shop", git: false });
      try {
        const r = await sync.syncToHead();
        assert.ok(r.resolution?.partial.length, JSON.stringify(r.resolution));
        await assertConverged(store, "shop", dir, "after the index came back");
      } finally {
        await sync.close();
      }
    } finally {
      store.close();
    }
    const check = new Database(file, { readonly: true });
    try {
      assert.equal(check.pragma("integrity_check", { simple: true }), "ok");
      assert.ok(check.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?").get(NODES_FILE_INDEX));
    } finally {
      check.close();
    }
  });
});
