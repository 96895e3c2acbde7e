// The files `grep` reads in a source tree (DESIGN §7–§8): what git would show — tracked files and
// untracked ones no ignore rule excludes — unless `all_files`; never vendored, generated or tool
// directories, dot-directories or a symlinked directory; a symlinked file only when it resolves
// inside the tree. One walk per call, sorted, so answers are stable.
import { type Dirent, readFileSync, readdirSync, realpathSync, statSync } from "node:fs";
import { join, sep } from "node:path";
import { type IgnoreRule, isIgnoredBy, parseGitignore } from "../../git/gitignore.js";
import { GitRepo } from "../../git/repo.js";
import { DrsgError } from "../../model/errors.js";
import { SKIP_DIRS } from "../../sync/walk.js";
import { checkShape, confine, isInside, relPath } from "../files.js";

/** What part of the tree to read. */
export type Scope =
  | { kind: "tree" }
  | { kind: "dir"; rel: string }
  | { kind: "file"; rel: string }
  | { kind: "ext"; ext: string };

export interface TreeFile {
  /** POSIX path relative to the tree root, as answers show it. */
  rel: string;
  /** The canonical absolute path to open (a symlinked file's target, inside the tree). */
  abs: string;
}

export interface TreeListing {
  files: TreeFile[];
  /** Files and directories left out because an ignore rule matched them (not walked below). */
  ignored: number;
  /** The scope named one file, and ignore rules exclude it (all_files reads it). */
  scopeIgnored: boolean;
}

/**
 * Read `path` as a scope: a directory or file inside the tree, else — a leading dot or `*.` and no
 * slash, naming nothing at the root — an extension (`.ts`, `*.py`). Shape refusals
 * (absolute, `..`) and links out of the tree are PATH_OUTSIDE_TREE; nothing there, PATH_NOT_FOUND.
 */
export function parseScope(root: string, path: string | undefined): Scope {
  if (path === undefined || path === "" || path === "." || path === "./") return { kind: "tree" };
  checkShape(path);
  const p = path.replace(/\\/g, "/").replace(/^\.\//, "").replace(/\/+$/, "");
  if (p.split("/").includes(".git"))
    throw new DrsgError("BAD_INPUT", `grep: path '${path}' lies inside .git, which grep never reads`, { path });
  const ext = /^\*?(\.[^/*?]+)$/.exec(p);
  if (ext && (p.startsWith("*") || !existsIn(root, p))) return { kind: "ext", ext: ext[1]!.toLowerCase() };
  const abs = confine(root, p);
  const rel = relPath(realpathSync(root), abs);
  const st = statSync(abs);
  if (st.isDirectory()) return rel === "" ? { kind: "tree" } : { kind: "dir", rel };
  if (st.isFile()) return { kind: "file", rel };
  throw new DrsgError("PATH_NOT_FOUND", `grep: path '${path}' is neither a file nor a directory`, { path });
}

function existsIn(root: string, rel: string): boolean {
  try {
    statSync(join(root, rel));
    return true;
  } catch {
    return false;
  }
}

interface IgnoreState {
  /** Tracked paths, relative to the tree root (git only). */
  tracked: Set<string>;
  /** Every directory holding a tracked path, relative to the tree root. */
  trackedDirs: Set<string>;
  /** The tree root's path inside the repository ("" at its root, and outside git). */
  prefix: string;
}

// One GitRepo per tree root for the life of the process (isomorphic-git caches live in it).
const repos = new Map<string, Promise<GitRepo | undefined>>();

function repoFor(root: string): Promise<GitRepo | undefined> {
  let r = repos.get(root);
  if (!r) {
    r = GitRepo.find(root).catch(() => undefined);
    repos.set(root, r);
  }
  return r;
}

async function ignoreState(root: string): Promise<{ state: IgnoreState; rules: IgnoreRule[] }> {
  const repo = await repoFor(root);
  const tracked = new Set<string>();
  const trackedDirs = new Set<string>();
  if (!repo || !isInside(repo.root, root)) return { state: { tracked, trackedDirs, prefix: "" }, rules: [] };
  const prefix = relPath(repo.root, root);
  const lead = prefix === "" ? "" : `${prefix}/`;
  for (const f of await repo.trackedFiles()) {
    if (!f.startsWith(lead)) continue;
    const rel = f.slice(lead.length);
    tracked.add(rel);
    for (let i = rel.lastIndexOf("/"); i > 0; i = rel.lastIndexOf("/", i - 1)) {
      const d = rel.slice(0, i);
      if (trackedDirs.has(d)) break;
      trackedDirs.add(d);
    }
  }
  // Rules above the tree root: info/exclude, then every .gitignore from the repository root down.
  let rules = parseGitignore(repo.infoExclude(), "");
  if (prefix !== "") {
    const segs = prefix.split("/");
    for (let i = 0; i < segs.length; i++) {
      const dir = segs.slice(0, i).join("/");
      rules = rules.concat(parseGitignore(readIgnore(join(repo.root, dir)), dir));
    }
  }
  return { state: { tracked, trackedDirs, prefix }, rules };
}

function readIgnore(dirAbs: string): string {
  try {
    return readFileSync(join(dirAbs, ".gitignore"), "utf8");
  } catch {
    return "";
  }
}

function byName(a: Dirent, b: Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** The files `scope` covers in the tree at `root` (canonical), sorted by path. */
export async function listTree(root: string, scope: Scope, allFiles: boolean): Promise<TreeListing> {
  const canonRoot = realpathSync(root);
  const out: TreeListing = { files: [], ignored: 0, scopeIgnored: false };
  const { state, rules: above } = allFiles
    ? { state: { tracked: new Set<string>(), trackedDirs: new Set<string>(), prefix: "" }, rules: [] }
    : await ignoreState(canonRoot);
  const repoRel = (rel: string) => (rel === "" ? state.prefix : state.prefix === "" ? rel : `${state.prefix}/${rel}`);
  const ignoredPath = (rel: string, isDir: boolean, rules: IgnoreRule[], under: boolean) =>
    !allFiles && !state.tracked.has(rel) && (under || isIgnoredBy(rules, repoRel(rel), isDir));
  const ext = scope.kind === "ext" ? scope.ext : undefined;

  const visit = (relDir: string, rules: IgnoreRule[], under: boolean): void => {
    const dirAbs = relDir === "" ? canonRoot : join(canonRoot, relDir);
    let dirents: Dirent[];
    try {
      dirents = readdirSync(dirAbs, { withFileTypes: true });
    } catch {
      return; // unreadable directories are passed over, as git does
    }
    if (!allFiles && dirents.some((d) => d.name === ".gitignore" && d.isFile()))
      rules = rules.concat(parseGitignore(readIgnore(dirAbs), repoRel(relDir)));
    dirents.sort(byName);
    for (const d of dirents) {
      const rel = relDir === "" ? d.name : `${relDir}/${d.name}`;
      if (d.name === ".git") continue;
      if (d.isDirectory()) {
        if (SKIP_DIRS.has(d.name) || d.name.startsWith(".")) continue;
        const ign = !allFiles && (under || isIgnoredBy(rules, repoRel(rel), true));
        if (ign && !state.trackedDirs.has(rel)) {
          out.ignored++;
          continue;
        }
        visit(rel, rules, ign);
        continue;
      }
      if (ext !== undefined && !d.name.toLowerCase().endsWith(ext)) continue;
      let abs = join(dirAbs, d.name);
      if (d.isSymbolicLink()) {
        // A link is read only when it is a file that resolves inside the tree; a linked directory is never entered.
        try {
          abs = realpathSync(abs);
          if (!isInside(canonRoot, abs) || !statSync(abs).isFile()) continue;
        } catch {
          continue;
        }
      } else if (!d.isFile()) continue;
      if (ignoredPath(rel, false, rules, under)) {
        out.ignored++;
        continue;
      }
      out.files.push({ rel, abs });
    }
  };

  if (scope.kind === "tree" || scope.kind === "ext") {
    visit("", above, false);
    return out;
  }
  // A directory or file scope: the ignore rules of every directory above it, and whether one of
  // them (or the scope directory itself) is ignored — then only tracked files below it are read.
  const parents = scope.rel.split("/").slice(0, -1);
  let rules = above;
  let under = false;
  for (let i = 0; i <= parents.length; i++) {
    if (allFiles) break;
    const rel = parents.slice(0, i).join("/");
    if (i > 0) under = under || isIgnoredBy(rules, repoRel(rel), true);
    rules = rules.concat(parseGitignore(readIgnore(join(canonRoot, rel)), repoRel(rel)));
  }
  if (scope.kind === "dir") {
    under = under || (!allFiles && isIgnoredBy(rules, repoRel(scope.rel), true));
    visit(scope.rel, rules, under);
    out.scopeIgnored = under && out.files.length === 0;
    return out;
  }
  if (ignoredPath(scope.rel, false, rules, under)) {
    out.ignored = 1;
    out.scopeIgnored = true;
    return out;
  }
  out.files.push({ rel: scope.rel, abs: join(canonRoot, scope.rel.split("/").join(sep)) });
  return out;
}
