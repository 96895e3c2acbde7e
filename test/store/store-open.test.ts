// Opening a database: what is created, what is refused (missing file or directory, a file that
// is not a drsg database, another schema version, a second open), and the readonly mode.

import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import { AGENT_EDGE_TEST, EDGES_AGENT_INDEX, NODES_FILE_INDEX, OLDEST_MIGRATED, SCHEMA_VERSION } from "../../src/store/schema.js";
import { openStore } from "../../src/store/store.js";
import { tempDir, throwsCode } from "./helpers.js";

function withDir(fn: (dir: string) => void): void {
  const { dir, cleanup } = tempDir();
  try {
    fn(dir);
  } finally {
    cleanup();
  }
}

describe("opening a database", () => {
  it("creates a WAL database of STRICT tables, persists across reopen, records the holder's pid while open", () => {
    withDir((dir) => {
      const file = join(dir, "graph.drsg");
      const s = openStore(file, { create: true });
      assert.equal(s.path, file);
      assert.equal(readFileSync(`${file}.pid`, "utf8").trim(), String(process.pid));
      s.write((w) => {
        w.createPlane("p");
        w.createNode("p", { key: "k", labels: ["Var"], props: { x: 1 } });
      });
      s.close();
      s.close(); // idempotent
      assert.equal(existsSync(`${file}.pid`), false);

      const raw = new Database(file, { readonly: true });
      try {
        assert.equal(raw.pragma("journal_mode", { simple: true }), "wal");
        assert.equal(raw.pragma("user_version", { simple: true }), SCHEMA_VERSION);
        const tables = raw.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE '%VIRTUAL%' AND name NOT LIKE '%fts%' AND name <> 'sqlite_sequence'").all() as {
          name: string;
          sql: string;
        }[];
        assert.ok(tables.length >= 8);
        for (const t of tables) assert.match(t.sql, /STRICT\s*$/, `${t.name} is STRICT`);
      } finally {
        raw.close();
      }

      const again = openStore(file);
      try {
        assert.deepEqual(again.getNodeByKey("p", "k")?.props, { x: 1 });
        assert.equal(again.currentSeq(), 1);
      } finally {
        again.close();
      }
    });
  });

  it("a missing file without create is DB_MISSING advising drsg digest, and nothing is created", () => {
    withDir((dir) => {
      const file = join(dir, "nope.drsg");
      const e = throwsCode(() => openStore(file), "DB_MISSING");
      assert.match(e.message, /drsg digest <dir> --apply --db /);
      throwsCode(() => openStore(file, { create: true, readonly: true }), "DB_MISSING");
      assert.deepEqual(readdirSync(dir), []);
    });
  });

  it("a missing parent directory is DB_OPEN_FAILED naming it, and nothing is created", () => {
    withDir((dir) => {
      const missing = join(dir, "no", "such");
      const e = throwsCode(() => openStore(join(missing, "g.drsg"), { create: true }), "DB_OPEN_FAILED");
      assert.equal(e.data.dir, missing);
      assert.ok(e.message.includes(missing));
      assert.deepEqual(readdirSync(dir), []);
    });
  });

  it("a directory, a text file or another SQLite database is DB_OPEN_FAILED, and is left untouched", () => {
    withDir((dir) => {
      const sub = join(dir, "adir");
      mkdirSync(sub);
      throwsCode(() => openStore(sub, { create: true }), "DB_OPEN_FAILED");

      const text = join(dir, "notes.txt");
      const content = "these are notes, not a database\n".repeat(100);
      writeFileSync(text, content);
      const e = throwsCode(() => openStore(text), "DB_OPEN_FAILED");
      assert.match(e.message, /not a drsg database/);
      throwsCode(() => openStore(text, { create: true }), "DB_OPEN_FAILED");
      assert.equal(readFileSync(text, "utf8"), content);

      const other = join(dir, "other.db");
      const o = new Database(other);
      o.exec("CREATE TABLE t (x); INSERT INTO t VALUES (1)");
      o.close();
      const before = readFileSync(other);
      throwsCode(() => openStore(other), "DB_OPEN_FAILED");
      throwsCode(() => openStore(other, { create: true }), "DB_OPEN_FAILED");
      assert.deepEqual(readFileSync(other), before);
      assert.deepEqual(readdirSync(dir).sort(), ["adir", "notes.txt", "other.db"]);
    });
  });

  it("an empty file is DB_MISSING without create and becomes a database with it", () => {
    withDir((dir) => {
      const file = join(dir, "empty.drsg");
      writeFileSync(file, "");
      throwsCode(() => openStore(file), "DB_MISSING");
      const s = openStore(file, { create: true });
      s.write((w) => w.createPlane("p"));
      s.close();
      const again = openStore(file);
      assert.equal(again.listPlanes().length, 1);
      again.close();
    });
  });

  it("an older or newer schema version is DB_SCHEMA saying what to do", () => {
    withDir((dir) => {
      const file = join(dir, "g.drsg");
      openStore(file, { create: true }).close();
      const setVersion = (v: number): void => {
        const raw = new Database(file);
        raw.pragma(`user_version = ${v}`);
        raw.close();
      };
      setVersion(OLDEST_MIGRATED - 1);
      const older = throwsCode(() => openStore(file), "DB_SCHEMA");
      assert.match(older.message, /older drsg.*drsg digest/);
      setVersion(SCHEMA_VERSION + 1);
      const newer = throwsCode(() => openStore(file), "DB_SCHEMA");
      assert.match(newer.message, /newer drsg.*upgrade drsg/);
      setVersion(SCHEMA_VERSION);
      openStore(file).close();
    });
  });

  it("a v1 database is migrated at open: the graph kept, its text partial cache replaced by the packed one", () => {
    withDir((dir) => {
      const file = join(dir, "g.drsg");
      const s = openStore(file, { create: true });
      s.write((w) => {
        w.createPlane("p");
        w.createNode("p", { key: "p/a", labels: ["Function"], props: { line: 1 } });
      });
      s.close();
      // What v1 held: the cache's data as TEXT.
      const raw = new Database(file);
      raw.exec(`DROP TABLE partial_cache;
        CREATE TABLE partial_cache (blob TEXT NOT NULL, build TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (blob, build)) STRICT;
        INSERT INTO partial_cache VALUES ('b1', 'ts@1', '{"path":"a.ts"}');`);
      raw.pragma("user_version = 1");
      raw.close();
      for (const readonly of [true, false]) {
        const again = openStore(file, { readonly });
        try {
          assert.deepEqual(
            again.getNodeByKey("p", "p/a")?.props,
            { line: 1 },
          );
          assert.equal(again.getCachedPartial("b1", "ts@1"), undefined);
          if (!readonly) {
            again.putCachedPartials([{ blob: "b1", build: "ts@1", data: '{"path":"a.ts"}' }]);
            assert.equal(again.getCachedPartial("b1", "ts@1"), '{"path":"a.ts"}');
          }
        } finally {
          again.close();
        }
      }
      const check = new Database(file, { readonly: true });
      assert.equal(check.pragma("user_version", { simple: true }), SCHEMA_VERSION);
      const col = (check.prepare("SELECT type FROM pragma_table_info('partial_cache') WHERE name = 'data'").get() as { type: string }).type;
      assert.equal(col, "BLOB");
      check.close();
    });
  });

  it("v2 → v3 adds the nodes' file index; a file that lost it gets it back at open, and nodesByFile reads through it", () => {
    withDir((dir) => {
      const file = join(dir, "g.drsg");
      const s = openStore(file, { create: true });
      s.write((w) => {
        w.createPlane("p");
        w.createNode("p", { key: "p/a", labels: ["Function"], props: { file: "a.py", line: 1 } });
        w.createNode("p", { key: "p/b", labels: ["Function"], props: { file: "b.py", line: 1 } });
        w.createNode("p", { key: "python:os", labels: ["External"], props: {} });
      });
      s.close();
      const hasIndex = (db: Database.Database) =>
        db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?").get(NODES_FILE_INDEX) !== undefined;
      for (const v of [2, SCHEMA_VERSION]) {
        // v2 had no such index; a v3 file without it is one whose index was lost.
        const raw = new Database(file);
        raw.exec(`DROP INDEX ${NODES_FILE_INDEX}`);
        raw.pragma(`user_version = ${v}`);
        assert.equal(hasIndex(raw), false);
        raw.close();
        const again = openStore(file, { readonly: true });
        try {
          assert.deepEqual(again.nodesByFile!("p", "a.py").map((n) => n.key), ["p/a"]);
          assert.deepEqual(again.nodesByFile!("p", null).map((n) => n.key), ["python:os"]);
        } finally {
          again.close();
        }
        const check = new Database(file, { readonly: true });
        assert.equal(check.pragma("user_version", { simple: true }), SCHEMA_VERSION);
        assert.equal(hasIndex(check), true, `the index is back (from v${v})`);
        const plan = check
          .prepare("EXPLAIN QUERY PLAN SELECT id FROM nodes WHERE plane = 1 AND json_extract(props, '$.file') = 'a.py'")
          .all() as { detail: string }[];
        assert.match(plan.map((r) => r.detail).join(" "), new RegExp(NODES_FILE_INDEX));
        check.close();
      }
    });
  });

  it("v3 → v4: the edges' in-index gains the source and agent-written edges get their own; a walk's reads use them, and a lost index comes back at open", () => {
    withDir((dir) => {
      const file = join(dir, "g.drsg");
      const s = openStore(file, { create: true });
      s.write((w) => {
        w.createPlane("p", { synced_commit: "0".repeat(40) });
        const a = w.createNode("p", { key: "p/a", labels: ["Function"], props: { file: "a.py", line: 1 } });
        const b = w.createNode("p", { key: "p/b", labels: ["Function"], props: { file: "b.py", line: 1 } });
        const c = w.createNode("p", { key: "p/c", labels: ["Function"], props: { file: "c.py", line: 1 } });
        w.createEdge("p", { type: "CALLS", src: a, dst: c, props: { line: 2 } });
        w.createEdge("p", { type: "CALLS", src: b, dst: c, props: { line: 3, _written_by: "agent" } });
        // An agent's stamp on a parser's edge (it has _generated_by) does not make it an agent's.
        w.createEdge("p", { type: "REFERENCES", src: b, dst: c, props: { _written_by: "agent", _generated_by: "python@1.0.0+00000000" } });
        w.createEdge("p", { type: "CALLS", src: c, dst: a, props: { line: 4 } });
      });
      s.close();
      const indexes = (db: Database.Database) =>
        new Map(
          (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'edges'").all() as { name: string }[]).map((r) => [
            r.name,
            (db.prepare(`SELECT name FROM pragma_index_info('${r.name}') ORDER BY seqno`).all() as { name: string }[]).map((c) => c.name),
          ]),
        );
      const links = () => {
        const again = openStore(file, { readonly: true });
        try {
          const c = again.getNodeByKey("p", "p/c")!.id;
          const a = again.getNodeByKey("p", "p/a")!.id;
          return again
            .linksIn!("p", [c, a])
            .map((l) => `${l.type} ${l.src}->${l.dst}${l.agentWritten ? " agent" : ""}`)
            .sort();
        } finally {
          again.close();
        }
      };
      const expected = links();
      assert.equal(expected.filter((l) => l.endsWith(" agent")).length, 1, expected.join("; "));
      for (const [from, inIndex] of [
        [3, "v3"],
        [3, "lost"],
        [SCHEMA_VERSION, "kept"],
        [SCHEMA_VERSION, "lost"],
      ] as const) {
        // v3's shape: the in-index without the source, no agent index; or a file that lost its in-index, or only its agent index.
        const raw = new Database(file);
        if (inIndex !== "kept") raw.exec("DROP INDEX edges_in");
        if (inIndex === "v3") raw.exec("CREATE INDEX edges_in ON edges (plane, dst, type)");
        raw.exec("DROP INDEX edges_agent");
        raw.pragma(`user_version = ${from}`);
        assert.equal(indexes(raw).has("edges_agent"), false);
        raw.close();
        assert.deepEqual(links(), expected, `links read alike (from v${from}, in-index ${inIndex})`);
        const check = new Database(file, { readonly: true });
        assert.equal(check.pragma("user_version", { simple: true }), SCHEMA_VERSION);
        const ix = indexes(check);
        assert.deepEqual(ix.get("edges_in"), ["plane", "dst", "type", "src"], `from v${from}`);
        assert.deepEqual(ix.get("edges_agent"), ["plane", "dst"], `from v${from}`);
        const plan = (sql: string) => (check.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join(" ");
        assert.match(plan("SELECT id, type, src, dst FROM edges WHERE plane = 1 AND dst IN (SELECT value FROM json_each('[1]'))"), /COVERING INDEX edges_in/);
        assert.match(
          plan(`SELECT id, props FROM edges INDEXED BY ${EDGES_AGENT_INDEX} WHERE plane = 1 AND dst IN (SELECT value FROM json_each('[1]')) AND ${AGENT_EDGE_TEST}`),
          /INDEX edges_agent/,
        );
        const partial = check.prepare("SELECT count(*) AS n FROM edges INDEXED BY edges_agent WHERE plane = 1 AND " + AGENT_EDGE_TEST).get() as { n: number };
        assert.equal(partial.n, 2, "the agent index holds the two edges stamped by an agent");
        check.close();
      }
    });
  });

  it("a second open in the same process is DB_LOCKED too", () => {
    withDir((dir) => {
      const file = join(dir, "g.drsg");
      const s = openStore(file, { create: true });
      try {
        const e = throwsCode(() => openStore(file), "DB_LOCKED");
        assert.equal(e.data.pid, process.pid);
        assert.equal(readFileSync(`${file}.pid`, "utf8").trim(), String(process.pid), "a refused open leaves the holder's pid file");
      } finally {
        s.close();
      }
      openStore(file).close();
    });
  });

  it("mapped reads the file through a memory map (the process maps it), and reads what an unmapped open reads", { skip: !existsSync("/proc/self/maps") }, () => {
    withDir((dir) => {
      const file = join(dir, "g.drsg");
      const w = openStore(file, { create: true });
      w.write((x) => {
        x.createPlane("p");
        for (let i = 0; i < 50; i++) x.createNode("p", { key: `k${i}`, labels: ["Function"], props: { line: i } });
      });
      w.close();
      const mapsOf = () => readFileSync("/proc/self/maps", "utf8").split("\n").filter((l) => l.endsWith(file));
      const plain = openStore(file);
      const want = [...plain.allNodes("p")];
      assert.deepEqual(mapsOf(), [], "an unmapped store maps nothing of the file");
      plain.close();
      const mapped = openStore(file, { mapped: true });
      try {
        assert.deepEqual([...mapped.allNodes("p")], want);
        assert.ok(mapsOf().length > 0, "the file is mapped");
      } finally {
        mapped.close();
      }
      assert.deepEqual(mapsOf(), [], "and unmapped at close");
    });
  });

  it("readonly reads but refuses writes and cache puts", () => {
    withDir((dir) => {
      const file = join(dir, "g.drsg");
      const w = openStore(file, { create: true });
      w.write((x) => x.createPlane("p"));
      w.close();
      const r = openStore(file, { readonly: true });
      try {
        assert.equal(r.listPlanes().length, 1);
        throwsCode(() => r.write((x) => x.createPlane("q")), "BAD_INPUT");
        throwsCode(() => r.putCachedPartials([{ blob: "b", build: "x", data: "d" }]), "BAD_INPUT");
        assert.equal(r.currentSeq(), 1);
      } finally {
        r.close();
      }
    });
  });
});
