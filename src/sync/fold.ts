// Folding a plane from one commit to another (DESIGN §6). The tree diff changes the last walk
// into the walk of the new commit (same skip rules); partials come from memory for blobs seen
// before, from the database cache by blob id otherwise, and only changed blobs are parsed;
// resolution is redone for what the change can affect (incremental.ts; in full when a file is
// added, deleted or renamed or a manifest changes); then one transaction reconciles the plane,
// moves synced_commit and updates `<plane>_git` (and `<plane>_ops`). A failed fold leaves
// everything as it was. PlaneSync keeps what a watcher needs between folds in memory.
import { realpath } from "node:fs/promises";
import { basename, relative, resolve, sep } from "node:path";
import { type GitPlaneDelta, gitPlaneName, isEmptyDelta, readGitPlane, writeGitPlane } from "../git/plane.js";
import { GitRepo, type TreeChange } from "../git/repo.js";
import { interruptedRebuild, REBUILT, rebuildingMarker } from "./marker.js";
import { log } from "../log.js";
import { isManifestPath } from "../ops/manifests.js";
import { opsPlaneName, readManifests, writeOpsPlane } from "../ops/plane.js";
import { DrsgError, errorText } from "../model/errors.js";
import { ExtractPool, IDLE_GC_MS } from "../extract/pool.js";
import type { PluginSet } from "../plugin/host.js";
import { releaseMemory, setCacheSize } from "../store/store.js";
import { trimCHeap } from "../store/trim.js";
import type { Store } from "../store/types.js";
import { type ApplyStats, type PlaneState, type StateView, applyChanges, applyFacts, canonical, loadPlaneFacts, loadPlaneState } from "./apply.js";
import { digest, storeCache } from "./digest.js";
import { FactIndex, type IncrementalStats, type Known, type KnownPartial } from "./incremental.js";
import { deferredPartial, isUnread, lazyCapable, planeSource, writerState } from "./lazy.js";
import { buildFacts, type PartialCache } from "./pipeline.js";
import type { Partial } from "../model/partial.js";
import { familyReadsOnDemand } from "../resolve/index.js";
import { DEFAULT_MAX_BYTES, type WalkFile, blobSizeOrMissing, gitEntrySkip, walkSource } from "./walk.js";

/** The tree the plane reflects: its readable files and the manifests the plugins read. */
interface Tree {
  commit: string;
  files: Map<string, WalkFile>;
  /** Plugin name → manifest path → text. */
  manifests: Map<string, Map<string, string>>;
}

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
  /** How resolution went: which plugins' facts were recomputed in part, which in full. */
  resolution?: IncrementalStats;
}

export interface PlaneSyncOptions {
  store: Store;
  /** The tree: a repository's root or a directory inside it. */
  dir: string;
  plugins: PluginSet;
  /**
   * The installed set as it is now, asked before every operation (a server passes
   * `activePlugins`). When its builders differ from the set the sync holds, the sync adopts it
   * and its next operation reads the whole tree (so a plugin installed while the server runs is
   * used by `rebuild` and by the next fold, never ignored).
   */
  pluginsNow?: () => PluginSet;
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
  /**
   * Check every incremental resolution against a full one and use the full one on a mismatch
   * (logged). Default: $DRSG_FOLD_VERIFY=1. Costs a full resolution per fold.
   */
  verify?: boolean;
}

function sameBuilders(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function factsChanged(s: ApplyStats): number {
  return s.nodesCreated + s.nodesPatched + s.nodesDeleted + s.edgesCreated + s.edgesPatched + s.edgesDeleted;
}

/** A follower's SQLite page cache (KiB; boundMemory). */
export const FOLLOWER_CACHE_KIB = 8192;
/**
 * A follower hands the C heap's free pages back this long after a sync ends (trimCHeap): once
 * its workers have collected their garbage too (they do after IDLE_GC_MS idle).
 */
export const FOLLOWER_TRIM_MS = IDLE_GC_MS + 100;

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
  /** Claimed files that yielded no partial (binary, extraction failed), by path → `oid build`. */
  private unreadable = new Map<string, string>();
  private tree: Tree | undefined;
  private index: FactIndex;
  /** The installed plugin set changed under us: the next fold reads the whole tree. */
  private pluginsChanged: string | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private ownPool: ExtractPool | undefined;
  private closed = false;
  /** Follower mode (boundMemory): the store's page cache is bounded and emptied after each sync. */
  private memoryBound = false;
  private trimTimer: NodeJS.Timeout | undefined;
  /** warm() defers reading partials (lazy.ts, deferredPartial) until one could not be read. */
  private deferPartials = true;

  private constructor(
    private readonly opts: PlaneSyncOptions,
    readonly repo: GitRepo,
    /** The tree, canonical. */
    readonly root: string,
    readonly plane: string,
    /** The tree's path inside the repository ("" at its root), POSIX. */
    private readonly prefix: string,
  ) {
    this.index = new FactIndex(opts.plugins);
  }

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
    // Our own copy: adopting a newly installed plugin set replaces `plugins` in it.
    return new PlaneSync({ ...opts }, repo, root, opts.plane ?? basename(root), rel);
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

  /**
   * Follower mode, for a process that folds for hours (drsg watch, drsg serve watch): the store's
   * SQLite page cache is held to FOLLOWER_CACHE_KIB (a full build gets the default back while it
   * runs) and handed back after every fold, so the C heap does not fill toward the cache bound
   * as the folds touch more of a growing file. Reads between folds come from the OS page cache.
   * Once a sync's garbage is collected (FOLLOWER_TRIM_MS after it), the C heap's free pages go
   * back to the system (trimCHeap), so the holes a fold leaves do not ratchet RSS up.
   */
  boundMemory(): void {
    this.memoryBound = true;
    setCacheSize(this.store, FOLLOWER_CACHE_KIB);
    releaseMemory(this.store);
  }

  /**
   * Take the installed plugin set as it is now (opts.pluginsNow). A changed set replaces the
   * resolver index and the extraction pool this sync started (its workers hold the old grammars),
   * and marks the next fold as a full read. A set that cannot be loaded (a tampered plugin) keeps
   * the one in use, logged.
   */
  private adoptPlugins(): void {
    if (!this.opts.pluginsNow) return;
    let now: PluginSet;
    try {
      now = this.opts.pluginsNow();
    } catch (e) {
      log("warn", `plane '${this.plane}': the installed plugins could not be loaded, folding with the set in use: ${(e as Error).message}`);
      return;
    }
    const was = this.opts.plugins.builtBy;
    if (now === this.opts.plugins || sameBuilders(now.builtBy, was)) return;
    const added = now.builtBy.filter((b) => !was.includes(b));
    const removed = was.filter((b) => !now.builtBy.includes(b));
    this.pluginsChanged = [...added.map((b) => `+${b}`), ...removed.map((b) => `-${b}`)].join(", ");
    log("info", `plane '${this.plane}': installed plugins changed (${this.pluginsChanged}); the next sync reads the whole tree`);
    this.opts.plugins = now;
    this.index = new FactIndex(now);
    this.partials = new Map();
    this.unreadable.clear();
    this.tree = undefined;
    const old = this.ownPool;
    this.ownPool = undefined;
    void old?.close();
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(async () => {
      if (this.closed) throw new DrsgError("INTERNAL", `sync of plane '${this.plane}' is closed`);
      if (this.trimTimer) clearTimeout(this.trimTimer);
      this.adoptPlugins();
      try {
        return await fn();
      } finally {
        if (this.memoryBound) {
          releaseMemory(this.store);
          this.trimTimer = setTimeout(() => {
            this.trimTimer = undefined;
            trimCHeap();
          }, FOLLOWER_TRIM_MS);
          this.trimTimer.unref();
        }
      }
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
      const interrupted = interruptedRebuild(this.store.getPlane(this.plane)?.props ?? {});
      if (interrupted) return this.fullBuild(head, "rebuild", `a rebuild started ${interrupted} was interrupted; reading the tree again`);
      // In sync: nothing is read, even when the installed plugins changed (answers say so until
      // a rebuild, or the next commit, reads the tree with them).
      if (synced === head) {
        await this.warm(head);
        const r = this.noop(head);
        r.history = await this.updateHistoryOnly();
        return r;
      }
      if (this.pluginsChanged) return this.fullBuild(head, "rebuild", `the installed plugins changed (${this.pluginsChanged})`);
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
      if (this.pluginsChanged) return this.fullBuild(to, "rebuild", `the installed plugins changed (${this.pluginsChanged})`);
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
    if (this.trimTimer) clearTimeout(this.trimTimer);
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
   * `compile`: have the workers compile the tree's grammars meanwhile (false for a fold, which
   * extracts its changed files ahead on a worker of its own).
   */
  async warm(at = this.syncedCommit(), compile = true): Promise<void> {
    if (!at || (this.tree?.commit === at && !this.index.empty)) return;
    const walk = await walkSource(this.root, { commit: at, repo: this.repo });
    const jobs = new Set<string>();
    for (const f of walk.files) {
      const route = this.opts.plugins.route(f.path);
      if (route && f.oid) jobs.add(route.job);
    }
    // The workers compile the tree's grammars now, beside the reads below, so the first commit
    // folded after start-up pays no query compile (a load failure surfaces with the first file).
    // A fold warming up extracts its own files ahead instead (extractAhead).
    const warming = compile
      ? this.pool()
          .warm([...jobs])
          .catch(() => [])
      : undefined;
    const cache = storeCache(this.store, { lazyRefs: true });
    // When the plane will seed the index (it vouches for `at`), a file's partial is read only if
    // the fold's resolution asks for it; else every one is read now.
    const defer = this.deferPartials && cache.has !== undefined && lazyCapable(this.store) && !this.verifying && this.trustedNotes(at) !== undefined;
    const partials: Known = new Map();
    let missing = 0;
    for (const f of walk.files) {
      const route = this.opts.plugins.route(f.path);
      if (!route || !f.oid) continue;
      const build = route.plugin.build;
      const known = this.partials.get(f.path);
      if (known && known.oid === f.oid && known.build === build) {
        partials.set(f.path, known);
        continue;
      }
      if (defer) {
        if (cache.has!(f.oid, build)) partials.set(f.path, { partial: deferredFrom(cache, f.path, f.oid, build), oid: f.oid, build });
        else missing++;
        continue;
      }
      const hit = cache.get(f.oid, build);
      if (hit) {
        hit.path = f.path; // the object is ours (a spread would parse its refs)
        partials.set(f.path, { partial: hit, oid: f.oid, build });
      }
      else missing++;
    }
    this.partials = partials;
    if (defer && this.memoryBound) this.prefetch(partials);
    const tree: Tree = { commit: at, files: new Map(walk.files.map((f) => [f.path, f])), manifests: new Map() };
    await this.readManifests(tree, undefined);
    this.tree = tree;
    // With every partial at hand, make the first fold incremental: from the plane's own facts
    // when they are what these plugins built (no resolution at all), else by resolving now.
    if (missing === 0 && !this.seedFromPlane(at, partials, tree)) await this.index.update(partials, tree.manifests, basename(this.root), new Set());
    await warming;
  }

  /**
   * A follower reads the partials warm() deferred in the background, a few at a time between
   * other work: its first fold after start-up then finds them read (a one-shot fold, `drsg digest
   * --apply`, reads only those its resolution meets). A partial that cannot be read is left to
   * the fold (it reads the tree eagerly then).
   */
  private prefetch(partials: Known): void {
    this.readInBackground([...partials.values()], () => this.closed);
  }

  /**
   * Read the unread partials of `known` a few at a time, each batch in its own turn of the event
   * loop, until they are all read or `stop()` says so. A partial that cannot be read is left to
   * the fold that needs it (PartialUnavailable sends it to an eager read).
   */
  private readInBackground(known: KnownPartial[], stop: () => boolean): void {
    const pending = known.filter((x) => isUnread(x.partial));
    const step = () => {
      if (stop()) return;
      for (let i = 0; i < 16; i++) {
        const x = pending.pop();
        if (!x) return;
        try {
          void x.partial.defs;
        } catch {
          // PartialUnavailable: the fold that needs it falls back to an eager read
        }
      }
      setImmediate(step);
    };
    if (pending.length > 0) setImmediate(step);
  }

  /**
   * Seed the incremental index (and the plane state) from the facts the plane holds at `at`,
   * when they are exactly what a resolution of these partials would give: the plane records
   * `at`, was built by this plugin set, no rebuild is pending, and its last full build reported
   * no key collision (ownership by file would be ambiguous). False when it cannot vouch for that.
   */
  private seedFromPlane(at: string, partials: Known, tree: Tree): boolean {
    const notes = this.trustedNotes(at);
    if (!notes) return false;
    // Lazily, unless every fold is to be checked against a full resolution (which reads the
    // index's facts before the plane has them): the plane is read as the fold needs it (lazy.ts).
    if (lazyCapable(this.store) && !this.verifying) {
      this.index.seedLazy(planeSource(this.store, this.plane), partials, tree.manifests, notes);
      if (this.index.empty && this.store.countNodes(this.plane) > 0) return false;
      return true;
    }
    const { state, facts } = loadPlaneFacts(this.store, this.plane);
    this.index.seed(facts, partials, tree.manifests, notes);
    if (this.index.empty && facts.nodes.length > 0) return false;
    this.state = state;
    this.stateSeq = this.store.currentSeq();
    return true;
  }

  /**
   * The plane's last build notes when the plane vouches for being what these plugins resolve
   * at `at`: it records `at`, these plugins built it, no rebuild is pending, and its last full
   * build reported no key collision (ownership by file would be ambiguous). Else undefined.
   */
  private trustedNotes(at: string): string[] | undefined {
    const p = this.store.getPlane(this.plane);
    if (!p || p.props.synced_commit !== at || p.props.rebuilding_since !== undefined) return undefined;
    const builtBy = Array.isArray(p.props.built_by) ? p.props.built_by.map(String) : undefined;
    if (!builtBy || !sameBuilders(builtBy, this.opts.plugins.builtBy)) return undefined;
    const ledger = p.props.ledger;
    const notes = ledger && typeof ledger === "object" && !Array.isArray(ledger) && Array.isArray(ledger.notes) ? ledger.notes.map(String) : undefined;
    if (!notes || notes.some((n) => /collision/i.test(n))) return undefined;
    return notes;
  }

  private get verifying(): boolean {
    return this.opts.verify ?? process.env.DRSG_FOLD_VERIFY === "1";
  }

  /** Does the _ops plane hold an image whose tag names a revision the history did not have yet? */
  private opsAwaitsHistory(): boolean {
    const ops = opsPlaneName(this.plane);
    if (!this.store.getPlane(ops)) return false;
    return this.store.nodesByLabel(ops, "Image", 100_000).some((n) => n.props.revision_known === false);
  }

  /** Manifest texts per plugin (all of them, or only the changed paths when `changed` is given). */
  private async readManifests(tree: Tree, changed: Set<string> | undefined): Promise<Set<string>> {
    const touched = new Set<string>();
    for (const plugin of this.opts.plugins.plugins) {
      const names = new Set(plugin.manifest.manifests);
      if (names.size === 0) continue;
      const name = plugin.manifest.name;
      const m = tree.manifests.get(name) ?? new Map<string, string>();
      tree.manifests.set(name, m);
      const paths = changed ? [...changed] : [...tree.files.keys()];
      for (const p of paths) {
        if (!names.has(p.slice(p.lastIndexOf("/") + 1))) continue;
        touched.add(p);
        const f = tree.files.get(p);
        if (!f?.oid) {
          m.delete(p);
          continue;
        }
        try {
          m.set(p, new TextDecoder("utf-8").decode(await this.repo.readBlob(f.oid)));
        } catch {
          m.delete(p);
        }
      }
      // The pipeline passes manifests sorted by path.
      tree.manifests.set(name, new Map([...m].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))));
    }
    return touched;
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

  /** The tree at `to`: the tree at `from` changed by the tree diff (same skip rules as the walk), else a walk. */
  private async treeAt(from: string, to: string, changes: TreeChange[]): Promise<{ tree: Tree; changed: Set<string> }> {
    const changed = new Set<string>();
    const cut = this.prefix === "" ? 0 : this.prefix.length + 1;
    for (const c of changes) if (cut === 0 || c.path.startsWith(`${this.prefix}/`)) changed.add(c.path.slice(cut));
    const prior = this.tree;
    if (!prior || prior.commit !== from) {
      const walk = await walkSource(this.root, { commit: to, repo: this.repo });
      const tree: Tree = { commit: to, files: new Map(walk.files.map((f) => [f.path, f])), manifests: new Map() };
      await this.readManifests(tree, undefined);
      return { tree, changed };
    }
    const files = new Map(prior.files);
    const byPath = new Map(changes.map((c) => [c.path.slice(cut), c]));
    for (const rel of changed) {
      const c = byPath.get(rel)!;
      if (c.change === "D" || !c.newOid || gitEntrySkip(rel, c.newMode ?? "100644")) {
        files.delete(rel);
        continue;
      }
      // The walk's rules: a missing object or an oversized blob is not read.
      const size = await blobSizeOrMissing(this.repo, c.newOid);
      if (size === undefined || size > DEFAULT_MAX_BYTES) files.delete(rel);
      else files.set(rel, { path: rel, size, oid: c.newOid });
    }
    const tree: Tree = { commit: to, files, manifests: new Map([...prior.manifests].map(([k, v]) => [k, new Map(v)])) };
    const touched = await this.readManifests(tree, changed);
    for (const p of touched) changed.add(p);
    return { tree, changed };
  }

  /**
   * Extract the blobs a tree diff brings in (claimed, within the walk's size bound) into the
   * partial cache, so the fold after a start-up finds them there. Never rejects: what fails here
   * is extracted (and reported) by the fold itself.
   */
  private async extractAhead(changes: TreeChange[]): Promise<number> {
    try {
      const cut = this.prefix === "" ? 0 : this.prefix.length + 1;
      const claimed: { path: string; oid: string; job: string }[] = [];
      for (const c of changes) {
        if (c.change === "D" || !c.newOid || (cut > 0 && !c.path.startsWith(`${this.prefix}/`))) continue;
        const rel = c.path.slice(cut);
        const route = this.opts.plugins.route(rel);
        if (!route || gitEntrySkip(rel, c.newMode ?? "100644")) continue;
        claimed.push({ path: rel, oid: c.newOid, job: route.job });
      }
      if (claimed.length === 0 || claimed.length > 64) return 0;
      // A pool already running does it; else one worker (the main thread is busy reading the
      // other partials, and a full pool would compile every grammar on every core). Started
      // before anything here awaits, with its grammars: the worker's start-up and query compile
      // (~0.5 s for TypeScript's) then run beside warm()'s reads, not after them.
      const shared = this.opts.pool ?? this.ownPool;
      const pool = shared ?? new ExtractPool(this.opts.plugins.jobs(), 1);
      const compiling = pool.warm([...new Set(claimed.map((c) => c.job))]).catch(() => undefined);
      try {
        const files: { path: string; oid: string; read: () => Promise<Uint8Array> }[] = [];
        for (const { path, oid } of claimed) {
          const size = await blobSizeOrMissing(this.repo, oid);
          if (size === undefined || size > DEFAULT_MAX_BYTES) continue;
          files.push({ path, oid, read: () => this.repo.readBlob(oid) });
        }
        if (files.length === 0) return 0;
        const b = await buildFacts({ files, plugins: this.opts.plugins, treeName: basename(this.root), cache: storeCache(this.store), pool });
        return b.report.parsed;
      } finally {
        await compiling;
        if (!shared) await pool.close();
      }
    } catch {
      return 0; // the fold extracts them again
    }
  }

  /**
   * Await `extracted`, reading meanwhile — a few at a time, between the events that bring it —
   * the deferred partials the resolution will read anyway: those of families that read every
   * file's definitions (familyReadsOnDemand). A one-shot fold's main thread otherwise waits idle
   * for the worker that extracts the changed files. A partial that cannot be read is left to the
   * fold (it reads the tree eagerly then).
   */
  private async readingWhile<T>(extracted: Promise<T>): Promise<T> {
    let settled = false;
    const everyFile = [...this.partials.entries()].filter(([path]) => !familyReadsOnDemand(this.opts.plugins.route(path)?.plugin.manifest.resolver ?? ""));
    this.readInBackground(
      everyFile.map(([, x]) => x),
      () => settled || this.closed,
    );
    try {
      return await extracted;
    } finally {
      settled = true;
    }
  }

  /** Partials for every claimed file of `tree`: kept when the blob is known, cached or parsed otherwise. */
  private async partialsOf(tree: Tree): Promise<{ partials: Known; parsed: number; cached: number }> {
    const partials: Known = new Map();
    const need: WalkFile[] = [];
    for (const [path, f] of tree.files) {
      const route = this.opts.plugins.route(path);
      if (!route || !f.oid) continue;
      const build = route.plugin.build;
      const k = this.partials.get(path);
      if (k && k.oid === f.oid && k.build === build) partials.set(path, k);
      else if (this.unreadable.get(path) !== `${f.oid} ${build}`) need.push(f);
    }
    if (need.length === 0) return { partials, parsed: 0, cached: 0 };
    // The pipeline's own extraction (cache by blob id, worker pool, binary and failure rules).
    // No pool is started for blobs the cache holds (extracted ahead): workers cost a start-up.
    const cache = storeCache(this.store);
    const cached = cache.has !== undefined && need.every((f) => cache.has!(f.oid!, this.opts.plugins.route(f.path)!.plugin.build));
    const b = await buildFacts({
      files: need.map((f) => ({ path: f.path, oid: f.oid, read: () => this.repo.readBlob(f.oid!) })),
      plugins: this.opts.plugins,
      treeName: basename(this.root),
      cache,
      pool: cached ? (this.opts.pool ?? this.ownPool) : this.pool(),
    });
    for (const f of need) {
      const x = b.partials.get(f.path);
      if (x) {
        partials.set(f.path, x);
        this.unreadable.delete(f.path);
      } else this.unreadable.set(f.path, `${f.oid} ${this.opts.plugins.route(f.path)!.plugin.build}`);
    }
    return { partials, parsed: b.report.parsed, cached: b.report.cached };
  }

  private async fold(from: string, to: string): Promise<FoldResult> {
    try {
      return await this.foldOnce(from, to);
    } catch (e) {
      if (!(e instanceof PartialUnavailable)) throw e;
      // A deferred partial could not be read after all (its cache row went bad): read the tree
      // eagerly, extracting what the cache lacks, and fold again.
      log("warn", `fold ${this.plane}: ${e.message}; reading every partial`);
      this.deferPartials = false;
      this.index.reset();
      this.tree = undefined;
      this.partials = new Map();
      return this.foldOnce(from, to);
    }
  }

  private async foldOnce(from: string, to: string): Promise<FoldResult> {
    const t0 = performance.now();
    // What the index knows is the tree at `from`; anything else starts it afresh — from the
    // plane's own facts when it can (a fresh process folding one commit resolves only the change).
    const changes = await this.repo.diffTrees(from, to);
    // The history is read meanwhile (it waits on git, the fold on its workers); never rejects.
    const historyRead = this.readHistory();
    let parsedAhead = 0;
    // An index held by the plane is only as good as the plane: it must still vouch for `from`.
    if (this.tree?.commit !== from || (this.index.lazy && !this.trustedNotes(from))) {
      this.index.reset();
      this.tree = undefined;
      // The changed files are extracted on the workers while the partials of the rest are read.
      const ahead = this.extractAhead(changes);
      await this.warm(from, false);
      parsedAhead = await this.readingWhile(ahead);
    }
    const t1 = performance.now();
    const { tree, changed } = await this.treeAt(from, to, changes);
    const t2 = performance.now();
    const got = await this.partialsOf(tree);
    const { partials } = got;
    // What was extracted ahead is found in the cache by partialsOf: it was parsed all the same.
    const parsed = got.parsed + Math.min(parsedAhead, got.cached);
    const cached = got.cached - Math.min(parsedAhead, got.cached);
    const manifestChanges = new Set<string>();
    for (const p of changed) {
      const base = p.slice(p.lastIndexOf("/") + 1);
      if (this.opts.plugins.plugins.some((pl) => pl.manifest.manifests.includes(base))) manifestChanges.add(p);
    }
    let resolved = await this.index.update(partials, tree.manifests, basename(this.root), manifestChanges);
    if (resolved.changes && this.verifying) resolved = await this.verified(resolved, partials, tree);
    const t3 = performance.now();
    const history = await historyRead;
    // The _ops plane follows the manifests: re-read them when one changed, or when new commits
    // or tags may now join an image tag to the history.
    const opsDue = [...changed].some((p) => isManifestPath(p)) || (history !== undefined && !isEmptyDelta(history) && this.opsAwaitsHistory());
    const manifests = opsDue
      ? await readManifests([...tree.files.values()], (p) => this.repo.readBlob(tree.files.get(p)!.oid!))
      : undefined;
    const t4 = performance.now();
    // The state in memory when it is current; a delta needs none (it reads the rows it patches
    // from the writer); a full reconcile reads the plane.
    const held = this.state && this.stateSeq === this.store.currentSeq() ? this.state : undefined;
    const state: PlaneState | undefined = held ?? (resolved.changes ? undefined : loadPlaneState(this.store, this.plane));
    // The reconcile mutates the state as it writes: until the transaction commits it is suspect.
    this.state = undefined;
    let gitFacts = 0;
    let stats: ApplyStats;
    try {
      stats = this.store.write((w) => {
        const view: StateView = state ?? writerState(w, this.plane);
        const s = resolved.changes ? applyChanges(w, this.plane, resolved.changes, view) : applyFacts(w, this.plane, resolved.all!, state!);
        w.setPlaneProps(this.plane, {
          synced_commit: to,
          synced_root: this.root,
          built_by: this.opts.plugins.builtBy,
          ...REBUILT,
        });
        if (history) {
          const g = writeGitPlane(w, history);
          gitFacts = g.nodes + g.edges;
        }
        if (manifests) writeOpsPlane(w, this.store, this.plane, manifests, { commit: to, root: this.root });
        this.opts.insideWrite?.(to);
        return s;
      });
    } catch (e) {
      // The index already moved on to `to`: forget it, the next fold resolves in full.
      this.index.reset();
      this.tree = undefined;
      throw e;
    }
    this.state = state;
    if (state) this.stateSeq = this.store.currentSeq();
    this.partials = partials;
    this.tree = tree;
    const t5 = performance.now();
    const r: FoldResult = {
      plane: this.plane,
      kind: "fold",
      from,
      to,
      filesChanged: this.changedUnderRoot(changes),
      parsed,
      cached,
      factsChanged: factsChanged(stats),
      stats,
      ms: t5 - t0,
      timings: { diff: t1 - t0, walk: t2 - t1, build: t3 - t2, history: t4 - t3, write: t5 - t4 },
      resolution: resolved.stats,
      ...(history ? { history: { commits: history.newCommits, facts: gitFacts } } : {}),
    };
    this.logResult(r);
    return r;
  }

  /** DRSG_FOLD_VERIFY: the incremental result against a full resolution of the same partials. */
  private async verified(
    inc: Awaited<ReturnType<FactIndex["update"]>>,
    partials: Known,
    tree: Tree,
  ): Promise<Awaited<ReturnType<FactIndex["update"]>>> {
    // Every file, as a digest reads them (manifests included); the partials are all known.
    const files = [...tree.files.values()];
    const full = await buildFacts({
      files: files.map((f) => ({ path: f.path, oid: f.oid, read: () => this.repo.readBlob(f.oid!) })),
      plugins: this.opts.plugins,
      treeName: basename(this.root),
      known: partials,
      pool: this.pool(),
    });
    const lines = (f: { nodes: { key: string; labels: string[]; props: object }[]; edges: { src: string; type: string; dst: string; props: object }[] }) =>
      new Set([
        ...f.nodes.map((n) => `N ${n.key} ${n.labels.join(",")} ${canonical(n.props as never)}`),
        ...f.edges.map((e) => `E ${e.src} ${e.type} ${e.dst} ${canonical(e.props as never)}`),
      ]);
    const a = lines(this.index.merged());
    const b = lines(full.facts);
    const onlyInc = [...a].filter((x) => !b.has(x));
    const onlyFull = [...b].filter((x) => !a.has(x));
    if (onlyInc.length === 0 && onlyFull.length === 0) return { ...inc, stats: { ...inc.stats, verified: true } };
    log(
      "warn",
      `fold verify ${this.plane}: incremental resolution differs from a full one (${onlyInc.length} fact(s) only incremental, ${onlyFull.length} only full), e.g. ${[...onlyInc.slice(0, 2), ...onlyFull.slice(0, 2)].join(" | ")} — using the full one`,
    );
    this.index.seed(full.facts, partials, tree.manifests, full.report.notes);
    return { all: full.facts, stats: { ...inc.stats, verified: false } };
  }

  /** A full read of the tree at `to` (the same path as drsg digest), carrying rebuilding_since while it runs. */
  private async fullBuild(to: string, kind: "build" | "rebuild", reason: string): Promise<FoldResult> {
    const t0 = performance.now();
    const from = this.syncedCommit();
    if (this.opts.log !== false) log("info", `${kind} ${this.plane} at ${short(to)}: ${reason}`);
    const since = new Date().toISOString();
    // A digest's writes want the full cache; a follower gets its bound back when the build is done.
    if (this.memoryBound) setCacheSize(this.store, undefined);
    try {
      return await this.fullBuildBody(t0, from, to, kind, reason, since);
    } finally {
      if (this.memoryBound) setCacheSize(this.store, FOLLOWER_CACHE_KIB);
    }
  }

  private async fullBuildBody(t0: number, from: string | undefined, to: string, kind: "build" | "rebuild", reason: string, since: string): Promise<FoldResult> {
    this.store.write((w) => {
      if (w.getPlane(this.plane)) w.setPlaneProps(this.plane, rebuildingMarker(since));
      else w.createPlane(this.plane, rebuildingMarker(since));
    });
    this.state = undefined;
    this.partials = new Map();
    this.tree = undefined;
    this.index.reset();
    const d = await digest({
      dir: this.root,
      plugins: this.opts.plugins,
      plane: this.plane,
      store: this.store,
      pool: this.pool(),
      commit: to,
      git: this.opts.git,
      historyMaxCommits: this.opts.maxCommits,
      planeProps: REBUILT,
    });
    this.partials = d.build.partials;
    this.unreadable.clear();
    const tree: Tree = { commit: to, files: new Map(d.walk.files.map((f) => [f.path, f])), manifests: new Map() };
    await this.readManifests(tree, undefined);
    this.tree = tree;
    this.index.seed(d.build.facts, d.build.partials, tree.manifests, d.report.notes);
    this.pluginsChanged = undefined;
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

/** A deferred partial's cache row was gone or unreadable when the fold asked for it. */
class PartialUnavailable extends Error {}

/** The cached partial of `oid` at `path`, read when first asked for (PartialUnavailable if it cannot be). */
function deferredFrom(cache: PartialCache, path: string, oid: string, build: string): Partial {
  return deferredPartial(path, () => {
    const hit = cache.get(oid, build);
    if (!hit) throw new PartialUnavailable(`the cached partial of ${path} (blob ${oid.slice(0, 12)}) could not be read`);
    hit.path = path; // the object is ours (a spread would parse its refs)
    return hit;
  });
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
  store.write((w) => w.setPlaneProps(plane, rebuildingMarker(new Date().toISOString())));
  const d = await digest({ dir: root, plugins: opts.plugins, plane, store, pool: opts.pool, planeProps: REBUILT });
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
