// The cypher corpus against a reference openCypher engine (Kùzu, in memory): every statement of
// corpus.ts on the same fixture graph through drsg (a real SQLite store) and through Kùzu, the
// answers compared with rows sorted unless the statement orders them.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import kuzu from "kuzu";
import { runStatement } from "../../src/cypher/run.js";
import { NodeV, RelV, type Value } from "../../src/cypher/values.js";
import { isDrsgError } from "../../src/model/errors.js";
import type { Store } from "../../src/store/types.js";
import { tempStore } from "../store/helpers.js";
import { CORPUS, type Case } from "./corpus.js";
import { drsgSetup, kuzuSetup } from "./fixture.js";

type KuzuConn = InstanceType<typeof kuzu.Connection>;

/** Kùzu's spelling of drsg's statement: label() for labels()/type(), `* TRAIL a..b` for bounded variable length. */
function toKuzu(q: string): string {
  return q
    .replace(/labels\((\w+)\)/g, "[label($1)]")
    .replace(/type\((\w+)\)/g, "label($1)")
    .replace(/\*(\d+)\.\.(\d+)/g, "* TRAIL $1..$2");
}

interface Engines {
  store: Store;
  done: () => Promise<void>;
  keyOfId: Map<number, string>;
  db: InstanceType<typeof kuzu.Database>;
  conn: KuzuConn;
  kuzuKeys: Map<string, string>;
}

async function kuzuQuery(conn: KuzuConn, q: string, params?: Record<string, unknown>): Promise<Record<string, unknown>[]> {
  if (params && Object.keys(params).length > 0) {
    const ps = await conn.prepare(q);
    const r = await conn.execute(ps, params as never);
    return (await (Array.isArray(r) ? r[r.length - 1]! : r).getAll()) as Record<string, unknown>[];
  }
  const r = await conn.query(q);
  return (await (Array.isArray(r) ? r[r.length - 1]! : r).getAll()) as Record<string, unknown>[];
}

/**
 * Kùzu databases, made once: each holds the fixture's tables; `reset` empties one and loads the
 * fixture again (a write case starts from the fixture). Made once because Kùzu reserves a large
 * address range per database and its native teardown is not safe to call while the test runs.
 */
const kuzuDbs = new Map<string, { db: InstanceType<typeof kuzu.Database>; conn: KuzuConn; tables: boolean }>();

async function kuzuReady(name: string): Promise<{ conn: KuzuConn; db: InstanceType<typeof kuzu.Database> }> {
  let k = kuzuDbs.get(name);
  if (!k) {
    const db = new kuzu.Database(":memory:", 64 * 2 ** 20, true, false, 2 ** 30);
    k = { db, conn: new kuzu.Connection(db), tables: false };
    kuzuDbs.set(name, k);
  }
  const setup = kuzuSetup();
  if (!k.tables) {
    for (const s of setup.filter((x) => x.startsWith("CREATE NODE TABLE") || x.startsWith("CREATE REL TABLE"))) await kuzuQuery(k.conn, s);
    k.tables = true;
  } else await kuzuQuery(k.conn, "MATCH (n) DETACH DELETE n");
  for (const s of setup.filter((x) => !x.startsWith("CREATE NODE TABLE") && !x.startsWith("CREATE REL TABLE"))) await kuzuQuery(k.conn, s);
  return k;
}

async function engines(kind: "shared" | "write"): Promise<Engines> {
  const t = tempStore();
  const ids = t.store.write((w) => drsgSetup(w, "t"));
  const { db, conn } = await kuzuReady(kind);
  const kuzuKeys = new Map<string, string>();
  for (const row of await kuzuQuery(conn, "MATCH (n) RETURN id(n) AS id, n.key AS key")) {
    const id = row.id as { table: number; offset: number };
    kuzuKeys.set(`${id.table}:${id.offset}`, row.key as string);
  }
  return { store: t.store, done: async () => t.done(), keyOfId: new Map([...ids].map(([k, v]) => [v, k])), db, conn, kuzuKeys };
}

/** A cell as comparable JSON: nodes by key, relationships by type and endpoints' keys, numbers rounded. */
function normDrsg(v: Value, e: Engines): unknown {
  if (v instanceof NodeV) return `node:${v.key}`;
  if (v instanceof RelV) return `rel:${v.type}:${e.keyOfId.get(v.src) ?? v.src}->${e.keyOfId.get(v.dst) ?? v.dst}`;
  if (Array.isArray(v)) return v.map((x) => normDrsg(x, e));
  if (typeof v === "number") return Math.round(v * 1e9) / 1e9;
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normDrsg(x, e)]));
  return v;
}

function normKuzu(v: unknown, e: Engines): unknown {
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "number") return Math.round(v * 1e9) / 1e9;
  if (Array.isArray(v)) return v.map((x) => normKuzu(x, e));
  if (v !== null && typeof v === "object") {
    const o = v as Record<string, unknown>;
    if ("_src" in o && "_label" in o) {
      const s = o._src as { table: number; offset: number };
      const d = o._dst as { table: number; offset: number };
      return `rel:${o._label}:${e.kuzuKeys.get(`${s.table}:${s.offset}`)}->${e.kuzuKeys.get(`${d.table}:${d.offset}`)}`;
    }
    if ("_label" in o && "_id" in o) return `node:${o.key}`;
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, normKuzu(x, e)]));
  }
  return v;
}

function canon(rows: unknown[][], c: Case, ordered: boolean): string[] {
  const cells = rows.map((r) => JSON.stringify(c.bag ? r.map((x) => (Array.isArray(x) ? [...x].map((y) => JSON.stringify(y)).sort() : x)) : r));
  return ordered ? cells : cells.sort();
}

function drsgRows(e: Engines, q: string, params?: Record<string, unknown>): unknown[][] {
  const a = runStatement(e.store, { plane: "t", statement: q, confirm: true, ...(params ? { params } : {}) });
  return a.result.rows.map((r) => r.map((v) => normDrsg(v, e)));
}

async function kuzuRows(e: Engines, q: string, params?: Record<string, unknown>): Promise<unknown[][]> {
  return (await kuzuQuery(e.conn, q, params)).map((r) => Object.values(r).map((v) => normKuzu(v, e)));
}

describe("cypher corpus against Kùzu", () => {
  let shared: Engines;
  before(async () => {
    shared = await engines("shared");
  });
  after(async () => shared.done());

  test("the corpus holds at least 150 statements, each deliberate difference explained", () => {
    assert.ok(CORPUS.length >= 150, `only ${CORPUS.length} statements`);
    for (const c of CORPUS) if (c.kz === null) assert.ok(c.why && (c.expect || c.error), `no reason or expected answer for ${c.q}`);
  });

  CORPUS.forEach((c, i) => {
    test(`#${i + 1} ${c.q}`, async () => {
      const write = c.check !== undefined;
      const e = write ? await engines("write") : shared;
      try {
        if (c.error) {
          assert.throws(() => drsgRows(e, c.q, c.params), (err: unknown) => isDrsgError(err) && err.code === c.error);
          return;
        }
        const ordered = /ORDER BY/i.test(write ? c.check! : c.q);
        if (write) {
          drsgRows(e, c.q, c.params);
          if (c.kz !== null) await kuzuRows(e, c.kz ?? toKuzu(c.q), c.params);
        }
        const readQ = write ? c.check! : c.q;
        const mine = canon(drsgRows(e, readQ, write ? undefined : c.params), c, ordered);
        if (c.kz === null && !write) {
          assert.deepEqual(mine, canon(c.expect!, c, ordered), c.why);
          return;
        }
        const kq = write ? (c.checkKz ?? toKuzu(c.check!)) : (c.kz ?? toKuzu(c.q));
        const ref = canon(await kuzuRows(e, kq, write ? undefined : c.params), c, ordered);
        assert.deepEqual(mine, ref, `drsg and Kùzu differ on: ${c.q}${write ? ` then ${c.check}` : ""}`);
      } finally {
        if (write) await e.done();
      }
    });
  });
});
