// Runtime values of the executor: property values plus nodes and relationships (by identity),
// with openCypher's null-propagating equality, its comparability rules, and a total order for
// ORDER BY (nulls last ascending, first descending).
import { DrsgError } from "../model/errors.js";
import { keyName, type Props, type PropValue } from "../model/facts.js";

/** A node as the executor holds it: one object per node id per statement, so SET is seen by every row. */
export class NodeV {
  constructor(
    readonly id: number,
    readonly key: string,
    public labels: string[],
    public props: Props,
  ) {}
}

export class RelV {
  constructor(
    readonly id: number,
    readonly type: string,
    readonly src: number,
    readonly dst: number,
    public props: Props,
  ) {}
}

export type Value = null | boolean | number | string | Value[] | { [k: string]: Value } | NodeV | RelV;

export type Row = Record<string, Value>;

export function isMap(v: Value): v is { [k: string]: Value } {
  return v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof NodeV) && !(v instanceof RelV);
}

export function typeName(v: Value): string {
  if (v === null) return "null";
  if (v instanceof NodeV) return "node";
  if (v instanceof RelV) return "relationship";
  if (Array.isArray(v)) return "list";
  if (typeof v === "object") return "map";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "float";
  return typeof v;
}

/**
 * Property `key` of a node, relationship or map. Two node properties have a stand-in when the
 * node has no property of that name: `key` is its external key, and `name` the key's last
 * segment (what the store's name index holds; code facts keep no `name` property).
 */
export function propOf(v: Value, key: string): Value | undefined {
  if (v instanceof NodeV) {
    const p = v.props[key];
    if (p !== undefined) return p as Value;
    return key === "key" ? v.key : key === "name" ? keyName(v.key) : null;
  }
  if (v instanceof RelV) return (v.props[key] as Value | undefined) ?? null;
  if (isMap(v)) return v[key] ?? null;
  if (v === null) return null;
  return undefined;
}

/** Ternary equality: null when either side is (or holds) null and nothing decides otherwise. */
export function equals(a: Value, b: Value): boolean | null {
  if (a === null || b === null) return null;
  if (a instanceof NodeV || b instanceof NodeV) return a instanceof NodeV && b instanceof NodeV && a.id === b.id;
  if (a instanceof RelV || b instanceof RelV) return a instanceof RelV && b instanceof RelV && a.id === b.id;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    let sawNull = false;
    for (let i = 0; i < a.length; i++) {
      const e = equals(a[i]!, b[i]!);
      if (e === false) return false;
      if (e === null) sawNull = true;
    }
    return sawNull ? null : true;
  }
  if (isMap(a) || isMap(b)) {
    if (!isMap(a) || !isMap(b)) return false;
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    if (ka.join("\u0000") !== kb.join("\u0000")) return false;
    let sawNull = false;
    for (const k of ka) {
      const e = equals(a[k]!, b[k]!);
      if (e === false) return false;
      if (e === null) sawNull = true;
    }
    return sawNull ? null : true;
  }
  return a === b;
}

/** `a < b` etc.: a number when comparable (numbers, strings, booleans, lists of those), else null. */
export function compare(a: Value, b: Value): number | null {
  if (a === null || b === null) return null;
  if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "boolean" && typeof b === "boolean") return a === b ? 0 : a ? 1 : -1;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = compare(a[i]!, b[i]!);
      if (c === null) return null;
      if (c !== 0) return c;
    }
    return a.length - b.length;
  }
  return null;
}

const RANK: Record<string, number> = { map: 0, node: 1, relationship: 2, list: 3, string: 4, boolean: 5, integer: 6, float: 6, null: 7 };

/** The total order of ORDER BY: values of one kind by `compare`, kinds by openCypher's ranking, null last. */
export function orderCompare(a: Value, b: Value): number {
  const ra = RANK[typeName(a)]!;
  const rb = RANK[typeName(b)]!;
  if (ra !== rb) return ra - rb;
  if (a instanceof NodeV && b instanceof NodeV) return a.id - b.id;
  if (a instanceof RelV && b instanceof RelV) return a.id - b.id;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = orderCompare(a[i]!, b[i]!);
      if (c !== 0) return c;
    }
    return a.length - b.length;
  }
  if (isMap(a) && isMap(b)) return keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0;
  return compare(a, b) ?? 0;
}

/** A string that is equal for equal values (DISTINCT, grouping keys); null is its own key. */
export function keyOf(v: Value): string {
  if (v === null) return "n";
  if (v instanceof NodeV) return `N${v.id}`;
  if (v instanceof RelV) return `R${v.id}`;
  if (Array.isArray(v)) return `[${v.map(keyOf).join(",")}]`;
  if (typeof v === "object") {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${keyOf(v[k]!)}`)
      .join(",")}}`;
  }
  if (typeof v === "number") return `d${v}`;
  if (typeof v === "string") return `s${JSON.stringify(v)}`;
  return `b${v}`;
}

/** A value as JSON: nodes and relationships become records with their identity and properties. */
export function toJson(v: Value): PropValue {
  if (v instanceof NodeV) return { id: v.id, key: v.key, labels: v.labels, properties: v.props };
  if (v instanceof RelV) return { id: v.id, type: v.type, src: v.src, dst: v.dst, properties: v.props };
  if (Array.isArray(v)) return v.map(toJson);
  if (isMap(v)) {
    const o: { [k: string]: PropValue } = {};
    for (const [k, x] of Object.entries(v)) o[k] = toJson(x);
    return o;
  }
  return v;
}

/** A value stored as a property: nodes and relationships cannot be. */
export function toProp(v: Value, what: string): PropValue {
  if (v instanceof NodeV || v instanceof RelV) throw new DrsgError("CYPHER_ERROR", `${what}: a ${typeName(v)} cannot be stored as a property value`);
  if (Array.isArray(v)) return v.map((x) => toProp(x, what));
  if (isMap(v)) {
    const o: { [k: string]: PropValue } = {};
    for (const [k, x] of Object.entries(v)) o[k] = toProp(x, what);
    return o;
  }
  return v;
}
