// The store's contract: what every other module may ask of the database. Implemented by
// store.ts over better-sqlite3 (the only place with SQL).

import type { Props, PropValue } from "../model/facts.js";

export interface PlaneInfo {
  id: number;
  name: string;
  props: Props;
  nodeCount: number;
  edgeCount: number;
}

export interface StoredNode {
  id: number;
  plane: string;
  key: string;
  labels: string[];
  props: Props;
}

export interface StoredEdge {
  id: number;
  plane: string;
  type: string;
  src: number;
  dst: number;
  props: Props;
}

/** An edge as a walk reads it: its ends and type, and whether an agent wrote it. */
export interface EdgeLink {
  id: number;
  type: string;
  src: number;
  dst: number;
  /** `_written_by` is "agent" and `_generated_by` is not a string (write_edges' stamp on an edge no parser made). */
  agentWritten: boolean;
}


/** One database commit: every write transaction is one. */
export interface DbCommit {
  seq: number;
  /** Wall-clock milliseconds. */
  at: number;
}

export interface OpenOptions {
  /** Create the file when missing (CLI digest/init); otherwise a missing file is DB_MISSING. */
  create?: boolean;
  /** How many database commits stay readable as-of; 0 keeps all. Default: $DRSG_RETAIN_COMMITS or 20. */
  retainCommits?: number;
  readonly?: boolean;
  /**
   * Read through a memory map of the file (SQLite's mmap_size) rather than a read call per page:
   * a one-shot process reading thousands of scattered rows (a cold verb on a hub) saves ~10 % of
   * its time. Not for a long-running server: mapped pages count in its resident size.
   */
  mapped?: boolean;
}

/** Where a node is declared: what grep and snippet need to name the symbol a line falls in. */
export interface NodeSite {
  key: string;
  /** The primary label. */
  label: string;
  file: string;
  line: number;
  end_line?: number;
}

/** Reads, current or as of a commit. Never scans history for current reads. */
export interface Reader {
  listPlanes(): PlaneInfo[];
  getPlane(name: string): PlaneInfo | undefined;
  getNode(plane: string, id: number): StoredNode | undefined;
  getNodeByKey(plane: string, key: string): StoredNode | undefined;
  /** Nodes whose key's last segment (model `keyName`) equals `name`. */
  nodesByName(plane: string, name: string, limit?: number): StoredNode[];
  /** Nodes whose key contains `text` (case-insensitive). */
  nodesKeyContaining(plane: string, text: string, limit?: number): StoredNode[];
  nodesByLabel(plane: string, label: string, limit?: number): StoredNode[];
  /**
   * The nodes whose primary (first) label is `label`, by the (plane, label) index alone: what a
   * writer that gives its nodes one label reads back of its own, without the scan that finding
   * the label in second place needs once per database commit. Optional: callers filter nodesByLabel.
   */
  nodesByPrimaryLabel?(plane: string, label: string): StoredNode[];
  /**
   * nodesByLabel reading only properties `keys` of each node (the others are absent from
   * `props`): what a query that touches a few properties of many nodes needs, without parsing
   * every property map. Optional: callers fall back to nodesByLabel.
   */
  nodesByLabelProps?(plane: string, label: string, keys: string[]): StoredNode[];
  /** How many nodes carry `label` (any position). Optional: callers count nodesByLabel. */
  countByLabel?(plane: string, label: string): number;
  /** The nodes of `label` counted per distinct tuple of property values (`keys`; a missing property is null). Optional. */
  countByLabelProps?(plane: string, label: string, keys: string[]): { values: PropValue[]; n: number }[];
  /**
   * Nodes whose `name` property equals `name`, or which have no `name` property and whose key's
   * last segment (the indexed name column) equals it. Optional.
   */
  nodesByNameProp?(plane: string, name: string): StoredNode[];
  /** Nodes whose `file` property is `file` (null: without one), by an index. Optional (sync reads the whole plane without it). */
  nodesByFile?(plane: string, file: string | null): StoredNode[];
  /**
   * The edges leaving a node without a `file` property, with that node, in one read (the file
   * index, then the edges' out-index): a fold's edges between stand-ins, where a plane holds
   * thousands of Externals and few such edges. Optional, with nodesByFile.
   */
  edgesFromFileless?(plane: string): { src: StoredNode; edge: StoredEdge }[];
  /** Edges out plus edges in at node `id` whose `_generated_by` is `by`, each side counted up to `cap`. Optional, with nodesByFile. */
  edgeDegreeCapped?(plane: string, id: number, by: string, cap: number): number;
  /** The nodes of `ids` the plane holds, in id order (one read for many neighbours). Optional: callers ask getNode per id. */
  nodesById?(plane: string, ids: readonly number[]): StoredNode[];
  /** The keys of the nodes of `ids` the plane holds, in no particular order (no property map read): what sorting thousands by key needs. Optional. */
  nodeKeys?(plane: string, ids: readonly number[]): { id: number; key: string }[];
  /**
   * The first `k` nodes of `ids` by key (then id) as JavaScript orders strings, chosen and
   * ordered by the store: a listing that shows 21 of 5,000 reads 21 keys. A node of `ids` the plane
   * does not hold is left out (as nodeKeys). Undefined when the store cannot tell its order is
   * JavaScript's (a key chosen with a character from U+D800 up): the caller then reads every key
   * and sorts. Optional.
   */
  nodeKeysFirst?(plane: string, ids: readonly number[], k: number): { id: number; key: string }[] | undefined;
  /**
   * The edges reaching any node of `ids`, without their properties: a walk's read of one level
   * in one query, from the index on (plane, dst, type, src) alone; only those of `types` when
   * given. In no particular order. Optional: a walk reads edgesIn per node without it.
   */
  linksIn?(plane: string, ids: readonly number[], types?: readonly string[]): EdgeLink[];
  /**
   * The sources of the edges reaching any node of `ids` whose type is one of `types` (at most
   * 8), one integer per edge: `src * 8 + i`, i the type's index in `types` — a level of an impact
   * walk without an object per edge. In no particular order. Undefined as of a commit, or when an
   * agent wrote any edge of the plane (a walk must then know which edge: linksIn). Optional.
   */
  sourcesIn?(plane: string, ids: readonly number[], types: readonly string[]): number[] | undefined;
  /** The edges of `ids` the plane holds, in id order (a listing's page, read whole after it sorted links). Optional. */
  edgesById?(plane: string, ids: readonly number[]): StoredEdge[];
  /**
   * The edges from `src` to `dst`, in id order: one pair's edges through the in-index, not every
   * edge leaving `src` (a caller's call sites into a symbol). Optional: callers filter edgesOut.
   */
  edgesBetween?(plane: string, src: number, dst: number): StoredEdge[];
  edgesOut(plane: string, nodeId: number, type?: string): StoredEdge[];
  edgesIn(plane: string, nodeId: number, type?: string): StoredEdge[];
  /** Every node / edge of a plane, in id order (streaming). */
  allNodes(plane: string): IterableIterator<StoredNode>;
  allEdges(plane: string): IterableIterator<StoredEdge>;
  countNodes(plane: string): number;
  countEdges(plane: string): number;
  /**
   * Every node with a string `file` and a numeric `line` (UnresolvedRef excluded), read without
   * parsing whole property maps.
   */
  nodeSites(plane: string): NodeSite[];
}

export interface NodeInput {
  key: string;
  labels: string[];
  props: Props;
}

export interface EdgeInput {
  type: string;
  src: number;
  dst: number;
  props: Props;
}

/** The writes of one transaction (one database commit). */
export interface Writer extends Reader {
  readonly seq: number;
  createPlane(name: string, props?: Props): PlaneInfo;
  dropPlane(name: string): void;
  /** Set properties; a `null` value removes the property. */
  setPlaneProps(name: string, patch: Record<string, PropValue | null>): void;
  createNode(plane: string, node: NodeInput): number;
  /** createNode for each, in order, as multi-row inserts; the ids, in order (same rows and ids as one by one). */
  createNodes(plane: string, nodes: NodeInput[]): number[];
  /** Replace labels and/or properties (whole property map) of a node. */
  updateNode(plane: string, id: number, change: { labels?: string[]; props?: Props }): void;
  /** Delete a node and every edge touching it. */
  deleteNode(plane: string, id: number): void;
  createEdge(plane: string, edge: EdgeInput): number;
  /** createEdge for each, in order, as multi-row inserts where it can; the ids, in order (same rows and ids as one by one). */
  createEdges(plane: string, edges: EdgeInput[]): number[];
  updateEdge(plane: string, id: number, props: Props): void;
  deleteEdge(plane: string, id: number): void;
}

/** What changed in one plane after a commit: rows written since, and ids that are gone. */
export interface PlaneDelta {
  /** The plane's id now (a plane dropped and made again has a new id: the delta is not for it). */
  planeId: number;
  /** Nodes created or patched after the commit (their current rows). */
  nodes: StoredNode[];
  /** Ids of nodes deleted after the commit. */
  goneNodes: number[];
  edges: StoredEdge[];
  goneEdges: number[];
}

export interface Store extends Reader {
  readonly path: string;
  readonly retainCommits: number;
  /** Run `fn` as one write transaction = one database commit. Throwing rolls back everything. */
  write<T>(fn: (w: Writer) => T): T;
  /** A reader of the state as it was right after commit `seq` (AS_OF_OUT_OF_RANGE below the retained window). */
  asOf(seq: number): Reader;
  /** The newest commit at or before wall-clock `ms`. */
  seqAt(ms: number): number;
  commits(): DbCommit[];
  currentSeq(): number;
  /**
   * The commit sequence of the database holding `plane` (a routed store's mounts count their
   * own), and what changed in the plane after commit `since` of that database — undefined when
   * the history that would say so is reclaimed (`since` below the retained floor) or the delta
   * holds more than `max` rows (a full read is as cheap).
   */
  planeSeq(plane: string): number;
  planeDelta(plane: string, since: number, max: number): PlaneDelta | undefined;
  /** FTS5 keyword search over node names, signatures and doc comments; stand-ins (UnresolvedRef, External) are left out. */
  searchText(plane: string, query: string, limit: number): StoredNode[];
  /** Per-file partial cache keyed by (blob id, plugin build): the partial's JSON text. */
  getCachedPartial(blob: string, build: string): string | undefined;
  /** Whether the cache holds a partial for (blob, build), its data unread. Optional. */
  hasCachedPartial?(blob: string, build: string): boolean;
  /** getCachedPartial's JSON as UTF-8 bytes, undecoded (a reader that decodes only part of it). Optional. */
  getCachedPartialBytes?(blob: string, build: string): Buffer | undefined;
  /** `packed`, when given, is `packPartial(data)` already made (src/model/packed.ts); else the store packs `data`. */
  putCachedPartials(rows: { blob: string; build: string; data: string; packed?: Uint8Array }[]): void;
  close(): void;
}
