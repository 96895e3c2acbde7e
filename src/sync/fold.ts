// Folding a plane from one commit to another (DESIGN §6). The file list is the walk of the new
// commit; partials come from memory for blobs seen before, from the database cache by blob id
// otherwise, and only changed blobs are parsed; resolution runs over every partial (facts are a
// function of the partial set, which is what makes a fold converge with a full digest); then
// one transaction reconciles the plane, moves synced_commit and updates `<plane>_git`.
// PlaneSync keeps what a watcher needs between folds in memory.
import { realpath } from "node:fs/promises";
import { basename, relative, resolve, sep } from "node:path";
import { type GitPlaneDelta, gitPlaneName, isEmptyDelta, readGitPlane, writeGitPlane } from "../git/plane.js";
import { GitRepo } from "../git/repo.js";
import { log } from "../log.js";
import { DrsgError, errorText } from "../model/errors.js";
import type { Partial } from "../model/partial.js";
import { ExtractPool } from "../extract/pool.js";
import type { PluginSet } from "../plugin/host.js";
import type { Store } from "../store/types.js";
import { type ApplyStats, type PlaneState, applyFacts, loadPlaneState } from "./apply.js";
import { digest, storeCache } from "./digest.js";
import { buildFacts } from "./pipeline.js";
import { walkSource } from "./walk.js";

type Known = Map<string, { partial: Partial; oid: string; build: string }>;

export type SyncKind = "fold" | "build" | "rebuild" | "noop";

export interface FoldResult {
  plane: string;
  kind: SyncKind;
  /** The commit the plane reflected before (undefined for a first build). */
  from?: string;
  /** The commit it reflects now ("" when the repository has no commit yet). */
  to: string;
  /** Files under the tree that the commit range changed (tree diff; a rename counts twice). */
  filesChanged: number;
  parsed: number;
  cached: number;
  /** Facts created, patched or deleted in the code plane. */
  factsChanged: number;
  stats?: ApplyStats;
  /** History plane: commits added, facts written. */
  history?: { commits: number; facts: number };
  ms: number;
  /** Where the time went (milliseconds), for the benchmarks. */
  timings: { diff: number; walk: number; build: number; history: number; write: number };
  /** Why a full build ran instead of a fold. */
  reason?: string;
}

export interface PlaneSyncOptions {
  store: Store;
  /** The tree: a repository's root or a directory inside it. */
  dir: string;
  plugins: PluginSet;
  /** Plane name; default the directory's name (as digest does). */
  plane?: string;
  /** An extraction pool to share; else one is started on first need and closed by close(). */
  pool?: ExtractPool;
  /** Maintain `<plane>_git` (default true). */
  git?: boolean;
  /** Commits a first history build reads at most. */
  maxCommits?: number;
  /** Log each fold (default true). */
  log?: boolean;
  /** Test seam: runs inside the fold's write transaction, after the plane is reconciled. */
  insideWrite?: (commit: string) => void;
}

function factsChanged(s: ApplyStats): number {
  return s.nodesCreated + s.nodesPatched + s.nodesDeleted + s.edgesCreated + s.edgesPatched + s.edgesDeleted;
}

const short = (sha: string | undefined) => (sha ? sha.slice(0, 7) : "-");

/**
 * One plane following one repository. Every operation is serialised (a watcher may ask for a
 * fold while one runs). Holds the plane's parser-owned state and the partials of the last
 * commit in memory; both are dropped and reloaded whenever something else wrote to the database.
 */
export class PlaneSync {
  private state: PlaneState | undefined;
  /** The database commit our in-memory state matches. */
  private stateSeq = -1;
  private partials: Known = new Map();
  private queue: Promise<unknown> = Promise.resolve();
  private ownPool: ExtractPool | undefined;
  private closed = false;

  private constructor(
    private readonly opts: PlaneSyncOptions,
    readonly repo: GitRepo,
    /** The tree, canonical. */
    readonly root: string,
    readonly plane: string,
    /** The tree's path inside the repository ("" at its root), POSIX. */
    private readonly prefix: string,
  ) {}

  /** Open a plane's sync over a tree in git; GIT_ERROR when the tree is not in a repository. */
  static async open(opts: PlaneSyncOptions): Promise<PlaneSync> {
    let root: string;
    try {
      root = await realpath(resolve(opts.dir));
    } catch (e) {
      throw new DrsgError("DIR_NOT_FOUND", `sync '${opts.dir}': no such directory`, { dir: opts.dir }, { cause: e });
    }
    const repo = await GitRepo.find(root);
    if (!repo)
      throw new DrsgError(
        "GIT_ERROR",
        `sync '${root}': not inside a git repository — only committed trees are followed; drsg digest ${root} --apply reads a plain tree once`,
        { dir: root },
      );
    const rel = relative(repo.root, root).split(sep).join("/");
    return new PlaneSync(opts, repo, root, opts.plane ?? basename(root), rel);
  }

  get gitPlane(): string {
    return gitPlaneName(this.plane);
  }

  private get store(): Store {
    return this.opts.store;
  }

  /** The commit the plane records, or undefined. */
  syncedCommit(): string | undefined {
    const c = this.store.getPlane(this.plane)?.props.synced_commit;
    return typeof c === "string" && c !== "" ? c : undefined;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(() => {
      if (this.closed) throw new DrsgError("INTERNAL", `sync of plane '${this.plane}' is closed`);
      return fn();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private pool(): ExtractPool {
    if (this.opts.pool) return this.opts.pool;
    this.ownPool ??= new ExtractPool(this.opts.plugins.jobs());
    return this.ownPool;
  }

  /**
   * Start-up: in sync when the plane records HEAD; fold the gap when the recorded commit is
   * known to the repository; rebuild when it is not (rewritten history), or build the plane when
   * it has no commit yet. A repository without a commit is left alone (noop).
   */
  syncToHead(): Promise<FoldResult> {
    return this.serial(async () => {
      const head = await this.repo.head();
      if (!head) return this.noop("", "the repository has no commit yet");
      const synced = this.syncedCommit();
      if (!synced) return this.fullBuild(head, "build", "the plane records no commit");
      if (synced === head) {
        await this.warm(head);
        const r = this.noop(head);
        r.history = await this.updateHistoryOnly();
        return r;
      }
      if (await this.repo.isAncestorOrKnown(synced)) return this.fold(synced, head);
      return this.fullBuild(head, "rebuild", `recorded commit ${synced.slice(0, 12)} is unknown to the repository (rewritten history?)`);
    });
  }

  /** Fold the plane to `rev` (a sha, ref or any rev the repository resolves). */
  foldTo(rev: string): Promise<FoldResult> {
    return this.serial(async () => {
      const to = await this.repo.resolve(rev);
      const from = this.syncedCommit();
      if (!from) return this.fullBuild(to, "build", "the plane records no commit");
      if (from === to) {
        const r = this.noop(to);
        r.history = await this.updateHistoryOnly();
        return r;
      }
      if (!(await this.repo.isAncestorOrKnown(from)))
        return this.fullBuild(to, "rebuild", `recorded commit ${from.slice(0, 12)} is unknown to the repository (rewritten history?)`);
      return this.fold(from, to);
    });
  }

  /** Re-read the whole tree at the plane's commit (or HEAD) with the installed plugins. */
  rebuild(reason = "rebuild asked for"): Promise<FoldResult> {
    return this.serial(async () => {
      const at = this.syncedCommit() ?? (await this.repo.head());
      if (!at) throw new DrsgError("GIT_ERROR", `rebuild '${this.plane}': the repository has no commit yet`);
      return this.fullBuild(at, "rebuild", reason);
    });
  }

  /** A ref moved without HEAD moving (a branch, a tag, a fetch): update the history plane only. */
  refreshHistory(): Promise<{ commits: number; facts: number } | undefined> {
    return this.serial(() => this.updateHistoryOnly());
  }

  /** Stop: waits for a running fold, then closes the pool this sync started (never the store). */
  async close(): Promise<void> {
    await this.queue;
    this.closed = true;
    await this.ownPool?.close();
    this.ownPool = undefined;
  }

  // ---- internals ----

  private noop(to: string, reason?: string): FoldResult {
    return {
      plane: this.plane,
      kind: "noop",
      from: to || undefined,
      to,
      filesChanged: 0,
      parsed: 0,
      cached: 0,
      factsChanged: 0,
      ms: 0,
      timings: { diff: 0, walk: 0, build: 0, history: 0, write: 0 },
      ...(reason ? { reason } : {}),
    };
  }

  /**
   * Fill the in-memory partials of the plane's commit from the database cache (no parsing), so
   * the next fold reads nothing from the database for unchanged files. Start-up does it.
   */
  async warm(at = this.syncedCommit()): Promise<void> {
    if (this.partials.size > 0 || !at) return;
    const walk = await walkSource(this.root, { commit: at, repo: this.repo });
    const cache = storeCache(this.store);
    for (const f of walk.files) {
      const route = this.opts.plugins.route(f.path);
      if (!route || !f.oid) continue;
      const build = route.plugin.build;
      const hit = cache.get(f.oid, build);
      if (hit) this.partials.set(f.path, { partial: { ...hit, path: f.path }, oid: f.oid, build });
    }
  }

  private async readHistory(): Promise<GitPlaneDelta | undefined> {
    if (this.opts.git === false) return undefined;
    try {
      return await readGitPlane(this.repo, this.store, this.gitPlane, { root: this.root, maxCommits: this.opts.maxCommits });
    } catch (e) {
      log("warn", `history plane ${this.gitPlane} not updated: ${errorText(e)}`);
      return undefined;
    }
  }

  private async updateHistoryOnly(): Promise<{ commits: number; facts: number } | undefined> {
    const delta = await this.readHistory();
    if (!delta || isEmptyDelta(delta)) return undefined;
    const s = this.store.write((w) => writeGitPlane(w, delta));
    if (this.opts.log !== false) log("info", `history ${this.gitPlane}: ${delta.newCommits} new commit(s), ${s.nodes + s.edges} fact(s) written`);
    return { commits: delta.newCommits, facts: s.nodes + s.edges };
  }

  /** The tree-diff paths under our tree. */
  private changedUnderRoot(changes: { path: string }[]): number {
    if (this.prefix === "") return changes.length;
    const p = `${this.prefix}/`;
    return changes.filter((c) => c.path.startsWith(p)).length;
  }

  private async fold(from: string, to: string): Promise<FoldResult> {
    const t0 = performance.now();
    const changes = await this.repo.diffTrees(from, to);
    const t1 = performance.now();
    const walk = await walkSource(this.root, { commit: to, repo: this.repo });
    const t2 = performance.now();
    const build = await buildFacts({
      files: walk.files.map((f) => ({ path: f.path, oid: f.oid, read: () => walk.read(f) })),
      plugins: this.opts.plugins,
      treeName: basename(this.root),
      cache: storeCache(this.store),
      pool: this.pool(),
      known: this.partials,
    });
    const t3 = performance.now();
    const history = await this.readHistory();
    const t4 = performance.now();
    if (!this.state || this.stateSeq !== this.store.currentSeq()) this.state = loadPlaneState(this.store, this.plane);
    const state = this.state;
    // applyFacts mutates the state as it writes: until the transaction commits it is suspect.
    this.state = undefined;
    let gitFacts = 0;
    const stats = this.store.write((w) => {
      const s = applyFacts(w, this.plane, build.facts, state);
      w.setPlaneProps(this.plane, {
        synced_commit: to,
        synced_root: this.root,
        built_by: this.opts.plugins.builtBy,
        rebuilding_since: null,
      });
      if (history) {
        const g = writeGitPlane(w, history);
        gitFacts = g.nodes + g.edges;
      }
      this.opts.insideWrite?.(to);
      return s;
    });
    this.state = state;
    this.stateSeq = this.store.currentSeq();
    this.partials = build.partials;
    const t5 = performance.now();
    const r: FoldResult = {
      plane: this.plane,
      kind: "fold",
      from,
      to,
      filesChanged: this.changedUnderRoot(changes),
      parsed: build.report.parsed,
      cached: build.report.cached,
      factsChanged: factsChanged(stats),
      stats,
      ms: t5 - t0,
      timings: { diff: t1 - t0, walk: t2 - t1, build: t3 - t2, history: t4 - t3, write: t5 - t4 },
      ...(history ? { history: { commits: history.newCommits, facts: gitFacts } } : {}),
    };
    this.logResult(r);
    return r;
  }

  /** A full read of the tree at `to` (the same path as drsg digest), carrying rebuilding_since while it runs. */
  private async fullBuild(to: string, kind: "build" | "rebuild", reason: string): Promise<FoldResult> {
    const t0 = performance.now();
    const from = this.syncedCommit();
    if (this.opts.log !== false) log("info", `${kind} ${this.plane} at ${short(to)}: ${reason}`);
    const since = new Date().toISOString();
    this.store.write((w) => {
      if (w.getPlane(this.plane)) w.setPlaneProps(this.plane, { rebuilding_since: since });
      else w.createPlane(this.plane, { rebuilding_since: since });
    });
    this.state = undefined;
    this.partials = new Map();
    const d = await digest({
      dir: this.root,
      plugins: this.opts.plugins,
      plane: this.plane,
      store: this.store,
      pool: this.pool(),
      commit: to,
      git: this.opts.git,
      planeProps: { rebuilding_since: null },
    });
    this.partials = d.build.partials;
    const stats = d.applied!;
    const r: FoldResult = {
      plane: this.plane,
      kind,
      ...(from ? { from } : {}),
      to,
      filesChanged: d.walk.files.length,
      parsed: d.report.parsed,
      cached: d.report.cached,
      factsChanged: factsChanged(stats),
      stats,
      ms: performance.now() - t0,
      timings: { diff: 0, walk: 0, build: d.ms, history: 0, write: 0 },
      reason,
    };
    this.logResult(r);
    return r;
  }

  private logResult(r: FoldResult): void {
    if (this.opts.log === false) return;
    const range = r.from && r.kind === "fold" ? `${short(r.from)}..${short(r.to)}` : short(r.to);
    log(
      "info",
      `${r.kind} ${this.plane} ${range}: ${r.filesChanged} file(s) ${r.kind === "fold" ? "changed" : "read"}, ${r.parsed} parsed, ${r.factsChanged} fact(s) changed in ${Math.round(r.ms)} ms`,
    );
  }
}

export interface RebuildOptions {
  store: Store;
  plane: string;
  plugins: PluginSet;
  pool?: ExtractPool;
}

/**
 * Re-read a plane's own tree (its `synced_root`, never another) at its own commit with the
 * installed plugins: drift is cleared (built_by updated), node ids and non-parser facts kept.
 * The plane carries `rebuilding_since` while it runs. Outside git the working tree is read.
 */
export async function rebuildPlane(opts: RebuildOptions): Promise<FoldResult> {
  const { store, plane } = opts;
  const p = store.getPlane(plane);
  if (!p) {
    const names = store.listPlanes().map((x) => x.name);
    throw new DrsgError("PLANE_NOT_FOUND", `rebuild: no plane '${plane}' — planes: ${names.join(", ") || "none"}`, { plane });
  }
  const root = p.props.synced_root;
  if (typeof root !== "string" || root === "")
    throw new DrsgError(
      "BAD_INPUT",
      `rebuild '${plane}': the plane records no synced_root (it was not built from a tree), so there is nothing to re-read`,
      { plane },
    );
  if (plane.endsWith("_git") && store.getPlane(plane.slice(0, -4)))
    throw new DrsgError("BAD_INPUT", `rebuild '${plane}': that is a history plane — rebuild '${plane.slice(0, -4)}' (it refreshes the history too)`, {
      plane,
    });
  const repo = await GitRepo.find(root).catch(() => undefined);
  if (repo && (await repo.head())) {
    const sync = await PlaneSync.open({ store, dir: root, plugins: opts.plugins, plane, pool: opts.pool });
    try {
      return await sync.rebuild("rebuild asked for");
    } finally {
      await sync.close();
    }
  }
  // A working-tree plane (no commit): the same full read, from the files.
  const t0 = performance.now();
  store.write((w) => w.setPlaneProps(plane, { rebuilding_since: new Date().toISOString() }));
  const d = await digest({ dir: root, plugins: opts.plugins, plane, store, pool: opts.pool, planeProps: { rebuilding_since: null } });
  const stats = d.applied!;
  return {
    plane,
    kind: "rebuild",
    to: d.commit ?? "",
    filesChanged: d.walk.files.length,
    parsed: d.report.parsed,
    cached: d.report.cached,
    factsChanged: factsChanged(stats),
    stats,
    ms: performance.now() - t0,
    timings: { diff: 0, walk: 0, build: d.ms, history: 0, write: 0 },
    reason: "rebuild asked for",
  };
}
