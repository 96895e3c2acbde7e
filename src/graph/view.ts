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
  /** Not the parser's: an agent wrote it on a plane the parser keeps (answers mark it). */
  agent?: true;
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
    const mirrored = typeof this.store.getPlane(plane)?.props.synced_commit === "string";
    for (const e of this.store.allEdges(plane)) {
      const a: EdgeAttrs = { type: e.type };
      if (mirrored && e.props._written_by === "agent" && typeof e.props._generated_by !== "string") a.agent = true;
      if (typeof e.props.line === "number") a.line = e.props.line;
      if (typeof e.props._reason === "string") a.reason = e.props._reason;
      if (typeof e.props.count === "number") a.count = e.props.count;
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
