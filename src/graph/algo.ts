// Whole-graph algorithms behind the `algo` tool, run by graphology's own packages on a view of a
// plane restricted by labels and edge types: pagerank, degree and betweenness centrality
// (graphology-metrics), communities (graphology-communities-louvain), weakly connected
// components (graphology-traversal), shortest paths (graphology-shortest-path). Randomised ones
// take a seeded rng, so an answer is reproducible; planes too large for an algorithm are refused
// or sampled, and the answer says which.
import type { MultiDirectedGraph, MultiUndirectedGraph } from "graphology";
import { graphology } from "./graphology.js";
import louvainModule from "graphology-communities-louvain";
import betweennessModule from "graphology-metrics/centrality/betweenness.js";
import { degreeCentrality, inDegreeCentrality, outDegreeCentrality } from "graphology-metrics/centrality/degree.js";
import pagerankModule from "graphology-metrics/centrality/pagerank.js";
import { createUnweightedIndexedBrandes } from "graphology-shortest-path/indexed-brandes.js";
import { bidirectional as unweightedPath } from "graphology-shortest-path/unweighted.js";
import { bidirectional as weightedPath } from "graphology-shortest-path/dijkstra.js";
import { bfs } from "graphology-traversal";
import { DrsgError } from "../model/errors.js";
import { type EdgeAttrs, type NodeAttrs, type PlaneGraph, perView } from "./view.js";

// These packages are CommonJS with `module.exports = fn`: Node hands the function over as the
// default import, while their typings (`export default`) read, under NodeNext, as a namespace.
const pagerank = pagerankModule as unknown as typeof pagerankModule.default;
const betweennessCentrality = betweennessModule as unknown as typeof betweennessModule.default;
const louvain = louvainModule as unknown as typeof louvainModule.default;

/** A plane's graph, restricted: directed, or with every edge taken both ways. */
export type AlgoGraph = MultiDirectedGraph<NodeAttrs, EdgeAttrs> | MultiUndirectedGraph<NodeAttrs, EdgeAttrs>;

/** Which part of a plane an algorithm runs on. */
export interface Restriction {
  /** Keep nodes whose primary label is one of these (default: every label but UnresolvedRef). */
  labels?: readonly string[];
  /** Keep edges of these types (default: every type). */
  edgeTypes?: readonly string[];
  /** Take every edge both ways. */
  undirected?: boolean;
}

/** The placeholder label of calls the resolver could not bind: not a symbol, left out by default. */
export const UNRESOLVED = "UnresolvedRef";

/** Largest restricted graph a whole-graph algorithm runs on (nodes, edges). */
export const MAX_NODES = 500_000;
export const MAX_EDGES = 2_000_000;
/** Work (sources × edges) exact betweenness may do; above it, sources are sampled to fit. */
export const BETWEENNESS_WORK = 50_000_000;

/** A copy of the part of `g` the restriction keeps (node and edge keys are the view's). */
export function restrict(g: PlaneGraph, r: Restriction = {}): AlgoGraph {
  const labels = r.labels?.length ? new Set(r.labels) : undefined;
  const types = r.edgeTypes?.length ? new Set(r.edgeTypes) : undefined;
  const out: AlgoGraph = r.undirected
    ? new (graphology().MultiUndirectedGraph)<NodeAttrs, EdgeAttrs>({ allowSelfLoops: true })
    : new (graphology().MultiDirectedGraph)<NodeAttrs, EdgeAttrs>({ allowSelfLoops: true });
  g.forEachNode((id, a) => {
    if (labels ? labels.has(a.label) : a.label !== UNRESOLVED) out.addNode(id, a);
  });
  g.forEachEdge((e, a, s, d) => {
    if (types && !types.has(a.type)) return;
    if (out.hasNode(s) && out.hasNode(d)) out.addEdgeWithKey(e, s, d, a);
  });
  return out;
}

/** Restrictions of a view made lately, per state of the view (perView); the algorithms only read them. */
const RESTRICTIONS_KEPT = 4;

/** `restrict`, reusing the copy when the same view was restricted the same way lately. */
export function restrictCached(g: PlaneGraph, r: Restriction = {}): AlgoGraph {
  const id = JSON.stringify([[...(r.labels ?? [])].sort(), [...(r.edgeTypes ?? [])].sort(), r.undirected === true]);
  const byId = perView(g, "algo.restricted", () => new Map<string, AlgoGraph>());
  const hit = byId.get(id);
  if (hit) return hit;
  const made = restrict(g, r);
  byId.set(id, made);
  while (byId.size > RESTRICTIONS_KEPT) byId.delete(byId.keys().next().value!);
  return made;
}

/** Refuse a graph too large for a whole-graph algorithm, saying how to narrow it. */
export function checkSize(g: AlgoGraph, algo: string): void {
  if (g.order <= MAX_NODES && g.size <= MAX_EDGES) return;
  throw new DrsgError(
    "TOO_LARGE",
    `algo ${algo}: the graph has ${g.order} nodes and ${g.size} edges, above the ${MAX_NODES} nodes / ${MAX_EDGES} edges a whole-graph algorithm runs on; narrow it with labels or edge_types`,
    { nodes: g.order, edges: g.size, maxNodes: MAX_NODES, maxEdges: MAX_EDGES },
  );
}

/** A small seeded generator (mulberry32): the same seed, the same sequence, on every platform. */
export function seededRng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Scored {
  id: string;
  score: number;
}

/** Highest scores first; ties by key, so an order never depends on insertion. */
export function topScores(g: AlgoGraph, scores: Record<string, number>, limit: number): Scored[] {
  const all = Object.entries(scores).map(([id, score]) => ({ id, score }));
  all.sort((a, b) => b.score - a.score || cmpKey(g, a.id, b.id));
  return all.slice(0, limit);
}

function cmpKey(g: AlgoGraph, a: string, b: string): number {
  const ka = g.getNodeAttribute(a, "key");
  const kb = g.getNodeAttribute(b, "key");
  return ka < kb ? -1 : ka > kb ? 1 : Number(a) - Number(b);
}

export interface PagerankOptions {
  damping: number;
  maxIterations: number;
  tolerance: number;
  /** Weigh an edge by the call sites it stands for (`count`). */
  weighted: boolean;
}

/** graphology-metrics pagerank; BAD_INPUT when it does not converge in `maxIterations`. */
export function runPagerank(g: AlgoGraph, o: PagerankOptions): Record<string, number> {
  checkSize(g, "pagerank");
  if (g.order === 0) return {};
  try {
    return pagerank(g, {
      alpha: o.damping,
      maxIterations: o.maxIterations,
      tolerance: o.tolerance,
      getEdgeWeight: o.weighted ? (_e: string, a: EdgeAttrs) => a.count ?? 1 : null,
    });
  } catch (e) {
    if (/converge/.test(String((e as Error)?.message))) {
      throw new DrsgError(
        "BAD_INPUT",
        `algo pagerank: did not converge within max_iters ${o.maxIterations} at tolerance ${o.tolerance}; raise max_iters or tolerance`,
        { maxIterations: o.maxIterations, tolerance: o.tolerance },
      );
    }
    throw e;
  }
}

/** graphology-metrics degree centrality (degree / (n − 1)) and the raw degree, by direction. */
export function runDegree(g: AlgoGraph, direction: "in" | "out" | "both"): { centrality: Record<string, number>; degree: (id: string) => number } {
  checkSize(g, "degree");
  if (g.order === 0) return { centrality: {}, degree: () => 0 };
  if (direction === "both" || g.type === "undirected") return { centrality: degreeCentrality(g), degree: (id) => g.degree(id) };
  if (direction === "in") return { centrality: inDegreeCentrality(g), degree: (id) => g.inDegree(id) };
  return { centrality: outDegreeCentrality(g), degree: (id) => g.outDegree(id) };
}

/** What graphology-shortest-path's indexed Brandes step is at runtime (its typings put `index` on the factory). */
interface IndexedBrandes {
  (source: number): [{ size: number; pop(): number | undefined }, number[][], Uint32Array];
  index: { collect(values: Float64Array): unknown };
}

export interface BetweennessResult {
  scores: Record<string, number>;
  /** Sources the scores come from: all of them (exact), or a seeded sample. */
  sources: number;
  exact: boolean;
}

/**
 * Normalised betweenness: graphology-metrics' exact Brandes when sources × edges fits
 * BETWEENNESS_WORK; above it, Brandes from a seeded sample of sources (graphology-shortest-path's
 * single-source step), scaled by n / k — the usual estimate, said in the answer.
 */
export function runBetweenness(g: AlgoGraph, seed: number, work = BETWEENNESS_WORK): BetweennessResult {
  checkSize(g, "betweenness");
  const n = g.order;
  if (n === 0) return { scores: {}, sources: 0, exact: true };
  const perSource = Math.max(1, g.size + n);
  if (n * perSource <= work) return { scores: betweennessCentrality(g, { getEdgeWeight: null, normalized: true }), sources: n, exact: true };
  const k = Math.max(1, Math.floor(work / perSource));
  // graphology-shortest-path's indexed single-source step, the one graphology-metrics' exact
  // betweenness runs from every node, here from k distinct seeded sources.
  const step = createUnweightedIndexedBrandes(g) as unknown as IndexedBrandes;
  const order = Array.from({ length: n }, (_, i) => i);
  const rng = seededRng(seed);
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(rng() * (n - i));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const delta = new Float64Array(n);
  const cb = new Float64Array(n);
  for (let t = 0; t < k; t++) {
    const s = order[t]!;
    const [S, P, sigma] = step(s);
    delta.fill(0);
    while (S.size !== 0) {
      const w = S.pop()!;
      const coeff = (1 + delta[w]!) / sigma[w]!;
      for (const v of P[w]!) delta[v] = delta[v]! + sigma[v]! * coeff;
      if (w !== s) cb[w] = cb[w]! + delta[w]!;
    }
  }
  // Scaled from k sources to n, then normalised as graphology does: 1 / ((n − 1)(n − 2)).
  const scale = (n / k) * (n > 2 ? 1 / ((n - 1) * (n - 2)) : 1);
  for (let i = 0; i < n; i++) cb[i] = cb[i]! * scale;
  const scores = step.index.collect(cb) as Record<string, number>;
  return { scores, sources: k, exact: false };
}

/** Components as lists of node ids, largest first (ties: the smallest key first). */
export function runComponents(g: AlgoGraph, kind: "weak" | "strong"): string[][] {
  checkSize(g, `components (${kind})`);
  const comps = kind === "weak" || g.type === "undirected" ? weakComponents(g) : strongComponents(g);
  for (const c of comps) c.sort((a, b) => cmpKey(g, a, b));
  comps.sort((a, b) => b.length - a.length || cmpKey(g, a[0]!, b[0]!));
  return comps;
}

/** graphology-traversal's BFS over edges taken both ways: each depth-0 visit opens a component. */
function weakComponents(g: AlgoGraph): string[][] {
  const out: string[][] = [];
  bfs(
    g,
    (id, _a, depth) => {
      if (depth === 0) out.push([]);
      out[out.length - 1]!.push(id);
    },
    { mode: g.type === "undirected" ? "undirected" : "directed" },
  );
  return out;
}

/**
 * Tarjan's strongly connected components, iteratively (no recursion: a long call chain must
 * not overflow the stack). graphology ships no SCC in the packages drsg depends on.
 */
function strongComponents(g: AlgoGraph): string[][] {
  const ids = g.nodes();
  const index = new Map<string, number>();
  for (let i = 0; i < ids.length; i++) index.set(ids[i]!, i);
  const succ: number[][] = ids.map((id) => {
    const s: number[] = [];
    g.forEachOutNeighbor(id, (v) => {
      s.push(index.get(v)!);
    });
    return s;
  });
  const n = ids.length;
  const order = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const out: string[][] = [];
  let counter = 0;
  for (let root = 0; root < n; root++) {
    if (order[root] !== -1) continue;
    const work: [number, number][] = [[root, 0]];
    order[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const [v, i] = top;
      const next = succ[v]!;
      if (i < next.length) {
        top[1] = i + 1;
        const w = next[i]!;
        if (order[w] === -1) {
          order[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          work.push([w, 0]);
        } else if (onStack[w]) low[v] = Math.min(low[v]!, order[w]!);
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const u = work[work.length - 1]![0];
        low[u] = Math.min(low[u]!, low[v]!);
      }
      if (low[v] === order[v]) {
        const comp: string[] = [];
        let w: number;
        do {
          w = stack.pop()!;
          onStack[w] = 0;
          comp.push(ids[w]!);
        } while (w !== v);
        out.push(comp);
      }
    }
  }
  return out;
}

export interface LouvainOptions {
  resolution: number;
  seed: number;
}

export interface Communities {
  /** Node ids per community, largest first (ties: the smallest key first). */
  communities: string[][];
  modularity: number;
}

/** graphology-communities-louvain with a seeded rng: the same seed, the same communities. */
export function runLouvain(g: AlgoGraph, o: LouvainOptions): Communities {
  checkSize(g, "louvain");
  if (g.size === 0) return { communities: g.nodes().map((id) => [id]).sort((a, b) => cmpKey(g, a[0]!, b[0]!)), modularity: 0 };
  const r = louvain.detailed(g, { rng: seededRng(o.seed), resolution: o.resolution, getEdgeWeight: null });
  const groups = new Map<number, string[]>();
  for (const [id, c] of Object.entries(r.communities)) {
    const list = groups.get(c);
    if (list) list.push(id);
    else groups.set(c, [id]);
  }
  const communities = [...groups.values()];
  for (const c of communities) c.sort((a, b) => cmpKey(g, a, b));
  communities.sort((a, b) => b.length - a.length || cmpKey(g, a[0]!, b[0]!));
  return { communities, modularity: r.modularity };
}

export interface PathAnswer {
  nodes: string[];
  edges: string[];
  /** Hops, or the sum of edge weights when weighted. */
  cost: number;
}

/**
 * The shortest path from `from` to `to` (graphology-shortest-path: bidirectional BFS, or
 * bidirectional Dijkstra on the `weight` property, 1 where absent); undefined when none.
 */
export function runShortestPath(g: AlgoGraph, from: string, to: string, weighted: boolean): PathAnswer | undefined {
  checkSize(g, "shortest_path");
  if (!g.hasNode(from) || !g.hasNode(to)) return undefined;
  const w = (a: EdgeAttrs): number => a.weight ?? 1;
  if (weighted) {
    g.forEachEdge((e, a) => {
      if (!(w(a) >= 0)) {
        throw new DrsgError("BAD_INPUT", `algo shortest_path: edge ${e} has weight ${a.weight}; weights must be non-negative numbers`, {
          edge: e,
        });
      }
    });
  }
  if (from === to) return { nodes: [from], edges: [], cost: 0 };
  const nodes = weighted ? weightedPath(g, from, to, (_e, a) => w(a as EdgeAttrs)) : unweightedPath(g, from, to);
  if (!nodes || nodes.length === 0) return undefined;
  const edges: string[] = [];
  let cost = 0;
  for (let i = 0; i + 1 < nodes.length; i++) {
    // Of parallel edges, the lightest (then the first): the one the cost counts.
    let best: string | undefined;
    let bestW = Number.POSITIVE_INFINITY;
    const pick = (e: string, a: EdgeAttrs) => {
      const x = weighted ? w(a) : 1;
      if (x < bestW) {
        bestW = x;
        best = e;
      }
    };
    if (g.type === "undirected") g.forEachEdge(nodes[i]!, nodes[i + 1]!, pick);
    else (g as MultiDirectedGraph<NodeAttrs, EdgeAttrs>).forEachOutEdge(nodes[i]!, nodes[i + 1]!, pick);
    edges.push(best!);
    cost += bestW;
  }
  return { nodes, edges, cost };
}
