// The syntax tree of a statement. Expressions are shared by cypher and the `query` plan (whose
// steps carry expressions written in the same syntax).

export type Expr =
  | { k: "lit"; v: null | boolean | number | string; float?: boolean }
  | { k: "param"; name: string }
  | { k: "var"; name: string }
  | { k: "prop"; of: Expr; key: string }
  | { k: "index"; of: Expr; idx: Expr }
  | { k: "list"; items: Expr[] }
  | { k: "map"; entries: [string, Expr][] }
  | { k: "bin"; op: BinOp; l: Expr; r: Expr }
  | { k: "not"; e: Expr }
  | { k: "neg"; e: Expr }
  | { k: "isnull"; e: Expr; not: boolean }
  | { k: "haslabel"; e: Expr; labels: string[] }
  | { k: "call"; name: string; args: Expr[]; distinct: boolean; star: boolean }
  | { k: "case"; subject?: Expr; whens: [Expr, Expr][]; else?: Expr }
  | { k: "exists"; pattern: PathPattern };

export type BinOp =
  | "OR"
  | "XOR"
  | "AND"
  | "="
  | "<>"
  | "<"
  | ">"
  | "<="
  | ">="
  | "+"
  | "-"
  | "*"
  | "/"
  | "%"
  | "^"
  | "IN"
  | "STARTS WITH"
  | "ENDS WITH"
  | "CONTAINS"
  | "=~";

export interface NodePattern {
  var?: string;
  labels: string[];
  props?: [string, Expr][];
}

export type Direction = "out" | "in" | "both";

export interface RelPattern {
  var?: string;
  types: string[];
  dir: Direction;
  props?: [string, Expr][];
  /** Set for a variable-length relationship: hop bounds (max undefined: unbounded as written). */
  range?: { min: number; max?: number };
}

/** n0 -r0- n1 -r1- n2 …: rels.length === nodes.length - 1. */
export interface PathPattern {
  nodes: NodePattern[];
  rels: RelPattern[];
}

export interface ProjItem {
  expr: Expr;
  alias: string;
}

export interface SortItem {
  expr: Expr;
  desc: boolean;
}

export interface Projection {
  star: boolean;
  distinct: boolean;
  items: ProjItem[];
  order: SortItem[];
  skip?: Expr;
  limit?: Expr;
}

export type SetItem =
  | { k: "prop"; target: Expr; key: string; value: Expr }
  | { k: "props"; var: string; value: Expr; merge: boolean }
  | { k: "labels"; var: string; labels: string[] };

export type RemoveItem = { k: "prop"; target: Expr; key: string } | { k: "labels"; var: string; labels: string[] };

export type Clause =
  | { k: "match"; optional: boolean; patterns: PathPattern[]; where?: Expr; line: number; col: number }
  | { k: "unwind"; expr: Expr; as: string }
  | ({ k: "with"; where?: Expr } & Projection)
  | ({ k: "return" } & Projection)
  | { k: "create"; patterns: PathPattern[] }
  | { k: "merge"; pattern: PathPattern; onCreate: SetItem[]; onMatch: SetItem[] }
  | { k: "set"; items: SetItem[] }
  | { k: "remove"; items: RemoveItem[] }
  | { k: "delete"; detach: boolean; exprs: Expr[] };

export interface Statement {
  clauses: Clause[];
  asOf?: { seq: number } | { time: string };
}

export const WRITE_CLAUSES = new Set(["create", "merge", "set", "remove", "delete"]);
