// Which text `grep` and `snippet` read (DESIGN §8, issue 18 §3): by default the blobs of the
// commit the plane reflects (its synced_commit, from git — no file system, so no symlink and no
// race), so lines and symbols always agree with the answer's `synced:` line; with `worktree: true`
// the working tree, each file compared with that commit (a git blob hash) so the answer can say
// which files differ and name symbols only where a file is unchanged. A plane that records no
// commit, or whose commit the repository does not hold, reads the working tree and says why.
import { createHash } from "node:crypto";
import { posix, relative, sep } from "node:path";
import { GitRepo, type TreeEntry } from "../../git/repo.js";
import type { PlaneInfo } from "../../store/types.js";
import { SKIP_DIRS } from "../../sync/walk.js";
import type { ReadResult } from "./read.js";

/** A commit's files under the tree root: path (relative to the root) → blob entry. */
export interface CommitTree {
  repo: GitRepo;
  sha: string;
  /** The tree root's path inside the repository ("" at its root). */
  prefix: string;
  /** Regular files (links and submodules are never read), sorted by path. */
  files: TreeEntry[];
  byPath: Map<string, TreeEntry>;
  /** Symbolic links under the root (path → the blob holding the link's text). */
  links: Map<string, TreeEntry>;
  /** Submodules under the root, which are not read. */
  skipped: number;
}

export type TextSource =
  | { kind: "commit"; root: string; tree: CommitTree }
  | {
      kind: "worktree";
      root: string;
      /** The plane's commit, when readable: files are compared with it. */
      tree?: CommitTree;
      /** Why the working tree is read when `worktree` was not asked for. */
      why?: string;
    };

// One GitRepo per tree root for the life of the process (its pack caches live in it).
const repos = new Map<string, Promise<GitRepo | undefined>>();

/** The repository holding the tree at `root` (canonical), found once per process. */
export function repoFor(root: string): Promise<GitRepo | undefined> {
  let r = repos.get(root);
  if (!r) {
    r = GitRepo.find(root).catch(() => undefined);
    repos.set(root, r);
  }
  return r;
}

// Commit trees are immutable: kept by (root, sha), the few most recent.
const trees = new Map<string, Promise<CommitTree>>();
const MAX_TREES = 8;

function hidden(path: string): boolean {
  const segs = path.split("/");
  for (let i = 0; i < segs.length - 1; i++) {
    const s = segs[i]!;
    if (s.startsWith(".") || SKIP_DIRS.has(s)) return true;
  }
  return false;
}

async function commitTree(repo: GitRepo, root: string, sha: string): Promise<CommitTree> {
  const id = `${root}\u0000${sha}`;
  let t = trees.get(id);
  if (!t) {
    t = (async () => {
      const prefix = relative(repo.root, root).split(sep).join("/");
      const all = await repo.listTree(sha, prefix === "" ? undefined : prefix);
      const files: TreeEntry[] = [];
      const links = new Map<string, TreeEntry>();
      let skipped = 0;
      // What the working-tree walk leaves out is left out here too: vendored, generated and
      // tool directories, dot-directories, `.git`.
      for (const e of all) {
        if (hidden(e.path)) continue;
        if (e.mode === "120000") links.set(e.path, e);
        else if (e.mode === "160000") skipped++;
        else files.push(e);
      }
      return { repo, sha, prefix, files, byPath: new Map(files.map((e) => [e.path, e])), links, skipped };
    })();
    t.catch(() => trees.delete(id));
    trees.set(id, t);
    if (trees.size > MAX_TREES) trees.delete(trees.keys().next().value!);
  }
  return t;
}

/**
 * The text a verb reads for plane `p` over the tree at `root` (canonical; what treeFor gave).
 * `worktree`: the working tree, compared with the plane's commit when there is one.
 */
export async function textSource(p: PlaneInfo | undefined, root: string, worktree: boolean): Promise<TextSource> {
  const sha = p && typeof p.props.synced_commit === "string" && /^[0-9a-f]{40}$/.test(p.props.synced_commit) ? p.props.synced_commit : undefined;
  if (!sha) return { kind: "worktree", root, ...(worktree ? {} : { why: "the plane records no commit" }) };
  const repo = await repoFor(root);
  if (!repo) return { kind: "worktree", root, ...(worktree ? {} : { why: "the tree is not in a git repository" }) };
  let tree: CommitTree | undefined;
  if (await repo.isAncestorOrKnown(sha)) {
    try {
      tree = await commitTree(repo, root, sha);
    } catch {
      tree = undefined;
    }
  }
  if (!tree)
    return { kind: "worktree", root, ...(worktree ? {} : { why: `its commit ${sha.slice(0, 12)} is not in the tree's repository` }) };
  return worktree ? { kind: "worktree", root, tree } : { kind: "commit", root, tree };
}

/** The line an answer carries about where its text came from, when it is not the plane's commit. */
export function sourceLine(src: TextSource): string | undefined {
  if (src.kind === "commit") return undefined;
  if (src.why) return `read from the working tree: ${src.why}`;
  if (src.tree) return `read from the working tree (worktree: true), compared with commit ${src.tree.sha.slice(0, 12)}`;
  return "read from the working tree (worktree: true)";
}

// Blob bytes by oid, most recently used last, within a byte budget: committed text never
// changes, so a second grep over the same commit reads no object at all.
const blobs = new Map<string, Buffer>();
let blobBytes = 0;
const BLOB_CACHE_BYTES = 32 << 20;

/** The bytes of a committed file when at most `max` bytes. */
export async function readBlobCapped(tree: CommitTree, e: TreeEntry, max: number): Promise<ReadResult> {
  const hit = blobs.get(e.oid);
  if (hit) {
    blobs.delete(e.oid);
    blobs.set(e.oid, hit);
    return { kind: "ok", bytes: hit };
  }
  let bytes: Buffer;
  try {
    const size = await tree.repo.blobSize(e.oid);
    if (size > max) return { kind: "big", size };
    const b = await tree.repo.readBlob(e.oid);
    bytes = Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  } catch (err) {
    return { kind: "unreadable", code: (err as { code?: string }).code ?? "GIT_ERROR" };
  }
  if (bytes.length > max) return { kind: "big", size: bytes.length };
  if (bytes.length <= BLOB_CACHE_BYTES / 8) {
    blobs.set(e.oid, bytes);
    blobBytes += bytes.length;
    while (blobBytes > BLOB_CACHE_BYTES) {
      const [oid, b] = blobs.entries().next().value!;
      blobs.delete(oid);
      blobBytes -= b.length;
    }
  }
  return { kind: "ok", bytes };
}

/** Links followed in a row inside a commit before giving up. */
const MAX_LINKS = 8;

/**
 * The committed file `rel` names: itself, or — through links the commit holds, on any
 * component — the file inside the tree they name. Undefined when there is no such file;
 * "outside" when a link on the way points out of the tree (never followed).
 */
export async function resolveCommitted(tree: CommitTree, rel: string): Promise<TreeEntry | "outside" | undefined> {
  let path = rel;
  for (let hop = 0; hop <= MAX_LINKS; hop++) {
    const e = tree.byPath.get(path);
    if (e) return e;
    const parts = path.split("/");
    let moved = false;
    for (let i = 1; i <= parts.length; i++) {
      const at = parts.slice(0, i).join("/");
      const link = tree.links.get(at);
      if (!link) continue;
      let text: string;
      try {
        text = Buffer.from(await tree.repo.readBlob(link.oid)).toString("utf8");
      } catch {
        return undefined;
      }
      const dir = posix.dirname(at);
      if (text.startsWith("/")) return "outside";
      const target = posix.normalize(posix.join(dir === "." ? "" : dir, text));
      if (target === ".." || target.startsWith("../")) return "outside";
      const rest = parts.slice(i).join("/");
      path = rest === "" ? target : target === "." ? rest : `${target}/${rest}`;
      moved = true;
      break;
    }
    if (!moved) return undefined;
  }
  return undefined;
}

/** The oid git gives a blob of these bytes. */
export function blobOid(bytes: Uint8Array): string {
  return createHash("sha1").update(`blob ${bytes.byteLength}\0`).update(bytes).digest("hex");
}

/**
 * Whether working-tree file `rel` (these bytes) differs from the commit: true when its content
 * is not the committed blob, or the commit has no such file; undefined with no commit to compare.
 */
export function differs(src: TextSource, rel: string, bytes: Uint8Array): boolean | undefined {
  if (src.kind !== "worktree" || !src.tree) return undefined;
  const e = src.tree.byPath.get(rel);
  return !e || blobOid(bytes) !== e.oid;
}
