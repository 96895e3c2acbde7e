// Resolver families by name (a plugin's `resolver` field), loaded on first use so that a
// process only loads the languages it meets (and drsg-mcp starts without any).
import { DrsgError } from "../model/errors.js";
import type { Dependencies, ManifestView, Resolver } from "./types.js";

const FAMILIES: Record<string, () => Promise<Resolver>> = {
  generic: async () => (await import("./generic.js")).resolveGeneric,
  ts: async () => (await import("./ts/index.js")).resolveTs,
  python: async () => (await import("./python/index.js")).resolvePython,
  go: async () => (await import("./go/index.js")).resolveGo,
  rust: async () => (await import("./rust/index.js")).resolveRust,
  java: async () => (await import("./java/index.js")).resolveJava,
  c: async () => (await import("./c/index.js")).resolveC,
};

export async function resolverFamily(name: string): Promise<Resolver> {
  const load = FAMILIES[name];
  if (!load)
    throw new DrsgError("PLUGIN_INVALID", `resolver family "${name}" does not exist (known: ${Object.keys(FAMILIES).join(", ")})`);
  return load();
}

export function isResolverFamily(name: string): boolean {
  return name in FAMILIES;
}

/**
 * Families whose resolution reads a file's partial only when a lookup reaches it (python's
 * DeferredInfo); every other family reads each file's definitions whatever changed.
 */
const ON_DEMAND = new Set(["python"]);

export function familyReadsOnDemand(name: string): boolean {
  return ON_DEMAND.has(name);
}

/**
 * Families that say which files a file's resolution may read (ResolveInput's contract, P3 in
 * src/sync/incremental.ts): a fold re-resolves only the files that may read a changed interface.
 */
const DEPENDENCIES: Record<string, () => Promise<Dependencies>> = {
  python: async () => (await import("./python/deps.js")).pythonDependencies,
  ts: async () => (await import("./ts/deps.js")).tsDependencies,
};

/** The family's dependency reader, or undefined when it declares none (every file may read every other). */
export async function familyDependencies(name: string): Promise<Dependencies | undefined> {
  return DEPENDENCIES[name]?.();
}

const MANIFEST_VIEWS: Record<string, () => Promise<ManifestView>> = {
  ts: async () => (await import("./ts/project.js")).manifestView,
};

/** The family's reading of its manifests, or undefined: every change of one may matter. */
export async function familyManifestView(name: string): Promise<ManifestView | undefined> {
  return MANIFEST_VIEWS[name]?.();
}
