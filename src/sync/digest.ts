// `drsg digest`: walk a tree (the commit's blobs in git, else the working tree), build its
// facts, and — with apply — reconcile them into a plane in one transaction, stamping
// synced_commit, synced_root, built_by and the ledger.
import { realpath } from "node:fs/promises";
import { basename, resolve } from "node:path";
import { PARTIAL_FORMAT, type Partial } from "../model/partial.js";
import { ExtractPool } from "../extract/pool.js";
import type { PluginSet } from "../plugin/host.js";
import type { Store } from "../store/types.js";
import { readManifests, writeOpsPlane } from "../ops/plane.js";
import { type GitPlaneDelta, gitPlaneName, readGitPlane, writeGitPlane } from "../git/plane.js";
import { type ApplyStats, applyFacts, loadPlaneState } from "./apply.js";
import { parsePartialLazily } from "./lazy.js";
import { type BuildReport, type BuildResult, type PartialCache, buildFacts } from "./pipeline.js";
import { type WalkSource, walkSource } from "./walk.js";

export interface DigestResult {
  dir: string;
  plane: string;
  source: "git" | "worktree";
  commit?: string;
  report: BuildReport;
  build: BuildResult;
  walk: WalkSource;
  applied?: ApplyStats;
  ms: number;
  /**
   * Where the wall time went (ms): the walk of the tree (the workers start beside it), extraction,
   * resolution, and the write (with what is left of the history and manifest reads begun during
   * extraction).
   */
  phases: { walkMs: number; extractMs: number; resolveMs: number; writeMs: number };
}

/** The partial cache over the store's table, keyed by plugin build and the extractor's partial format. */
export function storeCache(store: Store, opts: { lazyRefs?: boolean } = {}): PartialCache {
  return {
    get(blob, build) {
      const key = `${build}${PARTIAL_FORMAT}`;
      // A fold warming up resolves few files' refs: theirs are decoded and parsed when asked (lazy.ts).
      if (opts.lazyRefs && store.getCachedPartialBytes) {
        const bytes = store.getCachedPartialBytes(blob, key);
        return bytes === undefined ? undefined : parsePartialLazily(bytes);
      }
      const raw = store.getCachedPartial(blob, key);
      if (raw === undefined) return undefined;
      return opts.lazyRefs ? parsePartialLazily(raw) : (JSON.parse(raw) as Partial);
    },
    ...(store.hasCachedPartial ? { has: (blob: string, build: string) => store.hasCachedPartial!(blob, `${build}${PARTIAL_FORMAT}`) } : {}),
    put(rows) {
      store.putCachedPartials(
        rows.map((r) => ({ blob: r.blob, build: `${r.build}${PARTIAL_FORMAT}`, data: r.json ?? JSON.stringify(r.partial), packed: r.packed })),
      );
    },
  };
}

export interface DigestOptions {
  dir: string;
  plugins: PluginSet;
  /** Plane name; default the directory's name. */
  plane?: string;
  /** With a store: facts are written (apply). */
  store?: Store;
  pool?: ExtractPool;
  onProgress?: (done: number, total: number) => void;
  /** Extra plane props to set in the same transaction (e.g. removing rebuilding_since). */
  planeProps?: Record<string, import("../model/facts.js").PropValue | null>;
  /** Digest this commit (any rev) instead of HEAD (rebuild reads the plane's own commit). */
  commit?: string;
  /** Write `<plane>_git` in the same transaction when the tree is in git (default true). */
  git?: boolean;
  /** Commits a first history read takes at most (default DEFAULT_MAX_COMMITS). */
  historyMaxCommits?: number;
}

export async function digest(opts: DigestOptions): Promise<DigestResult> {
  const t0 = performance.now();
  // A plane's first digest extracts (nearly) every file: the workers boot beside the walk.
  const early = opts.pool ? undefined : await earlyPool(opts);
  let walk: WalkSource;
  let root: string;
  let build: BuildResult;
  let early2: Promise<EarlyReads> | undefined;
  let walkMs: number;
  try {
    walk = await walkSource(opts.dir, {
      ...(opts.commit !== undefined ? { commit: opts.commit } : {}),
      ...(early ? { onListed: (paths: readonly string[]) => void warmFor(early, opts.plugins, paths) } : {}),
    });
    root = await realpath(resolve(opts.dir));
    walkMs = performance.now() - t0;
    // The history and manifest reads need nothing the build makes: they run while it extracts.
    if (opts.store) early2 = earlyReads(opts, opts.store, walk, root);
    build = await buildFacts({
      files: walk.files.map((f) => ({ path: f.path, oid: f.oid, read: () => walk.read(f) })),
      plugins: opts.plugins,
      treeName: basename(root),
      cache: opts.store ? storeCache(opts.store) : undefined,
      pool: opts.pool ?? early,
      poolOwned: early !== undefined,
      onProgress: opts.onProgress,
    });
  } finally {
    await early?.close();
  }
  const plane = opts.plane ?? basename(root);
  build.report.skipped.push(...walk.skipped);
  build.report.skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const result: DigestResult = {
    dir: root,
    plane,
    source: walk.source,
    commit: walk.commit,
    report: build.report,
    build,
    walk,
    ms: 0,
    phases: { walkMs, extractMs: build.timings.extractMs, resolveMs: build.timings.resolveMs, writeMs: 0 },
  };
  if (opts.store) {
    const store = opts.store;
    const w0 = performance.now();
    let reads = await early2!;
    // A commit since the early read (another write of this store while the build ran) may have
    // changed the history plane: read again, as a read made now would see it.
    if (reads.seq !== store.currentSeq()) reads = await earlyReads(opts, store, walk, root);
    const { history, manifests } = reads;
    if (reads.historyError !== undefined) build.report.notes.push(reads.historyError);
    if (reads.manifestsError !== undefined) throw reads.manifestsError;
    result.applied = store.write((w) => {
      if (!w.getPlane(plane)) w.createPlane(plane);
      const state = loadPlaneState(store, plane);
      const stats = applyFacts(w, plane, build.facts, state, { keepState: false });
      w.setPlaneProps(plane, {
        synced_commit: walk.commit ?? null,
        synced_root: root,
        built_by: opts.plugins.builtBy,
        ledger: ledgerOf(build.report),
        ...(opts.planeProps ?? {}),
      });
      if (history) writeGitPlane(w, history);
      const ops = writeOpsPlane(w, store, plane, manifests, { commit: walk.commit, root });
      if (ops && ops.notes.length > 0) build.report.notes.push(...ops.notes.slice(0, 20).map((n) => `ops: ${n}`));
      return stats;
    });
    result.phases.writeMs = performance.now() - w0;
  }
  result.ms = performance.now() - t0;
  return result;
}

interface EarlyReads {
  /** The store's commit when the reads began. */
  seq: number;
  history?: GitPlaneDelta;
  historyError?: string;
  manifests: Awaited<ReturnType<typeof readManifests>>;
  /** readManifests' failure, thrown where the digest used to await it. */
  manifestsError?: unknown;
}

/** What the write needs besides the facts: the history plane's delta and the ops manifests. Never rejects (failures are kept). */
async function earlyReads(opts: DigestOptions, store: Store, walk: WalkSource, root: string): Promise<EarlyReads> {
  const plane = opts.plane ?? basename(root);
  const out: EarlyReads = { seq: store.currentSeq(), manifests: [] };
  if (walk.repo && walk.commit && opts.git !== false) {
    try {
      out.history = await readGitPlane(walk.repo, store, gitPlaneName(plane), { root, maxCommits: opts.historyMaxCommits });
    } catch (e) {
      out.historyError = `history plane ${gitPlaneName(plane)} not updated: ${(e as Error).message}`;
    }
  }
  const byPath = new Map(walk.files.map((f) => [f.path, f]));
  try {
    out.manifests = await readManifests(walk.files, (p) => walk.read(byPath.get(p)!));
  } catch (e) {
    out.manifestsError = e;
  }
  return out;
}

/** Workers for a digest that will extract most files: no store (no cache) or a plane it has never held. */
async function earlyPool(opts: DigestOptions): Promise<ExtractPool | undefined> {
  if (opts.store) {
    const root = await realpath(resolve(opts.dir)).catch(() => undefined);
    if (root === undefined || opts.store.getPlane(opts.plane ?? basename(root))) return undefined;
  }
  return new ExtractPool(opts.plugins.jobs());
}

/**
 * Have the workers load the grammars (and compile the queries) these paths need while the walk
 * goes on — every worker the common ones, one worker each rare one (ExtractPool.plan). The
 * digest does not wait for it; the promise (the jobs each worker then holds) never rejects.
 */
export function warmFor(pool: ExtractPool, plugins: PluginSet, paths: readonly string[]): Promise<string[][] | undefined> {
  const files = new Map<string, number>();
  for (const p of paths) {
    const job = plugins.route(p)?.job;
    if (job !== undefined) files.set(job, (files.get(job) ?? 0) + 1);
  }
  return pool.plan(files);
}

/** The last full build's report, as a plane property. */
export function ledgerOf(r: BuildReport): import("../model/facts.js").Props {
  return {
    at: Math.floor(Date.now() / 1000),
    plugins: Object.entries(r.plugins).map(
      ([, p]) => `${p.build} = ${p.facts} fact(s) from ${p.files} file(s)`,
    ),
    unclaimed: Object.entries(r.unclaimed)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([ext, n]) => `${ext} (${n})`),
    skipped: r.skipped.length,
    syntax_errors: r.syntaxErrors.length,
    recovered: r.recovered.length,
    notes: r.notes,
  };
}
