// Maintenance mode on a real older-schema file (a v1 database, built here as v1 held it): with
// its one step marked not instant — what a future graph-rewriting migration will be — a plain
// open is UPGRADE_REQUIRED and changes nothing, a server's open serves only upgrade_status and
// apply_upgrade, and apply_upgrade backs the file up (a v1 copy, graph intact) before migrating.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import Database from "better-sqlite3";
import { GraphViews } from "../../src/graph/view.js";
import { runTool, toolsFor } from "../../src/mcp/server.js";
import { PluginSet } from "../../src/plugin/host.js";
import { RoutedStore } from "../../src/store/routed.js";
import { MIGRATIONS, SCHEMA_VERSION } from "../../src/store/schema.js";
import { openStore } from "../../src/store/store.js";
import type { Store } from "../../src/store/types.js";
import { TOOLS } from "../../src/tools/index.js";
import type { ToolContext } from "../../src/tools/tool.js";

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A v1 database: the graph as v2 keeps it, the partial cache as v1 kept it (TEXT). */
function v1File(): string {
  const dir = mkdtempSync(join(tmpdir(), "drsg-upgrade-"));
  dirs.push(dir);
  const file = join(dir, "graph.drsg");
  const s = openStore(file, { create: true });
  s.write((w) => {
    w.createPlane("p");
    w.createNode("p", { key: "p/a", labels: ["Function"], props: { line: 1 } });
  });
  s.close();
  const raw = new Database(file);
  raw.exec(`DROP TABLE partial_cache;
    CREATE TABLE partial_cache (blob TEXT NOT NULL, build TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (blob, build)) STRICT;
    INSERT INTO partial_cache VALUES ('b1', 'ts@1', '{"path":"a.ts"}');`);
  raw.pragma("user_version = 1");
  raw.close();
  return file;
}

function version(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.pragma("user_version", { simple: true }) as number;
  } finally {
    db.close();
  }
}

/** Run `fn` with v1 → v2 standing for a migration that is not instant. */
async function notInstant(fn: () => Promise<void>): Promise<void> {
  const step = MIGRATIONS[1]!;
  const was = step.instant;
  step.instant = false;
  try {
    await fn();
  } finally {
    step.instant = was;
  }
}

function ctxOf(store: Store): ToolContext {
  return { store, transport: "stdio", plugins: () => new PluginSet([]), views: new GraphViews(store) };
}

describe("maintenance mode", () => {
  test("an instant migration is still applied at open, as before", () => {
    const file = v1File();
    const s = openStore(file);
    try {
      assert.equal(s.getNodeByKey("p", "p/a")?.key, "p/a");
      assert.deepEqual(toolsFor(TOOLS, "write", s), TOOLS);
    } finally {
      s.close();
    }
    assert.equal(version(file), SCHEMA_VERSION);
  });

  test("not instant: a plain open is UPGRADE_REQUIRED and leaves the file as it was", async () => {
    await notInstant(async () => {
      const file = v1File();
      assert.throws(
        () => openStore(file),
        (e: unknown) => (e as { code?: string }).code === "UPGRADE_REQUIRED" && /apply_upgrade/.test(String((e as Error).message)),
      );
      assert.equal(version(file), 1);
      // The lock was released: the next open is not DB_LOCKED.
      assert.throws(() => openStore(file), (e: unknown) => (e as { code?: string }).code === "UPGRADE_REQUIRED");
    });
  });

  test("not instant: a server serves only the upgrade tools; apply_upgrade backs up first, then migrates", async () => {
    await notInstant(async () => {
      const file = v1File();
      const store = new RoutedStore(openStore(file, { maintenance: true }));
      try {
        const offered = toolsFor(TOOLS, "write", store).map((t) => t.name);
        assert.deepEqual(offered, ["upgrade_status", "apply_upgrade"]);
        assert.deepEqual(
          toolsFor(TOOLS, "read", store).map((t) => t.name),
          ["upgrade_status"],
        );
        assert.deepEqual(store.listPlanes(), [], "what a server asks at start-up answers empty");
        const ctx = ctxOf(store);
        const [status, apply] = toolsFor(TOOLS, "write", store);
        const st = await runTool(status!, ctx, {});
        assert.equal(st.isError, false, st.text);
        assert.match(st.text, new RegExp(`schema v1; this drsg reads v${SCHEMA_VERSION}`));
        assert.match(st.text, /v1 → v2: the partial cache/);
        const getNode = TOOLS.find((t) => t.name === "get_node")!;
        const refused = await runTool(getNode, ctx, { plane: "p", key: "p/a" });
        assert.match(refused.text, /\[UPGRADE_REQUIRED\]/);
        assert.match((await runTool(status!, ctx, {})).text, /schema v1;/, "nothing migrated before apply_upgrade");

        const done = await runTool(apply!, ctx, {});
        assert.equal(done.isError, false, done.text);
        const backup = `${file}.v1.bak`;
        assert.match(done.text, new RegExp(`at ${backup.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
        assert.ok(existsSync(backup));
        assert.equal(version(backup), 1, "the copy is the file as it was");
        const copy = new Database(backup, { readonly: true });
        assert.equal((copy.prepare("SELECT key FROM nodes").get() as { key: string }).key, "p/a");
        assert.equal((copy.prepare("SELECT data FROM partial_cache").get() as { data: string }).data, '{"path":"a.ts"}');
        copy.close();
        const again = await runTool(apply!, ctx, {});
        assert.match(again.text, /upgraded/, "a second apply says it is done");
        assert.match((await runTool(getNode, ctx, { plane: "p", key: "p/a" })).text, /restart the server/);
      } finally {
        store.close();
      }
      // (The open store holds the file exclusively: its version is read once it is closed.)
      assert.equal(version(file), SCHEMA_VERSION);
      // Reopened, it is an ordinary database of this schema with its graph.
      const s = openStore(file);
      try {
        assert.equal(s.getNodeByKey("p", "p/a")?.key, "p/a");
      } finally {
        s.close();
      }
    });
  });

  test("readonly maintenance: apply_upgrade is refused and changes nothing", async () => {
    await notInstant(async () => {
      const file = v1File();
      const store = openStore(file, { maintenance: true, readonly: true });
      try {
        const apply = toolsFor(TOOLS, "write", store)[1]!;
        const r = await runTool(apply, ctxOf(store), {});
        assert.match(r.text, /\[READ_ONLY\]/);
        assert.ok(!existsSync(`${file}.v1.bak`));
      } finally {
        store.close();
      }
      assert.equal(version(file), 1);
    });
  });
});
