// Installed plugins: a registry in the user's data directory ($DRSG_HOME, else
// $XDG_DATA_HOME/drsg, else ~/.local/share/drsg) holding a copy of each plugin folder and the
// sha256 of every file, pinned at install and re-checked at every load.
import { type BigIntStats, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DrsgError } from "../model/errors.js";
import { CATALOG_DIR, PLUGINS_DIR, dataDir } from "../paths.js";
import { version } from "../version.js";
import { isResolverFamily } from "../resolve/index.js";
import { type LoadedPlugin, PluginSet, officialFolders, officialPlugins } from "./host.js";
import { comparePluginNames, hashFolder, listFiles, readPluginFolder } from "./manifest.js";
import { cachedSet, rememberSet, settled, stampOf } from "./hashcache.js";
import { nodeChildProcess } from "../lazy.js";

export interface RegistryEntry {
  name: string;
  version: string;
  build: string;
  sha256: string;
  files: Record<string, string>;
  extensions: string[];
  source: string;
  installedAt: string;
}

interface RegistryFile {
  version: 1;
  plugins: RegistryEntry[];
}

export { dataDir };

function pluginStore(): string {
  return join(dataDir(), "plugins");
}

function registryPath(): string {
  return join(pluginStore(), "registry.json");
}

export function readRegistry(): RegistryEntry[] {
  const p = registryPath();
  if (!existsSync(p)) return [];
  try {
    const r = JSON.parse(readFileSync(p, "utf8")) as RegistryFile;
    return Array.isArray(r.plugins) ? r.plugins : [];
  } catch (e) {
    throw new DrsgError("PLUGIN_INVALID", `plugin registry ${p} is unreadable: ${(e as Error).message} — remove it and reinstall`, {
      path: p,
    });
  }
}

function writeRegistry(entries: RegistryEntry[]): void {
  mkdirSync(pluginStore(), { recursive: true });
  const tmp = `${registryPath()}.tmp-${process.pid}`;
  const body: RegistryFile = { version: 1, plugins: [...entries].sort((a, b) => comparePluginNames(a.name, b.name)) };
  writeFileSync(tmp, `${JSON.stringify(body, null, 2)}\n`);
  renameSync(tmp, registryPath());
}

/** Load an installed plugin, refusing it when any file differs from its pin. */
function loadInstalled(e: RegistryEntry): LoadedPlugin {
  const dir = join(pluginStore(), e.name);
  if (!existsSync(dir))
    throw new DrsgError("PLUGIN_HASH_MISMATCH", `plugin ${e.name}: its folder ${dir} is missing — drsg plugin install ${e.source}`, {
      plugin: e.name,
    });
  // Through the hash cache: a file whose stamp moved is read and hashed again, so a tampered one is still refused.
  const { sha256, files } = hashFolder(dir, { cached: true });
  if (sha256 !== e.sha256) {
    const changed = [
      ...Object.keys(files).filter((f) => files[f] !== e.files[f]),
      ...Object.keys(e.files).filter((f) => !(f in files)),
    ];
    throw new DrsgError(
      "PLUGIN_HASH_MISMATCH",
      `plugin ${e.name}: ${changed.length ? changed.join(", ") : "its files"} changed since install (pinned sha256 ${e.sha256.slice(0, 12)}) — refusing to load it; reinstall with drsg plugin install ${e.source} or remove it`,
      { plugin: e.name, files: changed },
    );
  }
  return { ...readPluginFolder(dir), source: e.source, official: false };
}

let loaded: { stamp: string; set: PluginSet } | undefined;

/** What identifies the registry's state: its path, mtime and size (absent counts too). */
function registryStamp(): string {
  const p = registryPath();
  try {
    const st = statSync(p);
    return `${p}\u0000${st.mtimeMs}\u0000${st.size}`;
  } catch {
    return `${p}\u0000absent`;
  }
}

/**
 * The active plugin set: official plugins plus every installed one (an installed one replaces
 * an official one of the same name). Loaded — and every pin re-checked — when the registry
 * changes; a long-running server picks up an install between two calls.
 */
export function activePlugins(): PluginSet {
  const stamp = registryStamp();
  if (loaded && loaded.stamp === stamp) return loaded.set;
  const installed = readRegistry().map(loadInstalled);
  const names = new Set(installed.map((p) => p.manifest.name));
  const set = new PluginSet([...officialPlugins().filter((p) => !names.has(p.manifest.name)), ...installed]);
  loaded = { stamp, set };
  return set;
}

/** activeBuilds' answer, with the registry's stamp it was given under. */
let builds: { stamp: string; builtBy: string[] } | undefined;

/**
 * activePlugins().builtBy — what every answer's drift line compares with its plane's builders —
 * from the hash cache while every input of the set's last load is as it was then: drsg's
 * version, the registry, and every file of every plugin folder, by stamp (hashcache.ts). A cold
 * verb then parses no manifest; anything moved (or an input younger than SETTLE_MS) loads the
 * set whole, so an error (a pin broken, a conflict) is thrown as activePlugins throws it.
 */
export function activeBuilds(): string[] {
  const stamp = registryStamp();
  if (loaded && loaded.stamp === stamp) return loaded.set.builtBy;
  // Kept, as activePlugins keeps its set, until the registry changes.
  if (builds && builds.stamp === stamp) return builds.builtBy;
  const inputs = setInputs();
  let builtBy = cachedSet(PLUGINS_DIR, inputs.stamps);
  if (builtBy === undefined) {
    builtBy = activePlugins().builtBy;
    if (inputs.settled) rememberSet(PLUGINS_DIR, { stamps: inputs.stamps, builtBy });
  }
  builds = { stamp, builtBy };
  return builtBy;
}

/** The stamps of everything activePlugins reads, and whether all of it had settled (hashcache.ts). */
function setInputs(): { stamps: string[]; settled: boolean } {
  const stats: BigIntStats[] = [];
  const stamps = [`drsg@${version()}`];
  const add = (what: string, read: () => { rel: string; st: BigIntStats }[]) => {
    stamps.push(`\u0000${what}`);
    try {
      for (const { rel, st } of read()) {
        stats.push(st);
        stamps.push(`${rel}\u0000${stampOf(st)}`);
      }
    } catch {
      stamps.push("\u0000unreadable");
    }
  };
  for (const dir of officialFolders()) add(dir, () => listFiles(dir, "", [], true));
  add(registryPath(), () => (existsSync(registryPath()) ? [{ rel: "", st: statSync(registryPath(), { bigint: true }) }] : []));
  let entries: RegistryEntry[] = [];
  try {
    entries = readRegistry();
  } catch {
    stamps.push("\u0000registry unreadable");
  }
  for (const e of entries) add(join(pluginStore(), e.name), () => listFiles(join(pluginStore(), e.name)));
  return { stamps, settled: settled(stats, Date.now()) };
}

/** One installed plugin as `plugin list` shows it: loaded, or why it cannot be. */
export interface InstalledStatus {
  entry: RegistryEntry;
  /** The pin check's refusal (PLUGIN_HASH_MISMATCH); undefined when the plugin loads. */
  problem?: string;
}

/** Every registry entry with its pin checked — a tampered plugin is reported, never thrown. */
export function installedStatus(): InstalledStatus[] {
  return readRegistry().map((entry) => {
    try {
      loadInstalled(entry);
      return { entry };
    } catch (e) {
      return { entry, problem: (e as Error).message };
    }
  });
}

/** Names of the bundled catalog's plugins. */
export function catalogNames(): string[] {
  if (!existsSync(CATALOG_DIR)) return [];
  return readdirSync(CATALOG_DIR)
    .filter((n) => existsSync(join(CATALOG_DIR, n, "plugin.json")))
    .sort();
}

function unpackTgz(file: string): string {
  const dir = mkdtempSync(join(tmpdir(), "drsg-plugin-"));
  const r = nodeChildProcess().spawnSync("tar", ["-xzf", file, "-C", dir], { encoding: "utf8" });
  if (r.status !== 0) throw new DrsgError("PLUGIN_INVALID", `plugin install: cannot unpack ${file}: ${r.stderr || r.error?.message}`);
  if (existsSync(join(dir, "plugin.json"))) return dir;
  const subs = readdirSync(dir).filter((n) => statSync(join(dir, n)).isDirectory());
  if (subs.length === 1 && existsSync(join(dir, subs[0]!, "plugin.json"))) return join(dir, subs[0]!);
  throw new DrsgError("PLUGIN_INVALID", `plugin install: ${file} holds no plugin.json at its top (or in one top folder)`);
}

export interface InstallResult {
  entry: RegistryEntry;
  replaced?: string;
}

/** Install from a catalog name, a directory or a .tgz: validate, compile queries, hash, pin, copy. */
export async function installPlugin(spec: string): Promise<InstallResult> {
  let dir: string;
  let source: string;
  if (existsSync(spec) && statSync(spec).isDirectory()) {
    dir = resolve(spec);
    source = dir;
  } else if (existsSync(spec) && /\.(tgz|tar\.gz)$/.test(spec)) {
    dir = unpackTgz(resolve(spec));
    source = resolve(spec);
  } else if (catalogNames().includes(spec.replace(/^catalog:/, ""))) {
    // `catalog:ruby` is how a registry entry names its source (plugin list prints it): accepted as `ruby`.
    const name = spec.replace(/^catalog:/, "");
    dir = join(CATALOG_DIR, name);
    source = `catalog:${name}`;
  } else {
    throw new DrsgError(
      "PLUGIN_NOT_FOUND",
      `plugin install '${spec}': not a directory, a .tgz, or a catalog name (catalog: ${catalogNames().join(", ") || "empty"})`,
      { spec },
    );
  }
  const folder = readPluginFolder(dir);
  const m = folder.manifest;
  if (!isResolverFamily(m.resolver))
    throw new DrsgError("PLUGIN_INVALID", `plugin ${m.name}: resolver "${m.resolver}" does not exist — use "generic"`, { plugin: m.name });
  // Every query must compile against its grammar (a broken query names file, line and column).
  const { loadGrammar } = await import("../extract/parser.js");
  const probe = new PluginSet([{ ...folder, source, official: false }]);
  for (const job of probe.jobs()) {
    const g = await loadGrammar(job);
    g.query.delete();
    g.parser.delete();
  }
  // Extension conflicts with another plugin (same name = upgrade). Plugins whose pins fail
  // (tampered) are left out of the check, so reinstalling one mends it.
  const loadable = readRegistry()
    .filter((e) => e.name !== m.name)
    .flatMap((e) => {
      try {
        return [loadInstalled(e)];
      } catch {
        return [];
      }
    });
  const loadableNames = new Set(loadable.map((p) => p.manifest.name));
  const current = new PluginSet([...officialPlugins().filter((p) => !loadableNames.has(p.manifest.name)), ...loadable]);
  for (const ext of m.extensions) {
    const owner = current.route(`x${ext}`)?.plugin;
    if (owner && owner.manifest.name !== m.name)
      throw new DrsgError(
        "PLUGIN_CONFLICT",
        `plugin install ${m.name}: ${ext} is claimed by ${owner.manifest.name} — drsg plugin remove ${owner.manifest.name} first`,
        { ext, incumbent: owner.manifest.name },
      );
  }
  const entries = readRegistry();
  const prior = entries.find((e) => e.name === m.name);
  const target = join(pluginStore(), m.name);
  mkdirSync(pluginStore(), { recursive: true });
  const staging = `${target}.new-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  cpSync(dir, staging, { recursive: true });
  const pinned = hashFolder(staging);
  const builds = hashFolder(staging, { builds: true });
  rmSync(target, { recursive: true, force: true });
  renameSync(staging, target);
  const entry: RegistryEntry = {
    name: m.name,
    version: m.version,
    build: `${m.name}@${m.version}+${builds.sha256.slice(0, 8)}`,
    sha256: pinned.sha256,
    files: pinned.files,
    extensions: m.extensions,
    source,
    installedAt: new Date().toISOString(),
  };
  writeRegistry([...entries.filter((e) => e.name !== m.name), entry]);
  return { entry, replaced: prior?.build };
}

export function removePlugin(name: string): RegistryEntry {
  const entries = readRegistry();
  const e = entries.find((x) => x.name === name);
  if (!e) throw new DrsgError("PLUGIN_NOT_FOUND", `plugin remove '${name}': not installed (drsg plugin list shows what is)`, { name });
  writeRegistry(entries.filter((x) => x.name !== name));
  rmSync(join(pluginStore(), name), { recursive: true, force: true });
  return e;
}

/** The drift line for a plane built by `builtBy`, or undefined when the installed set is the same. */
export function driftLine(builtBy: unknown, installed: string[]): string | undefined {
  if (!Array.isArray(builtBy)) return undefined;
  const was = new Set(builtBy.map(String));
  const now = new Set(installed);
  const nameOf = (b: string) => b.slice(0, b.indexOf("@"));
  const added = installed.filter((b) => !was.has(b));
  const removed = [...was].filter((b) => !now.has(b));
  if (added.length === 0 && removed.length === 0) return undefined;
  const parts: string[] = [];
  for (const a of added) {
    const old = removed.find((r) => nameOf(r) === nameOf(a));
    parts.push(old ? `~${old} → ${a.slice(a.indexOf("@") + 1)}` : `+${a}`);
  }
  for (const r of removed) if (!added.some((a) => nameOf(a) === nameOf(r))) parts.push(`-${r}`);
  return `plugins changed since this plane was built: ${parts.join(", ")} — rebuild re-reads the tree`;
}
