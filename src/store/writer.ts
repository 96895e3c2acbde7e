// The writes of one transaction (= one database commit `seq`). Before a live row that an
// earlier commit wrote is changed or deleted, it is copied to its history table with
// [since, seq); a row written earlier in this same commit is changed in place, since no
// commit ever showed it. The FTS index is kept in step here, explicitly.

import { DrsgError } from "../model/errors.js";
import type { Props, PropValue } from "../model/facts.js";
import { keyName } from "../model/facts.js";
import { propsJson, type StoreContext } from "./context.js";
import { ftsKey, ftsName, ftsText } from "./fts.js";
import { sqliteCode } from "./lock.js";
import { SqlReader } from "./reader.js";
import type { EdgeInput, NodeInput, PlaneInfo, Writer } from "./types.js";

const PLANE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/;

/** Throws BAD_PLANE_NAME unless `name` is 1–100 of `[A-Za-z0-9_.-]`, not starting with `.` or `-`. */
export function checkPlaneName(name: string): void {
  if (typeof name !== "string" || !PLANE_NAME.test(name)) {
    throw new DrsgError(
      "BAD_PLANE_NAME",
      `create plane: name ${JSON.stringify(name)} is not allowed; use 1–100 letters, digits, "_", "." or "-", not starting with "." or "-"`,
      { plane: name },
    );
  }
}

function checkLabels(labels: unknown, what: string): string[] {
  if (!Array.isArray(labels) || labels.length === 0 || !labels.every((l) => typeof l === "string" && l !== "")) {
    throw new DrsgError("BAD_INPUT", `${what}: labels must be a non-empty list of non-empty strings, got ${JSON.stringify(labels)}`);
  }
  return labels as string[];
}

function edgeNotFound(plane: string, id: number, what: string): DrsgError {
  return new DrsgError("BAD_INPUT", `${what}: edge ${id} does not exist in plane "${plane}"`, { plane, edge: id });
}

/** Rows per multi-row INSERT (7 parameters a node row: well under SQLite's variable limit). */
const BATCH = 128;

function valuesSql(head: string, row: string, n: number): string {
  return `${head} VALUES ${new Array<string>(n).fill(row).join(", ")}`;
}

const NODE_HIST_COPY = "INSERT INTO node_hist SELECT id, plane, key, label, labels, name, props, since, @s FROM nodes";
const EDGE_HIST_COPY = "INSERT INTO edge_hist SELECT id, plane, type, src, dst, props, since, @s FROM edges";

export class StoreWriter extends SqlReader implements Writer {
  private active = true;
  /** Plane of every node created by this write and still alive: edges between them skip the endpoint lookups. */
  private readonly made = new Map<number, number>();

  constructor(
    ctx: StoreContext,
    readonly seq: number,
  ) {
    super(ctx);
  }

  /** Called when the transaction ends: a writer kept past its write() must not write. */
  end(): void {
    this.active = false;
  }

  private live(what: string): void {
    if (!this.active) {
      throw new DrsgError("INTERNAL", `${what}: this writer's write() has ended; write only inside the write() callback`);
    }
  }

  createPlane(name: string, props: Props = {}): PlaneInfo {
    this.live("create plane");
    checkPlaneName(name);
    const json = propsJson(props, `create plane "${name}"`);
    if (this.ctx.stmt("SELECT 1 FROM planes WHERE name = ?").get(name) !== undefined) {
      throw new DrsgError("PLANE_EXISTS", `create plane: plane "${name}" already exists; drop_plane it first or pick another name`, {
        plane: name,
      });
    }
    const r = this.ctx.stmt("INSERT INTO planes (name, props, since) VALUES (?, ?, ?)").run(name, json, this.seq);
    const id = Number(r.lastInsertRowid);
    this.ctx.planeIds.set(name, id);
    return { id, name, props: JSON.parse(json) as Props, nodeCount: 0, edgeCount: 0 };
  }

  dropPlane(name: string): void {
    this.live("drop plane");
    const p = this.planeId(name);
    const c = this.ctx;
    const args = { p, s: this.seq };
    c.stmt("DELETE FROM nodes_fts WHERE rowid IN (SELECT id FROM nodes WHERE plane = @p)").run(args);
    c.stmt(`${EDGE_HIST_COPY} WHERE plane = @p AND since < @s`).run(args);
    c.stmt("DELETE FROM edges WHERE plane = @p").run(args);
    c.stmt(`${NODE_HIST_COPY} WHERE plane = @p AND since < @s`).run(args);
    c.stmt("DELETE FROM nodes WHERE plane = @p").run(args);
    c.stmt("INSERT INTO plane_hist SELECT id, name, props, since, @s FROM planes WHERE id = @p AND since < @s").run(args);
    c.stmt("DELETE FROM planes WHERE id = @p").run(args);
    c.planeIds.delete(name);
    this.made.clear();
  }

  setPlaneProps(name: string, patch: Record<string, PropValue | null>): void {
    this.live("set plane properties");
    const p = this.planeId(name);
    if (patch === null || typeof patch !== "object" || Array.isArray(patch)) {
      throw new DrsgError("BAD_INPUT", `set plane properties of "${name}": the patch must be an object`);
    }
    const row = this.ctx.stmt("SELECT props FROM planes WHERE id = ?").get(p) as { props: string };
    const props = JSON.parse(row.props) as Props;
    for (const [k, v] of Object.entries(patch)) {
      if (v === null) delete props[k];
      else props[k] = v;
    }
    const json = propsJson(props, `set plane properties of "${name}"`);
    if (json === row.props) return;
    const args = { p, s: this.seq, props: json };
    this.ctx.stmt("INSERT INTO plane_hist SELECT id, name, props, since, @s FROM planes WHERE id = @p AND since < @s").run(args);
    this.ctx.stmt("UPDATE planes SET props = @props, since = @s WHERE id = @p").run(args);
  }

  createNode(plane: string, node: NodeInput): number {
    this.live("create node");
    const p = this.planeId(plane);
    const key = node.key;
    if (typeof key !== "string" || key === "") {
      throw new DrsgError("BAD_INPUT", `create node in "${plane}": key must be a non-empty string, got ${JSON.stringify(key)}`);
    }
    const labels = checkLabels(node.labels, `create node "${key}"`);
    const props = propsJson(node.props, `create node "${key}"`);
    let id: number;
    try {
      const r = this.ctx
        .stmt("INSERT INTO nodes (plane, key, label, labels, name, props, since) VALUES (?, ?, ?, ?, ?, ?, ?)")
        .run(p, key, labels[0]!, JSON.stringify(labels), keyName(key), props, this.seq);
      id = Number(r.lastInsertRowid);
    } catch (e) {
      if (sqliteCode(e) === "SQLITE_CONSTRAINT_UNIQUE") {
        throw new DrsgError("KEY_TAKEN", `create node: key "${key}" already exists in plane "${plane}"; update that node instead`, {
          plane,
          key,
        });
      }
      throw e;
    }
    this.indexText(id, key, node.props);
    this.made.set(id, p);
    return id;
  }

  createNodes(plane: string, nodes: NodeInput[]): number[] {
    this.live("create nodes");
    const p = this.planeId(plane);
    const ids: number[] = [];
    for (let at = 0; at < nodes.length; at += BATCH) {
      const chunk = nodes.slice(at, at + BATCH);
      if (chunk.length < BATCH) {
        for (const n of chunk) ids.push(this.createNode(plane, n));
        continue;
      }
      const rows: unknown[] = [];
      const fts: unknown[] = [];
      for (const node of chunk) {
        const key = node.key;
        if (typeof key !== "string" || key === "") {
          throw new DrsgError("BAD_INPUT", `create node in "${plane}": key must be a non-empty string, got ${JSON.stringify(key)}`);
        }
        const labels = checkLabels(node.labels, `create node "${key}"`);
        const props = propsJson(node.props, `create node "${key}"`);
        rows.push(0, p, key, labels[0]!, JSON.stringify(labels), keyName(key), props, this.seq);
        fts.push(0, ftsName(key), ftsKey(key), ftsText(node.props.signature), ftsText(node.props.doc_comment));
      }
      // Ids as AUTOINCREMENT hands them out one by one: after the largest ever used.
      let next = this.nextId("nodes");
      for (let i = 0; i < chunk.length; i++) {
        rows[i * 8] = next;
        fts[i * 5] = next;
        ids.push(next++);
      }
      const sql = valuesSql("INSERT INTO nodes (id, plane, key, label, labels, name, props, since)", "(?, ?, ?, ?, ?, ?, ?, ?)", BATCH);
      try {
        this.ctx.stmt(sql).run(rows);
      } catch (e) {
        if (sqliteCode(e) !== "SQLITE_CONSTRAINT_UNIQUE") throw e;
        // A key taken (or twice in the chunk): one by one, for the error of the node that fails.
        ids.length = at;
        for (const n of chunk) ids.push(this.createNode(plane, n));
        continue;
      }
      this.ctx
        .stmt(valuesSql("INSERT INTO nodes_fts (rowid, name, key, signature, doc_comment)", "(?, ?, ?, ?, ?)", BATCH))
        .run(fts);
      for (let i = at; i < ids.length; i++) this.made.set(ids[i]!, p);
    }
    return ids;
  }

  /** The id AUTOINCREMENT would give the next row of `table`. */
  private nextId(table: "nodes" | "edges"): number {
    const row = this.ctx
      .stmt(
        `SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = '${table}'), 0), coalesce((SELECT max(id) FROM ${table}), 0)) AS m`,
      )
      .get() as { m: number };
    return row.m + 1;
  }

  private indexText(id: number, key: string, props: Props): void {
    this.ctx
      .stmt("INSERT INTO nodes_fts (rowid, name, key, signature, doc_comment) VALUES (?, ?, ?, ?, ?)")
      .run(id, ftsName(key), ftsKey(key), ftsText(props.signature), ftsText(props.doc_comment));
  }

  private nodeExists(p: number, id: number): boolean {
    return this.ctx.stmt("SELECT 1 FROM nodes WHERE id = ? AND plane = ?").get(id, p) !== undefined;
  }

  private nodeNotFound(plane: string, id: number, what: string): DrsgError {
    return new DrsgError("NODE_NOT_FOUND", `${what}: node ${id} does not exist in plane "${plane}"`, { plane, id });
  }

  updateNode(plane: string, id: number, change: { labels?: string[]; props?: Props }): void {
    this.live("update node");
    const p = this.planeId(plane);
    const what = `update node ${id}`;
    const labels = change.labels === undefined ? null : checkLabels(change.labels, what);
    const props = change.props === undefined ? null : propsJson(change.props, what);
    const args = {
      p,
      id,
      s: this.seq,
      label: labels === null ? null : labels[0]!,
      labels: labels === null ? null : JSON.stringify(labels),
      props,
    };
    // Only a real change supersedes the row: an identical rewrite leaves history alone.
    const changed = "(labels IS NOT coalesce(@labels, labels) OR props IS NOT coalesce(@props, props))";
    this.ctx.stmt(`${NODE_HIST_COPY} WHERE id = @id AND plane = @p AND since < @s AND ${changed}`).run(args);
    const row = this.ctx
      .stmt(
        "UPDATE nodes SET label = coalesce(@label, label), labels = coalesce(@labels, labels), " +
          `props = coalesce(@props, props), since = @s WHERE id = @id AND plane = @p AND ${changed} RETURNING key`,
      )
      .get(args) as { key: string } | undefined;
    if (row === undefined) {
      if (!this.nodeExists(p, id)) throw this.nodeNotFound(plane, id, what);
      return;
    }
    if (change.props !== undefined) {
      this.ctx.stmt("DELETE FROM nodes_fts WHERE rowid = ?").run(id);
      this.indexText(id, row.key, change.props);
    }
  }

  deleteNode(plane: string, id: number): void {
    this.live("delete node");
    const p = this.planeId(plane);
    if (!this.nodeExists(p, id)) throw this.nodeNotFound(plane, id, `delete node ${id}`);
    const args = { p, id, s: this.seq };
    const c = this.ctx;
    c.stmt(`${EDGE_HIST_COPY} WHERE plane = @p AND src = @id AND since < @s`).run(args);
    c.stmt(`${EDGE_HIST_COPY} WHERE plane = @p AND dst = @id AND src <> @id AND since < @s`).run(args);
    c.stmt("DELETE FROM edges WHERE plane = @p AND src = @id").run(args);
    c.stmt("DELETE FROM edges WHERE plane = @p AND dst = @id").run(args);
    c.stmt(`${NODE_HIST_COPY} WHERE id = @id AND since < @s`).run(args);
    c.stmt("DELETE FROM nodes WHERE id = @id").run(args);
    c.stmt("DELETE FROM nodes_fts WHERE rowid = ?").run(id);
    this.made.delete(id);
  }

  createEdge(plane: string, edge: EdgeInput): number {
    this.live("create edge");
    const p = this.planeId(plane);
    const { type, src, dst } = edge;
    if (typeof type !== "string" || type === "") {
      throw new DrsgError("BAD_INPUT", `create edge in "${plane}": type must be a non-empty string, got ${JSON.stringify(type)}`);
    }
    const props = propsJson(edge.props, `create ${type} edge`);
    if (this.made.get(src) === p && this.made.get(dst) === p) {
      // Both endpoints were created by this write (a digest's common case): known to be here.
      const r = this.ctx
        .stmt("INSERT INTO edges (plane, type, src, dst, props, since) VALUES (?, ?, ?, ?, ?, ?)")
        .run(p, type, src, dst, props, this.seq);
      return Number(r.lastInsertRowid);
    }
    // Otherwise one statement that inserts only when both endpoints are nodes of this plane.
    const r = this.ctx
      .stmt(
        "INSERT INTO edges (plane, type, src, dst, props, since) SELECT ?, ?, ?, ?, ?, ? " +
          "WHERE EXISTS (SELECT 1 FROM nodes WHERE id = ? AND plane = ?) AND EXISTS (SELECT 1 FROM nodes WHERE id = ? AND plane = ?)",
      )
      .run(p, type, src, dst, props, this.seq, src, p, dst, p);
    if (r.changes === 1) return Number(r.lastInsertRowid);
    for (const end of [src, dst]) {
      const row = this.ctx.stmt("SELECT plane FROM nodes WHERE id = ?").get(end) as { plane: number } | undefined;
      if (row === undefined) throw this.nodeNotFound(plane, end, `create ${type} edge ${src} → ${dst}`);
      if (row.plane !== p) {
        throw new DrsgError(
          "BAD_INPUT",
          `create ${type} edge ${src} → ${dst} in plane "${plane}": node ${end} belongs to another plane; edges never cross planes (attach the other plane instead)`,
          { plane, src, dst },
        );
      }
    }
    throw new DrsgError("INTERNAL", `create ${type} edge ${src} → ${dst}: not inserted`);
  }

  createEdges(plane: string, edges: EdgeInput[]): number[] {
    this.live("create edges");
    const p = this.planeId(plane);
    const ids: number[] = [];
    // Edges between nodes this write made (known to be here) wait in `rows`; any other goes
    // through createEdge, after the waiting ones, so ids keep the order of `edges`.
    let rows: unknown[] = [];
    let waiting = 0;
    const flush = (): void => {
      if (waiting === 0) return;
      let next = this.nextId("edges");
      for (let i = 0; i < waiting; i++) {
        rows[i * 7] = next;
        ids.push(next++);
      }
      const head = "INSERT INTO edges (id, plane, type, src, dst, props, since)";
      const row = "(?, ?, ?, ?, ?, ?, ?)";
      if (waiting === BATCH) this.ctx.stmt(valuesSql(head, row, BATCH)).run(rows);
      else {
        const one = this.ctx.stmt(valuesSql(head, row, 1));
        for (let i = 0; i < waiting; i++) one.run(rows.slice(i * 7, i * 7 + 7));
      }
      rows = [];
      waiting = 0;
    };
    for (const edge of edges) {
      const { type, src, dst } = edge;
      if (typeof type !== "string" || type === "" || this.made.get(src) !== p || this.made.get(dst) !== p) {
        flush();
        ids.push(this.createEdge(plane, edge));
        continue;
      }
      rows.push(0, p, type, src, dst, propsJson(edge.props, `create ${type} edge`), this.seq);
      if (++waiting === BATCH) flush();
    }
    flush();
    return ids;
  }

  updateEdge(plane: string, id: number, props: Props): void {
    this.live("update edge");
    const p = this.planeId(plane);
    const args = { p, id, s: this.seq, props: propsJson(props, `update edge ${id}`) };
    this.ctx.stmt(`${EDGE_HIST_COPY} WHERE id = @id AND plane = @p AND since < @s AND props IS NOT @props`).run(args);
    const r = this.ctx.stmt("UPDATE edges SET props = @props, since = @s WHERE id = @id AND plane = @p AND props IS NOT @props").run(args);
    if (r.changes === 0 && this.ctx.stmt("SELECT 1 FROM edges WHERE id = ? AND plane = ?").get(id, p) === undefined) {
      throw edgeNotFound(plane, id, `update edge ${id}`);
    }
  }

  deleteEdge(plane: string, id: number): void {
    this.live("delete edge");
    const p = this.planeId(plane);
    const args = { p, id, s: this.seq };
    this.ctx.stmt(`${EDGE_HIST_COPY} WHERE id = @id AND plane = @p AND since < @s`).run(args);
    const r = this.ctx.stmt("DELETE FROM edges WHERE id = @id AND plane = @p").run(args);
    if (r.changes === 0) throw edgeNotFound(plane, id, `delete edge ${id}`);
  }
}
