// Keyword search text: what a node contributes to the FTS5 index, and how a user's query is
// turned into an FTS5 expression that cannot be a syntax error. The tokenisation is versioned:
// a database indexed by another version has its FTS rows rebuilt when it is opened.

import type Database from "better-sqlite3";
import type { PropValue } from "../model/facts.js";
import { keyName } from "../model/facts.js";

/**
 * The version of what ftsName / ftsKey / ftsText index. Bump it whenever their output changes:
 * openStore then rebuilds every FTS row (ensureFtsTokens). 2: identifiers inside signatures and
 * doc comments are split into words too (`createHTTPServer` → create HTTP Server).
 */
export const FTS_TOKENS = 2;
const META_FTS = "fts_tokens";

/** The words of an identifier: `parseHTTPRequest` → `parse HTTP Request`, `HTTP2Server` → `HTTP2 Server`. */
function identWords(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/_+/g, " ");
}

/** Mixed-case or snake_case identifiers in a text: those whose words differ from the identifier. */
const COMPOUND = /[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+|[A-Za-z0-9]*[a-z0-9][A-Z][A-Za-z0-9]*|[A-Z]{2,}[a-z][A-Za-z0-9]*/g;

/** The indexed `name` column: the key's last segment, plus its camelCase words when they differ. */
export function ftsName(key: string): string {
  const name = keyName(key);
  const words = identWords(name);
  return words === name ? name : `${name} ${words}`;
}

/** The indexed `key` column: the key, plus the camelCase words of its segments when they differ. */
export function ftsKey(key: string): string {
  const words = identWords(key);
  return words === key ? key : `${key} ${words}`;
}

/**
 * A string property as FTS text (non-strings are not indexed), followed by the words of each
 * compound identifier in it, so `search HTTP` finds a signature naming `parseHTTPHeader`.
 */
export function ftsText(v: PropValue | undefined): string | null {
  if (typeof v !== "string") return null;
  const extra = new Set<string>();
  for (const m of v.matchAll(COMPOUND)) {
    if (extra.size >= 64) break;
    const w = identWords(m[0]);
    if (w !== m[0]) extra.add(w);
  }
  return extra.size === 0 ? v : `${v}\n${[...extra].join(" ")}`;
}

/**
 * Rebuild the FTS rows of every current node when the database was indexed by another
 * tokenisation (FTS_TOKENS), in one transaction; a fresh database only records the version.
 * Returns how many rows were rebuilt. The graph itself is not touched.
 */
export function ensureFtsTokens(db: Database.Database, fresh: boolean): number {
  const row = db.prepare("SELECT value FROM meta WHERE key = ?").get(META_FTS) as { value: string } | undefined;
  if (row?.value === String(FTS_TOKENS)) return 0;
  let n = 0;
  db.exec("BEGIN IMMEDIATE");
  try {
    if (!fresh) {
      db.prepare("INSERT INTO nodes_fts (nodes_fts) VALUES ('delete-all')").run();
      const insert = db.prepare("INSERT INTO nodes_fts (rowid, name, key, signature, doc_comment) VALUES (?, ?, ?, ?, ?)");
      // In chunks by id: better-sqlite3 cannot write while a statement is being iterated.
      const chunk = db.prepare(
        "SELECT id, key, json_extract(props, '$.signature') AS signature, json_extract(props, '$.doc_comment') AS doc " +
          "FROM nodes WHERE id > ? ORDER BY id LIMIT 5000",
      );
      for (let after = 0; ; ) {
        const rows = chunk.all(after) as { id: number; key: string; signature: unknown; doc: unknown }[];
        if (rows.length === 0) break;
        for (const r of rows) {
          const sig = typeof r.signature === "string" ? r.signature : undefined;
          const doc = typeof r.doc === "string" ? r.doc : undefined;
          insert.run(r.id, ftsName(r.key), ftsKey(r.key), ftsText(sig), ftsText(doc));
        }
        n += rows.length;
        after = rows[rows.length - 1]!.id;
      }
    }
    db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(
      META_FTS,
      String(FTS_TOKENS),
    );
    db.exec("COMMIT");
  } catch (e) {
    db.exec("ROLLBACK");
    throw e;
  }
  return n;
}

/** At most this many terms of a query are used. */
const MAX_TERMS = 16;

/**
 * The FTS5 expressions for a free-text query: every term quoted (so `"`, `*`, `:`, `(`, `NEAR`,
 * `AND` … are just text) and prefix-matched. `all` needs every term; `any` needs one.
 * Undefined when the query holds no word characters.
 */
export function ftsQuery(query: string): { all: string; any: string; terms: number } | undefined {
  const terms = [...new Set(query.match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, MAX_TERMS);
  if (terms.length === 0) return undefined;
  const quoted = terms.map((t) => `"${t}"*`);
  return { all: quoted.join(" AND "), any: quoted.join(" OR "), terms: terms.length };
}
