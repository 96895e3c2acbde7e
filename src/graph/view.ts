// Read-only graphology views of a plane, built once and rebuilt when the database moves on
// (any write bumps the commit sequence, so a fold is always seen). Traversals run here.
import { MultiDirectedGraph } from "graphology";
import type { PlaneDelta, Store, StoredEdge, StoredNode } from "../store/types.js";

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
  /** A numeric `weight` property, for weighted algorithms (algo shortest_path). */
  weight?: number;
  /** Not the parser's: an agent wrote it on a plane the parser keeps (answers mark it). */
  agent?: true;
  /** Every site's line, when the edge stands for sites on more than one line (sorted, distinct). */
  lines?: number[];
}

export type PlaneGraph = MultiDirectedGraph<NodeAttrs, EdgeAttrs>;

interface Cached {
  /** The commit of the plane's database the graph reflects, and the plane's id then. */
  seq: number;
  planeId?: number;
  graph: PlaneGraph;
}

/** A delta larger than this share of the graph is applied as a fresh read (as cheap, and simpler). */
const DELTA_SHARE = 0.25;

function nodeAttrs(n: StoredNode): NodeAttrs {
  const a: NodeAttrs = { key: n.key, label: n.labels[0] ?? "" };
  if (typeof n.props.file === "string") a.file = n.props.file;
  else if (typeof n.props.path === "string") a.file = n.props.path;
  if (typeof n.props.line === "number") a.line = n.props.line;
  return a;
}

/** An edge's attributes; `mirrored`: the plane is the parser's, so an agent's edge is marked. */
function edgeAttrs(e: StoredEdge, mirrored: boolean): EdgeAttrs {
  const a: EdgeAttrs = { type: e.type };
  if (mirrored && e.props._written_by === "agent" && typeof e.props._generated_by !== "string") a.agent = true;
  if (typeof e.props.line === "number") a.line = e.props.line;
  if (typeof e.props._reason === "string") a.reason = e.props._reason;
  if (typeof e.props.count === "number") {
    a.count = e.props.count;
    const lines = siteLines(e.props.sites);
    if (lines.length > 1) a.lines = lines;
  }
  if (typeof e.props.weight === "number") a.weight = e.props.weight;
  return a;
}

export class GraphViews {
  private readonly cache = new Map<string, Cached>();
  constructor(private readonly store: Store) {}

  /**
   * The plane as a directed multigraph; node ids are store ids as strings. When the database
   * moved on since the graph was built, what changed in the plane (the store's history tables)
   * is applied to it in place — a fold costs the view what it changed, not the plane's size —
   * unless the history is reclaimed or the change is large, when the plane is read afresh.
   */
  get(plane: string): PlaneGraph {
    const seq = this.store.planeSeq(plane);
    const hit = this.cache.get(plane);
    if (hit && hit.seq === seq) return hit.graph;
    if (hit && hit.planeId !== undefined && hit.seq < seq) {
      const g = hit.graph;
      const delta = this.store.planeDelta(plane, hit.seq, Math.max(1000, Math.floor((g.order + g.size) * DELTA_SHARE)));
      if (delta && delta.planeId === hit.planeId) {
        applyDelta(g, delta, this.mirrored(plane));
        hit.seq = seq;
        return g;
      }
    }
    const g: PlaneGraph = new MultiDirectedGraph<NodeAttrs, EdgeAttrs>({ allowSelfLoops: true });
    for (const n of this.store.allNodes(plane)) g.addNode(String(n.id), nodeAttrs(n));
    const mirrored = this.mirrored(plane);
    for (const e of this.store.allEdges(plane)) {
      const s = String(e.src);
      const d = String(e.dst);
      if (g.hasNode(s) && g.hasNode(d)) g.addDirectedEdgeWithKey(String(e.id), s, d, edgeAttrs(e, mirrored));
    }
    // The plane's id, to tell a plane dropped and made again under its name (an empty delta
    // window reads nothing, so this costs one indexed lookup).
    const planeId = this.store.planeDelta(plane, seq, 0)?.planeId;
    this.cache.set(plane, { seq, graph: g, ...(planeId !== undefined ? { planeId } : {}) });
    return g;
  }

  private mirrored(plane: string): boolean {
    return typeof this.store.getPlane(plane)?.props.synced_commit === "string";
  }

  forget(plane?: string): void {
    if (plane === undefined) this.cache.clear();
    else this.cache.delete(plane);
  }
}

const derivedOf = new WeakMap<PlaneGraph, Map<string, unknown>>();

/**
 * A structure a tool derives from a view (an index, memoised lines), built once per state of the
 * view: patching the view with a delta forgets them, so they can never describe an older commit.
 */
export function perView<T>(g: PlaneGraph, name: string, build: () => T): T {
  let m = derivedOf.get(g);
  if (!m) derivedOf.set(g, (m = new Map()));
  if (m.has(name)) return m.get(name) as T;
  const v = build();
  m.set(name, v);
  return v;
}

/** Apply a plane's delta to its graph: gone edges and nodes out, written nodes and edges in (replaced). */
function applyDelta(g: PlaneGraph, d: PlaneDelta, mirrored: boolean): void {
  derivedOf.delete(g);
  for (const id of d.goneEdges) if (g.hasEdge(String(id))) g.dropEdge(String(id));
  for (const id of d.goneNodes) if (g.hasNode(String(id))) g.dropNode(String(id));
  for (const n of d.nodes) {
    const id = String(n.id);
    if (g.hasNode(id)) g.replaceNodeAttributes(id, nodeAttrs(n));
    else g.addNode(id, nodeAttrs(n));
  }
  for (const e of d.edges) {
    const id = String(e.id);
    if (g.hasEdge(id)) g.dropEdge(id);
    const s = String(e.src);
    const t = String(e.dst);
    if (g.hasNode(s) && g.hasNode(t)) g.addDirectedEdgeWithKey(id, s, t, edgeAttrs(e, mirrored));
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
