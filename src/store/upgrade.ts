// Maintenance mode: a database whose schema needs a migration that is not instant (schema.ts,
// Migration.instant) is opened — locked, untouched — as a store that answers nothing but what
// the upgrade needs. `apply` copies the file aside first (VACUUM INTO: a consistent copy, WAL
// included), then migrates in one transaction; a server then serves it after a restart.
import { existsSync } from "node:fs";
import type Database from "better-sqlite3";
import { DrsgError } from "../model/errors.js";
import { MIGRATIONS, SCHEMA_VERSION } from "./schema.js";
import type { DbCommit, NodeSite, PlaneDelta, PlaneInfo, Reader, Store, StoredEdge, StoredNode, Writer } from "./types.js";

export interface UpgradeStatus {
  path: string;
  from: number;
  to: number;
  /** The steps, in order: version, what it does, whether it is instant. */
  steps: { from: number; what: string; instant: boolean }[];
  /** Set once applied: where the copy of the file as it was lies. */
  backup?: string;
  applied: boolean;
}

/** The steps that take schema `from` to this one. */
export function stepsFrom(from: number): UpgradeStatus["steps"] {
  const out: UpgradeStatus["steps"] = [];
  for (let v = from; v < SCHEMA_VERSION; v++) {
    const m = MIGRATIONS[v];
    if (!m) throw new DrsgError("DB_SCHEMA", `upgrade: no migration from schema v${v}`, { from: v });
    out.push({ from: v, what: m.what, instant: m.instant });
  }
  return out;
}

/** Whether every step from `from` is instant (so it is applied at open, as it always was). */
export function instantFrom(from: number): boolean {
  return stepsFrom(from).every((s) => s.instant);
}

/** Take the database to this schema in one transaction (every step, or none). */
export function migrate(db: Database.Database, from: number): void {
  db.exec("BEGIN IMMEDIATE");
  try {
    for (let v = from; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]!.sql);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
    db.exec("COMMIT");
  } catch (e) {
    db.exec("ROLLBACK");
    throw e;
  }
}

/** The refusal of everything else while a database waits for its upgrade. */
export function upgradeRequired(file: string, from: number, what: string): DrsgError {
  return new DrsgError(
    "UPGRADE_REQUIRED",
    `${what}: the database "${file}" is schema v${from} and needs an upgrade to v${SCHEMA_VERSION} that is not instant; ` +
      "upgrade_status says what it does and apply_upgrade runs it (backing the file up first) — drsg-mcp and drsg serve offer only those two until then",
    { path: file, from, to: SCHEMA_VERSION },
  );
}

/** A free path beside `file` for its copy: graph.drsg.v1.bak, else graph.drsg.v1.<time>.bak. */
function backupPath(file: string, from: number): string {
  const plain = `${file}.v${from}.bak`;
  if (!existsSync(plain)) return plain;
  for (let i = 0; ; i++) {
    const p = `${file}.v${from}.${Date.now()}${i ? `-${i}` : ""}.bak`;
    if (!existsSync(p)) return p;
  }
}

/**
 * The store of a database in maintenance mode: it lists no plane, reads as commit 0, and
 * refuses every other call with UPGRADE_REQUIRED; `status()` and `apply()` are the upgrade.
 */
export class MaintenanceStore implements Store {
  readonly retainCommits: number;
  private state: UpgradeStatus;

  constructor(
    private readonly db: Database.Database,
    readonly path: string,
    readonly from: number,
    retain: number,
    private readonly readonly: boolean,
    private readonly release: () => void,
  ) {
    this.retainCommits = retain;
    this.state = { path, from, to: SCHEMA_VERSION, steps: stepsFrom(from), applied: false };
  }

  status(): UpgradeStatus {
    return { ...this.state, steps: [...this.state.steps] };
  }

  /** Back the file up beside it, then migrate. Refused when opened readonly; a second call says it was done. */
  apply(): UpgradeStatus {
    if (this.state.applied) return this.status();
    if (this.readonly) {
      throw new DrsgError("READ_ONLY", `apply_upgrade: the database "${this.path}" was opened readonly; open it read-write to upgrade it`, {
        path: this.path,
      });
    }
    const backup = backupPath(this.path, this.from);
    this.db.prepare("VACUUM INTO ?").run(backup);
    migrate(this.db, this.from);
    this.state = { ...this.state, applied: true, backup };
    return this.status();
  }

  private refuse(what: string): never {
    if (this.state.applied) {
      throw new DrsgError("UPGRADE_REQUIRED", `${what}: the database "${this.path}" was upgraded; restart the server (or reconnect) to be served every tool`, {
        path: this.path,
      });
    }
    throw upgradeRequired(this.path, this.from, what);
  }

  // What a server asks at start-up answers empty; anything else is refused.
  listPlanes(): PlaneInfo[] {
    return [];
  }
  getPlane(_name: string): PlaneInfo | undefined {
    return this.refuse("read a plane");
  }
  currentSeq(): number {
    return 0;
  }
  planeSeq(_plane: string): number {
    return 0;
  }
  planeDelta(_plane: string, _since: number, _max: number): PlaneDelta | undefined {
    return undefined;
  }
  commits(): DbCommit[] {
    return [];
  }
  getNode(_plane: string, _id: number): StoredNode | undefined {
    return this.refuse("read a node");
  }
  getNodeByKey(_plane: string, _key: string): StoredNode | undefined {
    return this.refuse("read a node");
  }
  nodesByName(): StoredNode[] {
    return this.refuse("read nodes");
  }
  nodesKeyContaining(): StoredNode[] {
    return this.refuse("read nodes");
  }
  nodesByLabel(): StoredNode[] {
    return this.refuse("read nodes");
  }
  edgesOut(): StoredEdge[] {
    return this.refuse("read edges");
  }
  edgesIn(): StoredEdge[] {
    return this.refuse("read edges");
  }
  allNodes(): IterableIterator<StoredNode> {
    return this.refuse("read nodes");
  }
  allEdges(): IterableIterator<StoredEdge> {
    return this.refuse("read edges");
  }
  countNodes(): number {
    return this.refuse("count nodes");
  }
  countEdges(): number {
    return this.refuse("count edges");
  }
  nodeSites(): NodeSite[] {
    return this.refuse("read nodes");
  }
  write<T>(_fn: (w: Writer) => T): T {
    return this.refuse("write");
  }
  asOf(_seq: number): Reader {
    return this.refuse("read as of");
  }
  seqAt(_ms: number): number {
    return this.refuse("read as of");
  }
  searchText(): StoredNode[] {
    return this.refuse("search");
  }
  getCachedPartial(): string | undefined {
    return undefined;
  }
  putCachedPartials(): void {
    this.refuse("cache partials");
  }
  close(): void {
    if (!this.db.open) return;
    this.release();
    this.db.close();
  }
}

/** The maintenance store behind `store` (itself, or a routed store's main database), if it is one. */
export function maintenanceOf(store: Store): MaintenanceStore | undefined {
  if (store instanceof MaintenanceStore) return store;
  const main = (store as { main?: Store }).main;
  return main instanceof MaintenanceStore ? main : undefined;
}
