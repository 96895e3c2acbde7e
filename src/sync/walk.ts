// Which files a digest reads (DESIGN §6). In a git repository with a commit: the blobs of HEAD's
// tree, read from the object store, never the working tree. Otherwise (no repository, or no
// commit yet): the working tree, honouring .gitignore. Both skip vendored/generated directories,
// symlinks, submodules and files over the size limit. Binary files are NOT detected here (the
// walk never reads file contents, so cached blobs cost nothing): the caller runs isBinary() on
// the bytes read() returns.
import type { Dirent } from "node:fs";
import { lstat, readdir, readFile, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { type IgnoreRule, isIgnoredBy, parseGitignore } from "../git/gitignore.js";
import { GitRepo } from "../git/repo.js";
import { DrsgError, isDrsgError } from "../model/errors.js";

export interface WalkFile {
  /** POSIX path relative to the walked directory. */
  path: string;
  size: number;
  /** Blob id, when read from git. */
  oid?: string;
}

export interface Skipped {
  /** The file, or the topmost skipped directory (one entry per skipped directory). */
  path: string;
  reason: string;
}

export interface WalkResult {
  files: WalkFile[];
  skipped: Skipped[];
  /** The commit the files come from (source "git"). */
  commit?: string;
  source: "git" | "worktree";
}

export type WalkSource = WalkResult & {
  /** The bytes of a walked file: from the object store (git) or the working tree. */
  read(f: WalkFile): Promise<Uint8Array>;
  /** The repository holding the directory, when there is one (also for an unborn one). */
  repo?: GitRepo;
};

export const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;

const VENDORED = ["node_modules", "vendor", "bower_components", ".venv", "venv", "Pods"];
const GENERATED = [
  "dist",
  "build",
  "target",
  "out",
  "coverage",
  ".next",
  ".nuxt",
  ".svelte-kit",
  ".gradle",
  "__pycache__",
  ".mypy_cache",
  ".pytest_cache",
  ".ruff_cache",
  ".tox",
  ".nox",
  ".terraform",
];
const TOOLING = [".git", ".drsg", ".hg", ".svn", ".idea", ".vscode"];

/** Directory names never walked, wherever they appear. */
export const SKIP_DIRS: ReadonlySet<string> = new Set([...VENDORED, ...GENERATED, ...TOOLING]);

function skipReason(dir: string): string {
  if (VENDORED.includes(dir)) return `vendored (${dir})`;
  if (GENERATED.includes(dir)) return `generated (${dir})`;
  return `tool directory (${dir})`;
}

/** Whether bytes look binary: a NUL byte in the first 8 KiB (git's heuristic). */
export function isBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8192);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

/** "2 MiB", "512 KiB", "1000 bytes". */
function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

function overLimit(size: number, max: number): Skipped["reason"] {
  return `over ${formatBytes(max)} (${size} bytes)`;
}

/**
 * A blob's size, or undefined when the object is missing from the repository (a partial or
 * shallow clone, a pruned object): the file is skipped and named, never fatal to the walk.
 */
export async function blobSizeOrMissing(repo: GitRepo, oid: string): Promise<number | undefined> {
  try {
    return await repo.blobSize(oid);
  } catch (e) {
    if (isDrsgError(e, "REV_NOT_FOUND")) return undefined;
    throw e;
  }
}

/** The skip reason of a blob the repository does not hold. */
export function missingObject(oid: string): string {
  return `unreadable: object ${oid.slice(0, 12)} is missing from the repository`;
}

export interface WalkOptions {
  maxBytes?: number;
  /**
   * Walk this commit (any rev) instead of HEAD: the fold reads the commit it moves to. Needs a
   * repository; an unknown rev is REV_NOT_FOUND, no repository GIT_ERROR.
   */
  commit?: string;
  /** The repository to read through (keeps one isomorphic-git cache across walks); found from `dir` otherwise. */
  repo?: GitRepo;
  /**
   * Told the paths of a commit's tree as soon as they are listed, before the blob sizes are read
   * (a skip by size comes later): the digest starts loading the grammars they need meanwhile.
   */
  onListed?: (paths: readonly string[]) => void;
}

/**
 * The files a digest of `dir` reads, sorted by path, with everything skipped and why.
 * Missing or unreadable `dir` → DIR_NOT_FOUND.
 */
export async function walkSource(dir: string, opts: WalkOptions = {}): Promise<WalkSource> {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  let abs: string;
  try {
    abs = await realpath(path.resolve(dir));
    if (!(await stat(abs)).isDirectory()) throw new Error("not a directory");
    await readdir(abs);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new DrsgError("DIR_NOT_FOUND", `walk '${dir}': no readable directory there (${why})`, { dir }, { cause: e });
  }
  const repo = opts.repo ?? (await GitRepo.find(abs));
  if (opts.commit !== undefined) {
    if (!repo) throw new DrsgError("GIT_ERROR", `walk '${dir}' at ${opts.commit}: not inside a git repository`, { dir });
    return walkGit(repo, await repo.resolve(opts.commit), abs, maxBytes, opts.onListed);
  }
  const head = repo ? await repo.head() : undefined;
  if (repo && head) return walkGit(repo, head, abs, maxBytes, opts.onListed);
  return walkWorktree(abs, maxBytes, repo);
}

/**
 * Why a blob of a commit's tree is not read — under a skipped directory (named in `dir`), a
 * submodule, a symlink — or undefined when it is read (size permitting). The fold applies the
 * same rule to the paths a tree diff names, so its file list equals a walk of the commit.
 */
export function gitEntrySkip(p: string, mode: string): { dir?: string; reason: string } | undefined {
  const segs = p.split("/");
  const i = segs.findIndex((s, k) => k < segs.length - 1 && SKIP_DIRS.has(s));
  if (i >= 0) return { dir: segs.slice(0, i + 1).join("/"), reason: skipReason(segs[i]!) };
  if (mode === "160000") return { reason: "submodule" };
  if (mode === "120000") return { reason: "symlink" };
  return undefined;
}

async function walkGit(
  repo: GitRepo,
  head: string,
  abs: string,
  maxBytes: number,
  onListed?: WalkOptions["onListed"],
): Promise<WalkSource> {
  const rel = path.relative(repo.root, abs).split(path.sep).join("/");
  const entries = await repo.listTree(head, rel);
  const files: WalkFile[] = [];
  const skipped: Skipped[] = [];
  const skippedDirs = new Set<string>();
  const toMeasure: { path: string; oid: string }[] = [];
  for (const e of entries) {
    const skip = gitEntrySkip(e.path, e.mode);
    if (skip?.dir !== undefined) {
      if (!skippedDirs.has(skip.dir)) {
        skippedDirs.add(skip.dir);
        skipped.push({ path: skip.dir, reason: skip.reason });
      }
    } else if (skip) {
      skipped.push({ path: e.path, reason: skip.reason });
    } else {
      toMeasure.push({ path: e.path, oid: e.oid });
    }
  }
  onListed?.(toMeasure.map((f) => f.path));
  // Sizes come from object headers (no inflating of whole blobs); a bounded number in flight.
  const sizes = new Array<number | undefined>(toMeasure.length);
  let next = 0;
  const worker = async () => {
    while (next < toMeasure.length) {
      const k = next++;
      sizes[k] = await blobSizeOrMissing(repo, toMeasure[k]!.oid);
    }
  };
  await Promise.all(Array.from({ length: Math.min(32, toMeasure.length) }, worker));
  toMeasure.forEach((f, k) => {
    const size = sizes[k];
    if (size === undefined) skipped.push({ path: f.path, reason: missingObject(f.oid) });
    else if (size > maxBytes) skipped.push({ path: f.path, reason: overLimit(size, maxBytes) });
    else files.push({ path: f.path, size, oid: f.oid });
  });
  const prefix = rel === "" ? "" : `${rel}/`;
  return {
    files,
    skipped: skipped.sort(byPath),
    commit: head,
    source: "git",
    repo,
    read: (f) => (f.oid ? repo.readBlob(f.oid) : readAt(repo, head, prefix + f.path)),
  };
}

async function readAt(repo: GitRepo, commit: string, p: string): Promise<Uint8Array> {
  const bytes = await repo.readFileAt(commit, p);
  if (!bytes) throw new DrsgError("PATH_NOT_FOUND", `read '${p}' at ${commit.slice(0, 12)}: not in the commit`, { path: p });
  return bytes;
}

async function walkWorktree(abs: string, maxBytes: number, repo: GitRepo | undefined): Promise<WalkSource> {
  const files: WalkFile[] = [];
  const skipped: Skipped[] = [];
  // Inside an (unborn) repository isomorphic-git decides what is ignored (it also reads
  // .git/info/exclude and the .gitignore files above `abs`); elsewhere our own matcher does.
  const relToRoot = repo ? path.relative(repo.root, abs).split(path.sep).join("/") : "";
  const ignored = async (rel: string, isDir: boolean, rules: IgnoreRule[]) =>
    repo ? repo.isIgnored(relToRoot === "" ? rel : `${relToRoot}/${rel}`, isDir) : isIgnoredBy(rules, rel, isDir);

  const visit = async (relDir: string, rules: IgnoreRule[]): Promise<void> => {
    const full = relDir === "" ? abs : path.join(abs, relDir);
    let dirents: Dirent[];
    try {
      dirents = await readdir(full, { withFileTypes: true });
    } catch (e) {
      skipped.push({ path: relDir, reason: `unreadable (${(e as NodeJS.ErrnoException).code ?? "error"})` });
      return;
    }
    if (!repo && dirents.some((d) => d.name === ".gitignore" && d.isFile())) {
      const text = await readFile(path.join(full, ".gitignore"), "utf8").catch(() => "");
      rules = rules.concat(parseGitignore(text, relDir));
    }
    dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const d of dirents) {
      const rel = relDir === "" ? d.name : `${relDir}/${d.name}`;
      if (d.name === ".git") continue; // a nested repository's (or submodule's) git dir or file
      if (d.isSymbolicLink()) {
        if (!(await ignored(rel, false, rules))) skipped.push({ path: rel, reason: "symlink" });
        continue;
      }
      if (d.isDirectory()) {
        if (await ignored(rel, true, rules)) continue;
        if (SKIP_DIRS.has(d.name)) {
          skipped.push({ path: rel, reason: skipReason(d.name) });
          continue;
        }
        if (d.name.startsWith(".")) {
          skipped.push({ path: rel, reason: "hidden directory" });
          continue;
        }
        await visit(rel, rules);
        continue;
      }
      if (!d.isFile() || (await ignored(rel, false, rules))) continue;
      let size: number;
      try {
        size = (await lstat(path.join(abs, rel))).size;
      } catch (e) {
        skipped.push({ path: rel, reason: `unreadable (${(e as NodeJS.ErrnoException).code ?? "error"})` });
        continue;
      }
      if (size > maxBytes) skipped.push({ path: rel, reason: overLimit(size, maxBytes) });
      else files.push({ path: rel, size });
    }
  };
  await visit("", []);
  return {
    files: files.sort(byPath),
    skipped: skipped.sort(byPath),
    source: "worktree",
    ...(repo ? { repo } : {}),
    read: (f) => readWorktreeFile(abs, f.path),
  };
}

/** Read a walked file, refusing paths that leave the tree or end in a symlink (DESIGN §8). */
async function readWorktreeFile(root: string, rel: string): Promise<Uint8Array> {
  if (path.isAbsolute(rel) || rel.split("/").includes("..")) {
    throw new DrsgError("PATH_OUTSIDE_TREE", `read '${rel}': not a path inside ${root}`, { path: rel });
  }
  const full = path.join(root, rel);
  const st = await lstat(full).catch(() => undefined);
  if (!st?.isFile()) {
    throw new DrsgError("PATH_NOT_FOUND", `read '${rel}': no regular file there (symlinks are not followed)`, { path: rel });
  }
  return readFile(full);
}

function byPath(a: { path: string }, b: { path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
