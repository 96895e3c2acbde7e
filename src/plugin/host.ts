// The plugin host: the active plugin set (official plugins plus installed ones), routing of
// files by extension, and what a worker needs to parse a file (grammar wasm, query source).
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { basename, extname, join, resolve } from "node:path";
import type { RecoverRule } from "../extract/recover.js";
import { DrsgError } from "../model/errors.js";
import { GRAMMARS_FILE, PLUGINS_DIR } from "../paths.js";
import { type Manifest, type PluginFolder, comparePluginNames, grammarFor, readPluginFolder } from "./manifest.js";
import { nodeCrypto } from "../lazy.js";

export interface GrammarPin {
  package: string;
  version: string;
  file: string;
  sha256: string;
}

/** Everything a worker thread needs to extract files of one (plugin, grammar) pair. */
export interface GrammarJob {
  /** `<plugin>/<grammar id>` */
  id: string;
  plugin: string;
  build: string;
  grammar: string;
  wasmPath: string;
  querySource: string;
  doc?: Manifest["doc"];
  /** Rewrites tried when a file of this grammar does not parse cleanly. */
  recover?: RecoverRule[];
}

export interface LoadedPlugin extends PluginFolder {
  source: string;
  official: boolean;
}

let grammarPins: Record<string, GrammarPin> | undefined;
const verifiedWasm = new Map<string, string>();

/** The grammar pins of grammars/grammars.json. */
export function readGrammarPins(): Record<string, GrammarPin> {
  grammarPins ??= JSON.parse(readFileSync(GRAMMARS_FILE, "utf8")) as Record<string, GrammarPin>;
  return grammarPins;
}

/** Absolute path of a pinned grammar's wasm inside node_modules, checked against its sha256 once per process. */
export function pinnedGrammarPath(name: string): string {
  const pin = readGrammarPins()[name];
  if (!pin) throw new DrsgError("GRAMMAR_LOAD_FAILED", `grammar "${name}" is not pinned in grammars/grammars.json`);
  const cached = verifiedWasm.get(name);
  if (cached) return cached;
  const path = resolveInNodeModules(pin.package, pin.file);
  const sha = nodeCrypto().createHash("sha256").update(readFileSync(path)).digest("hex");
  if (sha !== pin.sha256)
    throw new DrsgError(
      "GRAMMAR_LOAD_FAILED",
      `grammar "${name}": ${path} has sha256 ${sha.slice(0, 12)}, pinned ${pin.sha256.slice(0, 12)} (${pin.package}@${pin.version}) — reinstall with npm ci`,
      { name, path },
    );
  verifiedWasm.set(name, path);
  return path;
}

function resolveInNodeModules(pkg: string, file: string): string {
  let dir = resolve(PLUGINS_DIR, "..");
  for (let i = 0; i < 8; i++) {
    const p = join(dir, "node_modules", pkg, file);
    if (existsSync(p)) return p;
    const up = resolve(dir, "..");
    if (up === dir) break;
    dir = up;
  }
  throw new DrsgError("GRAMMAR_LOAD_FAILED", `grammar package ${pkg} is not installed (looked for ${file}) — run npm install`, {
    pkg,
  });
}

/** A worker job's id: the plugin, then its grammar ("ts/tsx"). */
function jobId(plugin: string, grammar: string): string {
  return `${plugin}/${grammar}`;
}

export class PluginSet {
  readonly plugins: LoadedPlugin[];
  private readonly byExt = new Map<string, LoadedPlugin>();

  constructor(plugins: LoadedPlugin[]) {
    this.plugins = [...plugins].sort((a, b) => comparePluginNames(a.manifest.name, b.manifest.name));
    for (const p of this.plugins) {
      for (const ext of p.manifest.extensions) {
        const prev = this.byExt.get(ext.toLowerCase());
        if (prev)
          throw new DrsgError(
            "PLUGIN_CONFLICT",
            `plugins ${prev.manifest.name} and ${p.manifest.name} both claim ${ext} — remove one (drsg plugin remove ${p.manifest.name})`,
            { ext, incumbent: prev.manifest.name },
          );
        this.byExt.set(ext.toLowerCase(), p);
      }
    }
  }

  /** Sorted `name@version+sha8` of every active plugin: what a plane records as `built_by`. */
  get builtBy(): string[] {
    return this.plugins.map((p) => p.build).sort();
  }

  get(name: string): LoadedPlugin | undefined {
    return this.plugins.find((p) => p.manifest.name === name);
  }

  /** The plugin and grammar that claim a path, by its lower-cased extension. */
  /** The plugin and grammar claiming a path, and the id of its worker job (as jobs() names it). */
  route(path: string): { plugin: LoadedPlugin; grammar: string; job: string } | undefined {
    const ext = extname(path).toLowerCase();
    const plugin = this.byExt.get(ext);
    if (!plugin) return undefined;
    const grammar = grammarFor(plugin.manifest, ext);
    return grammar ? { plugin, grammar, job: jobId(plugin.manifest.name, grammar) } : undefined;
  }

  /** Worker job descriptors for every (plugin, grammar) pair. */
  jobs(): GrammarJob[] {
    const out: GrammarJob[] = [];
    for (const p of this.plugins) {
      for (const [gid, ref] of Object.entries(p.manifest.grammars)) {
        const files = p.manifest.queries[gid];
        if (!files) continue;
        out.push({
          id: jobId(p.manifest.name, gid),
          plugin: p.manifest.name,
          build: p.build,
          grammar: gid,
          wasmPath: typeof ref === "string" ? pinnedGrammarPath(ref) : join(p.dir, ref.wasm),
          querySource: files.map((f) => readFileSync(join(p.dir, f), "utf8")).join("\n"),
          doc: p.manifest.doc,
          ...(p.manifest.recover?.[gid] ? { recover: p.manifest.recover[gid] } : {}),
        });
      }
    }
    return out;
  }
}

/** The folders of the official plugins shipped in plugins/ (every folder with a plugin.json, except the catalog), by name. */
export function officialFolders(): string[] {
  if (!existsSync(PLUGINS_DIR)) return [];
  return readdirSync(PLUGINS_DIR)
    .sort()
    .filter((name) => name !== "catalog" && existsSync(join(PLUGINS_DIR, name, "plugin.json")))
    .map((name) => join(PLUGINS_DIR, name));
}

/** The official plugins shipped in plugins/ (officialFolders). */
export function officialPlugins(): LoadedPlugin[] {
  return officialFolders().map((dir) => ({ ...readPluginFolder(dir), source: `official:${basename(dir)}`, official: true }));
}
