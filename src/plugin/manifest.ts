// A plugin is data: plugin.json + tree-sitter query files (+ optionally its own grammar wasm).
// This module reads and validates a plugin folder and computes its build id (name@version+sha8).
import { type BigIntStats, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import * as z from "../model/zod.js";
import { DrsgError } from "../model/errors.js";
import { compileRules } from "../extract/recover.js";
import { version } from "../version.js";
import { buildsKey, cachedFolder, markChecked, rememberFolder, settled, stampOf } from "./hashcache.js";
import { nodeCrypto } from "../lazy.js";

/** Who checked a folder's recover rules: this drsg (another version may judge them otherwise). */
const RULES_CHECKER = () => `drsg@${version()}`;

const GrammarRef = z.union([
  z.string().check(z.minLength(1), z.describe("a grammar name in grammars/grammars.json")),
  z.strictObject({ wasm: z.string().check(z.minLength(1), z.describe("a .wasm file inside the plugin folder")) }),
]);

export const ManifestSchema = z.strictObject({
  name: z.string().check(z.regex(/^[a-z][a-z0-9_-]{0,39}$/, "lower-case letters, digits, _ or -")),
  version: z.string().check(z.regex(/^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/, "semver x.y.z")),
  description: z.optional(z.string()),
  extensions: z.array(z.string().check(z.regex(/^\.[A-Za-z0-9_+-]+$/, "a dot and letters, e.g. .rb"))).check(z.minLength(1)),
  grammars: z.record(z.string(), GrammarRef),
  /** Extension → grammar id; optional when the plugin has one grammar. */
  routes: z.optional(z.record(z.string(), z.string())),
  /** Grammar id → query files, concatenated in order. */
  queries: z.record(z.string(), z.array(z.string().check(z.minLength(1))).check(z.minLength(1))),
  resolver: z._default(z.string(), "generic"),
  /** Basenames of non-code files the resolver reads (package.json, go.mod, ...). */
  manifests: z._default(z.array(z.string()), []),
  /** Doc comments taken from the comments right before a definition when no @doc is captured. */
  doc: z.optional(
    z.strictObject({
      preceding: z._default(z.array(z.string()), []),
      prefixes: z._default(z.array(z.string()), []),
      /** Wrapper node types whose preceding comments count for the definition they wrap. */
      wrappers: z._default(z.array(z.string()), []),
      /** Sibling node types passed over between a doc comment and its definition (e.g. Rust attributes). */
      skip: z._default(z.array(z.string()), []),
    }),
  ),
  /**
   * Grammar id → same-length rewrites tried when a file does not parse cleanly (src/extract/recover.ts):
   * each fills one capture group of an RE2 pattern with one character; the rewritten parse is kept
   * only when it has fewer error nodes.
   */
  recover: z.optional(
    z.record(
      z.string(),
      z
        .array(
          z.strictObject({
            why: z.string().check(z.minLength(1)),
            pattern: z.string().check(z.minLength(1), z.maxLength(1000)),
            group: z.int().check(z.minimum(1)),
            fill: z.string().check(z.length(1)),
          }),
        )
        .check(z.maxLength(16)),
    ),
  ),
});
export type Manifest = z.infer<typeof ManifestSchema>;

export interface PluginFolder {
  dir: string;
  manifest: Manifest;
  /** `name@version+sha8`: what a plane records of the plugins that built it (`built_by`). */
  build: string;
  /** sha256 over the files that build a plane — every file but the plugin's own `tests/` (sorted relative path + content). */
  sha256: string;
  /** Per-file sha256 of those files, relative POSIX path → hex. */
  files: Record<string, string>;
}

/**
 * A plugin's own tests (annotated fixtures and the facts they must yield): shipped, and pinned
 * with every other file when the plugin is installed, but they build nothing — a plane's record of
 * its builders leaves them out, and a verb checking that record stats ~45 files, not ~450.
 */
const TESTS_DIR = "tests";

/**
 * Every file under `dir` (symbolic links followed, as read) with its stat, by relative POSIX path,
 * depth first in name order (the order the folder's sha256 is taken in). Directory entries say
 * what they are, so only files and links are stat'ed: a verb lists ~400 plugin files.
 */
export function listFiles(dir: string, prefix = "", out: { rel: string; st: BigIntStats }[] = [], builds = false): { rel: string; st: BigIntStats }[] {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (builds && prefix === "" && e.name === TESTS_DIR) continue;
    const p = join(dir, e.name);
    const rel = `${prefix}${e.name}`;
    if (e.isDirectory()) listFiles(p, `${rel}/`, out);
    else if (e.isFile()) out.push({ rel, st: statSync(p, { bigint: true }) });
    else {
      const st = statSync(p, { bigint: true });
      if (st.isDirectory()) listFiles(p, `${rel}/`, out);
      else if (st.isFile()) out.push({ rel, st });
    }
  }
  return out;
}

/**
 * Hash every file of a plugin folder (`builds`: every file but its tests/, what builds a plane):
 * per file and over the whole. `cached`: a folder whose files all carry the stamps (device, inode,
 * size, mtime, ctime) they had when it was last hashed reuses that answer (hashcache.ts); any
 * difference reads and hashes every file again.
 */
export function hashFolder(dir: string, opts: { cached?: boolean; builds?: boolean } = {}): { sha256: string; files: Record<string, string>; checked?: string } {
  const listed = listFiles(dir, "", [], opts.builds === true);
  const stamps: Record<string, string> = {};
  const key = cacheKey(dir, opts.builds === true);
  if (opts.cached) {
    for (const { rel, st } of listed) stamps[rel] = stampOf(st);
    const hit = cachedFolder(key, stamps);
    if (hit) return { sha256: hit.sha256, files: { ...hit.files }, ...(hit.checked !== undefined ? { checked: hit.checked } : {}) };
  }
  const now = Date.now();
  const { createHash } = nodeCrypto();
  const whole = createHash("sha256");
  const files: Record<string, string> = {};
  for (const { rel } of listed) {
    const bytes = readFileSync(join(dir, rel));
    files[rel] = createHash("sha256").update(bytes).digest("hex");
    whole.update(rel).update("\0").update(bytes).update("\0");
  }
  const sha256 = whole.digest("hex");
  // Remembered only when every file had settled before it was read (hashcache.ts, SETTLE_MS),
  // and only with the stamps read before the bytes: a write in between changes a stamp.
  if (opts.cached && settled(listed.map((x) => x.st), now)) rememberFolder(key, { stamps, sha256, files: { ...files } });
  return { sha256, files };
}

/** A folder's record in the hash cache: its path, or its build files' (hashcache.ts: `<dir>\0builds`). */
function cacheKey(dir: string, builds: boolean): string {
  return builds ? buildsKey(resolve(dir)) : resolve(dir);
}

/**
 * Read and validate `<dir>/plugin.json`; PLUGIN_INVALID says which field is wrong. The folder's
 * hash is remembered across processes unless `cached` is false (hashFolder).
 */
export function readPluginFolder(dir: string, opts: { cached?: boolean } = {}): PluginFolder {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(join(dir, "plugin.json"), "utf8"));
  } catch (e) {
    throw new DrsgError("PLUGIN_INVALID", `plugin: cannot read ${join(dir, "plugin.json")}: ${(e as Error).message}`, {
      dir,
    });
  }
  const parsed = ManifestSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
    throw new DrsgError("PLUGIN_INVALID", `plugin: ${join(dir, "plugin.json")} is not a valid manifest — ${issues}`, {
      dir,
    });
  }
  const m = parsed.data;
  const grammarIds = Object.keys(m.grammars);
  if (grammarIds.length === 0) throw new DrsgError("PLUGIN_INVALID", `plugin ${m.name}: "grammars" is empty`, { dir });
  for (const ext of m.extensions) {
    const g = m.routes?.[ext] ?? (grammarIds.length === 1 ? grammarIds[0] : undefined);
    if (!g || !(g in m.grammars))
      throw new DrsgError("PLUGIN_INVALID", `plugin ${m.name}: extension ${ext} routes to no declared grammar`, { dir });
    if (!m.queries[g]) throw new DrsgError("PLUGIN_INVALID", `plugin ${m.name}: grammar ${g} has no queries`, { dir });
  }
  for (const g of Object.keys(m.recover ?? {}))
    if (!(g in m.grammars)) throw new DrsgError("PLUGIN_INVALID", `plugin ${m.name}: recover names grammar ${g}, which it does not declare`, { dir });
  const cached = opts.cached !== false;
  const { sha256, files, checked } = hashFolder(dir, { cached, builds: true });
  // Every rule must compile; a folder whose rules compiled before, byte for byte (its hashes'
  // record says so, hashcache.ts), is not compiled again — the extraction compiles them anyway.
  if (checked !== RULES_CHECKER()) {
    for (const [g, rules] of Object.entries(m.recover ?? {})) compileRules(rules, `plugin ${m.name}: recover.${g}`);
    if (cached) markChecked(cacheKey(dir, true), sha256, RULES_CHECKER());
  }
  return { dir, manifest: m, build: `${m.name}@${m.version}+${sha256.slice(0, 8)}`, sha256, files };
}

/** The alphabet of plugin names (ManifestSchema's `name`) in the order a collator sorts it: `_`, `-`, digits, letters. */
const NAME_ORDER = "_-0123456789abcdefghijklmnopqrstuvwxyz";

/**
 * Plugin names in the order `localeCompare` gave them, without it: its first call builds an ICU
 * collator (~10 ms, paid by every cold verb). Names outside the manifest's alphabet (never valid)
 * fall back to code-unit order.
 */
export function comparePluginNames(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    const rx = NAME_ORDER.indexOf(x);
    const ry = NAME_ORDER.indexOf(y);
    if (rx >= 0 && ry >= 0) return rx - ry;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/** The grammar id a plugin uses for a file extension (lower-cased, with the dot). */
export function grammarFor(m: Manifest, ext: string): string | undefined {
  if (!m.extensions.includes(ext)) return undefined;
  const ids = Object.keys(m.grammars);
  return m.routes?.[ext] ?? (ids.length === 1 ? ids[0] : undefined);
}
