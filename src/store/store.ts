// The embedded graph store: one SQLite file (WAL, STRICT tables) held exclusively by one
// process. Every write() is one transaction and one database commit; superseded rows stay
// readable as of the last N commits, then are reclaimed after the next write.

import { existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type Database from "better-sqlite3";
import { DrsgError } from "../model/errors.js";
import { packPartial, unpackPartial, unpackPartialBytes } from "../model/packed.js";
import { type CommitChanges, readChanges } from "./changes.js";
import { type EdgeRow, type NodeRow, StoreContext, toEdge, toNode } from "./context.js";
import { ensureFtsTokens, ftsQuery } from "./fts.js";
import { openConnection, openError, releaseLock, takeLock } from "./lock.js";
import { SqlReader } from "./reader.js";
import { APPLICATION_ID, DDL, META_FLOOR, OLDEST_MIGRATED, REQUIRED_INDEXES, SCHEMA_VERSION } from "./schema.js";
import type { DbCommit, OpenOptions, PlaneDelta, Reader, Store, StoredNode, Writer } from "./types.js";
import { instantFrom, MaintenanceStore, migrate, upgradeRequired } from "./upgrade.js";
import { StoreWriter } from "./writer.js";

export { SCHEMA_VERSION } from "./schema.js";
export type * from "./types.js";
export { checkPlaneName } from "./writer.js";

/**
 * The best `@lim` matches of plane `@p` by (bm25, id): name weighs most, then the key, the
 * signature, the doc comment. Stand-ins (unbound calls, outside code) are not answers: left out
 * here, before the limit, so a plane full of `http.*` stand-ins still yields its own symbols. Ranked by id alone; the rows (labels, props) are read for the
 * best only, not carried through the sort.
 */
const SEARCH_IN_PLANE =
  "SELECT n.id, n.key, n.labels, n.props FROM (SELECT m.id, bm25(nodes_fts, 8.0, 4.0, 2.0, 1.0) AS r " +
  "FROM nodes_fts JOIN nodes m ON m.id = nodes_fts.rowid WHERE nodes_fts MATCH @q AND m.plane = @p " +
  "AND m.label NOT IN ('UnresolvedRef', 'External') " +
  "ORDER BY r, m.id LIMIT @lim) t JOIN nodes n ON n.id = t.id ORDER BY t.r, t.id";

/** Commits kept readable when neither the option nor $DRSG_RETAIN_COMMITS says otherwise. */
export const DEFAULT_RETAIN_COMMITS = 20;
const RETAIN_ENV = "DRSG_RETAIN_COMMITS";

/** The retention in force: the option, else $DRSG_RETAIN_COMMITS (empty = unset), else 20. */
export function resolveRetainCommits(option: number | undefined, env: NodeJS.ProcessEnv = process.env): number {
  if (option !== undefined) {
    if (!Number.isSafeInteger(option) || option < 0) {
      throw new DrsgError("BAD_INPUT", `open database: retainCommits must be a non-negative integer, got ${option}`, {
        retainCommits: option,
      });
    }
    return option;
  }
  const raw = env[RETAIN_ENV]?.trim();
  if (raw === undefined || raw === "") return DEFAULT_RETAIN_COMMITS;
  const n = Number(raw);
  if (!/^[0-9]+$/.test(raw) || !Number.isSafeInteger(n)) {
    throw new DrsgError(
      "BAD_ENV",
      `open database: ${RETAIN_ENV}=${JSON.stringify(env[RETAIN_ENV])} is not a non-negative integer; set it to how many commits stay readable (0 keeps all) or unset it for ${DEFAULT_RETAIN_COMMITS}`,
      { variable: RETAIN_ENV, value: env[RETAIN_ENV] },
    );
  }
  return n;
}

/** How much of a file a mapped store maps (OpenOptions.mapped): address space, not memory. */
const MAPPED_BYTES = 1 << 30;

/** SQLite's page cache per store (KiB): room for a digest's writes. */
const DEFAULT_CACHE_KIB = 65536;

/**
 * Bound this store's SQLite page cache to `kib` KiB (undefined: back to the default). A
 * long-lived follower touches a little more of the file with every fold, so its cache fills
 * toward the bound and stays there; the pages live in the C heap, outside V8's accounting.
 */
export function setCacheSize(store: Store, kib: number | undefined): void {
  if (!(store instanceof SqliteStore) || store.ctx.closed) return;
  const n = kib ?? DEFAULT_CACHE_KIB;
  if (!Number.isSafeInteger(n) || n <= 0) throw new DrsgError("BAD_INPUT", `cache size: a positive number of KiB, got ${kib}`);
  store.ctx.db.pragma(`cache_size = -${n}`);
}

/** Hand the page cache's unused pages and other spare memory back (PRAGMA shrink_memory): after a fold, before idling. */
export function releaseMemory(store: Store): void {
  if (!(store instanceof SqliteStore) || store.ctx.closed || store.ctx.writing) return;
  store.ctx.db.pragma("shrink_memory");
}

const DIGEST_HINT = "build it with `drsg digest <dir> --apply --db <path>`";

/**
 * What the file holds: nothing yet, or a drsg database of this schema version, or of an older
 * one this drsg migrates (its version). Throws otherwise.
 */
function inspect(db: Database.Database, file: string): "empty" | "drsg" | number {
  const appId = db.pragma("application_id", { simple: true }) as number;
  const version = db.pragma("user_version", { simple: true }) as number;
  const tables = (db.prepare("SELECT count(*) AS n FROM sqlite_master").get() as { n: number }).n;
  if (appId !== APPLICATION_ID) {
    if (tables === 0 && appId === 0 && version === 0) return "empty";
    throw new DrsgError(
      "DB_OPEN_FAILED",
      `open database "${file}": it is an SQLite database but not a drsg one; pass --db with the path of a drsg database, or ${DIGEST_HINT} at a new path`,
      { path: file },
    );
  }
  if (version >= OLDEST_MIGRATED && version < SCHEMA_VERSION) return version;
  if (version < SCHEMA_VERSION) {
    throw new DrsgError(
      "DB_SCHEMA",
      `open database "${file}": it was built by an older drsg (schema v${version}; this drsg reads v${SCHEMA_VERSION}); rebuild it: move it aside and run \`drsg digest <dir> --apply --db ${file}\``,
      { path: file, found: version, expected: SCHEMA_VERSION },
    );
  }
  if (version > SCHEMA_VERSION) {
    throw new DrsgError(
      "DB_SCHEMA",
      `open database "${file}": it was written by a newer drsg (schema v${version}; this drsg reads v${SCHEMA_VERSION}); upgrade drsg to open it`,
      { path: file, found: version, expected: SCHEMA_VERSION },
    );
  }
  return "drsg";
}

/**
 * The indexes reads rely on (schema.ts, REQUIRED_INDEXES: the nodes' file index, the agent-written
 * edges') exist: a file that lost one (dropped by hand, a tool's VACUUM of another schema) gets it
 * back here, so no read ever falls back to a scan of the plane or fails for want of it. SQLite
 * maintains them in every write after that.
 */
function ensureIndexes(db: Database.Database): void {
  const has = db.prepare("SELECT 1 AS x FROM sqlite_master WHERE type = 'index' AND name = ?");
  for (const ix of REQUIRED_INDEXES) if (has.get(ix.name) === undefined) db.exec(ix.ddl);
}

function initSchema(db: Database.Database): void {
  db.exec("BEGIN IMMEDIATE");
  try {
    db.exec(DDL);
    db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)").run(META_FLOOR, "0");
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
    db.exec("COMMIT");
  } catch (e) {
    db.exec("ROLLBACK");
    throw e;
  }
}

/**
 * Opens (or with `create`, creates) the database at `path`, holding it exclusively until
 * `close()`: a second open — from any process — fails at once with DB_LOCKED.
 *
 * - `readonly`: the store refuses write() and putCachedPartials() (BAD_INPUT), never creates,
 *   and still takes the exclusive lock (so the file must be writable).
 * - A database of an older schema this drsg migrates (schema.ts, MIGRATIONS) is migrated here,
 *   in one transaction, readonly or not, when every step is instant (touches caches only). When
 *   one is not, `maintenance` opens it as a MaintenanceStore (src/store/upgrade.ts: upgrade
 *   status, and apply with a backup first); without `maintenance` it is UPGRADE_REQUIRED.
 * - Nested write(): refused with INTERNAL — call the inner code with the outer Writer instead.
 */
export function openStore(path: string, opts: OpenOptions & { maintenance?: boolean } = {}): Store {
  const retain = resolveRetainCommits(opts.retainCommits);
  const file = resolve(path);
  const dir = dirname(file);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new DrsgError(
      "DB_OPEN_FAILED",
      `open database "${file}": directory "${dir}" does not exist; create it first or pass --db with another path`,
      { path: file, dir },
    );
  }
  const existed = existsSync(file);
  if (existed && statSync(file).isDirectory()) {
    throw new DrsgError("DB_OPEN_FAILED", `open database "${file}": it is a directory; pass --db with a file path`, { path: file });
  }
  const mayCreate = opts.create === true && opts.readonly !== true;
  if (!existed && !mayCreate) {
    throw new DrsgError("DB_MISSING", `open database "${file}": no such file; ${DIGEST_HINT.replace("<path>", file)}`, { path: file });
  }
  const db = openConnection(file, existed);
  let locked = false;
  try {
    const state = inspect(db, file);
    if (state === "empty" && !mayCreate) {
      throw new DrsgError("DB_MISSING", `open database "${file}": the file is empty; ${DIGEST_HINT.replace("<path>", file)}`, {
        path: file,
      });
    }
    takeLock(db, file);
    locked = true;
    if (state === "empty") initSchema(db);
    else if (typeof state === "number") {
      if (!instantFrom(state)) {
        if (!opts.maintenance) throw upgradeRequired(file, state, "open database");
        return new MaintenanceStore(db, file, state, retain, opts.readonly === true, () => releaseLock(file));
      }
      migrate(db, state);
    }
    // Search rows indexed by another tokenisation are rebuilt (fts.ts), readonly or not, as migrations are.
    ensureFtsTokens(db, state === "empty");
    ensureIndexes(db);
    db.pragma("synchronous = NORMAL");
    db.pragma(`cache_size = -${DEFAULT_CACHE_KIB}`);
    db.pragma("temp_store = MEMORY");
    if (opts.mapped) db.pragma(`mmap_size = ${MAPPED_BYTES}`);
    // A digest-sized write leaves a large WAL behind; cut it back after each checkpoint.
    db.pragma("journal_size_limit = 67108864");
    return new SqliteStore(new StoreContext(db, file, retain), opts.readonly === true);
  } catch (e) {
    // Mapped first: DB_LOCKED reads the holder's pid file, which only our own lock may remove.
    const err = openError(file, e);
    if (locked) releaseLock(file);
    db.close();
    throw err;
  }
}

function isThenable(v: unknown): boolean {
  return (typeof v === "object" || typeof v === "function") && v !== null && typeof (v as { then?: unknown }).then === "function";
}

const DELTA_NODES = "SELECT id, key, labels, props FROM nodes WHERE plane = @p AND since > @s LIMIT @lim";
const DELTA_EDGES = "SELECT id, type, src, dst, props FROM edges WHERE plane = @p AND since > @s LIMIT @lim";
// With the watermark of `since` (@m): rows created after it (an id range), and rows patched after
// it (their superseded versions, by history's until index) — never a scan of the plane. `+plane`
// keeps the planner off the (plane, …) indexes, which would read every row of the plane.
const DELTA_NODES_MARKED =
  "SELECT id, key, labels, props FROM nodes WHERE id > @m AND +plane = @p UNION " +
  "SELECT id, key, labels, props FROM nodes WHERE id IN (SELECT id FROM node_hist WHERE until > @s AND +plane = @p) AND since > @s LIMIT @lim";
const DELTA_EDGES_MARKED =
  "SELECT id, type, src, dst, props FROM edges WHERE id > @m AND +plane = @p UNION " +
  "SELECT id, type, src, dst, props FROM edges WHERE id IN (SELECT id FROM edge_hist WHERE until > @s AND +plane = @p) AND since > @s LIMIT @lim";
/** Watermarks kept (one per commit; a view older than these is brought up to date by a scan). */
const WATERMARKS_KEPT = 256;
// Rows superseded after `since` (history's until index: `+plane` as above) that are not live any more.
const DELTA_GONE_NODES =
  "SELECT DISTINCT h.id FROM node_hist h WHERE h.until > @s AND +h.plane = @p AND NOT EXISTS (SELECT 1 FROM nodes n WHERE n.id = h.id) LIMIT @lim";
const DELTA_GONE_EDGES =
  "SELECT DISTINCT h.id FROM edge_hist h WHERE h.until > @s AND +h.plane = @p AND NOT EXISTS (SELECT 1 FROM edges e WHERE e.id = h.id) LIMIT @lim";

class SqliteStore extends SqlReader implements Store {
  declare readonly ctx: StoreContext;
  readonly path: string;
  readonly retainCommits: number;

  constructor(
    ctx: StoreContext,
    private readonly readonly: boolean,
  ) {
    super(ctx);
    this.path = ctx.file;
    this.retainCommits = ctx.retain;
    const last = ctx.db.prepare("SELECT seq, at FROM commits ORDER BY seq DESC LIMIT 1").get() as DbCommit | undefined;
    ctx.latest = last?.seq ?? 0;
    ctx.latestAt = last?.at ?? 0;
    const floor = ctx.db.prepare("SELECT value FROM meta WHERE key = ?").get(META_FLOOR) as { value: string } | undefined;
    ctx.storedFloor = Number(floor?.value ?? 0);
    this.mark(ctx.latest);
  }

  /** Record the id watermark of commit `seq` (just committed, or the latest at open). */
  private mark(seq: number): void {
    const c = this.ctx;
    const max = (t: string) => (c.stmt(`SELECT coalesce(max(id), 0) AS m FROM ${t}`).get() as { m: number }).m;
    c.watermarks.set(seq, { node: max("nodes"), edge: max("edges") });
    if (c.watermarks.size > WATERMARKS_KEPT) c.watermarks.delete(c.watermarks.keys().next().value!);
  }

  private refuseReadonly(what: string): void {
    if (this.readonly) {
      throw new DrsgError("BAD_INPUT", `${what}: the database "${this.path}" was opened readonly; open it without readonly to write`, {
        path: this.path,
      });
    }
  }

  write<T>(fn: (w: Writer) => T): T {
    const c = this.ctx;
    this.refuseReadonly("write");
    if (this.ctx.closed) throw new DrsgError("INTERNAL", `write: database "${this.path}" is closed; open it again`);
    if (c.writing) {
      throw new DrsgError("INTERNAL", "write: write() called inside write(); use the outer write's Writer instead");
    }
    const seq = c.latest + 1;
    const at = Math.max(Date.now(), c.latestAt);
    const w = new StoreWriter(c, seq);
    c.stmt("BEGIN IMMEDIATE").run();
    c.writing = true;
    try {
      c.stmt("INSERT INTO commits (seq, at) VALUES (?, ?)").run(seq, at);
      const out = fn(w);
      if (isThenable(out)) {
        // Its outcome no longer matters (everything is rolled back); keep a rejection from going unhandled.
        Promise.resolve(out).catch(() => undefined);
        throw new DrsgError("INTERNAL", "write: the callback returned a promise; write() callbacks must be synchronous");
      }
      const floor = c.floorFor(seq);
      if (floor > c.storedFloor) this.reclaim(floor);
      c.stmt("COMMIT").run();
      c.latest = seq;
      c.latestAt = at;
      c.storedFloor = floor;
      this.mark(seq);
      return out;
    } catch (e) {
      if (c.db.inTransaction) c.stmt("ROLLBACK").run();
      c.planeIds.clear();
      throw e;
    } finally {
      w.end();
      c.writing = false;
    }
  }

  /** Drops history no retained commit can see, and the commit rows below the window. */
  private reclaim(floor: number): void {
    const c = this.ctx;
    c.stmt("DELETE FROM node_hist WHERE until <= ?").run(floor);
    c.stmt("DELETE FROM edge_hist WHERE until <= ?").run(floor);
    c.stmt("DELETE FROM plane_hist WHERE until <= ?").run(floor);
    c.stmt("DELETE FROM commits WHERE seq < ?").run(floor);
    c.stmt("UPDATE meta SET value = ? WHERE key = ?").run(String(floor), META_FLOOR);
  }

  asOf(seq: number): Reader {
    if (!Number.isInteger(seq)) throw new DrsgError("BAD_INPUT", `read as of: commit must be an integer, got ${seq}`);
    if (seq < this.ctx.floor()) throw this.ctx.outOfRange(seq, "read as of");
    return new SqlReader(this.ctx, Math.min(seq, this.ctx.latest));
  }

  seqAt(ms: number): number {
    if (!Number.isFinite(ms)) throw new DrsgError("BAD_INPUT", `read as of a time: ${ms} is not a time in milliseconds`);
    const row = this.ctx.stmt("SELECT seq FROM commits WHERE at <= ? ORDER BY at DESC, seq DESC LIMIT 1").get(ms) as
      | { seq: number }
      | undefined;
    const floor = this.ctx.floor();
    // Before the first commit the database was empty: commit 0, readable while nothing is reclaimed.
    const seq = row?.seq ?? 0;
    if (seq < floor) throw this.ctx.outOfRange(seq, `read as of ${new Date(ms).toISOString()}`);
    return seq;
  }

  commits(): DbCommit[] {
    return this.ctx.stmt("SELECT seq, at FROM commits WHERE seq >= ? ORDER BY seq").all(this.ctx.floor()) as DbCommit[];
  }

  currentSeq(): number {
    return this.ctx.latest;
  }

  planeSeq(_plane: string): number {
    return this.ctx.latest;
  }

  planeDelta(plane: string, since: number, max: number): PlaneDelta | undefined {
    if (since < this.ctx.floor() || since > this.ctx.latest) return undefined;
    const p = this.planeId(plane);
    const s = { p, s: since, lim: max + 1 };
    // Live rows written after `since`: by the commit's watermark when this process recorded it,
    // else by a scan of the plane's rows (the `since` column is not indexed).
    const mark = this.ctx.watermarks.get(since);
    const nodeRows = (mark ? this.ctx.stmt(DELTA_NODES_MARKED).all({ ...s, m: mark.node }) : this.ctx.stmt(DELTA_NODES).all(s)) as NodeRow[];
    if (nodeRows.length > max) return undefined;
    const edgeRows = (mark ? this.ctx.stmt(DELTA_EDGES_MARKED).all({ ...s, m: mark.edge }) : this.ctx.stmt(DELTA_EDGES).all(s)) as EdgeRow[];
    if (nodeRows.length + edgeRows.length > max) return undefined;
    // Rows superseded after `since` whose id is not live any more: deleted (history's until index).
    const goneNodes = (this.ctx.stmt(DELTA_GONE_NODES).all(s) as { id: number }[]).map((r) => r.id);
    const goneEdges = (this.ctx.stmt(DELTA_GONE_EDGES).all(s) as { id: number }[]).map((r) => r.id);
    if (nodeRows.length + edgeRows.length + goneNodes.length + goneEdges.length > max) return undefined;
    return { planeId: p, nodes: nodeRows.map((r) => toNode(plane, r)), goneNodes, edges: edgeRows.map((r) => toEdge(plane, r)), goneEdges };
  }

  searchText(plane: string, query: string, limit: number): StoredNode[] {
    if (!Number.isInteger(limit) || limit < 0) throw new DrsgError("BAD_INPUT", `search: limit must be a non-negative integer, got ${limit}`);
    const p = this.planeId(plane);
    const q = ftsQuery(query);
    if (q === undefined || limit === 0) return [];
    const rank = (match: string): NodeRow[] => this.ctx.stmt(SEARCH_IN_PLANE).all({ q: match, p, lim: limit }) as NodeRow[];
    const rows = rank(q.all);
    // Too few with every term: fill up with nodes that match some of them.
    if (rows.length < limit && q.terms > 1) {
      const seen = new Set(rows.map((r) => r.id));
      for (const r of rank(q.any)) {
        if (rows.length >= limit) break;
        if (!seen.has(r.id)) rows.push(r);
      }
    }
    return rows.map((r) => toNode(plane, r));
  }

  hasCachedPartial(blob: string, build: string): boolean {
    // The primary key's index answers it: the row's data is not read.
    return this.ctx.stmt("SELECT 1 FROM partial_cache WHERE blob = ? AND build = ?").get(blob, build) !== undefined;
  }

  getCachedPartialBytes(blob: string, build: string): Buffer | undefined {
    const row = this.ctx.stmt("SELECT data FROM partial_cache WHERE blob = ? AND build = ?").get(blob, build) as
      | { data: Buffer }
      | undefined;
    if (!row) return undefined;
    try {
      return unpackPartialBytes(row.data);
    } catch {
      return undefined; // not what put wrote: a miss
    }
  }

  getCachedPartial(blob: string, build: string): string | undefined {
    const row = this.ctx.stmt("SELECT data FROM partial_cache WHERE blob = ? AND build = ?").get(blob, build) as
      | { data: Buffer }
      | undefined;
    if (!row) return undefined;
    try {
      return unpackPartial(row.data);
    } catch {
      return undefined; // not what put wrote: a miss
    }
  }

  putCachedPartials(rows: { blob: string; build: string; data: string; packed?: Uint8Array }[]): void {
    this.refuseReadonly("cache partials");
    if (rows.length === 0) return;
    const put = this.ctx.stmt(
      "INSERT INTO partial_cache (blob, build, data) VALUES (?, ?, ?) ON CONFLICT (blob, build) DO UPDATE SET data = excluded.data",
    );
    const all = (): void => {
      for (const r of rows) put.run(r.blob, r.build, r.packed ?? packPartial(r.data));
    };
    // Inside a write() the rows join its transaction; outside, their own transaction — never a database commit.
    if (this.ctx.writing) all();
    else this.ctx.db.transaction(all).immediate();
  }

  close(): void {
    if (this.ctx.closed) return;
    this.ctx.closed = true;
    releaseLock(this.path);
    this.ctx.db.close();
  }
}

/** The SQLite store behind `store` for `plane` (a routed store's mount holding it), or undefined. */
function sqliteOf(store: Store, plane?: string): SqliteStore | undefined {
  const routed = store as Store & { storeOf?: (p: string) => Store; main?: Store };
  const inner = plane !== undefined && typeof routed.storeOf === "function" ? routed.storeOf(plane) : (routed.main ?? store);
  return inner instanceof SqliteStore ? inner : undefined;
}

/** What a commit window is: the newest commit and its time, and the oldest readable as-of. */
export interface CommitWindow {
  latest: number;
  /** Wall-clock ms of the newest commit (0 before any). */
  latestAt: number;
  floor: number;
  retain: number;
}

/** The readable window of the database `store` reads (for a plane, the one holding it). */
export function commitWindow(store: Store, plane?: string): CommitWindow {
  const s = sqliteOf(store, plane);
  if (!s) return { latest: store.currentSeq(), latestAt: 0, floor: 0, retain: store.retainCommits };
  return { latest: s.ctx.latest, latestAt: s.ctx.latestAt, floor: s.ctx.floor(), retain: s.ctx.retain };
}

/** What commits `from` (exclusive) .. `to` (inclusive) did to `plane`, per commit (src/store/changes.ts). */
export function planeChanges(store: Store, plane: string, from: number, to: number): CommitChanges[] {
  const s = sqliteOf(store, plane);
  if (!s) throw new DrsgError("BAD_INPUT", `changes: the database holding plane "${plane}" keeps no history`, { plane });
  return readChanges(s.ctx, plane, from, to);
}
