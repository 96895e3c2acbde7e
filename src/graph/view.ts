// Read-only graphology views of a plane, built once and rebuilt when the database moves on
// (any write bumps the commit sequence, so a fold is always seen). Traversals run here.
import { MultiDirectedGraph } from "graphology";
import type { Store } from "../store/types.js";

export interface NodeAttrs {
  key: string;
  label: string;
  file?: string;
  line?: number;
}

export interface EdgeAttrs {
  type: string;
  line?: number;
  reason?: string;
  /** How many sites the edge stands for (the resolver merges repeats of one src→dst). */
  count?: number;
  /** Every site's line, when the edge stands for sites on more than one line (sorted, distinct). */
  lines?: number[];
}

export type PlaneGraph = MultiDirectedGraph<NodeAttrs, EdgeAttrs>;

interface Cached {
  seq: number;
  graph: PlaneGraph;
}

export class GraphViews {
  private readonly cache = new Map<string, Cached>();
  constructor(private readonly store: Store) {}

  /** The plane as a directed multigraph; node ids are store ids as strings. */
  get(plane: string): PlaneGraph {
    const seq = this.store.currentSeq();
    const hit = this.cache.get(plane);
    if (hit && hit.seq === seq) return hit.graph;
    const g: PlaneGraph = new MultiDirectedGraph<NodeAttrs, EdgeAttrs>({ allowSelfLoops: true });
    for (const n of this.store.allNodes(plane)) {
      const a: NodeAttrs = { key: n.key, label: n.labels[0] ?? "" };
      if (typeof n.props.file === "string") a.file = n.props.file;
      else if (typeof n.props.path === "string") a.file = n.props.path;
      if (typeof n.props.line === "number") a.line = n.props.line;
      g.addNode(String(n.id), a);
    }
    for (const e of this.store.allEdges(plane)) {
      const a: EdgeAttrs = { type: e.type };
      if (typeof e.props.line === "number") a.line = e.props.line;
      if (typeof e.props._reason === "string") a.reason = e.props._reason;
      if (typeof e.props.count === "number") {
        a.count = e.props.count;
        const lines = siteLines(e.props.sites);
        if (lines.length > 1) a.lines = lines;
      }
      const s = String(e.src);
      const d = String(e.dst);
      if (g.hasNode(s) && g.hasNode(d)) g.addDirectedEdgeWithKey(String(e.id), s, d, a);
    }
    this.cache.set(plane, { seq, graph: g });
    return g;
  }

  forget(plane?: string): void {
    if (plane === undefined) this.cache.clear();
    else this.cache.delete(plane);
  }
}

/** The distinct lines of an edge's `sites` ([line, col] pairs, sorted by the resolver). */
export function siteLines(sites: unknown): number[] {
  const out: number[] = [];
  if (!Array.isArray(sites)) return out;
  for (const s of sites) {
    const line = Array.isArray(s) ? s[0] : undefined;
    if (typeof line === "number" && line !== out[out.length - 1]) out.push(line);
  }
  return out;
}
