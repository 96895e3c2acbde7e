// The facts drsg stores: nodes, edges and their property values. Types only.

/** A property value: JSON-like, plus lists and maps (vectors are number lists). */
export type PropValue = null | boolean | number | string | PropValue[] | { [k: string]: PropValue };
export type Props = Record<string, PropValue>;

/** A node as a code fact: identified by its key inside a plane. */
export interface NodeFact {
  key: string;
  /** One or more labels; the first is primary. */
  labels: string[];
  props: Props;
}

/** An edge as a code fact: endpoints named by key. At most one edge per (src, type, dst). */
export interface EdgeFact {
  type: string;
  src: string;
  dst: string;
  props: Props;
}

export interface Facts {
  nodes: NodeFact[];
  edges: EdgeFact[];
}

/** Labels code facts use (DESIGN §4). */
export const LABELS = [
  "Module",
  "File",
  "Function",
  "Method",
  "Class",
  "Interface",
  "Struct",
  "Enum",
  "Trait",
  "TypeAlias",
  "Const",
  "Var",
  "Field",
  "UnresolvedRef",
  "External",
] as const;
export type Label = (typeof LABELS)[number];

/** Edge types code facts use (DESIGN §4); MACRO is Rust's macro invocation. */
export const EDGE_TYPES = [
  "CONTAINS",
  "CALLS",
  "REFERENCES",
  "INSTANTIATES",
  "IMPORTS",
  "EXTENDS",
  "IMPLEMENTS",
  "USES_TYPE",
  "INVOKES_MACRO",
] as const;
export type EdgeType = (typeof EDGE_TYPES)[number];

/** True for provenance properties (`_generated_by`, `_resolved_by`, ...): hidden and ignored in change detection. */
export function isProvenance(prop: string): boolean {
  return prop.startsWith("_");
}

/**
 * The last segment of a key, used for name matching: after the last `.`, `::`, `/` or `#`,
 * without a trailing overload suffix such as `(2)` (Java overloads keyed by arity).
 */
export function keyName(key: string): string {
  key = key.replace(/\([^()]*\)$/, "");
  const m = /(?:::|[./#])([^./#:]*)$/.exec(key);
  const tail = m ? m[1]! : key;
  return tail === "" ? key : tail;
}
