// Folds, case by case: each commit shape folded into a plane must leave exactly what a full
// digest of that commit builds, keep node ids of what survives, and never touch facts the
// parsers do not own.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { after, describe, test } from "node:test";
import { ExtractPool } from "../../src/extract/pool.js";
import { git, makeRepo } from "../git/fixture.js";
import { assertConverged, cleanupAll, closePool, exportOf, idsByKey, officialSet, openSync, temp, tempStore } from "./helpers.js";

after(async () => {
  await closePool();
  cleanupAll();
});

const PKG = JSON.stringify({ name: "shop", version: "1.0.0" });

const CART = `import { price } from "./price";

/** A cart. */
export class Cart {
  items: string[] = [];
  add(item: string): number {
    this.items.push(item);
    return price(item);
  }
}

export function total(c: Cart): number {
  return c.items.length;
}
`;

const PRICE = `export function price(item: string): number {
  return item.length * 2;
}
`;

const PY = `from shop.util import helper


class Basket:
    def add(self, x):
        return helper(x)


def make():
    return Basket()
`;

const BASE = {
  "package.json": PKG,
  "src/cart.ts": CART,
  "src/price.ts": PRICE,
  "shop/__init__.py": "",
  "shop/basket.py": PY,
  "shop/util.py": "def helper(x):\n    return x\n",
  "README.md": "# shop\n",
};

async function setup() {
  const dir = temp("drsg-fold-");
  const shas = makeRepo(dir, [{ files: BASE, message: "base" }]);
  const { store } = tempStore();
  const sync = await openSync(store, dir);
  const first = await sync.syncToHead();
  assert.equal(first.kind, "build");
  const plane = basename(dir);
  return { dir, store, sync, plane, base: shas[0]! };
}

describe("fold", () => {
  test("start-up builds the plane, then is in sync at HEAD", async () => {
    const { dir, store, sync, plane, base } = await setup();
    assert.equal(store.getPlane(plane)?.props.synced_commit, base);
    assert.equal(store.getPlane(plane)?.props.rebuilding_since, undefined);
    const again = await sync.syncToHead();
    assert.equal(again.kind, "noop");
    await assertConverged(store, plane, dir, "after build");
    await sync.close();
    store.close();
  });

  test("a follower's start-up has every worker compile the tree's grammars before the first commit", async () => {
    const { dir, store, sync: builder } = await setup();
    await builder.close();
    const pool = new ExtractPool(officialSet().jobs(), 2);
    try {
      assert.deepEqual(await pool.warm([]), [[], []], "a fresh pool holds no grammar");
      const sync = await openSync(store, dir, { pool });
      assert.equal((await sync.syncToHead()).kind, "noop");
      for (const held of await pool.warm([])) {
        assert.ok(held.includes("ts/typescript") && held.includes("python/python"), `worker holds ${held.join(", ")}`);
        assert.ok(!held.includes("go/go"), "only the grammars the tree uses");
      }
      // The warmed pool folds as before.
      writeFileSync(join(dir, "src/price.ts"), PRICE.replace("* 2", "* 3"));
      git(dir, ["commit", "-qam", "price"]);
      assert.equal((await sync.syncToHead()).kind, "fold");
      await assertConverged(store, basename(dir), dir, "after a fold on a warmed pool");
      await sync.close();
    } finally {
      await pool.close();
      store.close();
    }
  });

  test("add, modify, delete: converges; ids of unchanged and patched symbols kept", async () => {
    const { dir, store, sync, plane } = await setup();
    const ids0 = idsByKey(store, plane);
    // add
    makeRepo(dir, [{ files: { "src/extra.ts": "export function extra(): number {\n  return 1;\n}\n" }, message: "add" }]);
    let r = await sync.syncToHead();
    assert.equal(r.kind, "fold");
    assert.equal(r.filesChanged, 1);
    assert.equal(r.parsed, 1, "only the added file is parsed");
    await assertConverged(store, plane, dir, "add");
    const ids1 = idsByKey(store, plane);
    for (const [k, id] of ids0) assert.equal(ids1.get(k), id, `id of ${k} kept across an add`);
    assert.ok([...ids1.keys()].some((k) => k.includes("extra")), "the new symbol is in the plane");
    // modify: price's body and line numbers change
    makeRepo(dir, [{ files: { "src/price.ts": `// moved down\n${PRICE.replace("* 2", "* 3")}` }, message: "modify" }]);
    r = await sync.syncToHead();
    assert.equal(r.parsed, 1);
    assert.ok(r.factsChanged > 0);
    await assertConverged(store, plane, dir, "modify");
    const ids2 = idsByKey(store, plane);
    for (const [k, id] of ids1) assert.equal(ids2.get(k), id, `id of ${k} kept across a modify`);
    // delete
    makeRepo(dir, [{ files: { "src/extra.ts": null }, message: "delete" }]);
    r = await sync.syncToHead();
    assert.equal(r.parsed, 0, "a delete parses nothing");
    await assertConverged(store, plane, dir, "delete");
    const ids3 = idsByKey(store, plane);
    assert.ok(![...ids3.keys()].some((k) => k.includes("extra")), "the deleted file's symbols are gone");
    for (const [k, id] of ids3) assert.equal(ids0.get(k), id, `id of ${k} is the original one`);
    await sync.close();
    store.close();
  });

  test("rename, move a symbol between files, change an import so a call rebinds", async () => {
    const { dir, store, sync, plane } = await setup();
    makeRepo(dir, [{ files: { "src/price.ts": null, "src/pricing.ts": PRICE, "src/cart.ts": CART.replace("./price", "./pricing") }, message: "rename" }]);
    let r = await sync.syncToHead();
    assert.equal(r.filesChanged, 3);
    await assertConverged(store, plane, dir, "rename");
    // move `total` from cart.ts to pricing.ts
    const cartWithout = CART.replace(/export function total[\s\S]*$/, "");
    makeRepo(dir, [
      {
        files: {
          "src/cart.ts": cartWithout.replace("./price", "./pricing"),
          "src/pricing.ts": `${PRICE}\nexport function total(c: { items: string[] }): number {\n  return c.items.length;\n}\n`,
        },
        message: "move total",
      },
    ]);
    r = await sync.syncToHead();
    await assertConverged(store, plane, dir, "move symbol");
    const keys = [...idsByKey(store, plane).keys()];
    assert.ok(keys.some((k) => k.includes("pricing") && k.endsWith("total")), "total now lives in pricing");
    assert.ok(!keys.some((k) => k.includes("cart") && k.endsWith("total")), "and no longer in cart");
    // rebind: a second module with its own `price`; cart imports it instead
    const before = exportOf(store, plane);
    makeRepo(dir, [
      {
        files: {
          "src/discount.ts": "export function price(item: string): number {\n  return 1;\n}\n",
          "src/cart.ts": cartWithout.replace("./price", "./discount"),
        },
        message: "rebind",
      },
    ]);
    r = await sync.syncToHead();
    await assertConverged(store, plane, dir, "rebind");
    assert.notDeepEqual(exportOf(store, plane), before);
    await sync.close();
    store.close();
  });

  test("a file changes language (.js → .ts) and a Python module changes", async () => {
    const { dir, store, sync, plane } = await setup();
    makeRepo(dir, [{ files: { "src/legacy.js": "function old() {\n  return 1;\n}\nmodule.exports = { old };\n" }, message: "js" }]);
    await sync.syncToHead();
    await assertConverged(store, plane, dir, "js added");
    makeRepo(dir, [
      {
        files: { "src/legacy.js": null, "src/legacy.ts": "export function old(): number {\n  return 1;\n}\n", "shop/util.py": "def helper(x, y=1):\n    return x + y\n" },
        message: "to ts",
      },
    ]);
    const r = await sync.syncToHead();
    assert.equal(r.kind, "fold");
    await assertConverged(store, plane, dir, "js → ts");
    await sync.close();
    store.close();
  });

  test("branch, checkout, merge, reset back and revert", async () => {
    const { dir, store, sync, plane, base } = await setup();
    makeRepo(dir, [{ branch: "feature", files: { "src/feature.ts": "export function feat(): number {\n  return 2;\n}\n" }, message: "feature" }]);
    await sync.syncToHead();
    await assertConverged(store, plane, dir, "on feature");
    git(dir, ["checkout", "-q", "main"]);
    let r = await sync.syncToHead();
    assert.equal(r.kind, "fold", "checking out another branch folds");
    await assertConverged(store, plane, dir, "back on main");
    makeRepo(dir, [{ files: { "src/price.ts": PRICE.replace("2", "5") }, message: "main work" }]);
    await sync.syncToHead();
    const [merge] = makeRepo(dir, [{ merge: "feature", files: {}, message: "merge feature" }]);
    r = await sync.syncToHead();
    assert.equal(store.getPlane(plane)?.props.synced_commit, merge);
    await assertConverged(store, plane, dir, "merge");
    git(dir, ["reset", "-q", "--hard", base]);
    r = await sync.syncToHead();
    assert.equal(r.to, base);
    await assertConverged(store, plane, dir, "reset back to base");
    git(dir, ["reset", "-q", "--hard", merge!]);
    await sync.syncToHead();
    git(dir, ["revert", "--no-edit", "-m", "1", "HEAD"], 1800000000);
    r = await sync.syncToHead();
    assert.equal(r.kind, "fold");
    await assertConverged(store, plane, dir, "revert of the merge");
    await sync.close();
    store.close();
  });

  test("facts the parsers do not own survive every fold", async () => {
    const { dir, store, sync, plane } = await setup();
    const target = [...store.allNodes(plane)].find((n) => n.key.endsWith("Cart"))!;
    assert.ok(target, "Cart is in the plane");
    store.write((w) => {
      const note = w.createNode(plane, { key: "note:cart", labels: ["Note"], props: { text: "reviewed" } });
      w.createEdge(plane, { type: "ABOUT", src: note, dst: target.id, props: { by: "agent" } });
      // an agent's property on a parser-owned node: kept unless the parser sets it
      w.updateNode(plane, target.id, { props: { ...target.props, _reviewed: true } });
    });
    makeRepo(dir, [{ files: { "src/cart.ts": `// header\n${CART}` }, message: "shift lines" }]);
    await sync.syncToHead();
    makeRepo(dir, [{ files: { "src/price.ts": null }, message: "delete price" }]);
    await sync.syncToHead();
    const note = store.getNodeByKey(plane, "note:cart");
    assert.ok(note, "the note survives");
    const cart = store.getNodeByKey(plane, target.key)!;
    assert.equal(cart.id, target.id, "Cart keeps its id");
    assert.equal(cart.props._reviewed, true, "and the agent's _-prop");
    assert.equal(cart.props.line, target.props.line as number + 1, "while the parser's props moved");
    const about = store.edgesOut(plane, note.id, "ABOUT");
    assert.equal(about.length, 1);
    assert.equal(about[0]!.dst, cart.id);
    await sync.close();
    store.close();
  });

  test("rewritten history: an unknown recorded commit rebuilds, carrying rebuilding_since meanwhile", async () => {
    const { dir, store, sync, plane } = await setup();
    store.write((w) => w.setPlaneProps(plane, { synced_commit: "0123456789012345678901234567890123456789" }));
    const s2 = await openSync(store, dir);
    const r = await s2.syncToHead();
    assert.equal(r.kind, "rebuild");
    assert.equal(store.getPlane(plane)?.props.rebuilding_since, undefined, "cleared when done");
    // The database commit before the last is the marker, set before the tree was read.
    const during = store.asOf(store.currentSeq() - 1).getPlane(plane)?.props.rebuilding_since;
    assert.equal(typeof during, "string", "rebuilding_since was set while the rebuild ran");
    await assertConverged(store, plane, dir, "rebuild");
    await s2.close();
    await sync.close();
    store.close();
  });

  test("a fold that fails leaves synced_commit behind; the next one retries the gap", async () => {
    const { dir, store, plane, base, sync } = await setup();
    await sync.close();
    let fail = true;
    const s2 = await openSync(store, dir, {
      insideWrite: () => {
        if (fail) throw new Error("boom");
      },
    });
    makeRepo(dir, [{ files: { "src/price.ts": PRICE.replace("2", "9") }, message: "change" }]);
    await assert.rejects(s2.syncToHead(), /boom/);
    assert.equal(store.getPlane(plane)?.props.synced_commit, base);
    fail = false;
    const r = await s2.syncToHead();
    assert.equal(r.kind, "fold");
    assert.equal(r.from, base);
    await assertConverged(store, plane, dir, "retry");
    await s2.close();
    store.close();
  });

  test("incremental resolution: a body edit re-resolves one file, an interface edit its users; verify mode agrees", async () => {
    const { dir, store, sync, plane } = await setup();
    await sync.close();
    const s2 = await openSync(store, dir, { verify: true });
    // Start-up in sync: the index is built from cached partials, so the first fold is already incremental.
    await s2.syncToHead();
    makeRepo(dir, [{ files: { "src/price.ts": PRICE.replace("* 2", "* 7") }, message: "body only" }]);
    let r = await s2.syncToHead();
    assert.deepEqual(r.resolution?.partial, [{ family: "ts", files: 1, of: 2 }]);
    assert.equal(r.resolution?.verified, true);
    await assertConverged(store, plane, dir, "body edit");
    // `price` gains a parameter: cart.ts, which calls it, is re-resolved too.
    makeRepo(dir, [{ files: { "src/price.ts": PRICE.replace("item: string", "item: string, n = 1") }, message: "signature" }]);
    r = await s2.syncToHead();
    assert.deepEqual(r.resolution?.partial, [{ family: "ts", files: 2, of: 2 }]);
    assert.equal(r.resolution?.verified, true);
    await assertConverged(store, plane, dir, "interface edit");
    makeRepo(dir, [{ files: { "shop/util.py": "def helper(x):\n    return x * 2\n" }, message: "python body" }]);
    r = await s2.syncToHead();
    assert.equal(r.resolution?.partial[0]?.family, "python");
    assert.equal(r.resolution?.verified, true);
    await assertConverged(store, plane, dir, "python body");
    await s2.close();
    store.close();
  });

  test("a subdirectory plane folds only its files", async () => {
    const dir = temp("drsg-fold-sub-");
    makeRepo(dir, [{ files: { "app/src/a.ts": "export function a() {\n  return 1;\n}\n", "other/b.ts": "export const b = 1;\n" }, message: "one" }]);
    const { store } = tempStore();
    const sync = await openSync(store, `${dir}/app`);
    await sync.syncToHead();
    makeRepo(dir, [{ files: { "other/b.ts": "export const b = 2;\n", "app/src/c.ts": "export function c() {\n  return a();\n}\n" }, message: "two" }]);
    const r = await sync.syncToHead();
    assert.equal(r.filesChanged, 1, "only app/ changes count");
    await assertConverged(store, "app", `${dir}/app`, "subdir");
    await sync.close();
    store.close();
  });
});
