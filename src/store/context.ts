// What a store's readers and writers share: the connection, its prepared statements, the plane
// name → id cache, and the commit window (latest commit, oldest readable commit).

import type Database from "better-sqlite3";
import { DrsgError } from "../model/errors.js";
import type { Props } from "../model/facts.js";
import type { StoredEdge, StoredNode } from "./types.js";

export interface NodeRow {
  id: number;
  key: string;
  labels: string;
  props: string;
}

export interface EdgeRow {
  id: number;
  type: string;
  src: number;
  dst: number;
  props: string;
}

export class StoreContext {
  private readonly stmts = new Map<string, Database.Statement>();
  /** Current plane ids by name; cleared when a write rolls back. */
  readonly planeIds = new Map<string, number>();
  /** Current-state plane rows (with their counts) as of commit `seq`; outside transactions only. */
  planeRows: { seq: number; rows: Map<string, unknown> } = { seq: -1, rows: new Map() };
  /** The newest commit. */
  latest = 0;
  latestAt = 0;
  /** The oldest commit whose state has been reclaimed-to (0: nothing ever reclaimed). */
  storedFloor = 0;
  /**
   * The highest node and edge id at the end of recent commits (this process holds the file
   * alone, so it sees every commit after its open): rows created after commit s are exactly those
   * above s's watermark (ids are AUTOINCREMENT), which makes a plane's delta since s an index
   * range instead of a scan of the plane.
   */
  readonly watermarks = new Map<number, { node: number; edge: number }>();
  /** True while a write() transaction is open. */
  writing = false;
  closed = false;

  constructor(
    readonly db: Database.Database,
    readonly file: string,
    readonly retain: number,
  ) {}

  /** A statement prepared once per store. Not for an iterator handed to a caller (a statement being iterated is busy). */
  stmt(sql: string): Database.Statement {
    if (this.closed) throw new DrsgError("INTERNAL", `use of database "${this.file}" after close(); open it again`);
    let s = this.stmts.get(sql);
    if (s === undefined) {
      s = this.db.prepare(sql);
      this.stmts.set(sql, s);
    }
    return s;
  }

  /**
   * A statement prepared once per store that returns rows as arrays (column order): for reads of
   * many thousands of rows, where building an object per row costs more than the read.
   */
  rawStmt(sql: string): Database.Statement {
    return this.shaped("raw", sql);
  }

  /** A statement prepared once per store that returns each row's first column alone: one number per row of a walk. */
  pluckStmt(sql: string): Database.Statement {
    return this.shaped("pluck", sql);
  }

  private shaped(shape: "raw" | "pluck", sql: string): Database.Statement {
    if (this.closed) throw new DrsgError("INTERNAL", `use of database "${this.file}" after close(); open it again`);
    const key = `${shape}\u0000${sql}`;
    let s = this.stmts.get(key);
    if (s === undefined) {
      s = shape === "raw" ? this.db.prepare(sql).raw(true) : this.db.prepare(sql).pluck(true);
      this.stmts.set(key, s);
    }
    return s;
  }

  /** The floor the retention asks for, given the latest commit. 0 means "nothing reclaimed". */
  floorFor(latest: number): number {
    if (this.retain === 0) return this.storedFloor;
    const f = latest - this.retain + 1;
    return f > 1 ? Math.max(f, this.storedFloor) : this.storedFloor;
  }

  /** The oldest commit readable as-of now. */
  floor(): number {
    return this.floorFor(this.latest);
  }

  outOfRange(seq: number, what: string): DrsgError {
    const f = this.floor();
    return new DrsgError(
      "AS_OF_OUT_OF_RANGE",
      `${what}: commit ${seq} is older than the retained window (commits ${f}..${this.latest} are readable); ` +
        `set DRSG_RETAIN_COMMITS higher (0 keeps all) to keep more history`,
      { seq, floor: f, latest: this.latest },
    );
  }
}

export function toNode(plane: string, r: NodeRow): StoredNode {
  return { id: r.id, plane, key: r.key, labels: JSON.parse(r.labels) as string[], props: JSON.parse(r.props) as Props };
}

export function toEdge(plane: string, r: EdgeRow): StoredEdge {
  return { id: r.id, plane, type: r.type, src: r.src, dst: r.dst, props: JSON.parse(r.props) as Props };
}

/** JSON text of a property map; refuses values JSON cannot carry faithfully. */
export function propsJson(props: Props, what: string): string {
  if (props === null || typeof props !== "object" || Array.isArray(props)) {
    throw new DrsgError("BAD_INPUT", `${what}: properties must be an object, got ${JSON.stringify(props)}`);
  }
  if (tooDeep(props, MAX_PROPS_DEPTH)) {
    throw new DrsgError(
      "BAD_INPUT",
      `${what}: properties nest deeper than ${MAX_PROPS_DEPTH} levels (SQLite's JSON functions read at most 1000; keep deep data as a JSON string)`,
      { maxDepth: MAX_PROPS_DEPTH },
    );
  }
  return JSON.stringify(props);
}

/** How deep a property value may nest (objects and arrays); SQLite's JSON functions stop at 1000. */
export const MAX_PROPS_DEPTH = 256;

/** Whether a value nests objects/arrays more than `limit` levels (iterative: no stack overflow on hostile input). */
function tooDeep(root: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (d > limit) return true;
    if (Array.isArray(v)) {
      for (const x of v) if (x !== null && typeof x === "object") stack.push([x, d + 1]);
    } else {
      for (const k in v as Record<string, unknown>) {
        const x = (v as Record<string, unknown>)[k];
        if (x !== null && typeof x === "object") stack.push([x, d + 1]);
      }
    }
  }
  return false;
}

export function planeNotFound(name: string, asOf?: number): DrsgError {
  const when = asOf === undefined ? "" : ` as of commit ${asOf}`;
  return new DrsgError(
    "PLANE_NOT_FOUND",
    `plane "${name}" does not exist${when}; list_planes shows the planes this database holds`,
    { plane: name, ...(asOf === undefined ? {} : { asOf }) },
  );
}
