// The database schema: its version, the DDL, and the check that a file is a drsg database of
// this version. Live tables hold the current state; *_hist tables hold superseded rows with
// the [since, until) range of database commits in which they were current.

/**
 * Bumped whenever the DDL or the meaning of a column changes. v2: the partial cache holds its
 * JSON deflated (a BLOB), a seventh of the text v1 held. v3: nodes are indexed by their `file`
 * property (a fold reads one file's facts, not the plane). v4: the edges' in-index holds each
 * edge's source too (a walk reads it alone), and edges an agent wrote have an index of their own.
 */
export const SCHEMA_VERSION = 4;

/**
 * The oldest version opened by migrating it (MIGRATIONS[v] takes v to v + 1); older ones are
 * DB_SCHEMA. v1 → v2 touches only the partial cache, a cache: it starts empty again. v2 → v3
 * and v3 → v4 build indexes (no row is rewritten).
 */
export const OLDEST_MIGRATED = 1;

/** One step of the schema, v → v + 1. */
export interface Migration {
  sql: string;
  /**
   * It takes moments whatever the file's size (it touches caches, not the graph): applied at
   * open. One that is not instant (rewrites graph tables) is never run silently: a server opens
   * the file in maintenance mode (upgrade_status, apply_upgrade — which backs the file up
   * first), any other opener is refused with UPGRADE_REQUIRED.
   */
  instant: boolean;
  /** What it does, for upgrade_status. */
  what: string;
}

/** The partial cache: not graph state (no history; writing it is not a database commit). data: the partial's JSON, raw-deflated. */
const PARTIAL_CACHE = `CREATE TABLE partial_cache (
  blob  TEXT NOT NULL,
  build TEXT NOT NULL,
  data  BLOB NOT NULL,
  PRIMARY KEY (blob, build)
) STRICT;`;

/**
 * Nodes by plane and `file` property: what a fold in a fresh process reads instead of the whole
 * plane (sync/lazy.ts). SQLite keeps it in step with every write, in the same transaction, so it
 * can never be stale; openStore re-creates it when it is missing (REQUIRED_INDEXES).
 */
export const NODES_FILE_INDEX = "nodes_file";
const NODES_FILE = `CREATE INDEX IF NOT EXISTS ${NODES_FILE_INDEX} ON nodes (plane, json_extract(props, '$.file'));`;

/**
 * Edges by target, holding type and source: what a walk of incoming edges reads (Reader.linksIn,
 * a level of impact in one query), found in the index alone, without reading an edge's row.
 */
export const EDGES_IN_INDEX = "edges_in";
const EDGES_IN = `CREATE INDEX IF NOT EXISTS ${EDGES_IN_INDEX} ON edges (plane, dst, type, src);`;

/**
 * The condition an agent-written edge meets (write_edges stamps `_written_by: "agent"`), word for
 * word as linksIn states it: SQLite reads a partial index only for a query that states its condition.
 */
export const AGENT_EDGE_TEST = "(props ->> '$._written_by') = 'agent'";

/**
 * The edges an agent wrote, by plane and target (a partial index: it holds only those, few or
 * none). A walk reading edges from edges_in alone asks here which of them an agent wrote.
 */
export const EDGES_AGENT_INDEX = "edges_agent";
const EDGES_AGENT = `CREATE INDEX IF NOT EXISTS ${EDGES_AGENT_INDEX} ON edges (plane, dst) WHERE ${AGENT_EDGE_TEST};`;

export const MIGRATIONS: Record<number, Migration> = {
  1: {
    sql: `DROP TABLE partial_cache;\n${PARTIAL_CACHE}`,
    instant: true,
    what: "the partial cache is re-created holding deflated JSON (it starts empty and refills on the next digest)",
  },
  2: {
    sql: NODES_FILE,
    // An index, not a rewrite: one read of the nodes table (about 0.2 s per 100k nodes).
    instant: true,
    what: "nodes are indexed by their file property, so a fold reads only the facts of the files it changes",
  },
  3: {
    sql: `DROP INDEX IF EXISTS ${EDGES_IN_INDEX};\n${EDGES_IN}\n${EDGES_AGENT}`,
    // Indexes, not a rewrite: one read of the edges table (about 0.1 s per 100k edges).
    instant: true,
    what: "the edges' in-index holds each edge's source and agent-written edges are indexed apart, so impact reads a level of its walk from indexes alone",
  },
};

/** `PRAGMA application_id` of every drsg database: "drsg" in ASCII. */
export const APPLICATION_ID = 0x64727367;

/**
 * The DDL of a fresh database. `since` is the commit that wrote a live row; history rows were
 * current from `since` (inclusive) to `until` (exclusive). Ids use AUTOINCREMENT so a deleted
 * node's id is never handed out again (history and as-of reads rely on that).
 */
export const DDL = `
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

CREATE TABLE commits (
  seq INTEGER PRIMARY KEY,
  at  INTEGER NOT NULL
) STRICT;
CREATE INDEX commits_at ON commits (at, seq);

CREATE TABLE planes (
  id    INTEGER PRIMARY KEY AUTOINCREMENT,
  name  TEXT NOT NULL UNIQUE,
  props TEXT NOT NULL,
  since INTEGER NOT NULL
) STRICT;

CREATE TABLE plane_hist (
  id    INTEGER NOT NULL,
  name  TEXT NOT NULL,
  props TEXT NOT NULL,
  since INTEGER NOT NULL,
  until INTEGER NOT NULL
) STRICT;
CREATE INDEX plane_hist_name ON plane_hist (name, since);
CREATE INDEX plane_hist_until ON plane_hist (until);

CREATE TABLE nodes (
  id     INTEGER PRIMARY KEY AUTOINCREMENT,
  plane  INTEGER NOT NULL,
  key    TEXT NOT NULL,
  label  TEXT NOT NULL,
  labels TEXT NOT NULL,
  name   TEXT NOT NULL,
  props  TEXT NOT NULL,
  since  INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX nodes_key ON nodes (plane, key);
CREATE INDEX nodes_name ON nodes (plane, name);
CREATE INDEX nodes_label ON nodes (plane, label);
${NODES_FILE}

CREATE TABLE node_hist (
  id     INTEGER NOT NULL,
  plane  INTEGER NOT NULL,
  key    TEXT NOT NULL,
  label  TEXT NOT NULL,
  labels TEXT NOT NULL,
  name   TEXT NOT NULL,
  props  TEXT NOT NULL,
  since  INTEGER NOT NULL,
  until  INTEGER NOT NULL
) STRICT;
CREATE INDEX node_hist_id ON node_hist (id, since);
CREATE INDEX node_hist_key ON node_hist (plane, key);
CREATE INDEX node_hist_name ON node_hist (plane, name);
CREATE INDEX node_hist_label ON node_hist (plane, label);
CREATE INDEX node_hist_until ON node_hist (until);

CREATE TABLE edges (
  id    INTEGER PRIMARY KEY AUTOINCREMENT,
  plane INTEGER NOT NULL,
  type  TEXT NOT NULL,
  src   INTEGER NOT NULL,
  dst   INTEGER NOT NULL,
  props TEXT NOT NULL,
  since INTEGER NOT NULL
) STRICT;
CREATE INDEX edges_out ON edges (plane, src, type);
${EDGES_IN}
${EDGES_AGENT}

CREATE TABLE edge_hist (
  id    INTEGER NOT NULL,
  plane INTEGER NOT NULL,
  type  TEXT NOT NULL,
  src   INTEGER NOT NULL,
  dst   INTEGER NOT NULL,
  props TEXT NOT NULL,
  since INTEGER NOT NULL,
  until INTEGER NOT NULL
) STRICT;
CREATE INDEX edge_hist_out ON edge_hist (plane, src, type);
CREATE INDEX edge_hist_in ON edge_hist (plane, dst, type);
CREATE INDEX edge_hist_until ON edge_hist (until);

-- Current state only; rowid = node id. Contentless: the text lives in nodes, not twice.
CREATE VIRTUAL TABLE nodes_fts USING fts5 (
  name, key, signature, doc_comment,
  content = '', contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2'
);

${PARTIAL_CACHE}
`;

/** Indexes reads depend on by name (INDEXED BY, or a plan without a scan), with their DDL (idempotent): openStore puts back one that is missing. */
export const REQUIRED_INDEXES: readonly { name: string; ddl: string }[] = [
  { name: NODES_FILE_INDEX, ddl: NODES_FILE },
  { name: EDGES_IN_INDEX, ddl: EDGES_IN },
  { name: EDGES_AGENT_INDEX, ddl: EDGES_AGENT },
];

/** meta keys. `floor` is the oldest commit still readable as-of (0 until anything is reclaimed). */
export const META_FLOOR = "floor";
