// Traversals behind the graph verbs, over a plane's read-only graph view: the impact radius
// (incoming edges by distance), the shortest call path, the region around a symbol and bounded
// reach. Pure functions of a PlaneRead (a whole view, or the store walked), shaped like graphology's own traversal packages, so
// they cost what the walk touches and never a scan of the plane.
import { SOURCE_TYPES } from "../store/reader.js";
import { type PlaneRead, forEachInLink, packedSourcesIn } from "./view.js";

/** Edge types whose sources are affected when their target changes, in tagging priority. */
export const IMPACT_TYPES = ["CALLS", "INSTANTIATES", "REFERENCES", "EXTENDS", "IMPLEMENTS", "USES_TYPE", "IMPORTS"] as const;

/** A node reached by a walk: at its first distance, with the edge type that reached it. */
export interface Reached {
  id: string;
  depth: number;
  /** The type of the edge that first reached it (ties at one depth go to the type listed first). */
  via: string;
  /** Reached only through an edge an agent wrote (on the way here, at this depth). */
  agent?: true;
}

/** Node ids in order: store ids (numeric strings) by number, any other id after them by its text. */
function byId(a: string, b: string): number {
  const x = Number(a);
  const y = Number(b);
  const nx = a !== "" && Number.isSafeInteger(x);
  const ny = b !== "" && Number.isSafeInteger(y);
  if (nx && ny) return x - y;
  if (nx !== ny) return nx ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Everything that reaches `start` through incoming edges of `types`, level by level up to
 * `depth`: each node once, at its first depth, each level in id order. Stops early when a level is empty.
 */
export function impactLevels(g: PlaneRead, start: string, depth: number, types: readonly string[] = IMPACT_TYPES): Reached[][] {
  const seen = new Set<string>([start]);
  const levels: Reached[][] = [];
  const agentReached = new Set<string>();
  let frontier = [start];
  for (let d = 1; d <= depth && frontier.length > 0; d++) {
    // Packed by the store where no agent wrote an edge (nothing is tainted then), else as links.
    const packed = packedSourcesIn(g, frontier, types);
    const level = packed !== undefined ? packedLevel(packed, seen, d, types) : linkLevel(g, frontier, seen, agentReached, d, types);
    if (level.length === 0) break;
    levels.push(level);
    frontier = level.map((x) => x.id);
  }
  return levels;
}

/**
 * A level from the store's packed sources (Reader.sourcesIn): each source not seen, at the type
 * listed first of its edges into the frontier, in id order — as linkLevel, in integers until the
 * level is made (a hub's level is thousands of sources and more edges).
 */
function packedLevel(packed: readonly number[], seen: Set<string>, depth: number, types: readonly string[]): Reached[] {
  // Sorted, a source's edges come together, the one of the type listed first leading.
  const sorted = Float64Array.from(packed).sort();
  const level: Reached[] = [];
  let last = -1;
  for (const v of sorted) {
    const src = Math.floor(v / SOURCE_TYPES);
    if (src === last) continue;
    last = src;
    const id = String(src);
    if (seen.has(id)) continue;
    seen.add(id);
    level.push({ id, depth, via: types[v % SOURCE_TYPES]! });
  }
  return level;
}

/**
 * A level from the in-edges read as links: each source not seen once, reached by the edge the
 * parser wrote before an agent's, then the type listed first; an agent's edge taints all it leads
 * to. The best edge into each source is the same whatever order the edges come in, so a level is
 * read in one batch. In id order: the same level whichever order a view handed the edges in.
 */
function linkLevel(g: PlaneRead, frontier: readonly string[], seen: Set<string>, agentReached: Set<string>, depth: number, types: readonly string[]): Reached[] {
  const rank = new Map(types.map((t, i) => [t, i]));
  const best = new Map<string, { rank: number; agent: boolean }>();
  forEachInLink(
    g,
    frontier,
    (u, type, src, edgeAgent) => {
      const r = rank.get(type);
      if (r === undefined || seen.has(src)) return;
      const agent = agentReached.has(u) || edgeAgent;
      const prior = best.get(src);
      if (prior === undefined || (prior.agent && !agent) || (prior.agent === agent && r < prior.rank)) best.set(src, { rank: r, agent });
    },
    types,
  );
  const level: Reached[] = [];
  for (const [id, b] of best) {
    seen.add(id);
    if (b.agent) agentReached.add(id);
    const via = types[b.rank]!;
    level.push(b.agent ? { id, depth, via, agent: true } : { id, depth, via });
  }
  return level.sort((a, b) => byId(a.id, b.id));
}

/** The shortest path found by `shortestPath`: its nodes and the edges between them. */
export interface PathResult {
  nodes?: string[];
  edges?: string[];
  /** Nodes the search dequeued. */
  visited: number;
  /** True when the search stopped at its visit limit before running out of nodes. */
  capped: boolean;
  /** Sites of unbound calls (edges of `type` carrying a reason) out of the dequeued nodes. */
  unresolvedSites: number;
}

/** BFS over outgoing edges of one type for the shortest path `from` → `to`, visiting at most `maxVisited` nodes. */
export function shortestPath(g: PlaneRead, from: string, to: string, type = "CALLS", maxVisited = 20_000): PathResult {
  if (from === to) return { nodes: [from], edges: [], visited: 1, capped: false, unresolvedSites: 0 };
  const parent = new Map<string, { node: string; edge: string }>();
  const seen = new Set<string>([from]);
  const queue = [from];
  let head = 0;
  let unresolvedSites = 0;
  while (head < queue.length) {
    if (head >= maxVisited) return { visited: head, capped: true, unresolvedSites };
    const u = queue[head++]!;
    let found = false;
    g.forEachOutEdge(u, (e, a, _s, v) => {
      if (a.type === type && a.reason !== undefined) unresolvedSites += a.count ?? 1;
      if (found || a.type !== type || seen.has(v)) return;
      seen.add(v);
      parent.set(v, { node: u, edge: e });
      if (v === to) found = true;
      else queue.push(v);
    });
    if (found) {
      const nodes = [to];
      const edges: string[] = [];
      for (let at = to; at !== from; ) {
        const p = parent.get(at)!;
        edges.push(p.edge);
        nodes.push(p.node);
        at = p.node;
      }
      return { nodes: nodes.reverse(), edges: edges.reverse(), visited: head, capped: false, unresolvedSites };
    }
  }
  return { visited: head, capped: false, unresolvedSites };
}

/** The region around a symbol, walked both ways. */
export interface Region {
  /** Node id → the hop it was first reached at (the start is hop 0). */
  nodes: Map<string, number>;
  /** Edge id → whether it was walked along its direction (`out`) or against it (`in`). */
  edges: Map<string, "out" | "in">;
  /** Nodes first reached at each hop, index 0 = hop 1. */
  perHop: number[];
  /** What stopped the walk: the node budget, a hop that reached nothing new, or the depth. */
  stop: "budget" | "ended" | "depth";
}

/** BFS both ways up to `depth` hops, adding at most `budget` nodes; each edge counted once, when first walked. */
export function region(g: PlaneRead, start: string, depth: number, budget = 5_000): Region {
  const nodes = new Map<string, number>([[start, 0]]);
  const edges = new Map<string, "out" | "in">();
  const perHop: number[] = [];
  let frontier = [start];
  let full = false;
  for (let hop = 1; hop <= depth; hop++) {
    const next: string[] = [];
    const visit = (e: string, v: string, dir: "out" | "in") => {
      if (edges.has(e)) return;
      if (!nodes.has(v)) {
        if (nodes.size >= budget) {
          full = true;
          return;
        }
        nodes.set(v, hop);
        next.push(v);
      }
      edges.set(e, dir);
    };
    for (const u of frontier) {
      g.forEachOutEdge(u, (e, _a, _s, v) => visit(e, v, "out"));
      g.forEachInEdge(u, (e, _a, s) => visit(e, s, "in"));
    }
    if (next.length > 0) perHop.push(next.length);
    if (full) return { nodes, edges, perHop, stop: "budget" };
    if (next.length === 0) return { nodes, edges, perHop, stop: "ended" };
    frontier = next;
  }
  return { nodes, edges, perHop, stop: "depth" };
}

export type Direction = "out" | "in" | "both";

/** A node reached by `reach`: its hop, and the edge that first reached it and which way it was walked. */
export interface ReachedHop {
  id: string;
  hop: number;
  via: string;
  dir: "out" | "in";
  /** The edge that reached it is an agent's. */
  agent?: true;
}

/**
 * Nodes whose shortest distance from `start` (following `dir`, only edges of `types` when
 * given) lies in [min, max], in BFS order; the walk stops after `maxNodes` reached nodes.
 */
export function reach(
  g: PlaneRead,
  start: string,
  opts: { dir: Direction; types?: ReadonlySet<string>; min: number; max: number; maxNodes?: number },
): { reached: ReachedHop[]; capped: boolean } {
  const maxNodes = opts.maxNodes ?? 100_000;
  const seen = new Set<string>([start]);
  const reached: ReachedHop[] = [];
  let frontier = [start];
  let capped = false;
  for (let hop = 1; hop <= opts.max && frontier.length > 0 && !capped; hop++) {
    const next: string[] = [];
    const visit = (type: string, v: string, dir: "out" | "in", agent?: true) => {
      if (capped || seen.has(v) || (opts.types && !opts.types.has(type))) return;
      if (seen.size > maxNodes) {
        capped = true;
        return;
      }
      seen.add(v);
      next.push(v);
      if (hop >= opts.min) reached.push(agent ? { id: v, hop, via: type, dir, agent } : { id: v, hop, via: type, dir });
    };
    for (const u of frontier) {
      if (opts.dir !== "in") g.forEachOutEdge(u, (_e, a, _s, v) => visit(a.type, v, "out", a.agent));
      if (opts.dir !== "out") g.forEachInEdge(u, (_e, a, s) => visit(a.type, s, "in", a.agent));
    }
    frontier = next;
  }
  return { reached, capped };
}
