// The grammar of each clause, as a parse error shows it: only the clauses the statement reached
// for, so the hint stays short enough to read and act on.

export const CLAUSE_GRAMMAR: Record<string, string> = {
  MATCH: [
    "[OPTIONAL] MATCH pattern [, pattern …] [WHERE condition]",
    "  pattern   = (n:Label {prop: value}) -[r:TYPE|OTHER *min..max {prop: value}]-> (m)",
    "              directions: -[]->  <-[]-  -[]- ; `*1..3` is variable length (at most 6 hops)",
  ].join("\n"),
  WHERE: [
    "WHERE condition",
    "  condition = expr (= <> < > <= >=) expr | expr IN [list] | expr STARTS WITH / ENDS WITH / CONTAINS 'text'",
    "              | expr =~ 'regex' (RE2 syntax, whole string) | expr IS [NOT] NULL | n:Label",
    "              | exists(n.prop) | exists((n)-[:TYPE]->()) | NOT c | c AND c | c OR c | c XOR c",
  ].join("\n"),
  RETURN: [
    "RETURN [DISTINCT] expr [AS alias] [, …] | *  [ORDER BY expr [ASC|DESC] [, …]] [SKIP n] [LIMIT n]",
    "  aggregates: count(*) count([DISTINCT] e) collect(e) min(e) max(e) sum(e) avg(e)",
    "  functions: labels(n) type(r) id(n) keys(n) properties(n) size(e) length(e) toLower(s) toUpper(s)",
    "             coalesce(a, b, …) toString(e) toInteger(e) toFloat(e) startNode(r) endNode(r) head(l) last(l) range(a, b)",
  ].join("\n"),
  WITH: "WITH [DISTINCT] expr [AS alias] [, …] | *  [ORDER BY …] [SKIP n] [LIMIT n] [WHERE condition]",
  UNWIND: "UNWIND list AS name",
  CREATE: [
    "CREATE (n:Label {key: 'unique key', prop: value}) [-[:TYPE {prop: value}]-> (m) …] [, pattern …]",
    "  a new node needs a label and a `key` (unique in the plane); a relationship needs one type and a direction",
  ].join("\n"),
  MERGE: "MERGE pattern [ON CREATE SET item, …] [ON MATCH SET item, …]   (match the whole pattern, or create it)",
  SET: "SET n.prop = expr | n = {map} | n += {map} | n:Label [, …]   (null removes a property; `_` properties are reserved)",
  REMOVE: "REMOVE n.prop | n:Label [, …]   (needs confirm: true)",
  DELETE: "[DETACH] DELETE n | r [, …]   (needs confirm: true; DETACH also deletes the node's relationships)",
  "AS OF": "… AS OF <commit sequence> | AS OF \"<RFC 3339 time>\"   (last thing in a read statement)",
};

export const CLAUSE_LIST =
  "a statement is clauses in order: [OPTIONAL] MATCH, WHERE, UNWIND, WITH, CREATE, MERGE, SET, REMOVE, [DETACH] DELETE, then RETURN (or a write with no RETURN), optionally ending in AS OF";

/** The grammar block of a parse error: the clauses reached, in order, each once. */
export function grammarFor(clauses: string[]): string {
  const seen = [...new Set(clauses)].filter((c) => CLAUSE_GRAMMAR[c] !== undefined);
  if (seen.length === 0) return `grammar:\n${CLAUSE_LIST}`;
  return `grammar:\n${seen.map((c) => CLAUSE_GRAMMAR[c]).join("\n")}`;
}
