// Keyword search text: what a node contributes to the FTS5 index, and how a user's query is
// turned into an FTS5 expression that cannot be a syntax error.

import type { PropValue } from "../model/facts.js";
import { keyName } from "../model/facts.js";

/** The words of an identifier: `parseHTTPRequest` → `parse HTTP Request`. */
function identWords(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/_+/g, " ");
}

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

/** A string property as FTS text (non-strings are not indexed). */
export function ftsText(v: PropValue | undefined): string | null {
  return typeof v === "string" ? v : null;
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
