// Real processes: `drsg watch` following commits (and never uncommitted edits), stopping on
// SIGINT; and a fold killed with SIGKILL inside its transaction, which must leave the database
// consistent at the old commit for a restart to fold the gap.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, describe, test } from "node:test";
import Database from "better-sqlite3";
import { openStore } from "../../src/store/store.js";
import { digest } from "../../src/sync/digest.js";
import { exportPlane } from "../../src/sync/export.js";
import { git, makeRepo } from "../git/fixture.js";
import { assertConverged, cleanupAll, closePool, officialSet, openSync, sharedPool, temp } from "./helpers.js";
import { DRSG, run } from "./proc.js";

after(async () => {
  await closePool();
  cleanupAll();
});

const BASE = {
  "package.json": JSON.stringify({ name: "shop", version: "1.0.0" }),
  "src/cart.ts": 'import { price } from "./price";\n\nexport function add(item: string): number {\n  return price(item);\n}\n',
  "src/price.ts": "export function price(item: string): number {\n  return item.length;\n}\n",
  "shop/__init__.py": "",
  "shop/util.py": "def helper(x):\n    return x\n",
};

function env(root: string): NodeJS.ProcessEnv {
  const home = join(root, "home");
  mkdirSync(home, { recursive: true });
  return { DRSG_HOME: home, DRSG_LOG_DIR: join(root, "logs"), DRSG_DB: "" };
}

describe("drsg watch", () => {
  test("folds each commit, never uncommitted edits, updates history on a ref move, stops on SIGINT", { timeout: 300_000 }, async () => {
    const root = temp("drsg-watch-");
    const dir = join(root, "shop");
    const db = join(root, "graph.drsg");
    makeRepo(dir, [{ files: BASE, message: "base" }]);
    const w = run([DRSG, "watch", "--dir", dir, "--db", db], env(root));
    try {
      await w.waitFor(/watching .* for plane 'shop'/);
      assert.ok(w.lines.some((l) => /build shop [0-9a-f]{7}: \d+ file\(s\) read/.test(l)), w.lines.join("\n"));

      const [c1] = makeRepo(dir, [
        { files: { "src/tax.ts": 'import { price } from "./price";\n\nexport function tax(item: string): number {\n  return price(item) * 2;\n}\n' }, message: "add tax" },
      ]);
      await w.waitFor(new RegExp(`fold shop [0-9a-f]{7}\\.\\.${c1!.slice(0, 7)}: 1 file\\(s\\) changed, 1 parsed, \\d+ fact\\(s\\) changed in \\d+ ms`));

      // Uncommitted work: an edited tracked file, a staged new file, an untracked file.
      writeFileSync(join(dir, "src/price.ts"), "export function price(item: string): number {\n  return 0;\n}\nexport function uncommitted(): void {}\n");
      writeFileSync(join(dir, "src/staged.ts"), "export function staged(): void {}\n");
      git(dir, ["add", "src/staged.ts"]);
      writeFileSync(join(dir, "src/untracked.ts"), "export function untracked(): void {}\n");
      writeFileSync(join(dir, "shop/util.py"), "def helper(x):\n    return x + 1\n");
      git(dir, ["commit", "-q", "-m", "util only", "--", "shop/util.py"], 1800000000);
      const c2 = git(dir, ["rev-parse", "HEAD"]);
      await w.waitFor(new RegExp(`fold shop [0-9a-f]{7}\\.\\.${c2.slice(0, 7)}: 1 file\\(s\\) changed`));

      // A branch made without moving HEAD reaches the history plane only.
      const mark = w.lines.length;
      git(dir, ["branch", "topic"]);
      await w.waitFor(/history shop_git: 0 new commit\(s\), \d+ fact\(s\) written/, 120_000, mark);

      w.proc.kill("SIGINT");
      const exit = await w.exited;
      assert.equal(exit.code, 0, w.lines.join("\n"));
    } finally {
      if (w.proc.exitCode === null && w.proc.signalCode === null) w.proc.kill("SIGKILL");
    }
    const store = openStore(db);
    try {
      const plane = store.getPlane("shop")!;
      const head = git(dir, ["rev-parse", "HEAD"]);
      assert.equal(plane.props.synced_commit, head);
      const keys = [...store.allNodes("shop")].map((n) => n.key);
      assert.ok(keys.some((k) => k.endsWith(".tax")), "the committed symbol is in the plane");
      for (const k of keys) assert.ok(!/uncommitted|staged|untracked/.test(k), `uncommitted work leaked into the plane: ${k}`);
      assert.ok(store.getNodeByKey("shop_git", "branch:topic"), "the new branch is in the history plane");
      await assertConverged(store, "shop", dir, "after watching");
    } finally {
      store.close();
    }
  });
});

/** A repository of BASE digested into a fresh database: its paths, first commit and exported plane. */
async function digestedShop(prefix: string): Promise<{ root: string; dir: string; db: string; c0: string; before: unknown[] }> {
  const root = temp(prefix);
  const dir = join(root, "shop");
  const db = join(root, "graph.drsg");
  const [c0] = makeRepo(dir, [{ files: BASE, message: "base" }]);
  const store = openStore(db, { create: true });
  await digest({ dir, plugins: officialSet(), plane: "shop", store, pool: sharedPool() });
  const before = [...exportPlane(store, "shop")];
  store.close();
  return { root, dir, db, c0: c0!, before };
}

type SyncResult = Awaited<ReturnType<Awaited<ReturnType<typeof openSync>>["syncToHead"]>>;

/**
 * After a SIGKILL inside a fold from `c0`: the database is sound (integrity_check also holds every
 * index to its table), the plane is exactly as it was, and a restart folds to HEAD (`check` sees
 * its result) and converges with a full digest.
 */
async function assertRecovers(db: string, dir: string, c0: string, before: unknown[], check: (r: SyncResult) => void): Promise<void> {
  const raw = new Database(db);
  try {
    assert.equal(raw.pragma("integrity_check", { simple: true }), "ok");
  } finally {
    raw.close();
  }
  const store = openStore(db);
  try {
    assert.equal(store.getPlane("shop")!.props.synced_commit, c0, "the recorded commit stayed behind");
    assert.deepEqual([...exportPlane(store, "shop")], before, "nothing of the killed fold is visible");
    const sync = await openSync(store, dir, { plane: "shop" });
    try {
      check(await sync.syncToHead());
      await assertConverged(store, "shop", dir, "after the restart");
    } finally {
      await sync.close();
    }
  } finally {
    store.close();
  }
}

describe("a fold killed mid-transaction", () => {
  test("SIGKILL inside the write leaves the old commit and a sound database; a restart folds the gap", { timeout: 300_000 }, async () => {
    const { root, dir, db, c0, before } = await digestedShop("drsg-kill-");
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`src/gen${i}.ts`] = `export function gen${i}(x: number): number {\n  return x + ${i};\n}\n`;
    const [c1] = makeRepo(dir, [{ files: { ...files, "src/price.ts": null }, message: "big change" }]);

    const child = run([fileURLToPath(new URL("./fold-child.js", import.meta.url)), dir, db, "shop"], env(root));
    await child.waitFor(new RegExp(`^inside ${c1}$`));
    child.proc.kill("SIGKILL");
    const exit = await child.exited;
    assert.equal(exit.signal, "SIGKILL");

    await assertRecovers(db, dir, c0, before, (r) => {
      assert.equal(r.kind, "fold");
      assert.equal(r.from, c0);
      assert.equal(r.to, c1);
    });
  });

  test("SIGKILL inside a one-file fold read from the plane (a fresh process): the plane and its file index stay sound; a restart folds it again", { timeout: 300_000 }, async () => {
    const { root, dir, db, c0, before } = await digestedShop("drsg-kill-lazy-");
    // An existing file's change that renames a definition: a delta (nodes gone and created, edges rewritten).
    const [c1] = makeRepo(dir, [
      { files: { "src/price.ts": "export function cost(item: string): number {\n  return item.length;\n}\n", "src/cart.ts": 'import { cost } from "./price";\n\nexport function add(item: string): number {\n  return cost(item);\n}\n' }, message: "rename price" },
    ]);

    const child = run([fileURLToPath(new URL("./fold-child.js", import.meta.url)), dir, db, "shop"], env(root));
    await child.waitFor(new RegExp(`^inside ${c1}$`));
    child.proc.kill("SIGKILL");
    assert.equal((await child.exited).signal, "SIGKILL");

    await assertRecovers(db, dir, c0, before, (r) => {
      assert.equal(r.kind, "fold");
      assert.deepEqual(r.resolution?.full, [], JSON.stringify(r.resolution));
      assert.ok(r.resolution?.partial.length, "resolved in part, from the plane");
    });
  });
});
