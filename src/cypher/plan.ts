// The logical plan both `cypher` and `query` run: a pipeline of steps over rows of bindings.
// cypher's planner compiles a statement into it; the `query` tool's JSON compiles into the same
// steps (src/tools/query.ts), so one executor answers both.
import type { Direction, Expr, PathPattern, ProjItem, RemoveItem, SetItem, SortItem } from "./ast.js";

export interface Agg {
  /** The hidden variable the aggregate's value is bound to before the items are evaluated. */
  slot: string;
  fn: string;
  arg?: Expr;
  distinct: boolean;
  star: boolean;
}

export type Op =
  /** Bind `var` to each node with all `labels` and the property values (key/label indexes used). */
  | {
      op: "scan";
      var: string;
      labels: string[];
      props: [string, Expr][];
      /** Set when the plan reads only these properties of `var` (and its id/labels): the scan reads no more. */
      only?: string[];
    }
  /** Bind `from`, `rel`, `to` to each relationship of `types` (one pass over the plane's edges). */
  | { op: "edgescan"; from: string; rel: string; to: string; types: string[]; dir: Direction; relProps: [string, Expr][]; uniq: string }
  /** From bound `from`, follow relationships (edges by endpoint and type); `to` bound already means "must end there". */
  | {
      op: "expand";
      from: string;
      rel: string;
      to: string;
      types: string[];
      dir: Direction;
      relProps: [string, Expr][];
      range?: { min: number; max: number };
      toBound: boolean;
      uniq: string;
    }
  | { op: "filter"; where: Expr }
  /** Rows of the inner steps, or the input row with `binds` set to null when they have none. */
  | { op: "optional"; ops: Op[]; binds: string[] }
  | { op: "unwind"; expr: Expr; as: string }
  /** A projection; with `aggs`, rows are grouped by the items at `keys` (items refer to slots). */
  | {
      op: "project";
      items: ProjItem[];
      distinct: boolean;
      keepPrev: boolean;
      aggs: Agg[];
      keys: number[];
      /**
       * Set when the plan is MATCH (n:Label) RETURN [n.a, n.b, …,] count(…): the store counts the
       * label's nodes (per tuple of the `props` the items at `keys` read), the input is not read.
       */
      labelCount?: { label: string; props: string[] };
    }
  | { op: "order"; items: SortItem[] }
  | { op: "skip"; n: Expr }
  | { op: "limit"; n: Expr }
  | { op: "create"; patterns: PathPattern[] }
  | { op: "merge"; pattern: PathPattern; match: Op[]; onCreate: SetItem[]; onMatch: SetItem[] }
  | { op: "set"; items: SetItem[] }
  | { op: "remove"; items: RemoveItem[] }
  | { op: "delete"; detach: boolean; exprs: Expr[] };

export interface Plan {
  ops: Op[];
  /** Output columns (empty for a statement with no RETURN). */
  columns: string[];
  writes: boolean;
  /** Things the planner decided that the answer should say (an unbounded `*` read as ≤ 6 hops). */
  notes: string[];
}

/** The most hops a variable-length relationship may take. */
export const MAX_HOPS = 6;
