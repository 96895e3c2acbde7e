// The small graph the cypher corpus runs on, loaded the same way into a drsg plane and into a
// Kùzu database (typed node tables, one per label, all with the same columns; one relationship
// table per type with the label pairs it connects).
import type { Writer } from "../../src/store/types.js";

export interface FNode {
  key: string;
  label: string;
  props: Record<string, string | number | boolean | null>;
}
export interface FEdge {
  type: string;
  src: string;
  dst: string;
  line: number;
}

const fn = (key: string, name: string, file: string | null, line: number | null, loc: number | null, exported: boolean | null): FNode => ({
  key,
  label: "Function",
  props: { name, file, line, loc, exported },
});

export const NODES: FNode[] = [
  { key: "m/app", label: "Module", props: { name: "app", path: "src/app" } },
  { key: "m/lib", label: "Module", props: { name: "lib", path: "src/lib" } },
  { key: "c/Cart", label: "Class", props: { name: "Cart", file: "src/cart.ts", line: 1, exported: true } },
  { key: "c/Store", label: "Class", props: { name: "Store", file: "src/store.ts", line: 3, exported: false } },
  fn("f/main", "main", "src/app.ts", 1, 10, true),
  fn("f/add", "add", "src/cart.ts", 5, 4, true),
  fn("f/remove", "remove", "src/cart.ts", 12, 6, false),
  fn("f/save", "save", "src/store.ts", 8, 20, true),
  fn("f/load", "load", "src/store.ts", 30, null, false),
  fn("f/helper", "helper", "src/util.ts", 2, 3, null),
  fn("f/getName", "getName", "src/util.ts", 9, 2, true),
  fn("f/lonely", "lonely", null, null, null, null),
];

export const EDGES: FEdge[] = [
  { type: "CALLS", src: "f/main", dst: "f/add", line: 2 },
  { type: "CALLS", src: "f/main", dst: "f/save", line: 3 },
  { type: "CALLS", src: "f/add", dst: "f/save", line: 6 },
  { type: "CALLS", src: "f/add", dst: "f/helper", line: 7 },
  { type: "CALLS", src: "f/remove", dst: "f/helper", line: 13 },
  { type: "CALLS", src: "f/save", dst: "f/load", line: 9 },
  { type: "CALLS", src: "f/load", dst: "f/helper", line: 31 },
  { type: "CALLS", src: "f/helper", dst: "f/getName", line: 3 },
  { type: "CALLS", src: "f/getName", dst: "f/helper", line: 10 },
  { type: "CONTAINS", src: "m/app", dst: "f/main", line: 1 },
  { type: "CONTAINS", src: "m/lib", dst: "c/Cart", line: 1 },
  { type: "CONTAINS", src: "m/lib", dst: "c/Store", line: 3 },
  { type: "CONTAINS", src: "c/Cart", dst: "f/add", line: 5 },
  { type: "CONTAINS", src: "c/Cart", dst: "f/remove", line: 12 },
  { type: "CONTAINS", src: "c/Store", dst: "f/save", line: 8 },
  { type: "CONTAINS", src: "c/Store", dst: "f/load", line: 30 },
  { type: "CONTAINS", src: "m/lib", dst: "f/helper", line: 2 },
  { type: "CONTAINS", src: "m/lib", dst: "f/getName", line: 9 },
  { type: "REFERENCES", src: "f/main", dst: "c/Cart", line: 2 },
  { type: "REFERENCES", src: "f/save", dst: "c/Store", line: 8 },
  { type: "REFERENCES", src: "f/add", dst: "c/Cart", line: 5 },
  { type: "IMPORTS", src: "m/app", dst: "m/lib", line: 1 },
];

export const LABELS = ["Module", "Class", "Function", "Note"];
const COLUMNS = "key STRING PRIMARY KEY, name STRING, file STRING, line INT64, loc INT64, exported BOOLEAN, path STRING, text STRING, n INT64";

/** Kùzu DDL and data statements for the fixture. */
export function kuzuSetup(): string[] {
  const out = LABELS.map((l) => `CREATE NODE TABLE ${l}(${COLUMNS})`);
  const pairs = new Map<string, Set<string>>();
  const labelOf = new Map(NODES.map((n) => [n.key, n.label]));
  for (const e of EDGES) {
    const s = pairs.get(e.type) ?? new Set();
    s.add(`FROM ${labelOf.get(e.src)} TO ${labelOf.get(e.dst)}`);
    pairs.set(e.type, s);
  }
  // Notes (made by write statements) may link to anything.
  for (const s of pairs.values()) for (const l of LABELS) s.add(`FROM Note TO ${l}`);
  pairs.set("ANNOTATES", new Set(LABELS.map((l) => `FROM Note TO ${l}`)));
  for (const [t, s] of pairs) out.push(`CREATE REL TABLE ${t}(${[...s].join(", ")}, line INT64, weight INT64)`);
  for (const n of NODES) {
    const props = Object.entries({ key: n.key, ...n.props })
      .filter(([, v]) => v !== null)
      .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
      .join(", ");
    out.push(`CREATE (:${n.label} {${props}})`);
  }
  for (const e of EDGES)
    out.push(`MATCH (a:${labelOf.get(e.src)} {key: ${JSON.stringify(e.src)}}), (b:${labelOf.get(e.dst)} {key: ${JSON.stringify(e.dst)}}) CREATE (a)-[:${e.type} {line: ${e.line}}]->(b)`);
  return out;
}

/** Write the fixture into plane `plane` (created here); node ids by key. */
export function drsgSetup(w: Writer, plane: string, planeProps: Record<string, string> = {}): Map<string, number> {
  w.createPlane(plane, planeProps);
  const ids = new Map<string, number>();
  for (const n of NODES) {
    const props = Object.fromEntries(Object.entries(n.props).filter(([, v]) => v !== null));
    ids.set(n.key, w.createNode(plane, { key: n.key, labels: [n.label], props }));
  }
  for (const e of EDGES) w.createEdge(plane, { type: e.type, src: ids.get(e.src)!, dst: ids.get(e.dst)!, props: { line: e.line } });
  return ids;
}
