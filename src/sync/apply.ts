// Reconcile a plane with freshly built facts in one transaction: gone parser-owned facts are
// deleted, changed ones patched in place (node ids, `_`-props the parser did not set and
// anything not parser-owned are kept), new ones created; a key the parser declares is the
// parser's even when an agent's node held it. Used by digest and fold alike.
import type { EdgeFact, Facts, NodeFact, Props, PropValue } from "../model/facts.js";
import { compareEdges } from "../resolve/common.js";
import type { EdgeInput, Store, Writer } from "../store/types.js";

/** A node as the plane holds it: its id, labels, props, and whether the parsers own it. */
export interface StateNode {
  id: number;
  labels: string[];
  props: Props;
  owned: boolean;
}

/** What the plane holds of parser-owned facts, by key: kept in memory by the watcher between folds. */
export interface PlaneState {
  nodes: Map<string, StateNode>;
  /** `src\0type\0dst` (keys) → edge id and props; parser-owned edges only. */
  edges: Map<string, { id: number; props: Props }>;
}

/**
 * What applyChanges reads and records of the state: a PlaneState, or a view read from the writer
 * as it is asked (lazy.ts, writerState) when no copy of the plane is held in memory.
 */
export interface StateView {
  nodes: { get(key: string): StateNode | undefined; set(key: string, n: StateNode): unknown; delete(key: string): unknown };
  edges: {
    get(id: string): { id: number; props: Props } | undefined;
    set(id: string, e: { id: number; props: Props }): unknown;
    delete(id: string): unknown;
  };
}

export interface ApplyStats {
  nodesCreated: number;
  nodesPatched: number;
  nodesDeleted: number;
  /** Nodes at keys the parser now declares that were not its own (an agent's): replaced by the declaration. */
  nodesReclaimed: number;
  edgesCreated: number;
  edgesPatched: number;
  edgesDeleted: number;
}

export function isOwned(props: Props): boolean {
  return typeof props._generated_by === "string";
}

function edgeId(src: string, type: string, dst: string): string {
  return `${src}\u0000${type}\u0000${dst}`;
}

/** Canonical JSON (sorted map keys), for comparing property values. */
export function canonical(v: PropValue | Props | undefined): string {
  if (v === undefined) return "undefined";
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map((x) => canonical(x)).join(",")}]`;
  const keys = Object.keys(v).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((v as Props)[k])}`).join(",")}}`;
}

/** Load the plane's state (every node; parser-owned edges) from the store. */
export function loadPlaneState(store: Store, plane: string): PlaneState {
  return readPlane(store, plane, false).state;
}

/**
 * The plane's state and, read in the same pass, its parser-owned facts as the resolvers asserted
 * them (keys for endpoints, sorted as a build merges them): what a fresh process seeds its
 * incremental resolution with instead of resolving the whole tree again.
 */
export function loadPlaneFacts(store: Store, plane: string): { state: PlaneState; facts: Facts } {
  const r = readPlane(store, plane, true);
  return { state: r.state, facts: r.facts! };
}

function readPlane(store: Store, plane: string, withFacts: boolean): { state: PlaneState; facts?: Facts } {
  const nodes: PlaneState["nodes"] = new Map();
  const keyOf = new Map<number, string>();
  const factNodes: NodeFact[] = [];
  for (const n of store.allNodes(plane)) {
    const owned = isOwned(n.props);
    nodes.set(n.key, { id: n.id, labels: n.labels, props: n.props, owned });
    keyOf.set(n.id, n.key);
    if (withFacts && owned) factNodes.push({ key: n.key, labels: n.labels, props: n.props });
  }
  const edges: PlaneState["edges"] = new Map();
  const factEdges: EdgeFact[] = [];
  for (const e of store.allEdges(plane)) {
    if (!isOwned(e.props)) continue;
    const s = keyOf.get(e.src);
    const d = keyOf.get(e.dst);
    if (s === undefined || d === undefined) continue;
    edges.set(edgeId(s, e.type, d), { id: e.id, props: e.props });
    if (withFacts) factEdges.push({ src: s, type: e.type, dst: d, props: e.props });
  }
  if (!withFacts) return { state: { nodes, edges } };
  factNodes.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  factEdges.sort(compareEdges);
  return { state: { nodes, edges }, facts: { nodes: factNodes, edges: factEdges } };
}

/** Parser facts' props, plus the stored `_`-props and vectors the parser does not set. */
function mergedProps(stored: Props, fact: Props): Props {
  const out: Props = { ...fact };
  for (const [k, v] of Object.entries(stored)) {
    if (Object.hasOwn(out, k)) continue;
    const isVector = Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "number");
    if (k.startsWith("_") || isVector) out[k] = v;
  }
  return out;
}

function nodeChanged(stored: { labels: string[]; props: Props }, fact: NodeFact): boolean {
  if (stored.labels.join("\u0000") !== fact.labels.join("\u0000")) return true;
  for (const [k, v] of Object.entries(fact.props)) if (canonical(stored.props[k]) !== canonical(v)) return true;
  for (const [k, v] of Object.entries(stored.props)) {
    if (Object.hasOwn(fact.props, k) || k.startsWith("_")) continue;
    const isVector = Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "number");
    if (!isVector) return true;
  }
  return false;
}

/**
 * Apply `facts` to `plane` inside the writer `w` (the caller's transaction). `state` is
 * updated to match what was written; pass the watcher's copy to avoid reloading the plane.
 */
export function applyFacts(w: Writer, plane: string, facts: Facts, state: PlaneState, opts: ApplyOptions = {}): ApplyStats {
  const stats = noStats();
  if (state.nodes.size === 0 && state.edges.size === 0 && uniqueSorted(facts)) {
    return createAll(w, plane, facts, state, opts.keepState !== false, stats);
  }
  const wanted = new Set<string>();
  for (const f of facts.nodes) wanted.add(f.key);

  // Gone parser-owned nodes first (their edges go with them).
  for (const [key, n] of state.nodes) {
    if (!n.owned || wanted.has(key)) continue;
    w.deleteNode(plane, n.id);
    state.nodes.delete(key);
    stats.nodesDeleted++;
  }
  for (const [id, e] of state.edges) {
    const [s, , d] = id.split("\u0000");
    if (!state.nodes.has(s!) || !state.nodes.has(d!)) state.edges.delete(id);
    else void e;
  }

  // New nodes are created in batches (multi-row inserts); a key met again is handled after its batch.
  let fresh: NodeFact[] = [];
  const freshKeys = new Set<string>();
  const createFresh = (): void => {
    const ids = w.createNodes(
      plane,
      fresh.map((f) => ({ key: f.key, labels: f.labels, props: f.props })),
    );
    for (let i = 0; i < fresh.length; i++) {
      const f = fresh[i]!;
      state.nodes.set(f.key, { id: ids[i]!, labels: f.labels, props: f.props, owned: true });
    }
    stats.nodesCreated += fresh.length;
    fresh = [];
    freshKeys.clear();
  };
  for (const f of facts.nodes) {
    if (freshKeys.has(f.key)) createFresh();
    const prior = state.nodes.get(f.key);
    if (!prior) {
      fresh.push(f);
      freshKeys.add(f.key);
    } else patchNode(w, plane, prior, f, stats);
  }
  createFresh();

  const wantedEdges = new Map<string, EdgeFact>();
  for (const e of facts.edges) wantedEdges.set(edgeId(e.src, e.type, e.dst), e);
  for (const [id, e] of state.edges) {
    if (wantedEdges.has(id)) continue;
    w.deleteEdge(plane, e.id);
    state.edges.delete(id);
    stats.edgesDeleted++;
  }
  const freshEdges: { id: string; input: EdgeInput }[] = [];
  for (const [id, e] of wantedEdges) {
    const input = patchOrNewEdge(w, plane, state, id, e, stats);
    if (input) freshEdges.push({ id, input });
  }
  const newIds = w.createEdges(
    plane,
    freshEdges.map((x) => x.input),
  );
  for (let i = 0; i < freshEdges.length; i++) {
    const x = freshEdges[i]!;
    state.edges.set(x.id, { id: newIds[i]!, props: x.input.props });
  }
  stats.edgesCreated += freshEdges.length;
  return stats;
}

function noStats(): ApplyStats {
  return { nodesCreated: 0, nodesPatched: 0, nodesDeleted: 0, nodesReclaimed: 0, edgesCreated: 0, edgesPatched: 0, edgesDeleted: 0 };
}

/**
 * A node the state already holds: patched when it differs. A key the parser now declares but a
 * node it does not own holds (an agent's, squatting a symbol's future key) is the parser's: the
 * node becomes the parser's declaration, wholly — labels and props as a fresh digest writes
 * them (node id and edges kept) — so no agent can pre-empt a signature or doc comment.
 */
function patchNode(w: Writer, plane: string, prior: StateNode, f: NodeFact, stats: ApplyStats): void {
  if (!prior.owned) {
    w.updateNode(plane, prior.id, { labels: f.labels, props: f.props });
    prior.labels = f.labels;
    prior.props = f.props;
    prior.owned = true;
    stats.nodesReclaimed++;
    return;
  }
  if (!nodeChanged(prior, f)) return;
  const props = mergedProps(prior.props, f.props);
  w.updateNode(plane, prior.id, { labels: f.labels, props });
  prior.labels = f.labels;
  prior.props = props;
  stats.nodesPatched++;
}

/**
 * An asserted edge: patched in place when the state holds it; else what to create, when both
 * endpoints are in the plane (undefined otherwise, or when it was held).
 */
function patchOrNewEdge(w: Writer, plane: string, state: StateView, id: string, e: EdgeFact, stats: ApplyStats): EdgeInput | undefined {
  const prior = state.edges.get(id);
  if (prior) {
    if (canonical(prior.props) !== canonical(e.props)) {
      w.updateEdge(plane, prior.id, e.props);
      prior.props = e.props;
      stats.edgesPatched++;
    }
    return undefined;
  }
  const s = state.nodes.get(e.src);
  const d = state.nodes.get(e.dst);
  if (!s || !d) return undefined;
  return { type: e.type, src: s.id, dst: d.id, props: e.props };
}

export interface ApplyOptions {
  /**
   * Keep `state` in step with what was written (default true). False when the caller drops the
   * state after this write (a digest): the plane is the same, the bookkeeping is skipped.
   */
  keepState?: boolean;
}

/** Nodes strictly by key and edges strictly by (src, type, dst): no key or edge twice. */
export function uniqueSorted(facts: Facts): boolean {
  const ns = facts.nodes;
  for (let i = 1; i < ns.length; i++) if (!(ns[i - 1]!.key < ns[i]!.key)) return false;
  const es = facts.edges;
  for (let i = 1; i < es.length; i++) if (compareEdges(es[i - 1]!, es[i]!) >= 0) return false;
  return true;
}

/**
 * applyFacts into a plane holding no nodes, for facts with no key or edge twice: every node and
 * every edge whose endpoints are nodes is created — what the general path does then, without
 * its difference bookkeeping.
 */
function createAll(w: Writer, plane: string, facts: Facts, state: PlaneState, keep: boolean, stats: ApplyStats): ApplyStats {
  const ids = w.createNodes(
    plane,
    facts.nodes.map((f) => ({ key: f.key, labels: f.labels, props: f.props })),
  );
  const idOf = new Map<string, number>();
  for (let i = 0; i < facts.nodes.length; i++) {
    const f = facts.nodes[i]!;
    idOf.set(f.key, ids[i]!);
    if (keep) state.nodes.set(f.key, { id: ids[i]!, labels: f.labels, props: f.props, owned: true });
  }
  stats.nodesCreated = facts.nodes.length;
  const inputs: EdgeInput[] = [];
  const made: EdgeFact[] = [];
  for (const e of facts.edges) {
    const s = idOf.get(e.src);
    const d = idOf.get(e.dst);
    if (s === undefined || d === undefined) continue;
    inputs.push({ type: e.type, src: s, dst: d, props: e.props });
    made.push(e);
  }
  const newIds = w.createEdges(plane, inputs);
  if (keep)
    for (let i = 0; i < made.length; i++) {
      const e = made[i]!;
      state.edges.set(edgeId(e.src, e.type, e.dst), { id: newIds[i]!, props: e.props });
    }
  stats.edgesCreated = made.length;
  return stats;
}

/** A delta of parser facts, as an incremental fold computes it: only what may have changed. */
export interface FactChanges {
  /** Nodes asserted now (created, or patched when they differ). */
  nodes: NodeFact[];
  /** Keys no longer asserted (deleted when parser-owned). */
  goneNodes: string[];
  /** Edges asserted now (created, or patched when their props differ). */
  edges: EdgeFact[];
  /** Edges no longer asserted. */
  goneEdges: { src: string; type: string; dst: string }[];
}

/**
 * Apply a delta inside the caller's transaction with exactly applyFacts' rules (ids kept,
 * `_`-props and vectors kept, non-parser nodes never touched), touching only the facts named.
 * applyFacts(all facts) and applyChanges(the difference) leave the same plane.
 */
export function applyChanges(w: Writer, plane: string, ch: FactChanges, state: StateView): ApplyStats {
  const stats = noStats();
  for (const e of ch.goneEdges) {
    const id = edgeId(e.src, e.type, e.dst);
    const prior = state.edges.get(id);
    if (!prior) continue;
    w.deleteEdge(plane, prior.id);
    state.edges.delete(id);
    stats.edgesDeleted++;
  }
  for (const key of ch.goneNodes) {
    const n = state.nodes.get(key);
    if (!n?.owned) continue;
    // Parser edges still touching it go with it (the store cascades; keep the state in step).
    for (const e of [...w.edgesOut(plane, n.id), ...w.edgesIn(plane, n.id)]) {
      const s = e.src === n.id ? key : w.getNode(plane, e.src)?.key;
      const d = e.dst === n.id ? key : w.getNode(plane, e.dst)?.key;
      if (s !== undefined && d !== undefined) state.edges.delete(edgeId(s, e.type, d));
    }
    w.deleteNode(plane, n.id);
    state.nodes.delete(key);
    stats.nodesDeleted++;
  }
  for (const f of ch.nodes) {
    const prior = state.nodes.get(f.key);
    if (!prior) {
      const id = w.createNode(plane, { key: f.key, labels: f.labels, props: f.props });
      state.nodes.set(f.key, { id, labels: f.labels, props: f.props, owned: true });
      stats.nodesCreated++;
    } else patchNode(w, plane, prior, f, stats);
  }
  for (const e of ch.edges) {
    const id = edgeId(e.src, e.type, e.dst);
    const input = patchOrNewEdge(w, plane, state, id, e, stats);
    if (!input) continue;
    state.edges.set(id, { id: w.createEdge(plane, input), props: e.props });
    stats.edgesCreated++;
  }
  return stats;
}
