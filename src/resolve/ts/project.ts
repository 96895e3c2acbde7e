// The shape of a TypeScript/JavaScript tree: which package.json owns each file (module keys),
// which tsconfig/jsconfig applies to it (`paths`, `baseUrl`, `extends`), and where a module
// specifier leads — a file in the tree, a workspace package, a dependency, or nowhere.
import { builtinModules } from "node:module";

/** A package.json with a name: the key prefix of every file below it (up to a nested one). */
export interface Pkg {
  name: string;
  dir: string;
  json: Record<string, unknown>;
}

interface PathRule {
  prefix: string;
  suffix: string;
  wildcard: boolean;
  targets: string[];
}

/** The compiler options drsg reads from one tsconfig/jsconfig, with `extends` folded in. */
export interface TsConfig {
  dir: string;
  baseUrl?: string;
  paths: PathRule[];
  /** Directory `paths` targets are relative to (baseUrl when set, else the config that declared them). */
  pathsBase: string;
}

/** Where a specifier leads. */
export type Target =
  | { kind: "file"; path: string }
  | { kind: "external"; key: string }
  | { kind: "unresolved" };

const CODE_EXT = /\.(d\.(?:m|c)?ts|tsx?|mts|cts|jsx?|mjs|cjs)$/;
const DTS_EXT = /\.d\.(?:m|c)?ts$/;
const JS_EXT = /\.(jsx?|mjs|cjs)$/;
const ASSET_EXT = /\.(json|css|scss|sass|less|styl|svg|png|jpe?g|gif|webp|avif|ico|bmp|html?|md|mdx|txt|vue|svelte|astro|graphql|gql|wasm|node|woff2?|ttf|eot|mp3|mp4|webm|yaml|yml|toml|csv|xml)(\?.*)?$/i;
const NPM_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
const NODE_BUILTINS: ReadonlySet<string> = new Set(builtinModules.map((m) => m.replace(/^node:/, "")));

export function dirname(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

/** Join and normalise POSIX paths relative to the tree root; undefined when `..` leaves the tree. */
export function joinPath(base: string, rel: string): string | undefined {
  const out: string[] = base === "" ? [] : base.split("/");
  for (const seg of rel.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(seg);
  }
  return out.join("/");
}

function relativeTo(dir: string, path: string): string {
  return dir === "" ? path : path.slice(dir.length + 1);
}

/** `@scope/name/sub` → [`@scope/name`, `sub`]. */
export function splitPackage(spec: string): [string, string] {
  const parts = spec.split("/");
  const n = spec.startsWith("@") ? 2 : 1;
  return [parts.slice(0, n).join("/"), parts.slice(n).join("/")];
}

/** JSON with comments and trailing commas (tsconfig.json, jsconfig.json). */
export function parseJsonc(text: string): unknown {
  let out = "";
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < n && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < n && text[i] !== "\n") i++;
    } else if (c === "/" && text[i + 1] === "*") {
      const j = text.indexOf("*/", i + 2);
      i = j < 0 ? n : j + 2;
    } else {
      out += c;
      i++;
    }
  }
  return JSON.parse(out.replace(/,(\s*[}\]])/g, "$1"));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function stripCodeExt(path: string): string {
  return path.replace(CODE_EXT, "");
}

/** The package.json fields a Project reads: its name, its dependencies' names, its entry points. */
const PKG_ENTRY_FIELDS = ["exports", "source", "types", "typings", "module", "main"] as const;
const DEP_FIELDS = ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"] as const;

/**
 * What a Project reads of a manifest (ManifestView): of a package.json its name, the names (not
 * versions) of its dependencies and its entry points; of a tsconfig/jsconfig its `extends`,
 * `baseUrl` and `paths`. Text that does not parse is its own view (a change of it counts).
 */
export function manifestView(path: string, text: string): string {
  let json: unknown;
  try {
    json = path.endsWith("package.json") ? JSON.parse(text) : parseJsonc(text);
  } catch {
    return `unparsed\u0000${text}`;
  }
  if (!isObject(json)) return JSON.stringify(json);
  if (path.endsWith("package.json")) {
    const deps = DEP_FIELDS.flatMap((f) => (isObject(json[f]) ? Object.keys(json[f] as object).sort() : []));
    return JSON.stringify([json.name, [...new Set(deps)].sort(), PKG_ENTRY_FIELDS.map((f) => json[f] ?? null)]);
  }
  const opts = isObject(json.compilerOptions) ? json.compilerOptions : {};
  return JSON.stringify([json.extends ?? null, opts.baseUrl ?? null, opts.paths ?? null]);
}

export class Project {
  readonly files: ReadonlySet<string>;
  private readonly pkgs = new Map<string, Pkg>();
  /** Package name → its package; null when two packages in the tree share the name. */
  private readonly pkgByName = new Map<string, Pkg | null>();
  private readonly deps = new Set<string>();
  private readonly topDirs = new Set<string>();
  private readonly configs = new Map<string, TsConfig>();
  private readonly pkgCache = new Map<string, Pkg | undefined>();
  private readonly cfgCache = new Map<string, TsConfig | undefined>();
  private readonly keys = new Map<string, string>();
  private readonly entering = new Set<string>();
  private readonly resolved = new Map<string, Target>();
  readonly notes: string[] = [];

  constructor(paths: string[], manifests: Map<string, string>, treeName: string) {
    this.files = new Set(paths);
    for (const p of paths) {
      const i = p.indexOf("/");
      if (i > 0) this.topDirs.add(p.slice(0, i));
    }
    const raw = new Map<string, unknown>();
    for (const [path, text] of manifests) {
      try {
        raw.set(path, path.endsWith("package.json") ? JSON.parse(text) : parseJsonc(text));
      } catch {
        this.notes.push(`${path}: not valid JSON, ignored`);
      }
    }
    for (const [path, json] of raw) {
      if (!path.endsWith("package.json") || !isObject(json)) continue;
      for (const field of ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"]) {
        const deps = json[field];
        if (isObject(deps)) for (const d of Object.keys(deps)) this.deps.add(d);
      }
      const name = json.name;
      if (typeof name !== "string" || name === "") continue;
      const dir = dirname(path);
      const pkg: Pkg = { name, dir, json };
      this.pkgs.set(dir, pkg);
      if (this.pkgByName.has(name)) this.pkgByName.set(name, null);
      else this.pkgByName.set(name, pkg);
    }
    for (const [name, pkg] of this.pkgByName)
      if (pkg === null) this.notes.push(`package name ${name} is declared by several package.json files: not resolved by name`);
    for (const path of raw.keys()) {
      const base = path.slice(path.lastIndexOf("/") + 1);
      if (base !== "tsconfig.json" && base !== "jsconfig.json") continue;
      const dir = dirname(path);
      if (base === "jsconfig.json" && raw.has(dir === "" ? "tsconfig.json" : `${dir}/tsconfig.json`)) continue;
      const cfg = this.loadConfig(path, raw, new Set());
      if (cfg) this.configs.set(dir, cfg);
    }
    this.assignKeys(paths, treeName);
  }

  /** Read one config with its `extends` chain (relative paths only: packages are not in the tree). */
  private loadConfig(path: string, raw: Map<string, unknown>, seen: Set<string>): TsConfig | undefined {
    if (seen.has(path)) return undefined;
    seen.add(path);
    const json = raw.get(path);
    if (!isObject(json)) return undefined;
    const dir = dirname(path);
    let cfg: TsConfig = { dir, paths: [], pathsBase: dir };
    const ext = json.extends;
    for (const e of typeof ext === "string" ? [ext] : Array.isArray(ext) ? ext : []) {
      if (typeof e !== "string" || !e.startsWith(".")) continue;
      const p = joinPath(dir, e);
      if (p === undefined) continue;
      const base = this.loadConfig(raw.has(p) ? p : `${p}.json`, raw, seen);
      if (base) cfg = { ...base, dir };
    }
    const opts = json.compilerOptions;
    if (isObject(opts)) {
      let baseUrlSet = false;
      if (typeof opts.baseUrl === "string") {
        const b = joinPath(dir, opts.baseUrl);
        if (b !== undefined) {
          cfg.baseUrl = b;
          baseUrlSet = true;
        }
      }
      if (isObject(opts.paths)) {
        cfg.paths = [];
        for (const [pattern, targets] of Object.entries(opts.paths)) {
          if (!Array.isArray(targets)) continue;
          const star = pattern.indexOf("*");
          cfg.paths.push({
            prefix: star < 0 ? pattern : pattern.slice(0, star),
            suffix: star < 0 ? "" : pattern.slice(star + 1),
            wildcard: star >= 0,
            targets: targets.filter((t): t is string => typeof t === "string"),
          });
        }
        // Longest prefix first, as the compiler matches.
        cfg.paths.sort((a, b) => b.prefix.length - a.prefix.length || (a.prefix < b.prefix ? -1 : 1));
        cfg.pathsBase = cfg.baseUrl ?? dir;
      } else if (baseUrlSet) cfg.pathsBase = cfg.baseUrl ?? dir;
    }
    return cfg;
  }

  /** The nearest package.json with a name above a file. */
  pkgOf(path: string): Pkg | undefined {
    return this.nearest(dirname(path), this.pkgs, this.pkgCache);
  }

  configOf(path: string): TsConfig | undefined {
    return this.nearest(dirname(path), this.configs, this.cfgCache);
  }

  private nearest<T>(dir: string, table: Map<string, T>, cache: Map<string, T | undefined>): T | undefined {
    if (cache.has(dir)) return cache.get(dir);
    const own = table.get(dir);
    const found = own ?? (dir === "" ? undefined : this.nearest(dirname(dir), table, cache));
    cache.set(dir, found);
    return found;
  }

  /** Module key of a file (DESIGN §4): `<package name>/<path from the package, no extension>`. */
  moduleKey(path: string): string {
    return this.keys.get(path) ?? path;
  }

  private assignKeys(paths: string[], treeName: string): void {
    const groups = new Map<string, string[]>();
    const prefixOf = new Map<string, [string, string]>();
    for (const path of paths) {
      const pkg = this.pkgOf(path);
      const prefix = pkg ? pkg.name : treeName;
      const rel = pkg ? relativeTo(pkg.dir, path) : path;
      prefixOf.set(path, [prefix, rel]);
      let stem = stripCodeExt(rel);
      if (stem === "index") stem = "";
      else if (stem.endsWith("/index")) stem = stem.slice(0, -"/index".length);
      const key = stem === "" ? prefix : `${prefix}/${stem}`;
      const g = groups.get(key);
      if (g) g.push(path);
      else groups.set(key, [path]);
    }
    const rank = (p: string) =>
      (DTS_EXT.test(p) ? 3 : JS_EXT.test(p) ? 2 : /\.[mc]ts$/.test(p) ? 1 : 0) * 2 + (/(^|\/)index\.[^/]+$/.test(p) ? 1 : 0);
    const taken = new Set<string>();
    for (const [key, group] of groups) {
      group.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1));
      this.keys.set(group[0]!, key);
      taken.add(key);
    }
    for (const [key, group] of groups) {
      for (const path of group.slice(1)) {
        const [prefix, rel] = prefixOf.get(path)!;
        let k = `${prefix}/${rel}`;
        if (taken.has(k)) k = `${treeName}/${path}`;
        this.keys.set(path, k);
        taken.add(k);
        this.notes.push(`${path} and ${group[0]} share module key ${key}: ${path} keyed ${k}`);
      }
    }
  }

  /** The file a path names, trying the extensions the compiler tries (`.js` names a `.ts` source). */
  resolveFile(base: string): string | undefined {
    const m = /\.(jsx?|mjs|cjs|tsx?|mts|cts)$/.exec(base);
    if (m) {
      const stem = base.slice(0, -m[0].length);
      const tries: Record<string, string[]> = {
        ".js": [".ts", ".tsx", ".js", ".jsx", ".d.ts"],
        ".jsx": [".tsx", ".jsx", ".d.ts"],
        ".mjs": [".mts", ".mjs", ".d.mts"],
        ".cjs": [".cts", ".cjs", ".d.cts"],
      };
      for (const ext of tries[m[0]] ?? [m[0]]) if (this.files.has(stem + ext)) return stem + ext;
    }
    if (base !== "") for (const ext of [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"]) if (this.files.has(base + ext)) return base + ext;
    // The tree root itself (`import … from ".."` reaching it) is the directory "".
    const inDir = base === "" ? "" : `${base}/`;
    for (const ext of ["ts", "tsx", "js", "jsx", "mjs", "cjs"]) if (this.files.has(`${inDir}index.${ext}`)) return `${inDir}index.${ext}`;
    if (base !== "" && this.files.has(`${base}.d.ts`)) return `${base}.d.ts`;
    if (this.files.has(`${inDir}index.d.ts`)) return `${inDir}index.d.ts`;
    const pkg = this.pkgs.get(base);
    if (pkg && !this.entering.has(pkg.dir)) return this.packageEntry(pkg, "");
    return undefined;
  }

  /** Where `import ... from spec` in file `from` leads (memoised per directory and specifier). */
  resolve(from: string, spec: string): Target {
    const id = `${dirname(from)}\u0000${spec}`;
    let t = this.resolved.get(id);
    if (!t) {
      t = this.resolveUncached(from, spec);
      this.resolved.set(id, t);
    }
    return t;
  }

  private resolveUncached(from: string, spec: string): Target {
    if (spec === "") return { kind: "unresolved" };
    if (ASSET_EXT.test(spec)) return { kind: "unresolved" };
    if (spec.startsWith("./") || spec.startsWith("../") || spec === "." || spec === "..") {
      const base = joinPath(dirname(from), spec);
      const file = base === undefined ? undefined : this.resolveFile(base);
      return file ? { kind: "file", path: file } : { kind: "unresolved" };
    }
    if (spec.startsWith("/")) return { kind: "unresolved" };
    if (spec.startsWith("node:")) return { kind: "external", key: spec };
    const cfg = this.configOf(from);
    if (cfg) {
      for (const rule of cfg.paths) {
        let star: string | undefined;
        if (!rule.wildcard) {
          if (spec !== rule.prefix) continue;
          star = "";
        } else if (spec.startsWith(rule.prefix) && spec.endsWith(rule.suffix) && spec.length >= rule.prefix.length + rule.suffix.length) {
          star = spec.slice(rule.prefix.length, spec.length - rule.suffix.length);
        } else continue;
        for (const t of rule.targets) {
          const p = joinPath(cfg.pathsBase, t.replace("*", star));
          const file = p === undefined ? undefined : this.resolveFile(p);
          if (file) return { kind: "file", path: file };
        }
        // A `paths` alias matched and named no file of the tree: not a dependency either.
        return { kind: "unresolved" };
      }
      if (cfg.baseUrl !== undefined) {
        const p = joinPath(cfg.baseUrl, spec);
        const file = p === undefined ? undefined : this.resolveFile(p);
        if (file) return { kind: "file", path: file };
      }
    }
    const [name, sub] = splitPackage(spec);
    const pkg = this.pkgByName.get(name);
    if (pkg) {
      const file = this.packageEntry(pkg, sub);
      return file ? { kind: "file", path: file } : { kind: "unresolved" };
    }
    if (NODE_BUILTINS.has(name) && !this.deps.has(name)) return { kind: "external", key: `node:${spec}` };
    if (!NPM_NAME.test(name)) return { kind: "unresolved" };
    // A bare specifier naming a directory of the tree that no package declares is an alias whose
    // configuration drsg did not find, not a dependency.
    if (!this.deps.has(name) && pkg === undefined && this.topDirs.has(name)) return { kind: "unresolved" };
    return { kind: "external", key: `npm:${spec}` };
  }

  /** The source file a workspace package's entry (or `pkg/sub/path`) names. */
  private packageEntry(pkg: Pkg, sub: string): string | undefined {
    this.entering.add(pkg.dir);
    try {
      return this.packageEntryOf(pkg, sub);
    } finally {
      this.entering.delete(pkg.dir);
    }
  }

  private packageEntryOf(pkg: Pkg, sub: string): string | undefined {
    const cands: string[] = [];
    const exp = pkg.json.exports;
    const key = sub === "" ? "." : `./${sub}`;
    const pick = (v: unknown, star?: string): void => {
      if (typeof v === "string") cands.push(star === undefined ? v : v.replace("*", star));
      else if (Array.isArray(v)) for (const x of v) pick(x, star);
      else if (isObject(v))
        for (const c of ["source", "types", "typings", "import", "module", "require", "node", "default", "development"])
          if (c in v) pick(v[c], star);
    };
    if (typeof exp === "string" || Array.isArray(exp)) {
      if (sub === "") pick(exp);
    } else if (isObject(exp)) {
      const keys = Object.keys(exp);
      if (keys.length > 0 && keys.every((k) => !k.startsWith("."))) {
        if (sub === "") pick(exp);
      } else if (key in exp) pick(exp[key]);
      else
        for (const k of keys) {
          const star = k.indexOf("*");
          if (star < 0) continue;
          const pre = k.slice(0, star);
          const suf = k.slice(star + 1);
          if (key.startsWith(pre) && key.endsWith(suf)) pick(exp[k], key.slice(pre.length, key.length - suf.length));
        }
    }
    if (sub === "") {
      for (const f of ["source", "types", "typings", "module", "main"]) {
        const v = pkg.json[f];
        if (typeof v === "string") cands.push(v);
      }
      cands.push("src/index", "index");
    } else cands.push(sub, `src/${sub}`);
    for (const c of cands) {
      const rel = c.replace(DTS_EXT, "");
      for (const variant of [rel, rel.replace(/^(?:\.\/)?(?:dist|lib|build|out|esm|cjs|es|types)\//, "src/"), rel.replace(/^(?:\.\/)?(?:dist|lib|build|out|esm|cjs|es|types)\//, "")]) {
        const p = joinPath(pkg.dir, variant);
        const file = p === undefined ? undefined : this.resolveFile(p);
        if (file) return file;
      }
    }
    return undefined;
  }
}
