// Two real processes: the exclusive open (a second opener fails at once, naming the holder),
// and crash safety (SIGKILL in the middle of a large write leaves the pre-write state).

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import { openStore } from "../../src/store/store.js";
import type { Store } from "../../src/store/types.js";
import { tempDir, throwsCode } from "./helpers.js";
import { spawnChild } from "./spawn.js";

function seed(file: string): void {
  const s = openStore(file, { create: true });
  try {
    s.write((w) => w.createPlane("p", { synced_commit: "old" }));
    s.write((w) => {
      const ids = Array.from({ length: 10 }, (_, i) => w.createNode("p", { key: `p.n${i}`, labels: ["Function"], props: { i } }));
      for (let i = 1; i < ids.length; i++) w.createEdge("p", { type: "CALLS", src: ids[i - 1]!, dst: ids[i]!, props: {} });
    });
    s.write((w) => w.updateNode("p", w.getNodeByKey("p", "p.n5")!.id, { props: { i: 55 } }));
  } finally {
    s.close();
  }
}

/** Everything a reader can see, current and as of every retained commit (a plane's counts read now: they are read when asked). */
function snapshot(s: Store): unknown {
  const state = (r: Pick<Store, "listPlanes" | "allNodes" | "allEdges">) =>
    r.listPlanes().map((p) => ({ plane: { ...p }, nodes: [...r.allNodes(p.name)], edges: [...r.allEdges(p.name)] }));
  return {
    seq: s.currentSeq(),
    commits: s.commits(),
    current: state(s),
    asOf: s.commits().map((c) => state(s.asOf(c.seq))),
  };
}

describe("exclusive open across processes", () => {
  it("a second process's open fails at once with DB_LOCKED naming the holder's pid; after it exits the open succeeds", async () => {
    const { dir, cleanup } = tempDir();
    const file = join(dir, "graph.drsg");
    try {
      seed(file);
      const child = spawnChild("hold", file);
      const ready = await child.line("ready ");
      assert.equal(ready, `ready ${child.proc.pid}`);
      assert.equal(readFileSync(`${file}.pid`, "utf8").trim(), String(child.proc.pid));

      const e = throwsCode(() => openStore(file), "DB_LOCKED");
      assert.equal(e.data.pid, child.proc.pid);
      assert.equal(e.data.path, file);
      assert.ok(e.message.includes(file) && e.message.includes(String(child.proc.pid)) && e.message.includes("drsg serve"), e.message);
      throwsCode(() => openStore(file, { readonly: true }), "DB_LOCKED");
      throwsCode(() => openStore(file, { create: true }), "DB_LOCKED");

      child.proc.stdin!.end();
      assert.deepEqual(await child.exited, { code: 0, signal: null });
      assert.equal(existsSync(`${file}.pid`), false, "the holder removes its pid file on close");

      const s = openStore(file);
      try {
        assert.equal(s.countNodes("p"), 10);
        // And now the roles reverse: the child cannot open it.
        const second = spawnChild("hold", file);
        assert.equal(await second.line("error "), "error DB_LOCKED");
        assert.equal((await second.exited).code, 2);
      } finally {
        s.close();
      }
    } finally {
      cleanup();
    }
  });
});

describe("crash safety", () => {
  it("SIGKILL in the middle of a large write leaves the database exactly as before that write", async () => {
    const { dir, cleanup } = tempDir();
    const file = join(dir, "graph.drsg");
    try {
      seed(file);
      const before = openStore(file);
      const expected = snapshot(before);
      before.close();

      const child = spawnChild("bulk", file);
      await child.line("started");
      assert.ok(existsSync(`${file}-wal`), "uncommitted pages reached the WAL before the kill");
      child.proc.kill("SIGKILL");
      assert.deepEqual(await child.exited, { code: null, signal: "SIGKILL" });
      assert.equal(readFileSync(`${file}.pid`, "utf8").trim(), String(child.proc.pid), "the killed writer left its pid file");

      // The stale pid file does not block the next open; the lock is the truth.
      const after = openStore(file);
      try {
        assert.deepEqual(snapshot(after), expected);
        assert.equal(after.getPlane("bulk"), undefined);
        // And the database takes the next write normally.
        after.write((w) => w.createPlane("bulk"));
        assert.equal(after.currentSeq(), 4);
      } finally {
        after.close();
      }
      const db = new Database(file);
      try {
        assert.equal(db.pragma("integrity_check", { simple: true }), "ok");
        assert.equal(db.pragma("journal_mode", { simple: true }), "wal");
      } finally {
        db.close();
      }
    } finally {
      cleanup();
    }
  });
});
