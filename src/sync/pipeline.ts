// Files → facts: route each file to its plugin, extract partials on worker threads (or take
// them from the cache by blob id), resolve per plugin with its family, stamp provenance.
// Used by digest, fold and the plugin tests alike, so they cannot disagree.
import { createHash } from "node:crypto";
import { basename, extname } from "node:path";
import type { EdgeFact, Facts, NodeFact } from "../model/facts.js";
import type { Partial } from "../model/partial.js";
import { ExtractPool } from "../extract/pool.js";
import type { LoadedPlugin, PluginSet } from "../plugin/host.js";
import { compareEdges } from "../resolve/common.js";
import { resolverFamily } from "../resolve/index.js";
import { uniqueSorted } from "./apply.js";
import type { ResolveStats } from "../resolve/types.js";

export interface SourceFile {
  path: string;
  /** Git blob id when known; else computed from the bytes. */
  oid?: string;
  read(): Promise<Uint8Array>;
}

export interface PartialCache {
  get(blob: string, build: string): Partial | undefined;
  /** Whether get() would find the partial, when the cache can tell without reading it. */
  has?(blob: string, build: string): boolean;
  /** `json`, when given, is the partial's JSON text (saves stringifying it again); `packed`, that text packed (packPartial). */
  put(rows: { blob: string; build: string; partial: Partial; json?: string; packed?: Uint8Array }[]): void;
}

export interface PluginReport {
  build: string;
  files: number;
  lines: number;
  facts: number;
  stats: ResolveStats;
}

export interface BuildReport {
  plugins: Record<string, PluginReport>;
  /** Unclaimed extension → count. */
  unclaimed: Record<string, number>;
  skipped: { path: string; reason: string }[];
  /** Files parsed with syntax errors (facts come from what parsed). */
  syntaxErrors: { path: string; errors: number }[];
  /** Files whose facts come from the plugin's recovery rewrites (src/extract/recover.ts), sorted. */
  recovered: string[];
  notes: string[];
  parsed: number;
  cached: number;
  nodes: number;
  edges: number;
}

export interface BuildResult {
  facts: Facts;
  report: BuildReport;
  /** Partials by path, for callers that keep them (the fold). */
  partials: Map<string, { partial: Partial; oid: string; build: string }>;
  /** Wall time (ms) of the two stages: reading and extracting the files (cache hits included), then resolving. */
  timings: { extractMs: number; resolveMs: number };
}

export interface BuildOptions {
  files: SourceFile[];
  plugins: PluginSet;
  treeName: string;
  cache?: PartialCache;
  pool?: ExtractPool;
  /** The build closes `pool` once extraction is done (its memory is not kept through resolution). */
  poolOwned?: boolean;
  /** Partials already in memory (the watcher's), by path; used when oid and build match. */
  known?: Map<string, { partial: Partial; oid: string; build: string }>;
  onProgress?: (done: number, total: number) => void;
}

/** The git blob id of some bytes: lets working-tree files share the partial cache. */
export function blobId(bytes: Uint8Array): string {
  return createHash("sha1").update(`blob ${bytes.byteLength}\0`).update(bytes).digest("hex");
}

export function isBinary(bytes: Uint8Array): boolean {
  // A NUL in the first 8 KiB (indexOf is a native scan).
  return bytes.subarray(0, Math.min(bytes.byteLength, 8192)).indexOf(0) >= 0;
}

/** Partials per partial-cache write while extraction runs. */
const CACHE_BATCH = 64;

function byKey(a: NodeFact, b: NodeFact): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** Stamp edges the resolver handed over as its own fresh objects (ResolveOutput.freshEdges). */
function stampInPlace(edges: EdgeFact[], build: string): EdgeFact[] {
  for (const e of edges) e.props._generated_by = build;
  return edges;
}

export async function buildFacts(opts: BuildOptions): Promise<BuildResult> {
  const t0 = performance.now();
  const { plugins } = opts;
  const report: BuildReport = {
    plugins: {},
    unclaimed: {},
    skipped: [],
    syntaxErrors: [],
    recovered: [],
    notes: [],
    parsed: 0,
    cached: 0,
    nodes: 0,
    edges: 0,
  };
  const manifestNames = new Map<string, Set<string>>();
  for (const p of plugins.plugins)
    for (const m of p.manifest.manifests) {
      const set = manifestNames.get(m) ?? new Set<string>();
      set.add(p.manifest.name);
      manifestNames.set(m, set);
    }

  const claimed: { file: SourceFile; plugin: LoadedPlugin; grammar: string; job: string }[] = [];
  const manifestFiles: SourceFile[] = [];
  for (const f of opts.files) {
    if (manifestNames.has(basename(f.path))) manifestFiles.push(f);
    const route = plugins.route(f.path);
    if (route) claimed.push({ file: f, ...route });
    else {
      const ext = extname(f.path).toLowerCase() || basename(f.path);
      if (extname(f.path)) report.unclaimed[ext] = (report.unclaimed[ext] ?? 0) + 1;
    }
  }

  // Manifests per plugin: path → text.
  const manifests = new Map<string, Map<string, string>>();
  const decoder = new TextDecoder("utf-8");
  for (const f of manifestFiles.sort((a, b) => (a.path < b.path ? -1 : 1))) {
    let text: string;
    try {
      text = decoder.decode(await f.read());
    } catch {
      continue;
    }
    for (const name of manifestNames.get(basename(f.path)) ?? []) {
      const m = manifests.get(name) ?? new Map<string, string>();
      m.set(f.path, text);
      manifests.set(name, m);
    }
  }

  // Each family's resolver module loads while the files are read and extracted.
  const families = new Map<string, ReturnType<typeof resolverFamily>>();
  for (const c of claimed) {
    const family = c.plugin.manifest.resolver;
    if (families.has(family)) continue;
    const loading = resolverFamily(family);
    loading.catch(() => undefined); // awaited (and its failure thrown) where the family is used
    families.set(family, loading);
  }

  // Extract: cache hits first, the rest on the worker pool.
  const partials = new Map<string, { partial: Partial; oid: string; build: string }>();
  const ownPool = opts.poolOwned === true || (!opts.pool && claimed.length > 0);
  let pool = opts.pool;
  // Cached as they come, in batches: the writes overlap the extraction still running.
  const toCache: { blob: string; build: string; partial: Partial; json?: string; packed?: Uint8Array }[] = [];
  const flushCache = (): void => {
    if (opts.cache && toCache.length > 0) opts.cache.put(toCache.splice(0));
  };
  let done = 0;
  const total = claimed.length;
  try {
    const work: Promise<void>[] = [];
    const inflightCap = 64;
    let inflight = 0;
    let wake: (() => void) | undefined;
    for (const c of claimed) {
      const build = c.plugin.build;
      const known = opts.known?.get(c.file.path);
      if (known && c.file.oid && known.oid === c.file.oid && known.build === build) {
        partials.set(c.file.path, known);
        report.cached++;
        opts.onProgress?.(++done, total);
        continue;
      }
      if (c.file.oid && opts.cache) {
        const hit = opts.cache.get(c.file.oid, build);
        if (hit) {
          partials.set(c.file.path, { partial: { ...hit, path: c.file.path }, oid: c.file.oid, build });
          report.cached++;
          opts.onProgress?.(++done, total);
          continue;
        }
      }
      let bytes: Uint8Array;
      try {
        bytes = await c.file.read();
      } catch (e) {
        report.skipped.push({ path: c.file.path, reason: `unreadable: ${(e as Error).message}` });
        opts.onProgress?.(++done, total);
        continue;
      }
      if (isBinary(bytes)) {
        report.skipped.push({ path: c.file.path, reason: "binary" });
        opts.onProgress?.(++done, total);
        continue;
      }
      const oid = c.file.oid ?? blobId(bytes);
      if (opts.cache && !c.file.oid) {
        const hit = opts.cache.get(oid, build);
        if (hit) {
          partials.set(c.file.path, { partial: { ...hit, path: c.file.path }, oid, build });
          report.cached++;
          opts.onProgress?.(++done, total);
          continue;
        }
      }
      pool ??= new ExtractPool(plugins.jobs());
      while (inflight >= inflightCap) await new Promise<void>((r) => (wake = r));
      inflight++;
      const path = c.file.path;
      work.push(
        pool
          .extract(path, c.job, bytes, { pack: opts.cache !== undefined })
          .then(
            ({ partial, json, packed }) => {
              partials.set(path, { partial, oid, build });
              toCache.push({ blob: oid, build, partial, json, packed });
              report.parsed++;
              if (toCache.length >= CACHE_BATCH) flushCache();
            },
            (e: unknown) => {
              report.skipped.push({ path, reason: `extraction failed: ${(e as Error).message}` });
            },
          )
          .finally(() => {
            inflight--;
            opts.onProgress?.(++done, total);
            const w = wake;
            wake = undefined;
            w?.();
          }),
      );
    }
    await Promise.all(work);
  } catch (e) {
    if (ownPool && pool) await pool.close();
    throw e;
  }
  // The workers end while resolution runs (their termination is awaited before returning).
  const closing = ownPool && pool ? pool.close() : undefined;
  closing?.catch(() => undefined);
  const t1 = performance.now();
  try {
    const built = await resolveAll(opts, report, partials, manifests, families, flushCache);
    return { ...built, timings: { extractMs: t1 - t0, resolveMs: performance.now() - t1 } };
  } finally {
    await closing;
  }
}

async function resolveAll(
  opts: BuildOptions,
  report: BuildReport,
  partials: BuildResult["partials"],
  manifests: Map<string, Map<string, string>>,
  families: Map<string, ReturnType<typeof resolverFamily>>,
  flushCache: () => void,
): Promise<Omit<BuildResult, "timings">> {
  const { plugins } = opts;
  flushCache();

  // Resolve per plugin, in plugin-name order; stamp provenance; merge.
  const nodes = new Map<string, NodeFact>();
  const edges = new Map<string, EdgeFact>();
  // While one plugin alone has facts and its output is strictly sorted (no key twice), they are
  // kept as its stamped arrays — already the merged order — and the maps are built only if a
  // second plugin brings facts.
  let sole: { nodes: NodeFact[]; edges: EdgeFact[] } | undefined;
  const enterSole = (): void => {
    if (!sole) return;
    for (const n of sole.nodes) nodes.set(n.key, n);
    for (const e of sole.edges) edges.set(`${e.src}\u0000${e.type}\u0000${e.dst}`, e);
    sole = undefined;
  };
  let collisions = 0;
  for (const plugin of plugins.plugins) {
    const name = plugin.manifest.name;
    const mine = [...partials.values()]
      .filter((x) => x.build === plugin.build)
      .map((x) => x.partial)
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    if (mine.length === 0) continue;
    for (const p of mine) {
      if (p.syntaxErrors > 0) report.syntaxErrors.push({ path: p.path, errors: p.syntaxErrors });
      if (p.recovered) report.recovered.push(p.path);
    }
    const resolve = await (families.get(plugin.manifest.resolver) ?? resolverFamily(plugin.manifest.resolver));
    const out = resolve({
      partials: mine,
      manifests: manifests.get(name) ?? new Map(),
      treeName: opts.treeName,
    });
    let facts = 0;
    const first = nodes.size === 0 && edges.size === 0 && !sole;
    if (first && uniqueSorted(out.facts)) {
      sole = {
        nodes: out.facts.nodes.map((n) => ({ ...n, props: { ...n.props, _generated_by: plugin.build } })),
        edges: out.freshEdges ? stampInPlace(out.facts.edges, plugin.build) : out.facts.edges.map((e) => ({ ...e, props: { ...e.props, _generated_by: plugin.build } })),
      };
      facts = sole.nodes.length + sole.edges.length;
    } else enterSole();
    if (!sole) for (const n of out.facts.nodes) {
      if (nodes.has(n.key)) {
        const prior = nodes.get(n.key)!;
        if (!prior.labels.includes("External")) collisions++;
        continue;
      }
      nodes.set(n.key, { ...n, props: { ...n.props, _generated_by: plugin.build } });
      facts++;
    }
    if (!sole) for (const e of out.facts.edges) {
      const id = `${e.src}\u0000${e.type}\u0000${e.dst}`;
      if (edges.has(id)) continue;
      edges.set(id, { ...e, props: { ...e.props, _generated_by: plugin.build } });
      facts++;
    }
    report.plugins[name] = {
      build: plugin.build,
      files: mine.length,
      lines: mine.reduce((s, p) => s + p.lines, 0),
      facts,
      stats: out.stats,
    };
    for (const n of out.notes) report.notes.push(`${name}: ${n}`);
  }
  if (collisions > 0) report.notes.push(`${collisions} key collision(s) between plugins: the first plugin's fact kept`);
  report.syntaxErrors.sort((a, b) => (a.path < b.path ? -1 : 1));
  report.recovered.sort();
  report.skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const facts: Facts = sole ?? {
    nodes: [...nodes.values()].sort(byKey),
    edges: [...edges.values()].sort(compareEdges),
  };
  report.nodes = facts.nodes.length;
  report.edges = facts.edges.length;
  return { facts, report, partials };
}
