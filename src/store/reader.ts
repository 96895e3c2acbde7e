// Reads of planes, nodes and edges: current (live tables only) or as of a commit (live rows
// written at or before it, plus history rows that were current then). One query text per
// mode, built from the same templates so the two can never answer differently.

import { DrsgError } from "../model/errors.js";
import type { Props, PropValue } from "../model/facts.js";
import { type EdgeRow, type NodeRow, planeNotFound, type StoreContext, toEdge, toNode } from "./context.js";
import { AGENT_EDGE_TEST, EDGES_AGENT_INDEX } from "./schema.js";
import type { EdgeLink, NodeSite, PlaneInfo, Reader, StoredEdge, StoredNode } from "./types.js";

/** An edge an agent wrote (write_edges' stamp) that no parser made: what EdgeLink.agentWritten says. */
export function agentWritten(props: Props): boolean {
  return props._written_by === "agent" && typeof props._generated_by !== "string";
}

/** Reader.linksIn of a reader that lacks it, through edgesIn per node. */
export function readLinksIn(r: Reader, plane: string, ids: readonly number[], types?: readonly string[]): EdgeLink[] {
  if (r.linksIn) return r.linksIn(plane, ids, types);
  const want = types ? new Set(types) : undefined;
  return ids.flatMap((id) =>
    r
      .edgesIn(plane, id)
      .filter((e) => !want || want.has(e.type))
      .map((e) => ({ id: e.id, type: e.type, src: e.src, dst: e.dst, agentWritten: agentWritten(e.props) })),
  );
}

/** Reader.edgesById of a reader that lacks it, through a scan of the plane's edges. */
export function readEdgesById(r: Reader, plane: string, ids: readonly number[]): StoredEdge[] {
  if (r.edgesById) return r.edgesById(plane, ids);
  const want = new Set(ids);
  const out: StoredEdge[] = [];
  if (want.size > 0) for (const e of r.allEdges(plane)) if (want.has(e.id)) out.push(e);
  return out;
}

/** Reader.edgesBetween of a reader that lacks it, through the source's edges out. */
export function readEdgesBetween(r: Reader, plane: string, src: number, dst: number): StoredEdge[] {
  if (r.edgesBetween) return r.edgesBetween(plane, src, dst);
  return r.edgesOut(plane, src).filter((e) => e.dst === dst);
}

/** Reader.nodesByPrimaryLabel of a reader that lacks it, through nodesByLabel. */
export function readNodesByPrimaryLabel(r: Reader, plane: string, label: string): StoredNode[] {
  if (r.nodesByPrimaryLabel) return r.nodesByPrimaryLabel(plane, label);
  return r.nodesByLabel(plane, label, Number.MAX_SAFE_INTEGER).filter((n) => n.labels[0] === label);
}

/** Reader.nodeKeysFirst of a reader that may lack it (undefined: read every key and sort). */
export function readNodeKeysFirst(r: Reader, plane: string, ids: readonly number[], k: number): { id: number; key: string }[] | undefined {
  return r.nodeKeysFirst?.(plane, ids, k);
}

/** Reader.nodeKeys of a reader that lacks it, through getNode per node. */
export function readNodeKeys(r: Reader, plane: string, ids: readonly number[]): { id: number; key: string }[] {
  if (r.nodeKeys) return r.nodeKeys(plane, ids);
  return ids.flatMap((id) => {
    const n = r.getNode(plane, id);
    return n ? [{ id: n.id, key: n.key }] : [];
  });
}

/** How Reader.sourcesIn packs an edge: `src * SOURCE_TYPES + type index`. */
export const SOURCE_TYPES = 8;

/** Reader.sourcesIn of a reader that may lack it (undefined: read links). */
export function readSourcesIn(r: Reader, plane: string, ids: readonly number[], types: readonly string[]): number[] | undefined {
  return r.sourcesIn?.(plane, ids, types);
}

/** A UTF-16 unit from U+D800 up: a surrogate or a character from U+E000 (Reader.nodeKeysFirst). */
const WIDE = /[\uD800-\uFFFF]/;

const NODE_COLS = "id, plane, key, label, labels, name, props";
const EDGE_COLS = "id, plane, type, src, dst, props";
const PLANE_COLS = "id, name, props";

interface Sources {
  nodes: string;
  edges: string;
  planes: string;
  /** The node source for a streaming scan in id order. */
  nodeScan: string;
  edgeScan: string;
}

const CURRENT: Sources = {
  nodes: "nodes",
  edges: "edges",
  planes: "planes",
  // Without NOT INDEXED the planner may pick a (plane, …) index and sort, which cannot stream.
  nodeScan: "nodes NOT INDEXED",
  edgeScan: "edges NOT INDEXED",
};

function asOfSource(table: string, hist: string, cols: string): string {
  return `(SELECT ${cols} FROM ${table} WHERE since <= @s UNION ALL SELECT ${cols} FROM ${hist} WHERE since <= @s AND until > @s)`;
}

const AS_OF: Sources = {
  nodes: asOfSource("nodes", "node_hist", NODE_COLS),
  edges: asOfSource("edges", "edge_hist", EDGE_COLS),
  planes: asOfSource("planes", "plane_hist", PLANE_COLS),
  nodeScan: asOfSource("nodes", "node_hist", NODE_COLS),
  edgeScan: asOfSource("edges", "edge_hist", EDGE_COLS),
};

interface PlaneRow {
  id: number;
  name: string;
  props: string;
  nodes: number;
  edges: number;
}

function limitOf(limit: number | undefined): number {
  if (limit === undefined) return -1;
  if (!Number.isInteger(limit) || limit < 0) throw new DrsgError("BAD_INPUT", `read: limit must be a non-negative integer, got ${limit}`);
  return limit;
}

/** A plane's record; its counts are read from the row when asked (a row may count on first use). */
function toPlane(r: PlaneRow): PlaneInfo {
  return {
    id: r.id,
    name: r.name,
    props: JSON.parse(r.props) as Props,
    get nodeCount() {
      return r.nodes;
    },
    get edgeCount() {
      return r.edges;
    },
  };
}

/** What a plane holds that decides which query shape is exact: see planeFlags(). */
interface PlaneFlags {
  /** The labels some node carries besides its primary one (only these need more than the label index). */
  secondary: ReadonlySet<string>;
  /** Some node has a `name` property different from its key's last segment. */
  oddNames: boolean;
}
const flagCache = new WeakMap<StoreContext, Map<string, PlaneFlags>>();

/** Each store's current-state plane list (with counts) as of commit `seq`. */
const planeLists = new WeakMap<StoreContext, { seq: number; rows: PlaneRow[] }>();

/** A reader over the current state (`at` undefined) or the state right after commit `at`. */
export class SqlReader implements Reader {
  private readonly src: Sources;

  constructor(
    protected readonly ctx: StoreContext,
    private readonly at?: number,
  ) {
    this.src = at === undefined ? CURRENT : AS_OF;
  }

  /** Named parameters of every query; `s` is ignored by current-state queries. */
  private params(p: Record<string, unknown>): Record<string, unknown> {
    if (this.at !== undefined) {
      // The store may have written (and reclaimed) since this reader was made.
      if (this.at < this.ctx.floor()) throw this.ctx.outOfRange(this.at, "read as of");
      p.s = this.at;
    }
    return p;
  }

  /** The id of plane `name` in this reader's state. */
  protected planeId(name: string): number {
    if (this.at === undefined) {
      const cached = this.ctx.planeIds.get(name);
      if (cached !== undefined) return cached;
    }
    const row = this.ctx.stmt(`SELECT id FROM ${this.src.planes} WHERE name = @name`).get(this.params({ name })) as
      | { id: number }
      | undefined;
    if (row === undefined) throw planeNotFound(name, this.at);
    if (this.at === undefined) this.ctx.planeIds.set(name, row.id);
    return row.id;
  }

  listPlanes(): PlaneInfo[] {
    return this.planeRows().map(toPlane);
  }

  private planeRows(): PlaneRow[] {
    // The list moves only with a commit: keep the current-state rows per commit (never inside a
    // transaction). Most callers want names; counts are read when shown (countedWhenAsked).
    const cacheable = this.at === undefined && !this.ctx.db.inTransaction;
    if (cacheable) {
      const hit = planeLists.get(this.ctx);
      if (hit !== undefined && hit.seq === this.ctx.latest) return hit.rows;
    }
    const found = this.ctx.stmt(`SELECT id, name, props FROM ${this.src.planes} ORDER BY name`).all(this.params({})) as Omit<PlaneRow, "nodes" | "edges">[];
    const rows = found.map((r) => this.countedWhenAsked(r));
    if (cacheable) planeLists.set(this.ctx, { seq: this.ctx.latest, rows });
    return rows;
  }

  getPlane(name: string): PlaneInfo | undefined {
    // Counting a plane's rows costs milliseconds on a big plane and every verb asks for its
    // plane: cache current-state rows per commit (never inside a transaction, where they move).
    const cacheable = this.at === undefined && !this.ctx.db.inTransaction;
    if (cacheable) {
      if (this.ctx.planeRows.seq !== this.ctx.latest) this.ctx.planeRows = { seq: this.ctx.latest, rows: new Map() };
      const hit = this.ctx.planeRows.rows.get(name) as PlaneRow | null | undefined;
      if (hit !== undefined) return hit === null ? undefined : toPlane(hit);
    }
    const found = this.ctx.stmt(`SELECT id, name, props FROM ${this.src.planes} WHERE name = @name`).get(this.params({ name })) as
      | Omit<PlaneRow, "nodes" | "edges">
      | undefined;
    const row = found === undefined ? undefined : this.countedWhenAsked(found);
    if (cacheable) this.ctx.planeRows.rows.set(name, row ?? null);
    return row === undefined ? undefined : toPlane(row);
  }

  /**
   * A plane row whose node and edge counts are read on first use: a verb reads its plane's
   * record every call and most never show the counts, which cost ~20 ms on a 100k-node plane.
   */
  private countedWhenAsked(r: Omit<PlaneRow, "nodes" | "edges">): PlaneRow {
    const count = (table: string): number =>
      (this.ctx.stmt(`SELECT count(*) AS n FROM ${table} WHERE plane = @p`).get(this.params({ p: r.id })) as { n: number }).n;
    // A count read inside a transaction is not kept: the transaction may yet roll back.
    const db = this.ctx.db;
    const kept = (table: string): (() => number) => {
      let n: number | undefined;
      return () => {
        if (n !== undefined) return n;
        const c = count(table);
        if (!db.inTransaction) n = c;
        return c;
      };
    };
    const nodes = kept(this.src.nodes);
    const edges = kept(this.src.edges);
    return {
      ...r,
      get nodes() {
        return nodes();
      },
      get edges() {
        return edges();
      },
    };
  }

  private oneNode(plane: string, where: string, p: Record<string, unknown>): StoredNode | undefined {
    const sql = `SELECT id, key, labels, props FROM ${this.src.nodes} WHERE plane = @p AND ${where}`;
    const row = this.ctx.stmt(sql).get(this.params({ ...p, p: this.planeId(plane) })) as NodeRow | undefined;
    return row === undefined ? undefined : toNode(plane, row);
  }

  private someNodes(plane: string, where: string, p: Record<string, unknown>): StoredNode[] {
    const sql = `SELECT id, key, labels, props FROM ${this.src.nodes} WHERE plane = @p AND ${where} ORDER BY id LIMIT @lim`;
    const rows = this.ctx.stmt(sql).all(this.params({ ...p, p: this.planeId(plane) })) as NodeRow[];
    return rows.map((r) => toNode(plane, r));
  }

  getNode(plane: string, id: number): StoredNode | undefined {
    return this.oneNode(plane, "id = @id", { id });
  }

  getNodeByKey(plane: string, key: string): StoredNode | undefined {
    return this.oneNode(plane, "key = @key", { key });
  }

  nodesByName(plane: string, name: string, limit?: number): StoredNode[] {
    return this.someNodes(plane, "name = @name", { name, lim: limitOf(limit) });
  }

  nodesKeyContaining(plane: string, text: string, limit?: number): StoredNode[] {
    // lower() on both sides: the same (ASCII) folding for the key and the text.
    return this.someNodes(plane, "instr(lower(key), lower(@text)) > 0", { text, lim: limitOf(limit) });
  }

  nodesByLabel(plane: string, label: string, limit?: number): StoredNode[] {
    const lim = limitOf(limit);
    // Any label, not only the primary: the (plane, label) index finds the primary ones; where the
    // plane has nodes of several labels, a substring test narrows the rest and the parsed list decides.
    const { nodes, nodeScan } = this.src;
    const secondary = this.planeFlags(plane).secondary.has(label)
      ? ` UNION ALL SELECT id, key, labels, props FROM ${nodeScan} WHERE plane = @p AND label <> @label AND instr(labels, @quoted) > 0`
      : "";
    const sql = `SELECT id, key, labels, props FROM ${nodes} WHERE plane = @p AND label = @label${secondary} ORDER BY id`;
    const params = this.params({ p: this.planeId(plane), label, quoted: JSON.stringify(label) });
    const out: StoredNode[] = [];
    if (lim === 0) return out;
    for (const row of this.ctx.stmt(sql).iterate(params) as IterableIterator<NodeRow>) {
      const node = toNode(plane, row);
      if (!node.labels.includes(label)) continue;
      out.push(node);
      if (out.length === lim) break;
    }
    return out;
  }

  /**
   * Two facts about a plane, read by a scan once per database commit (a past state never
   * changes, so as-of readers keep theirs): a label no node carries as a secondary one is found
   * by the (plane, label) index alone, and with no odd `name` property a name by the name index.
   */
  private planeFlags(plane: string): PlaneFlags {
    const cacheable = !this.ctx.db.inTransaction;
    const id = `${this.at === undefined ? `live@${this.ctx.latest}` : `at@${this.at}`}\u0000${plane}`;
    let byCtx = flagCache.get(this.ctx);
    if (!byCtx) flagCache.set(this.ctx, (byCtx = new Map()));
    const hit = cacheable ? byCtx.get(id) : undefined;
    if (hit) return hit;
    // Each fact is read on first use only (each is a scan of the plane's rows).
    const p = () => this.params({ p: this.planeId(plane) });
    const readSecondary = (): Set<string> => {
      const out = new Set<string>();
      const sql = `SELECT DISTINCT labels FROM ${this.src.nodeScan} WHERE plane = @p AND json_array_length(labels) > 1`;
      for (const r of this.ctx.stmt(sql).all(p()) as { labels: string }[]) for (const l of (JSON.parse(r.labels) as string[]).slice(1)) out.add(l);
      return out;
    };
    const readOdd = (): boolean =>
      this.ctx.stmt(`SELECT 1 FROM ${this.src.nodeScan} WHERE plane = @p AND instr(props, '"name":') > 0 AND (props ->> '$.name') IS NOT name LIMIT 1`).get(p()) !== undefined;
    let secondary: Set<string> | undefined;
    let odd: boolean | undefined;
    const flags: PlaneFlags = {
      get secondary() {
        secondary ??= readSecondary();
        return secondary;
      },
      get oddNames() {
        odd ??= readOdd();
        return odd;
      },
    };
    if (cacheable) {
      if (byCtx.size > 256) byCtx.clear();
      byCtx.set(id, flags);
    }
    return flags;
  }

  countByLabel(plane: string, label: string): number {
    if (this.planeFlags(plane).secondary.has(label)) return this.nodesByLabelProps(plane, label, []).length;
    const sql = `SELECT count(*) AS n FROM ${this.src.nodes} WHERE plane = @p AND label = @label`;
    return (this.ctx.stmt(sql).get(this.params({ p: this.planeId(plane), label })) as { n: number }).n;
  }

  countByLabelProps(plane: string, label: string, keys: string[]): { values: PropValue[]; n: number }[] {
    if (keys.length > 16 || this.planeFlags(plane).secondary.has(label)) {
      const groups = new Map<string, { values: PropValue[]; n: number }>();
      for (const node of this.nodesByLabelProps(plane, label, keys)) {
        const values = keys.map((k) => node.props[k] ?? null);
        const id = JSON.stringify(values);
        const g = groups.get(id);
        if (g) g.n++;
        else groups.set(id, { values, n: 1 });
      }
      return [...groups.values()];
    }
    // Grouped in SQLite by each value's JSON text (`->`), so no property map is parsed.
    const cols = keys.map((_, i) => `props -> @k${i} AS p${i}`).join(", ");
    const sql = `SELECT ${cols}, count(*) AS n FROM ${this.src.nodes} WHERE plane = @p AND label = @label GROUP BY ${keys.map((_, i) => `p${i}`).join(", ")}`;
    const params: Record<string, unknown> = { p: this.planeId(plane), label };
    keys.forEach((k, i) => {
      params[`k${i}`] = `$.${JSON.stringify(k)}`;
    });
    const rows = this.ctx.stmt(sql).all(this.params(params)) as Record<string, unknown>[];
    return rows.map((r) => ({
      values: keys.map((_, i) => (typeof r[`p${i}`] === "string" ? (JSON.parse(r[`p${i}`] as string) as PropValue) : null)),
      n: r.n as number,
    }));
  }

  nodesByNameProp(plane: string, name: string): StoredNode[] {
    if (!this.planeFlags(plane).oddNames) {
      // No node's `name` property disagrees with its name column: the index finds them all.
      return this.nodesByName(plane, name).filter((n) => n.props.name === undefined || n.props.name === name);
    }
    const sql =
      `SELECT id, key, labels, props FROM ${this.src.nodeScan} WHERE plane = @p AND ` +
      `((props ->> '$.name') = @name OR ((props ->> '$.name') IS NULL AND name = @name)) ORDER BY id`;
    const rows = this.ctx.stmt(sql).all(this.params({ p: this.planeId(plane), name })) as NodeRow[];
    return rows.map((r) => toNode(plane, r));
  }

  nodesByLabelProps(plane: string, label: string, keys: string[]): StoredNode[] {
    // The primary label through the (plane, label) index; a secondary one by a test on the
    // short labels column (no property map is read for it). `->` gives each value as JSON text.
    if (keys.length > 32) return this.nodesByLabel(plane, label);
    const cols = keys.map((_, i) => `, props -> @k${i} AS p${i}`).join("");
    const { nodes, nodeScan } = this.src;
    const secondary = this.planeFlags(plane).secondary.has(label)
      ? ` UNION ALL SELECT id, key, labels${cols} FROM ${nodeScan} WHERE plane = @p AND label <> @label AND instr(labels, @quoted) > 0`
      : "";
    const sql = `SELECT id, key, labels${cols} FROM ${nodes} WHERE plane = @p AND label = @label${secondary} ORDER BY id`;
    const params: Record<string, unknown> = { p: this.planeId(plane), label, quoted: JSON.stringify(label) };
    keys.forEach((k, i) => {
      params[`k${i}`] = `$.${JSON.stringify(k)}`;
    });
    const rows = this.ctx.stmt(sql).all(this.params(params)) as Record<string, unknown>[];
    const out: StoredNode[] = [];
    for (const r of rows) {
      const labels = JSON.parse(r.labels as string) as string[];
      if (!labels.includes(label)) continue;
      const props: Props = {};
      keys.forEach((k, i) => {
        const v = r[`p${i}`];
        if (typeof v === "string") props[k] = JSON.parse(v) as Props[string];
      });
      out.push({ id: r.id as number, plane, key: r.key as string, labels, props });
    }
    return out;
  }

  private edges(plane: string, end: "src" | "dst", nodeId: number, type?: string): StoredEdge[] {
    const typed = type === undefined ? "" : " AND type = @type";
    const sql = `SELECT id, type, src, dst, props FROM ${this.src.edges} WHERE plane = @p AND ${end} = @id${typed} ORDER BY id`;
    const rows = this.ctx.stmt(sql).all(this.params({ p: this.planeId(plane), id: nodeId, type })) as EdgeRow[];
    return rows.map((r) => toEdge(plane, r));
  }

  /** The nodes of `ids` the plane holds (one query, for a listing of many neighbours), in id order. */
  nodesById(plane: string, ids: readonly number[]): StoredNode[] {
    if (ids.length === 0) return [];
    // By rowid (`+plane`: not through a (plane, …) index, which would read every node of the plane).
    const sql = `SELECT id, key, labels, props FROM ${this.src.nodes} WHERE id IN (SELECT value FROM json_each(@ids)) AND +plane = @p ORDER BY id`;
    const rows = this.ctx.stmt(sql).all(this.params({ p: this.planeId(plane), ids: JSON.stringify(ids) })) as NodeRow[];
    return rows.map((r) => toNode(plane, r));
  }

  nodesByPrimaryLabel(plane: string, label: string): StoredNode[] {
    const sql = `SELECT id, key, labels, props FROM ${this.src.nodes} WHERE plane = @p AND label = @label ORDER BY id`;
    const rows = this.ctx.stmt(sql).all(this.params({ p: this.planeId(plane), label })) as NodeRow[];
    return rows.map((r) => toNode(plane, r));
  }

  nodeKeys(plane: string, ids: readonly number[]): { id: number; key: string }[] {
    if (ids.length === 0) return [];
    // By rowid (`+plane`: not through a (plane, …) index, which would read every node of the plane).
    const sql = `SELECT id, key FROM ${this.src.nodes} WHERE id IN (SELECT value FROM json_each(@ids)) AND +plane = @p`;
    const rows = this.ctx.rawStmt(sql).all(this.params({ p: this.planeId(plane), ids: JSON.stringify(ids) })) as [number, string][];
    return rows.map(([id, key]) => ({ id, key }));
  }

  nodeKeysFirst(plane: string, ids: readonly number[], k: number): { id: number; key: string }[] | undefined {
    if (ids.length === 0 || k <= 0) return [];
    const sql = `SELECT id, key FROM ${this.src.nodes} WHERE id IN (SELECT value FROM json_each(@ids)) AND +plane = @p ORDER BY key, id LIMIT @k`;
    const rows = this.ctx.rawStmt(sql).all(this.params({ p: this.planeId(plane), ids: JSON.stringify(ids), k })) as [number, string][];
    // SQLite orders text by code point (its UTF-8 bytes), JavaScript by UTF-16 unit: the two part
    // only where one key has a character past U+FFFF and the other one from U+E000 to U+FFFF at the
    // first place they differ. Where no key chosen has a character from U+D800 up, every key left
    // out is greater in both orders (at that place it has the greater code point, so the greater
    // unit), and the chosen agree among themselves: these are JavaScript's first k.
    for (const [, key] of rows) if (WIDE.test(key)) return undefined;
    return rows.map(([id, key]) => ({ id, key }));
  }

  linksIn(plane: string, ids: readonly number[], types?: readonly string[]): EdgeLink[] {
    if (ids.length === 0 || types?.length === 0) return [];
    const params = this.params({ p: this.planeId(plane), ids: JSON.stringify(ids), ...(types ? { types: JSON.stringify(types) } : {}) });
    // The types tested as each node's range of the in-index is read (`+type`): one range per
    // node, not a seek per node and type (sourcesIn).
    const typed = types ? " AND +type IN (SELECT value FROM json_each(@types))" : "";
    if (this.at !== undefined) {
      // As of a commit: the history's rows too, so each row is read; only one that mentions
      // `_written_by` has its properties parsed (an agent's edge is rare).
      const sql =
        `SELECT id, type, src, dst, CASE WHEN instr(props, '"_written_by"') > 0 THEN props END AS props ` +
        `FROM ${this.src.edges} WHERE plane = @p AND dst IN (SELECT value FROM json_each(@ids))${typed}`;
      const rows = this.ctx.stmt(sql).all(params) as (Omit<EdgeRow, "props"> & { props: string | null })[];
      return rows.map((r) => ({ id: r.id, type: r.type, src: r.src, dst: r.dst, agentWritten: r.props !== null && agentWritten(JSON.parse(r.props) as Props) }));
    }
    // The links from the in-index alone (plane, dst, type, src; the id is its rowid); which of
    // them an agent wrote from the agent-written edges' own index (schema.ts), few or none.
    const rows = this.ctx.rawStmt(`SELECT id, type, src, dst FROM edges WHERE plane = @p AND dst IN (SELECT value FROM json_each(@ids))${typed}`).all(params) as [
      number,
      string,
      number,
      number,
    ][];
    const links = rows.map(([id, type, src, dst]) => ({ id, type, src, dst, agentWritten: false }));
    if (!this.agentEdges(params.p as number)) return links;
    const agent = new Set<number>();
    const sql = `SELECT id, props FROM edges INDEXED BY ${EDGES_AGENT_INDEX} WHERE plane = @p AND dst IN (SELECT value FROM json_each(@ids)) AND ${AGENT_EDGE_TEST}`;
    for (const r of this.ctx.stmt(sql).all(params) as { id: number; props: string }[]) if (agentWritten(JSON.parse(r.props) as Props)) agent.add(r.id);
    if (agent.size > 0) for (const l of links) l.agentWritten = agent.has(l.id);
    return links;
  }

  sourcesIn(plane: string, ids: readonly number[], types: readonly string[]): number[] | undefined {
    if (this.at !== undefined || types.length === 0 || types.length > SOURCE_TYPES) return undefined;
    const p = this.planeId(plane);
    if (this.agentEdges(p)) return undefined;
    if (ids.length === 0) return [];
    // The type's index by a CASE over bound names (a lookup per row in json_each costs as much
    // as the read). `+type`: one range of the in-index per node, its types tested as read, rather
    // than a seek per node and type (7 for impact's types): 2.5× faster on a hub's 10k nodes,
    // though the range holds the CONTAINS edge every node has.
    const named = types.map((_, i) => `@t${i}`);
    const rank = `CASE type ${named.map((t, i) => `WHEN ${t} THEN ${i}`).join(" ")} END`;
    const sql = `SELECT src * ${SOURCE_TYPES} + ${rank} FROM edges WHERE plane = @p AND dst IN (SELECT value FROM json_each(@ids)) AND +type IN (${named.join(", ")})`;
    const params = { p, ids: JSON.stringify(ids), ...Object.fromEntries(types.map((t, i) => [`t${i}`, t])) };
    return this.ctx.pluckStmt(sql).all(params) as number[];
  }

  /** Whether an agent wrote any edge of the plane (its own index: one step, and false for almost every plane). */
  private agentEdges(p: number): boolean {
    return this.ctx.stmt(`SELECT 1 FROM edges INDEXED BY ${EDGES_AGENT_INDEX} WHERE plane = @p AND ${AGENT_EDGE_TEST} LIMIT 1`).get({ p }) !== undefined;
  }

  edgesBetween(plane: string, src: number, dst: number): StoredEdge[] {
    const sql = `SELECT id, type, src, dst, props FROM ${this.src.edges} WHERE plane = @p AND dst = @dst AND src = @src ORDER BY id`;
    const rows = this.ctx.stmt(sql).all(this.params({ p: this.planeId(plane), src, dst })) as EdgeRow[];
    return rows.map((r) => toEdge(plane, r));
  }

  edgesById(plane: string, ids: readonly number[]): StoredEdge[] {
    if (ids.length === 0) return [];
    // By rowid (`+plane`: not through a (plane, …) index, which would read every edge of the plane).
    const sql = `SELECT id, type, src, dst, props FROM ${this.src.edges} WHERE id IN (SELECT value FROM json_each(@ids)) AND +plane = @p ORDER BY id`;
    const rows = this.ctx.stmt(sql).all(this.params({ p: this.planeId(plane), ids: JSON.stringify(ids) })) as EdgeRow[];
    return rows.map((r) => toEdge(plane, r));
  }

  edgesOut(plane: string, nodeId: number, type?: string): StoredEdge[] {
    return this.edges(plane, "src", nodeId, type);
  }

  edgesIn(plane: string, nodeId: number, type?: string): StoredEdge[] {
    return this.edges(plane, "dst", nodeId, type);
  }

  *allNodes(plane: string): IterableIterator<StoredNode> {
    const sql = `SELECT id, key, labels, props FROM ${this.src.nodeScan} WHERE plane = @p ORDER BY id`;
    // A fresh statement per scan: a cached one would be busy if two scans interleave.
    const rows = this.ctx.db.prepare(sql).iterate(this.params({ p: this.planeId(plane) })) as IterableIterator<NodeRow>;
    for (const r of rows) yield toNode(plane, r);
  }

  *allEdges(plane: string): IterableIterator<StoredEdge> {
    const sql = `SELECT id, type, src, dst, props FROM ${this.src.edgeScan} WHERE plane = @p ORDER BY id`;
    const rows = this.ctx.db.prepare(sql).iterate(this.params({ p: this.planeId(plane) })) as IterableIterator<EdgeRow>;
    for (const r of rows) yield toEdge(plane, r);
  }

  nodeSites(plane: string): NodeSite[] {
    const sql =
      `SELECT key, label, json_extract(props, '$.file') AS file, json_extract(props, '$.line') AS line, ` +
      `json_extract(props, '$.end_line') AS end_line FROM ${this.src.nodes} WHERE plane = @p AND label <> 'UnresolvedRef'`;
    const rows = this.ctx.stmt(sql).all(this.params({ p: this.planeId(plane) })) as {
      key: string;
      label: string;
      file: unknown;
      line: unknown;
      end_line: unknown;
    }[];
    const out: NodeSite[] = [];
    for (const r of rows) {
      if (typeof r.file !== "string" || typeof r.line !== "number") continue;
      const site: NodeSite = { key: r.key, label: r.label, file: r.file, line: r.line };
      if (typeof r.end_line === "number") site.end_line = r.end_line;
      out.push(site);
    }
    return out;
  }

  /**
   * The nodes whose `file` property is `file` (null: the nodes without one), through the file
   * index (current state; as of a commit, a scan). In id order.
   */
  nodesByFile(plane: string, file: string | null): StoredNode[] {
    const test = file === null ? "json_extract(props, '$.file') IS NULL" : "json_extract(props, '$.file') = @file";
    const sql = `SELECT id, key, labels, props FROM ${this.src.nodes} WHERE plane = @p AND ${test} ORDER BY id`;
    const rows = this.ctx.stmt(sql).all(this.params({ p: this.planeId(plane), file })) as NodeRow[];
    return rows.map((r) => toNode(plane, r));
  }

  edgesFromFileless(plane: string): { src: StoredNode; edge: StoredEdge }[] {
    // CROSS JOIN: nodes first, by the file index (SQLite would otherwise scan the plane's edges).
    const sql =
      `SELECT n.id AS nid, n.key, n.labels, n.props AS nprops, e.id, e.type, e.src, e.dst, e.props FROM ${this.src.nodes} n ` +
      `CROSS JOIN ${this.src.edges} e ON e.plane = n.plane AND e.src = n.id WHERE n.plane = @p AND json_extract(n.props, '$.file') IS NULL ORDER BY e.id`;
    const rows = this.ctx.stmt(sql).all(this.params({ p: this.planeId(plane) })) as (EdgeRow & { nid: number; key: string; labels: string; nprops: string })[];
    return rows.map((r) => ({ src: toNode(plane, { id: r.nid, key: r.key, labels: r.labels, props: r.nprops }), edge: toEdge(plane, r) }));
  }

  /**
   * How many edges leave node `id` plus how many reach it, of those whose `_generated_by` is
   * `by`, each side counted up to `cap` (through the edge indexes: a stand-in thousands of calls
   * reach costs `cap` rows, not thousands).
   */
  edgeDegreeCapped(plane: string, id: number, by: string, cap: number): number {
    let n = 0;
    for (const end of ["src", "dst"] as const) {
      const sql =
        `SELECT count(*) AS n FROM (SELECT 1 FROM ${this.src.edges} WHERE plane = @p AND ${end} = @id ` +
        `AND json_extract(props, '$._generated_by') = @by LIMIT @cap)`;
      n += (this.ctx.stmt(sql).get(this.params({ p: this.planeId(plane), id, by, cap })) as { n: number }).n;
    }
    return n;
  }

  countNodes(plane: string): number {
    const sql = `SELECT count(*) AS n FROM ${this.src.nodes} WHERE plane = @p`;
    return (this.ctx.stmt(sql).get(this.params({ p: this.planeId(plane) })) as { n: number }).n;
  }

  countEdges(plane: string): number {
    const sql = `SELECT count(*) AS n FROM ${this.src.edges} WHERE plane = @p`;
    return (this.ctx.stmt(sql).get(this.params({ p: this.planeId(plane) })) as { n: number }).n;
  }
}
