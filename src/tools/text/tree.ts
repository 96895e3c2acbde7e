// The files `grep` reads in a source tree (DESIGN §7–§8). From a commit: its files under the
// tree root (tracked files are the committed tree; links and submodules are not read). From the
// working tree: what git would show — tracked files and untracked ones no ignore rule excludes —
// unless `all_files`; never vendored, generated or tool directories, dot-directories or a
// symlinked directory. The working-tree walk holds each directory open and lists and opens
// relative to it without following links (safeopen.ts), so a directory swapped for a link
// mid-walk is not entered. One walk per call, sorted, so answers are stable.
import { type Dirent, readFileSync } from "node:fs";
import { join } from "node:path";
import { type IgnoreRule, isIgnoredBy, parseGitignore } from "../../git/gitignore.js";
import type { TreeEntry } from "../../git/repo.js";
import { DrsgError } from "../../model/errors.js";
import { SKIP_DIRS } from "../../sync/walk.js";
import { checkShape, isInside, relPath } from "../files.js";
import type { ReadResult } from "./read.js";
import { type DirHandle, closeDir, openRoot, openSubdir, openTreePath, readDirHandle, readFileIn, readSmallIn, readTreeFile } from "./safeopen.js";
import { type CommitTree, repoFor, resolveCommitted } from "./source.js";

/** What part of the tree to read. */
export type Scope =
  | { kind: "tree" }
  | { kind: "dir"; rel: string }
  | { kind: "file"; rel: string }
  | { kind: "ext"; ext: string };

export interface TreeFile {
  /** POSIX path relative to the tree root, as answers show it (opened with readTreeFile). */
  rel: string;
  /** The committed blob, when listed from a commit. */
  entry?: TreeEntry;
}

export interface TreeListing {
  files: TreeFile[];
  /** Files and directories left out because an ignore rule matched them (not walked below). */
  ignored: number;
  /** The scope named one file, and ignore rules exclude it (all_files reads it). */
  scopeIgnored: boolean;
}

/** `path` as given, normalised: POSIX, no leading `./`, no trailing `/`; shape refused first. */
function scopePath(path: string): string {
  checkShape(path);
  const p = path.replace(/\\/g, "/").replace(/^(\.\/)+/, "").replace(/\/+$/, "");
  if (p.split("/").includes(".git"))
    throw new DrsgError("BAD_INPUT", `grep: path '${path}' lies inside .git, which grep never reads`, { path });
  return p;
}

function isWhole(path: string | undefined): boolean {
  return path === undefined || path === "" || path === "." || path === "./";
}

/**
 * Read `path` as a scope of the working tree: a directory or file inside the tree, else — a
 * leading dot or `*.` and no slash, naming nothing at the root — an extension (`.ts`, `*.py`).
 * Shape refusals (absolute, `..`) and links out of the tree are PATH_OUTSIDE_TREE; nothing
 * there, PATH_NOT_FOUND. Opened as every read is (no link followed out, no race).
 */
export function parseScope(root: string, path: string | undefined): Scope {
  if (isWhole(path)) return { kind: "tree" };
  const p = scopePath(path!);
  const ext = /^\*?(\.[^/*?]+)$/.exec(p);
  let o: ReturnType<typeof openTreePath>;
  try {
    o = openTreePath(root, p);
  } catch (e) {
    if (ext && (p.startsWith("*") || (e instanceof DrsgError && e.code === "PATH_NOT_FOUND"))) return { kind: "ext", ext: ext[1]!.toLowerCase() };
    if (e instanceof DrsgError && e.code === "BAD_INPUT")
      throw new DrsgError("PATH_NOT_FOUND", `grep: path '${path}' is neither a file nor a directory`, { path });
    throw e;
  }
  if (ext && p.startsWith("*")) {
    if (o.kind === "dir") closeDir(o.dir);
    else closeSyncQuiet(o.fd);
    return { kind: "ext", ext: ext[1]!.toLowerCase() };
  }
  if (o.kind === "dir") {
    closeDir(o.dir);
    return o.dir.rel === "" ? { kind: "tree" } : { kind: "dir", rel: o.dir.rel };
  }
  closeSyncQuiet(o.fd);
  return { kind: "file", rel: o.rel };
}

/** The same against a commit's files: no file system read at all. */
export async function parseCommittedScope(tree: CommitTree, path: string | undefined): Promise<Scope> {
  if (isWhole(path)) return { kind: "tree" };
  const p = scopePath(path!);
  const ext = /^\*?(\.[^/*?]+)$/.exec(p);
  if (ext && p.startsWith("*")) return { kind: "ext", ext: ext[1]!.toLowerCase() };
  if (tree.byPath.has(p)) return { kind: "file", rel: p };
  const linked = await resolveCommitted(tree, p);
  if (linked === "outside")
    throw new DrsgError("PATH_OUTSIDE_TREE", `path '${path}' is a link that points outside the source tree — links out are never followed`, { path });
  if (linked) return { kind: "file", rel: p };
  const lead = `${p}/`;
  if (tree.files.some((e) => e.path.startsWith(lead))) return { kind: "dir", rel: p };
  if (ext) return { kind: "ext", ext: ext[1]!.toLowerCase() };
  throw new DrsgError(
    "PATH_NOT_FOUND",
    `grep: path '${path}' is not in commit ${tree.sha.slice(0, 12)} (the commit the plane reflects) — worktree: true searches the working tree`,
    { path },
  );
}

/**
 * The files `scope` covers in a commit, sorted by path: its regular files, and its links that
 * name a file inside the tree (read as that file, listed under the link's path, as the
 * working-tree walk does); a link out of the tree is never read.
 */
export async function listCommitted(tree: CommitTree, scope: Scope): Promise<TreeListing> {
  const pick = (path: string): boolean => {
    if (scope.kind === "tree") return true;
    if (scope.kind === "file") return path === scope.rel;
    if (scope.kind === "dir") return path.startsWith(`${scope.rel}/`);
    return path.toLowerCase().endsWith(scope.ext);
  };
  const files: TreeFile[] = tree.files.filter((e) => pick(e.path)).map((e) => ({ rel: e.path, entry: e }));
  let linked = false;
  for (const path of tree.links.keys()) {
    if (!pick(path)) continue;
    const e = await resolveCommitted(tree, path);
    if (e && e !== "outside") {
      files.push({ rel: path, entry: e });
      linked = true;
    }
  }
  if (linked) files.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  return { files, ignored: 0, scopeIgnored: false };
}

function closeSyncQuiet(fd: number): void {
  try {
    closeDir({ fd, rel: "" });
  } catch {
    // closed
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

/** A .gitignore above the tree root (inside the repository, outside the tree read). */
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

/**
 * Reads one listed file while the walk holds its directory (valid only during the callback):
 * no second walk down from the root per file.
 */
export type FileReader = (max: number) => ReadResult & { rel?: string };

/**
 * The files `scope` covers in the working tree at `root` (canonical), sorted by path. With
 * `each`, every file is handed to it (with a reader) as the walk reaches it, instead of listed.
 */
export async function listTree(root: string, scope: Scope, allFiles: boolean, each?: (rel: string, read: FileReader) => void): Promise<TreeListing> {
  const canonRoot = root;
  const out: TreeListing = { files: [], ignored: 0, scopeIgnored: false };
  const { state, rules: above } = allFiles
    ? { state: { tracked: new Set<string>(), trackedDirs: new Set<string>(), prefix: "" }, rules: [] }
    : await ignoreState(canonRoot);
  const repoRel = (rel: string) => (rel === "" ? state.prefix : state.prefix === "" ? rel : `${state.prefix}/${rel}`);
  const ignoredPath = (rel: string, isDir: boolean, rules: IgnoreRule[], under: boolean) =>
    !allFiles && !state.tracked.has(rel) && (under || isIgnoredBy(rules, repoRel(rel), isDir));
  const ext = scope.kind === "ext" ? scope.ext : undefined;

  const visit = (dir: DirHandle, rules: IgnoreRule[], under: boolean): void => {
    const relDir = dir.rel;
    let dirents: Dirent[];
    try {
      dirents = readDirHandle(dir);
    } catch {
      return; // unreadable directories are passed over, as git does
    }
    if (!allFiles && dirents.some((d) => d.name === ".gitignore" && d.isFile()))
      rules = rules.concat(parseGitignore(readSmallIn(dir, ".gitignore"), repoRel(relDir)));
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
        // Opened relative to this directory, never through a link: one swapped in since the
        // listing fails to open and is passed over.
        const sub = openSubdir(canonRoot, dir, d.name);
        if (!sub) continue;
        try {
          visit(sub, rules, ign);
        } finally {
          closeDir(sub);
        }
        continue;
      }
      if (ext !== undefined && !d.name.toLowerCase().endsWith(ext)) continue;
      // A link is listed and read only if it names a file inside the tree (readTreeFile
      // resolves it within the tree; a link out is refused there); a linked directory is never entered.
      if (!d.isFile() && !d.isSymbolicLink()) continue;
      if (ignoredPath(rel, false, rules, under)) {
        out.ignored++;
        continue;
      }
      if (!each) out.files.push({ rel });
      else if (d.isSymbolicLink()) each(rel, (max) => readLinked(canonRoot, rel, max));
      else each(rel, (max) => readFileIn(dir, d.name, max));
    }
  };

  const walkFrom = (rel: string, rules: IgnoreRule[], under: boolean): void => {
    let o: ReturnType<typeof openTreePath>;
    try {
      o = openTreePath(canonRoot, rel);
    } catch {
      return; // gone, or turned into a link out, since the scope was read
    }
    if (o.kind !== "dir") {
      closeDir({ fd: o.fd, rel: "" });
      return;
    }
    try {
      visit({ fd: o.dir.fd, rel }, rules, under);
    } finally {
      closeDir(o.dir);
    }
  };

  if (scope.kind === "tree" || scope.kind === "ext") {
    const r = openRoot(canonRoot);
    try {
      visit(r, above, false);
    } finally {
      closeDir(r);
    }
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
    rules = rules.concat(parseGitignore(ignoreTextAt(canonRoot, rel), repoRel(rel)));
  }
  if (scope.kind === "dir") {
    under = under || (!allFiles && isIgnoredBy(rules, repoRel(scope.rel), true));
    walkFrom(scope.rel, rules, under);
    out.scopeIgnored = under && out.files.length === 0;
    return out;
  }
  if (ignoredPath(scope.rel, false, rules, under)) {
    out.ignored = 1;
    out.scopeIgnored = true;
    return out;
  }
  if (each) each(scope.rel, (max) => readLinked(canonRoot, scope.rel, max));
  else out.files.push({ rel: scope.rel });
  return out;
}

/** A file reached by its path from the root (a link, or a one-file scope): opened as every read is. */
function readLinked(canonRoot: string, rel: string, max: number): ReadResult & { rel?: string } {
  try {
    return readTreeFile(canonRoot, rel, max);
  } catch (e) {
    if (e instanceof DrsgError && e.code === "BAD_INPUT") return { kind: "not-file" };
    if (e instanceof DrsgError && e.code === "PATH_OUTSIDE_TREE") return { kind: "not-file" };
    return { kind: "unreadable", code: e instanceof DrsgError ? e.code : "EIO" };
  }
}

/** The .gitignore of directory `rel` of the tree, opened as every read is; "" when none. */
function ignoreTextAt(canonRoot: string, rel: string): string {
  let o: ReturnType<typeof openTreePath>;
  try {
    o = openTreePath(canonRoot, rel);
  } catch {
    return "";
  }
  if (o.kind !== "dir") {
    closeDir({ fd: o.fd, rel: "" });
    return "";
  }
  try {
    return readSmallIn(o.dir, ".gitignore");
  } finally {
    closeDir(o.dir);
  }
}
