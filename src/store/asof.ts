// A Store face over the state right after one database commit: every read goes to the store's
// as-of reader (history tables), every write is refused, and currentSeq() is that commit — so
// the caches the verbs keep per commit (graph views, plane records, key prefixes) stay right.
import { DrsgError } from "../model/errors.js";
import { readEdgesBetween, readEdgesById, readLinksIn, readNodeKeys, readNodeKeysFirst, readNodesByPrimaryLabel, readSourcesIn } from "./reader.js";
import type { DbCommit, EdgeLink, NodeSite, PlaneDelta, PlaneInfo, Reader, Store, StoredEdge, StoredNode, Writer } from "./types.js";

export class AsOfStore implements Store {
  readonly path: string;
  readonly retainCommits: number;
  /** The database read (commitWindow and the change feed look through to it). */
  readonly main: Store;
  private readonly r: Reader;

  constructor(
    private readonly base: Store,
    /** The commit read (already clamped to the latest). */
    readonly seq: number,
  ) {
    this.r = base.asOf(seq);
    // A path of its own: caches keyed by path and commit never mix the past with the present.
    this.path = `${base.path}#as-of-${seq}`;
    this.retainCommits = base.retainCommits;
    this.main = base;
  }

  private refuse(what: string): never {
    throw new DrsgError("BAD_INPUT", `${what}: a read as of commit ${this.seq} cannot write; call again without as_of`, {
      asOf: this.seq,
    });
  }

  // A past commit's planes never change: counted once (a count scans the plane's history too).
  private planes?: PlaneInfo[];
  private readonly plane = new Map<string, PlaneInfo | null>();

  listPlanes(): PlaneInfo[] {
    this.planes ??= this.r.listPlanes();
    return this.planes;
  }
  getPlane(name: string): PlaneInfo | undefined {
    let p = this.plane.get(name);
    if (p === undefined) {
      p = this.r.getPlane(name) ?? null;
      this.plane.set(name, p);
    }
    return p ?? undefined;
  }
  getNode(plane: string, id: number): StoredNode | undefined {
    return this.r.getNode(plane, id);
  }
  getNodeByKey(plane: string, key: string): StoredNode | undefined {
    return this.r.getNodeByKey(plane, key);
  }
  nodesByName(plane: string, name: string, limit?: number): StoredNode[] {
    return this.r.nodesByName(plane, name, limit);
  }
  nodesKeyContaining(plane: string, text: string, limit?: number): StoredNode[] {
    return this.r.nodesKeyContaining(plane, text, limit);
  }
  nodesByLabel(plane: string, label: string, limit?: number): StoredNode[] {
    return this.r.nodesByLabel(plane, label, limit);
  }
  nodesByPrimaryLabel(plane: string, label: string): StoredNode[] {
    return readNodesByPrimaryLabel(this.r, plane, label);
  }
  nodeKeysFirst(plane: string, ids: readonly number[], k: number): { id: number; key: string }[] | undefined {
    return readNodeKeysFirst(this.r, plane, ids, k);
  }
  nodeKeys(plane: string, ids: readonly number[]): { id: number; key: string }[] {
    return readNodeKeys(this.r, plane, ids);
  }
  sourcesIn(plane: string, ids: readonly number[], types: readonly string[]): number[] | undefined {
    return readSourcesIn(this.r, plane, ids, types);
  }
  linksIn(plane: string, ids: readonly number[], types?: readonly string[]): EdgeLink[] {
    return readLinksIn(this.r, plane, ids, types);
  }
  edgesById(plane: string, ids: readonly number[]): StoredEdge[] {
    return readEdgesById(this.r, plane, ids);
  }
  edgesBetween(plane: string, src: number, dst: number): StoredEdge[] {
    return readEdgesBetween(this.r, plane, src, dst);
  }
  edgesOut(plane: string, nodeId: number, type?: string): StoredEdge[] {
    return this.r.edgesOut(plane, nodeId, type);
  }
  edgesIn(plane: string, nodeId: number, type?: string): StoredEdge[] {
    return this.r.edgesIn(plane, nodeId, type);
  }
  allNodes(plane: string): IterableIterator<StoredNode> {
    return this.r.allNodes(plane);
  }
  allEdges(plane: string): IterableIterator<StoredEdge> {
    return this.r.allEdges(plane);
  }
  countNodes(plane: string): number {
    return this.r.countNodes(plane);
  }
  countEdges(plane: string): number {
    return this.r.countEdges(plane);
  }
  nodeSites(plane: string): NodeSite[] {
    return this.r.nodeSites(plane);
  }

  write<T>(_fn: (w: Writer) => T): T {
    return this.refuse("write");
  }
  asOf(seq: number): Reader {
    return this.base.asOf(Math.min(seq, this.seq));
  }
  seqAt(ms: number): number {
    return Math.min(this.base.seqAt(ms), this.seq);
  }
  commits(): DbCommit[] {
    return this.base.commits().filter((c) => c.seq <= this.seq);
  }
  currentSeq(): number {
    return this.seq;
  }
  planeSeq(_plane: string): number {
    return this.seq;
  }
  /** A past state never moves: there is no delta to follow (views of it are built once). */
  planeDelta(_plane: string, _since: number, _max: number): PlaneDelta | undefined {
    return undefined;
  }
  searchText(_plane: string, _query: string, _limit: number): StoredNode[] {
    // The keyword index holds the current state only: answering the past from it would be wrong.
    throw new DrsgError("BAD_INPUT", `keyword search as of commit ${this.seq}: the search index holds the current state only; call without as_of`, {
      asOf: this.seq,
    });
  }
  getCachedPartial(blob: string, build: string): string | undefined {
    return this.base.getCachedPartial(blob, build);
  }
  putCachedPartials(): void {
    this.refuse("cache partials");
  }
  close(): void {
    // The base store owns the connection.
  }
}
