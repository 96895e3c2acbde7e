// Read-only graphology views of a plane, built once and rebuilt when the database moves on
// (any write bumps the commit sequence, so a fold is always seen). Traversals run here.
import type { MultiDirectedGraph } from "graphology";
import { graphology } from "./graphology.js";
import type { PlaneDelta, Reader, Store, StoredEdge, StoredNode } from "../store/types.js";
import { readEdgesBetween, readNodeKeysFirst, readSourcesIn } from "../store/reader.js";

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

/** What a walk is handed for each edge: its id, attributes and ends. */
export type EdgeVisit = (edge: string, attrs: EdgeAttrs, source: string, target: string) => void;

/**
 * What the walks and the verbs that list a walk's nodes read of a plane: a node's attributes
 * and its edges one node at a time. A whole view (PlaneGraph) is one; a StoreGraph, which reads
 * what a walk touches from the store, is the other.
 */
export interface PlaneRead {
  hasNode(id: string): boolean;
  getNodeAttributes(id: string): NodeAttrs;
  getNodeAttribute<K extends keyof NodeAttrs>(id: string, name: K): NodeAttrs[K];
  forEachInEdge(id: string, visit: EdgeVisit): void;
  forEachOutEdge(id: string, visit: EdgeVisit): void;
  /** The edges from `source` to `target` (graphology's two-node form; not those back from `target`). */
  forEachOutEdge(source: string, target: string, visit: EdgeVisit): void;
  getEdgeAttributes(edge: string): EdgeAttrs;
  source(edge: string): string;
  target(edge: string): string;
}

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
  private readonly reads = new Map<string, { seq: number; graph: StoreGraph }>();
  /**
   * `lazy`: a process answering once (the CLI): `read` walks the store rather than build the
   * plane's whole view first — a whole view costs the plane's size (2–3 s at 100k nodes), a walk
   * what it touches.
   */
  constructor(
    private readonly store: Store,
    private readonly opts: { lazy?: boolean } = {},
  ) {}

  /** True in a process answering once (the CLI). */
  get lazy(): boolean {
    return this.opts.lazy === true;
  }

  /**
   * The plane for a walk: its whole view when one is built and current, or always but in a lazy
   * process, where it is a StoreGraph of the current commit.
   */
  read(plane: string): PlaneRead {
    if (!this.opts.lazy) return this.get(plane);
    const seq = this.store.planeSeq(plane);
    const whole = this.cache.get(plane);
    if (whole && whole.seq === seq) return whole.graph;
    const hit = this.reads.get(plane);
    if (hit && hit.seq === seq) return hit.graph;
    const graph = new StoreGraph(this.store, plane, this.mirrored(plane));
    this.reads.set(plane, { seq, graph });
    return graph;
  }

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
    const g: PlaneGraph = new (graphology().MultiDirectedGraph)<NodeAttrs, EdgeAttrs>({ allowSelfLoops: true });
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
    if (plane === undefined) {
      this.cache.clear();
      this.reads.clear();
    } else {
      this.cache.delete(plane);
      this.reads.delete(plane);
    }
  }
}

/** What a batched walk is handed for each in-edge: its target (the node walked from), type, source, and whether an agent wrote it. */
export type LinkVisit = (target: string, type: string, source: string, agent: boolean) => void;

/** Nodes per query of a batched read (a JSON list bound as one parameter). */
const LINK_BATCH = 10_000;

/** Whether a graph node id is a store id (a number as text), which the store can be asked about. */
export function isStoreId(id: string): boolean {
  return /^[0-9]+$/.test(id);
}

/**
 * The in-edges of every node of `ids`, visited as links: one query per level on a StoreGraph, the
 * view's own edges on a whole one. `types`: only those need be visited (others may be too).
 */
export function forEachInLink(g: PlaneRead, ids: readonly string[], visit: LinkVisit, types?: readonly string[]): void {
  if (g instanceof StoreGraph) g.forEachInLink(ids, visit, types);
  else for (const id of ids) g.forEachInEdge(id, (_e, a, s, t) => visit(t, a.type, s, a.agent === true));
}

/**
 * The in-edges of every node of `ids` whose type is one of `types`, packed one integer each as
 * Reader.sourcesIn packs them (`source × SOURCE_TYPES + index of its type in types`), where the
 * store can (a StoreGraph on a plane without an edge an agent wrote); undefined elsewhere:
 * forEachInLink then.
 */
export function packedSourcesIn(g: PlaneRead, ids: readonly string[], types: readonly string[]): number[] | undefined {
  return g instanceof StoreGraph ? g.packedSourcesIn(ids, types) : undefined;
}

/** Read ahead the keys of nodes a listing is about to sort by key (a whole view holds them all already). */
export function prefetchKeys(g: PlaneRead, ids: readonly string[]): void {
  if (g instanceof StoreGraph) g.prefetchKeys(ids);
}

/** The first `k` of `ids` by key where the store chooses them (a StoreGraph whose store can); else undefined. */
export function storeFirstByKey(g: PlaneRead, ids: readonly string[], k: number): string[] | undefined {
  return g instanceof StoreGraph ? g.firstByKey(ids, k) : undefined;
}

/** Read ahead the in-edges of nodes a walk is about to visit one by one (a whole view holds them all already). */
export function prefetchIn(g: PlaneRead, ids: readonly string[]): void {
  if (g instanceof StoreGraph) g.prefetchIn(ids);
}

/** True for a whole view (a PlaneGraph), false for a walk of the store. */
export function isWhole(g: PlaneRead): g is PlaneGraph {
  return !(g instanceof StoreGraph);
}

interface ReadEdge {
  id: string;
  source: string;
  target: string;
  attrs: EdgeAttrs;
}

/** A whole view's order of a node's edges: by the neighbour's id, then the newest edge first. */
const IN_ORDER = (a: ReadEdge, b: ReadEdge) => Number(a.source) - Number(b.source) || Number(b.id) - Number(a.id);
const OUT_ORDER = (a: ReadEdge, b: ReadEdge) => Number(a.target) - Number(b.target) || Number(b.id) - Number(a.id);

/**
 * One commit's state of a plane read from the store as it is walked: each node's attributes and
 * each node's edges one way are read once, on first use. Its edges come in a whole view's order
 * (a fresh one: neighbours by ascending id, a neighbour's edges newest first), so a walk over it
 * gives a whole view's answer. Of one store state only: GraphViews makes a new one per commit.
 */
export class StoreGraph implements PlaneRead {
  private readonly nodes = new Map<string, NodeAttrs | null>();
  /** Keys read ahead of the nodes' other attributes (prefetchKeys), for sorting. */
  private readonly keys = new Map<string, string>();
  private readonly edges = new Map<string, ReadEdge>();
  private readonly ins = new Map<string, ReadEdge[]>();
  private readonly outs = new Map<string, ReadEdge[]>();

  constructor(
    private readonly store: Reader,
    readonly plane: string,
    private readonly mirrored: boolean,
  ) {}

  private node(id: string): NodeAttrs | null {
    let a = this.nodes.get(id);
    if (a === undefined) {
      const n = isStoreId(id) ? this.store.getNode(this.plane, Number(id)) : undefined;
      a = n ? nodeAttrs(n) : null;
      this.nodes.set(id, a);
    }
    return a;
  }

  hasNode(id: string): boolean {
    return this.node(id) !== null;
  }

  getNodeAttributes(id: string): NodeAttrs {
    const a = this.node(id);
    if (a === null) throw new Error(`StoreGraph: node "${id}" is not in plane '${this.plane}'`);
    return a;
  }

  getNodeAttribute<K extends keyof NodeAttrs>(id: string, name: K): NodeAttrs[K] {
    if (name === "key") {
      const key = this.keys.get(id);
      if (key !== undefined) return key as NodeAttrs[K];
    }
    return this.getNodeAttributes(id)[name];
  }

  /** An edge as read, once per edge id (a second read of it gives the first record). */
  private read(e: StoredEdge): ReadEdge {
    const key = String(e.id);
    let r = this.edges.get(key);
    if (r === undefined) {
      r = { id: key, source: String(e.src), target: String(e.dst), attrs: edgeAttrs(e, this.mirrored) };
      this.edges.set(key, r);
    }
    return r;
  }

  private adjacent(id: string, dir: "in" | "out"): ReadEdge[] {
    const memo = dir === "in" ? this.ins : this.outs;
    let list = memo.get(id);
    if (list !== undefined) return list;
    list = [];
    if (this.hasNode(id)) {
      const stored = dir === "in" ? this.store.edgesIn(this.plane, Number(id)) : this.store.edgesOut(this.plane, Number(id));
      for (const e of stored) list.push(this.read(e));
      list.sort(dir === "in" ? IN_ORDER : OUT_ORDER);
    }
    memo.set(id, list);
    return list;
  }

  forEachInEdge(id: string, visit: EdgeVisit): void {
    for (const r of this.adjacent(id, "in")) visit(r.id, r.attrs, r.source, r.target);
  }

  /**
   * The in-edges of every node of `ids` as links (no properties), a level of a walk per query
   * where the store reads links (Reader.linksIn); in no particular order. Only nodes of the plane
   * have in-edges (an edge's ends are nodes of its plane), as forEachInEdge.
   */
  forEachInLink(ids: readonly string[], visit: LinkVisit, types?: readonly string[]): void {
    const linksIn = this.store.linksIn?.bind(this.store);
    if (!linksIn) {
      for (const id of ids) this.forEachInEdge(id, (_e, a, s, t) => visit(t, a.type, s, a.agent === true));
      return;
    }
    const nums = ids.filter(isStoreId).map(Number);
    for (let i = 0; i < nums.length; i += LINK_BATCH)
      for (const l of linksIn(this.plane, nums.slice(i, i + LINK_BATCH), types)) visit(String(l.dst), l.type, String(l.src), this.mirrored && l.agentWritten);
  }

  /** packedSourcesIn on the store (Reader.sourcesIn): undefined where it cannot. */
  packedSourcesIn(ids: readonly string[], types: readonly string[]): number[] | undefined {
    const nums = ids.filter(isStoreId).map(Number);
    let all: number[] | undefined;
    for (let i = 0; i === 0 || i < nums.length; i += LINK_BATCH) {
      const packed = readSourcesIn(this.store, this.plane, nums.slice(i, i + LINK_BATCH), types);
      if (packed === undefined) return undefined;
      all = all === undefined ? packed : all.concat(packed);
    }
    return all;
  }

  /** Read the keys of the nodes of `ids` not read yet, in one query where the store can (a listing sorts thousands by key). */
  prefetchKeys(ids: readonly string[]): void {
    if (!this.store.nodeKeys) return;
    // In id order: rows near each other in the table are read together (10k keys in ~half the time).
    const want = ids
      .filter((id) => !this.keys.has(id) && !this.nodes.has(id) && isStoreId(id))
      .map(Number)
      .sort((a, b) => a - b);
    for (let i = 0; i < want.length; i += LINK_BATCH)
      for (const n of this.store.nodeKeys(this.plane, want.slice(i, i + LINK_BATCH))) this.keys.set(String(n.id), n.key);
  }

  /** The first `k` of `ids` by key, chosen and read by the store (Reader.nodeKeysFirst); undefined where it cannot. */
  firstByKey(ids: readonly string[], k: number): string[] | undefined {
    if (!ids.every(isStoreId)) return undefined;
    const rows = readNodeKeysFirst(this.store, this.plane, ids.map(Number), k);
    if (rows === undefined) return undefined;
    for (const r of rows) this.keys.set(String(r.id), r.key);
    return rows.map((r) => String(r.id));
  }

  /**
   * Read the in-edges of the nodes of `ids` not read yet in two queries per batch where the store
   * can (their links, then those edges whole), instead of two per node: a listing of the callers
   * of hundreds of stand-ins named alike.
   */
  prefetchIn(ids: readonly string[]): void {
    const { linksIn, edgesById } = this.store;
    if (!linksIn || !edgesById) return;
    const want = ids
      .filter((id) => !this.ins.has(id) && isStoreId(id))
      .map(Number)
      .sort((a, b) => a - b);
    for (let i = 0; i < want.length; i += LINK_BATCH) {
      const chunk = want.slice(i, i + LINK_BATCH);
      const lists = new Map(chunk.map((id) => [String(id), [] as ReadEdge[]]));
      const edges = linksIn
        .call(this.store, this.plane, chunk)
        .map((l) => l.id)
        .sort((a, b) => a - b);
      for (let j = 0; j < edges.length; j += LINK_BATCH)
        for (const e of edgesById.call(this.store, this.plane, edges.slice(j, j + LINK_BATCH))) lists.get(String(e.dst))?.push(this.read(e));
      for (const [id, list] of lists) this.ins.set(id, list.sort(IN_ORDER));
    }
  }

  forEachOutEdge(id: string, visit: EdgeVisit): void;
  forEachOutEdge(source: string, target: string, visit: EdgeVisit): void;
  forEachOutEdge(source: string, b: string | EdgeVisit, c?: EdgeVisit): void {
    if (typeof b === "function") {
      for (const r of this.adjacent(source, "out")) b(r.id, r.attrs, r.source, r.target);
      return;
    }
    this.forEachEdgeTo(source, b, c!);
  }

  private forEachEdgeTo(source: string, target: string, visit: EdgeVisit): void {
    // One pair's edges through the in-index, unless the source's edges out are read already (a
    // caller of a symbol may have thousands); newest first, as in adjacent's order.
    if (!this.outs.has(source) && isStoreId(source) && isStoreId(target)) {
      const pair = readEdgesBetween(this.store, this.plane, Number(source), Number(target)).map((e) => this.read(e));
      pair.sort((a, b) => Number(b.id) - Number(a.id));
      for (const r of pair) visit(r.id, r.attrs, r.source, r.target);
      return;
    }
    for (const r of this.adjacent(source, "out")) if (r.target === target) visit(r.id, r.attrs, r.source, r.target);
  }

  private edge(id: string): ReadEdge {
    const r = this.edges.get(id);
    if (r === undefined) throw new Error(`StoreGraph: edge "${id}" was not walked`);
    return r;
  }

  getEdgeAttributes(edge: string): EdgeAttrs {
    return this.edge(edge).attrs;
  }

  source(edge: string): string {
    return this.edge(edge).source;
  }

  target(edge: string): string {
    return this.edge(edge).target;
  }
}

const derivedOf = new WeakMap<PlaneRead, Map<string, unknown>>();

/**
 * A structure a tool derives from a view (an index, memoised lines), built once per state of the
 * view: patching the view with a delta forgets them, so they can never describe an older commit.
 */
export function perView<T>(g: PlaneRead, name: string, build: () => T): T {
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
