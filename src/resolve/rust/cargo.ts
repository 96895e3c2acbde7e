// Cargo manifests → packages and their crate roots. A line-level reading of the few TOML
// tables the resolver needs: [package] name, [lib] name/path, [[bin]] name/path, and the keys
// of every dependency table (the names code may use as extern crates).
import { posix } from "node:path";

export interface Package {
  /** Directory of the Cargo.toml, "" for the tree root. */
  dir: string;
  name: string;
  /** Library crate name: `[lib] name`, else the package name with `-` → `_`. */
  libName: string;
  libPath?: string;
  /** [[bin]] / [[test]] / [[example]] / [[bench]] targets with a path or name. */
  targets: { kind: "bin" | "test" | "example" | "bench"; name?: string; path?: string }[];
  /** Target auto-discovery switched off (`autobins = false`, ...). */
  noAuto: Set<string>;
  /** Dependency names as code writes them (`-` → `_`) → package name (`package = ".."`, else the key). Undefined: unknown (no manifest). */
  deps?: Map<string, string>;
}

function unquote(v: string): string {
  const t = v.trim();
  if (t.length >= 2 && (t[0] === '"' || t[0] === "'") && t[t.length - 1] === t[0]) return t.slice(1, -1);
  return t;
}

function stripTomlComment(line: string): string {
  let inStr: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (inStr) {
      if (c === "\\" && inStr === '"') i++;
      else if (c === inStr) inStr = undefined;
    } else if (c === '"' || c === "'") inStr = c;
    else if (c === "#") return line.slice(0, i);
  }
  return line;
}

const crateIdent = (s: string) => s.replace(/-/g, "_");

/** Read one Cargo.toml; undefined when it declares no [package] (a virtual workspace manifest). */
export function parseCargo(path: string, text: string): Package | undefined {
  const dir = posix.dirname(path) === "." ? "" : posix.dirname(path);
  let section = "";
  let depKey: string | undefined; // inside [dependencies.foo]
  let name: string | undefined;
  let libName: string | undefined;
  let libPath: string | undefined;
  const targets: Package["targets"] = [];
  const noAuto = new Set<string>();
  const deps = new Map<string, string>();
  let depth = 0; // open [ / { across lines (multi-line arrays and tables)
  for (const rawLine of text.split("\n")) {
    const line = stripTomlComment(rawLine).trim();
    if (!line) continue;
    if (depth > 0) {
      for (const c of line) depth += c === "[" || c === "{" ? 1 : c === "]" || c === "}" ? -1 : 0;
      continue;
    }
    const header = /^\[\[?\s*([^\]]+?)\s*\]\]?$/.exec(line);
    if (header) {
      section = header[1]!.replace(/\s+/g, "");
      depKey = undefined;
      if (line.startsWith("[[") && (section === "bin" || section === "test" || section === "example" || section === "bench"))
        targets.push({ kind: section });
      const dm = /(?:^|\.)(?:dev-|build-)?dependencies\.("[^"]+"|'[^']+'|[A-Za-z0-9_-]+)$/.exec(section);
      if (dm && !section.startsWith("workspace.")) {
        depKey = crateIdent(unquote(dm[1]!));
        deps.set(depKey, unquote(dm[1]!));
      }
      continue;
    }
    const kv = /^("[^"]+"|'[^']+'|[A-Za-z0-9_.-]+)\s*=\s*(.*)$/.exec(line);
    if (!kv) continue;
    const key = unquote(kv[1]!);
    const value = kv[2]!;
    for (const c of value) depth += c === "[" || c === "{" ? 1 : c === "]" || c === "}" ? -1 : 0;
    if (depth < 0) depth = 0;
    const isDepTable = /(?:^|\.)(?:dev-|build-)?dependencies$/.test(section) && !section.startsWith("workspace.");
    if (section === "package" && key === "name") name = unquote(value);
    else if (section === "lib" && key === "name") libName = unquote(value);
    else if (section === "lib" && key === "path") libPath = unquote(value);
    else if (section === "package" && /^auto(bins|tests|examples|benches)$/.test(key) && value.trim() === "false")
      noAuto.add(key.slice(4).replace(/s$/, "").replace(/benche$/, "bench"));
    else if (targets.length > 0 && section === targets[targets.length - 1]!.kind && (key === "name" || key === "path"))
      targets[targets.length - 1]![key] = unquote(value);
    else if (isDepTable) {
      const pm = /package\s*=\s*("[^"]+"|'[^']+')/.exec(value);
      deps.set(crateIdent(key), pm ? unquote(pm[1]!) : key);
    } else if (depKey && key === "package") deps.set(depKey, unquote(value));
  }
  if (!name) return undefined;
  const pkg: Package = { dir, name, libName: crateIdent(libName ?? name), targets, noAuto, deps };
  if (libPath) pkg.libPath = posix.normalize(posix.join(dir, libPath));
  return pkg;
}

export type RootKind = "lib" | "bin" | "test" | "example" | "bench" | "build";

export interface CrateRoot {
  /** Root file path. */
  file: string;
  /** Found by cargo's target auto-discovery (rather than named in Cargo.toml or the lib / main root). */
  auto?: boolean;
  /** Crate name (identifier form). */
  name: string;
  kind: RootKind;
  pkg: Package;
}

const stemOf = (p: string) => crateIdent(posix.basename(p, ".rs"));

/** The crate roots of a package among the files present (cargo's target auto-discovery plus [lib] / [[bin]] paths). */
export function crateRoots(pkg: Package, files: Set<string>): CrateRoot[] {
  const at = (rel: string) => (pkg.dir ? `${pkg.dir}/${rel}` : rel);
  const out: CrateRoot[] = [];
  const seen = new Set<string>();
  const add = (file: string, name: string, kind: RootKind, auto = false) => {
    if (!files.has(file) || seen.has(file)) return;
    seen.add(file);
    out.push(auto ? { file, name, kind, pkg, auto } : { file, name, kind, pkg });
  };
  add(pkg.libPath ?? at("src/lib.rs"), pkg.libName, "lib");
  const dirs: Record<string, string> = { bin: "src/bin", test: "tests", example: "examples", bench: "benches" };
  for (const t of pkg.targets) {
    const path = t.path ?? (t.name ? `${dirs[t.kind]}/${t.name}.rs` : undefined);
    if (path) add(posix.normalize(at(path)), crateIdent(t.name ?? stemOf(path)), t.kind);
  }
  if (!pkg.noAuto.has("bin")) add(at("src/main.rs"), crateIdent(pkg.name), "bin");
  const sorted = [...files].sort();
  for (const [kind, d] of Object.entries(dirs) as [RootKind, string][]) {
    if (pkg.noAuto.has(kind)) continue;
    const prefix = `${at(d)}/`;
    for (const f of sorted) {
      if (!f.startsWith(prefix)) continue;
      const rest = f.slice(prefix.length);
      if (/^[^/]+\.rs$/.test(rest)) add(f, stemOf(rest), kind, true);
      else if (/^[^/]+\/main\.rs$/.test(rest)) add(f, crateIdent(rest.split("/")[0]!), kind, true);
    }
  }
  add(at("build.rs"), "build_script_build", "build");
  return out;
}
