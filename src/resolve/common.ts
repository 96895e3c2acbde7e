// Building blocks every resolver family uses: definition nodes with their standard
// properties, de-duplicated edges, UnresolvedRef and External stand-ins, and the statistics
// the digest report prints. Output is sorted, so facts never depend on input order.
import type { EdgeFact, Facts, NodeFact, Props } from "../model/facts.js";
import type { Def, DefKind, Partial, Ref } from "../model/partial.js";
import type { ResolveOutput, ResolveStats } from "./types.js";

export const LABEL_OF_KIND: Record<DefKind, string> = {
  function: "Function",
  method: "Method",
  constructor: "Method",
  getter: "Method",
  setter: "Method",
  class: "Class",
  interface: "Interface",
  struct: "Struct",
  enum: "Enum",
  trait: "Trait",
  type: "TypeAlias",
  constant: "Const",
  variable: "Var",
  field: "Field",
  module: "Module",
  macro: "Function",
  union: "Struct",
};

/** The standard properties of a definition node (DESIGN §4). */
export function defProps(p: Partial, d: Def): Props {
  const props: Props = { file: p.path, line: d.line, end_line: d.endLine };
  if (d.signature) props.signature = d.signature;
  if (d.doc) props.doc_comment = d.doc;
  if (d.visibility) props.visibility = d.visibility;
  if (d.isAsync) props.is_async = true;
  if (d.isStatic) props.is_static = true;
  if (d.returns) props.returns = d.returns;
  if (d.type) props.type = d.type;
  if (d.decorators && d.decorators.length > 0) props.decorators = d.decorators;
  if (d.kind === "constructor" || d.kind === "getter" || d.kind === "setter") props.kind = d.kind;
  return props;
}

export type Confidence = "high" | "medium";

export class FactBuilder {
  private readonly nodes = new Map<string, NodeFact>();
  /** src → type → dst → edge. */
  private readonly edges = new Map<string, Map<string, Map<string, EdgeFact>>>();
  readonly notes: string[] = [];
  readonly stats: ResolveStats = { resolved: 0, unresolved: 0, reasons: {} };
  private collisions = 0;
  /** Keys of nodes kept from an earlier resolution (ResolveInput.emit): present, not emitted. */
  private readonly assumed = new Set<string>();
  /** Edges that carry `sites`, normalised by finish(). */
  private readonly sited: EdgeFact[] = [];

  /**
   * Count `key` as a node that exists without emitting it (a file the caller keeps the facts of):
   * it takes part in collisions and edges may reach it, exactly as if node() had been called.
   */
  assume(key: string): void {
    const prior = this.nodes.get(key);
    if (prior && (prior.labels.includes("External") || prior.labels.includes("UnresolvedRef"))) this.nodes.delete(key);
    else if (prior || this.assumed.has(key)) {
      this.collisions++;
      return;
    }
    this.assumed.add(key);
  }

  /** Add a node; a key already present keeps the first and counts a collision. Returns false on collision. */
  node(key: string, labels: string[], props: Props): boolean {
    if (this.assumed.has(key)) {
      this.collisions++;
      return false;
    }
    const prior = this.nodes.get(key);
    if (prior) {
      if (prior.labels.includes("External") || prior.labels.includes("UnresolvedRef")) {
        this.nodes.set(key, { key, labels, props });
        return true;
      }
      this.collisions++;
      return false;
    }
    this.nodes.set(key, { key, labels, props });
    return true;
  }

  has(key: string): boolean {
    return this.nodes.has(key) || this.assumed.has(key);
  }

  get(key: string): NodeFact | undefined {
    return this.nodes.get(key);
  }

  /**
   * Add an edge; one edge per (src, type, dst). A `col` in `props` makes the edge a reference
   * with sites: every (line, col) it is written at is kept (finish() sorts and de-duplicates
   * them into `sites`, `count` is their number when above one); `line` and the other props are
   * the earliest site's. `col` itself is not stored.
   */
  edge(type: string, src: string, dst: string, props: Props = {}): void {
    if (typeof props.col === "number") {
      const { col, ...rest } = props;
      this.put(type, src, dst, rest, true, col as number);
    } else this.put(type, src, dst, props, false);
  }

  /** edge(), with `own` true when `props` is a fresh object the builder may keep as it is. */
  private put(type: string, src: string, dst: string, props: Props, own: boolean, col?: number): void {
    // src → type → dst: lookups with the caller's own key strings (their hashes are cached), no
    // concatenated id built and hashed per site.
    let byType = this.edges.get(src);
    if (byType === undefined) {
      byType = new Map();
      this.edges.set(src, byType);
    }
    let byDst = byType.get(type);
    if (byDst === undefined) {
      byDst = new Map();
      byType.set(type, byDst);
    }
    const line = props.line;
    const prior = byDst.get(dst);
    if (prior === undefined) {
      const e: EdgeFact = { type, src, dst, props: own ? props : { ...props } };
      if (col !== undefined && typeof line === "number") {
        e.props.sites = [[line, col]];
        this.sited.push(e);
      }
      byDst.set(dst, e);
      return;
    }
    const priorLine = prior.props.line;
    if (typeof line === "number") {
      const count = (typeof prior.props.count === "number" ? prior.props.count : 1) + 1;
      const sites = prior.props.sites;
      if (col !== undefined && Array.isArray(sites)) sites.push([line, col]);
      if (typeof priorLine !== "number" || line < priorLine) {
        // Keep the earliest site's own description, so the result is order-independent.
        prior.props = { ...props, count };
        if (Array.isArray(sites)) prior.props.sites = sites;
      } else prior.props.count = count;
    }
  }

  /** A bound reference (CALLS / INSTANTIATES / REFERENCES / USES_TYPE ...) from `src` to `dst`. */
  bound(type: string, src: string, dst: string, ref: Ref, by: string, confidence: Confidence = "high"): void {
    if (ref.kind === "call" || ref.kind === "new") this.stats.resolved++;
    this.put(type, src, dst, { line: ref.line, _ref: ref.text, _resolved_by: by, _confidence: confidence }, true, ref.col);
  }

  /** An External stand-in for code outside the tree, keyed by what was written (`npm:express/Router`). */
  external(key: string): string {
    if (!this.has(key)) this.nodes.set(key, { key, labels: ["External"], props: {} });
    return key;
  }

  /** A call / new that the source does not prove: CALLS to an UnresolvedRef with a reason. */
  unresolved(src: string, file: string, ref: Ref, reason: string): void {
    const written = ref.text || ref.name || "<dynamic>";
    const key = `?::${file}::${written}`;
    if (!this.has(key))
      this.nodes.set(key, { key, labels: ["UnresolvedRef"], props: { name: ref.name || written, file } });
    this.stats.unresolved++;
    this.stats.reasons[reason] = (this.stats.reasons[reason] ?? 0) + 1;
    this.put("CALLS", src, key, { line: ref.line, _ref: ref.text, _reason: reason }, true, ref.col);
  }

  /** Sorted facts, edges whose endpoints exist only. */
  finish(): ResolveOutput {
    for (const e of this.sited) normaliseSites(e.props);
    if (this.collisions > 0) this.notes.push(`${this.collisions} definition key collision(s): the first kept`);
    const nodes = [...this.nodes.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    let dropped = 0;
    // Sorted by (src, type, dst) group by group: sources sorted once, each source's few edges after.
    const edges: EdgeFact[] = [];
    const srcs = [...this.edges.keys()].sort(byString);
    for (const src of srcs) {
      const byType = this.edges.get(src)!;
      const srcOk = this.has(src);
      const types = byType.size === 1 ? [...byType.keys()] : [...byType.keys()].sort(byString);
      for (const type of types) {
        const byDst = byType.get(type)!;
        const dsts = byDst.size === 1 ? [...byDst.keys()] : [...byDst.keys()].sort(byString);
        for (const dst of dsts) {
          if (!srcOk || !this.has(dst)) {
            dropped++;
            continue;
          }
          edges.push(byDst.get(dst)!);
        }
      }
    }
    if (dropped > 0) this.notes.push(`${dropped} edge(s) dropped: an endpoint was not a fact`);
    const facts: Facts = { nodes, edges };
    // Every edge object and props map was made here (put() copies what a caller hands in).
    return { facts, stats: this.stats, notes: this.notes, freshEdges: true };
  }
}

/**
 * `sites` sorted by (line, col) and de-duplicated (one site matched by two query patterns is one
 * site); `count` is their number when there is more than one. Edges without a column at some
 * site (an older partial) keep the count they were given.
 */
function normaliseSites(props: Props): void {
  const sites = props.sites as [number, number][];
  if (sites.length === 1) {
    delete props.count;
    return;
  }
  sites.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let w = 1;
  for (let i = 1; i < sites.length; i++) {
    const s = sites[i]!;
    const p = sites[w - 1]!;
    if (s[0] !== p[0] || s[1] !== p[1]) sites[w++] = s;
  }
  sites.length = w;
  if (w > 1) props.count = w;
  else delete props.count;
}

function byString(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareEdges(a: EdgeFact, b: EdgeFact): number {
  if (a.src !== b.src) return a.src < b.src ? -1 : 1;
  if (a.type !== b.type) return a.type < b.type ? -1 : 1;
  if (a.dst !== b.dst) return a.dst < b.dst ? -1 : 1;
  return 0;
}

/** Definitions of a partial that are visible at `scope` (itself or an ancestor), innermost first. */
export function scopeChain(p: Partial, scope: number): number[] {
  const out: number[] = [];
  let s = scope;
  while (s >= 0) {
    out.push(s);
    s = p.defs[s]!.parent;
  }
  return out;
}
