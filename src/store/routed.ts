// One Store face over the main database and the databases mounted beside it (`mount`): reads
// and writes of a plane go to the database that holds it; each database keeps its own file,
// lock, writer and plane names. A write() transaction belongs to one database: the one holding
// the first plane it touches... which better-sqlite3 cannot know in advance, so writes to a
// mounted plane go through `writeTo(plane, fn)`; `write()` is the main database's.
import { DrsgError } from "../model/errors.js";
import type { PropValue } from "../model/facts.js";
import { readEdgesBetween, readEdgesById, readLinksIn, readNodeKeys, readNodeKeysFirst, readNodesByPrimaryLabel, readSourcesIn } from "./reader.js";
import type { DbCommit, EdgeLink, NodeSite, PlaneDelta, PlaneInfo, Reader, Store, StoredEdge, StoredNode, Writer } from "./types.js";

export interface Mount {
  name: string;
  path: string;
  store: Store;
}

export class RoutedStore implements Store {
  private readonly mounts = new Map<string, Mount>();
  constructor(readonly main: Store) {}

  get path(): string {
    return this.main.path;
  }
  get retainCommits(): number {
    return this.main.retainCommits;
  }

  addMount(m: Mount): void {
    if (this.mounts.has(m.name)) throw new DrsgError("BAD_INPUT", `mount '${m.name}' exists already`);
    this.mounts.set(m.name, m);
  }

  removeMount(name: string): Mount | undefined {
    const m = this.mounts.get(name);
    this.mounts.delete(name);
    return m;
  }

  listMounts(): Mount[] {
    return [...this.mounts.values()];
  }

  /** The database holding `plane`: the main one first, then mounts in mount order. */
  storeOf(plane: string): Store {
    if (this.main.getPlane(plane)) return this.main;
    for (const m of this.mounts.values()) if (m.store.getPlane(plane)) return m.store;
    return this.main;
  }

  mountOf(plane: string): Mount | undefined {
    if (this.main.getPlane(plane)) return undefined;
    for (const m of this.mounts.values()) if (m.store.getPlane(plane)) return m;
    return undefined;
  }

  // Reader
  listPlanes(): PlaneInfo[] {
    const seen = new Set<string>();
    const out: PlaneInfo[] = [];
    for (const s of [this.main, ...[...this.mounts.values()].map((m) => m.store)])
      for (const p of s.listPlanes()) {
        if (seen.has(p.name)) continue;
        seen.add(p.name);
        out.push(p);
      }
    return out;
  }
  getPlane(name: string): PlaneInfo | undefined {
    return this.storeOf(name).getPlane(name);
  }
  getNode(plane: string, id: number): StoredNode | undefined {
    return this.storeOf(plane).getNode(plane, id);
  }
  getNodeByKey(plane: string, key: string): StoredNode | undefined {
    return this.storeOf(plane).getNodeByKey(plane, key);
  }
  nodesByName(plane: string, name: string, limit?: number): StoredNode[] {
    return this.storeOf(plane).nodesByName(plane, name, limit);
  }
  nodesKeyContaining(plane: string, text: string, limit?: number): StoredNode[] {
    return this.storeOf(plane).nodesKeyContaining(plane, text, limit);
  }
  nodesByLabel(plane: string, label: string, limit?: number): StoredNode[] {
    return this.storeOf(plane).nodesByLabel(plane, label, limit);
  }
  countByLabel(plane: string, label: string): number {
    const s = this.storeOf(plane);
    return s.countByLabel ? s.countByLabel(plane, label) : s.nodesByLabel(plane, label).length;
  }
  countByLabelProps(plane: string, label: string, keys: string[]): { values: PropValue[]; n: number }[] {
    const s = this.storeOf(plane);
    if (s.countByLabelProps) return s.countByLabelProps(plane, label, keys);
    const groups = new Map<string, { values: PropValue[]; n: number }>();
    for (const node of s.nodesByLabel(plane, label)) {
      const values = keys.map((k) => node.props[k] ?? null);
      const id = JSON.stringify(values);
      const g = groups.get(id);
      if (g) g.n++;
      else groups.set(id, { values, n: 1 });
    }
    return [...groups.values()];
  }
  nodesByNameProp(plane: string, name: string): StoredNode[] {
    const s = this.storeOf(plane);
    if (s.nodesByNameProp) return s.nodesByNameProp(plane, name);
    const byKey = new Set(s.nodesByName(plane, name).map((n) => n.id));
    return [...s.allNodes(plane)].filter((n) => (n.props.name === undefined ? byKey.has(n.id) : n.props.name === name));
  }
  nodesByLabelProps(plane: string, label: string, keys: string[]): StoredNode[] {
    const s = this.storeOf(plane);
    return s.nodesByLabelProps ? s.nodesByLabelProps(plane, label, keys) : s.nodesByLabel(plane, label);
  }
  nodesByPrimaryLabel(plane: string, label: string): StoredNode[] {
    return readNodesByPrimaryLabel(this.storeOf(plane), plane, label);
  }
  nodeKeysFirst(plane: string, ids: readonly number[], k: number): { id: number; key: string }[] | undefined {
    return readNodeKeysFirst(this.storeOf(plane), plane, ids, k);
  }
  nodeKeys(plane: string, ids: readonly number[]): { id: number; key: string }[] {
    return readNodeKeys(this.storeOf(plane), plane, ids);
  }
  sourcesIn(plane: string, ids: readonly number[], types: readonly string[]): number[] | undefined {
    return readSourcesIn(this.storeOf(plane), plane, ids, types);
  }
  linksIn(plane: string, ids: readonly number[], types?: readonly string[]): EdgeLink[] {
    return readLinksIn(this.storeOf(plane), plane, ids, types);
  }
  edgesById(plane: string, ids: readonly number[]): StoredEdge[] {
    return readEdgesById(this.storeOf(plane), plane, ids);
  }
  edgesBetween(plane: string, src: number, dst: number): StoredEdge[] {
    return readEdgesBetween(this.storeOf(plane), plane, src, dst);
  }
  edgesOut(plane: string, nodeId: number, type?: string): StoredEdge[] {
    return this.storeOf(plane).edgesOut(plane, nodeId, type);
  }
  edgesIn(plane: string, nodeId: number, type?: string): StoredEdge[] {
    return this.storeOf(plane).edgesIn(plane, nodeId, type);
  }
  nodeSites(plane: string): NodeSite[] {
    return this.storeOf(plane).nodeSites(plane);
  }
  allNodes(plane: string): IterableIterator<StoredNode> {
    return this.storeOf(plane).allNodes(plane);
  }
  allEdges(plane: string): IterableIterator<StoredEdge> {
    return this.storeOf(plane).allEdges(plane);
  }
  countNodes(plane: string): number {
    return this.storeOf(plane).countNodes(plane);
  }
  countEdges(plane: string): number {
    return this.storeOf(plane).countEdges(plane);
  }

  // Store
  write<T>(fn: (w: Writer) => T): T {
    return this.main.write(fn);
  }
  /** A write transaction on the database holding `plane`. */
  writeTo<T>(plane: string, fn: (w: Writer) => T): T {
    return this.storeOf(plane).write(fn);
  }
  asOf(seq: number): Reader {
    return this.main.asOf(seq);
  }
  seqAt(ms: number): number {
    return this.main.seqAt(ms);
  }
  commits(): DbCommit[] {
    return this.main.commits();
  }
  /** Moves whenever any of the databases commits (caches key on it). */
  currentSeq(): number {
    let s = this.main.currentSeq();
    for (const m of this.mounts.values()) s += m.store.currentSeq();
    return s + this.mounts.size * 1e9;
  }
  planeSeq(plane: string): number {
    return this.storeOf(plane).currentSeq();
  }
  planeDelta(plane: string, since: number, max: number): PlaneDelta | undefined {
    return this.storeOf(plane).planeDelta(plane, since, max);
  }
  searchText(plane: string, query: string, limit: number): StoredNode[] {
    return this.storeOf(plane).searchText(plane, query, limit);
  }
  getCachedPartial(blob: string, build: string): string | undefined {
    return this.main.getCachedPartial(blob, build);
  }
  putCachedPartials(rows: { blob: string; build: string; data: string; packed?: Uint8Array }[]): void {
    this.main.putCachedPartials(rows);
  }
  close(): void {
    for (const m of this.mounts.values()) m.store.close();
    this.mounts.clear();
    this.main.close();
  }
}
