// Shared helpers of the sync tests: temp repositories and databases, the official plugin set
// (never the user's registry), one shared extraction pool, and the convergence check — the
// export of a folded plane against the export of a fresh full digest of the same commit.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { ExtractPool } from "../../src/extract/pool.js";
import { GraphViews } from "../../src/graph/view.js";
import { runTool } from "../../src/mcp/server.js";
import { PluginSet, officialPlugins } from "../../src/plugin/host.js";
import { openStore } from "../../src/store/store.js";
import type { Store } from "../../src/store/types.js";
import { digest } from "../../src/sync/digest.js";
import { exportPlane } from "../../src/sync/export.js";
import { PlaneSync } from "../../src/sync/fold.js";
import type { Tool, ToolContext } from "../../src/tools/tool.js";

let plugins: PluginSet | undefined;
export function officialSet(): PluginSet {
  plugins ??= new PluginSet(officialPlugins());
  return plugins;
}

let pool: ExtractPool | undefined;
/** One pool for every test of a file (extraction is pure, so sharing it hides nothing). */
export function sharedPool(): ExtractPool {
  pool ??= new ExtractPool(officialSet().jobs(), 2);
  return pool;
}
export async function closePool(): Promise<void> {
  await pool?.close();
  pool = undefined;
}

const cleanups: Array<() => void> = [];
export function temp(prefix = "drsg-sync-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
export function cleanupAll(): void {
  for (const c of cleanups.splice(0)) c();
}

export function tempStore(): { store: Store; file: string } {
  const file = join(temp("drsg-db-"), "graph.drsg");
  return { store: openStore(file, { create: true, retainCommits: 2 }), file };
}

export async function openSync(store: Store, dir: string, extra: Partial<Parameters<typeof PlaneSync.open>[0]> = {}): Promise<PlaneSync> {
  return PlaneSync.open({ store, dir, plugins: officialSet(), pool: sharedPool(), log: false, ...extra });
}

export function exportOf(store: Store, plane: string): string[] {
  return [...exportPlane(store, plane)];
}

/** The export of a fresh full digest of `dir` at `commit` (default HEAD) into a new database. */
export async function freshExport(dir: string, commit?: string): Promise<string[]> {
  const { store } = tempStore();
  try {
    const plane = basename(dir);
    await digest({ dir, plugins: officialSet(), plane, store, pool: sharedPool(), git: false, ...(commit ? { commit } : {}) });
    return exportOf(store, plane);
  } finally {
    store.close();
  }
}

/** Folded plane == fresh digest of the commit the plane records, line by line. */
export async function assertConverged(store: Store, plane: string, dir: string, what: string): Promise<void> {
  const info = store.getPlane(plane);
  const commit = info?.props.synced_commit;
  assert.equal(typeof commit, "string", `${what}: plane records a commit`);
  const folded = exportOf(store, plane);
  const fresh = await freshExport(dir, commit as string);
  if (folded.join("\n") === fresh.join("\n")) return;
  const a = new Set(folded);
  const b = new Set(fresh);
  const onlyFolded = folded.filter((l) => !b.has(l)).slice(0, 10);
  const onlyFresh = fresh.filter((l) => !a.has(l)).slice(0, 10);
  assert.fail(
    `${what}: folded plane differs from a full digest of ${String(commit).slice(0, 12)}\n` +
      `only in the fold:\n  ${onlyFolded.join("\n  ")}\nonly in the digest:\n  ${onlyFresh.join("\n  ")}`,
  );
}

/** Node ids by key, for id-stability checks. */
export function idsByKey(store: Store, plane: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const n of store.allNodes(plane)) m.set(n.key, n.id);
  return m;
}

/** A CLI-like tool context over `store` with the official plugins. */
export function toolCtx(store: Store): ToolContext {
  return { store, transport: "cli", plugins: officialSet, views: new GraphViews(store) };
}

/** Run a tool the way every transport does; returns its text and whether it was an error. */
export async function callTool(ctx: ToolContext, tool: Tool, input: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const parsed = tool.input.safeParse(input);
  if (!parsed.success) return { text: `BAD_INPUT ${parsed.error.message}`, isError: true };
  return runTool(tool, ctx, parsed.data);
}
