// Read-only access to a git repository through isomorphic-git: revisions, trees, blobs, tree
// diffs, commits, refs and the reflog. Every call shares one isomorphic-git `cache` per GitRepo
// (without it each packed read re-parses the pack: 219 s instead of 1.7 s for 670 blobs).
// Blobs, trees, commits, tags and full ref names are first read by our own means (a pack or
// the loose file, SHA-1 checked, parsed as isomorphic-git parses them by objects.ts; a ref's
// file or packed-refs), which costs a fraction of isomorphic-git's read; whatever that cannot
// read is asked of isomorphic-git.
// Linked worktrees are supported: HEAD and its reflog come from the worktree's own gitdir,
// objects and refs from the common dir.
import { createHash } from "node:crypto";
import fs, { readFileSync } from "node:fs";
import { readFile, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { inflateSync } from "node:zlib";
import type { CommitObject, TreeEntry as IsoTreeEntry } from "isomorphic-git";

type IsoGit = typeof import("isomorphic-git").default;
let isoGit: IsoGit | undefined;
/** isomorphic-git, loaded on first use: it costs ~170 ms to import, and drsg-mcp starts without it. */
async function gitLib(): Promise<IsoGit> {
  isoGit ??= (await import("isomorphic-git")).default;
  return isoGit;
}
import { DrsgError } from "../model/errors.js";
import { indexPaths } from "./indexfile.js";
import { parseCommit, parseTag, parseTree } from "./objects.js";
import { ObjectSizer } from "./objsize.js";
import { PackReader, type RawObject } from "./packread.js";

/** A blob (or submodule gitlink, mode 160000) in a commit's tree. */
export interface TreeEntry {
  /** POSIX path relative to the repo root, or to the `subdir` asked for. */
  path: string;
  oid: string;
  /** git's octal mode: "100644", "100755", "120000" (symlink), "160000" (submodule). */
  mode: string;
  size?: number;
}

export interface CommitInfo {
  sha: string;
  parents: string[];
  /** First line of the message. */
  summary: string;
  /** Full message, trailing whitespace removed. */
  message: string;
  author: string;
  authorEmail: string;
  /** Committer date, ISO 8601 in UTC without milliseconds ("2024-01-02T03:04:05Z"). */
  committedAt: string;
  /** Committer date, seconds since the epoch. */
  committedTs: number;
}

export interface TreeChange {
  path: string;
  change: "A" | "M" | "D";
  oldOid?: string;
  newOid?: string;
  oldMode?: string;
  newMode?: string;
}

export interface BranchInfo {
  /** "main" for a local branch, "origin/main" for a remote-tracking one. */
  name: string;
  sha: string;
  /** The remote's name, for remote-tracking branches. */
  remote?: string;
}

export interface TagInfo {
  name: string;
  /** The commit the tag points at, annotated tags peeled. */
  sha: string;
  /** Tagger date (seconds) of an annotated tag. */
  taggedTs?: number;
}

export interface ReflogEntry {
  old: string;
  new: string;
  /** "Name <email>" as recorded. */
  who: string;
  ts: number;
  message: string;
}

const HEX40 = /^[0-9a-f]{40}$/;
const SHORT_HEX = /^[0-9a-fA-F]{4,39}$/;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const RFC3339 = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/;
const PACKED_REF = /^([0-9a-f]{40}) (refs\/\S+)$/;
const REFLOG_LINE = /^([0-9a-f]{40}) ([0-9a-f]{40}) (.*?) (\d+) ([+-]\d{4})(?:\t(.*))?$/;

/** The nearest directory at or above `start` with a `.git` entry (a directory, or a file naming one), as git looks for it. */
function rootAbove(start: string): string | undefined {
  for (let dir = start; ; ) {
    if (fs.existsSync(path.join(dir, ".git"))) return dir;
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

export class GitRepo {
  /** The single isomorphic-git cache every call of this repo shares. */
  private readonly cache: object = {};
  private readonly sizer: ObjectSizer;
  private readonly packs: PackReader;
  /** The index's paths, keyed by the index file's stat (see trackedFiles). */
  private tracked?: { stamp: string; files: string[] };
  /** packed-refs parsed, keyed by the file's stat (see packedRefs). */
  private packed?: { stamp: string; refs: Map<string, string> };
  /** Tag targets peeled to their commits (see tags): objects never change. */
  private readonly peeled = new Map<string, { sha: string; taggedTs?: number } | null>();

  private constructor(
    /** Work-tree root (absolute, realpath). */
    readonly root: string,
    /** The git directory holding this work tree's HEAD (".git", or ".git/worktrees/<name>"). */
    readonly gitdir: string,
    /** Where objects and refs live: `gitdir`, or the common dir of a linked worktree. */
    readonly commonDir: string,
  ) {
    this.sizer = new ObjectSizer(path.join(commonDir, "objects"));
    this.packs = new PackReader(
      (oid) => this.sizer.packed(oid),
      (oid) => this.looseObject(oid),
    );
  }

  /** The repository holding `dir` (the work-tree root or any directory below it); undefined outside git. */
  static async find(dir: string): Promise<GitRepo | undefined> {
    let start: string;
    try {
      start = await realpath(path.resolve(dir));
    } catch {
      return undefined;
    }
    const root = rootAbove(start);
    if (root === undefined) return undefined;
    const dotgit = path.join(root, ".git");
    let gitdir = dotgit;
    try {
      if ((await stat(dotgit)).isFile()) {
        // A submodule or linked worktree: ".git" is a file naming the real gitdir.
        const m = /^gitdir:\s*(.+?)\s*$/m.exec(await readFile(dotgit, "utf8"));
        if (!m?.[1]) return undefined;
        gitdir = path.resolve(root, m[1]);
      }
      await stat(path.join(gitdir, "HEAD"));
    } catch {
      return undefined;
    }
    let common = gitdir;
    try {
      common = path.resolve(gitdir, (await readFile(path.join(gitdir, "commondir"), "utf8")).trim());
    } catch {
      // not a linked worktree
    }
    return new GitRepo(root, gitdir, common);
  }

  private get opts() {
    return { fs, dir: this.root, gitdir: this.commonDir, cache: this.cache };
  }

  /** Full sha of HEAD; undefined for an unborn repository (no commit yet). */
  async head(): Promise<string | undefined> {
    const h = await this.readHead();
    if (h.oid) return h.oid;
    return this.tryRef(h.ref ?? "");
  }

  /** The branch HEAD points at ("refs/heads/main"), even if unborn; undefined when detached. */
  async headRef(): Promise<string | undefined> {
    return (await this.readHead()).ref;
  }

  /**
   * A revision to a commit sha. Accepts a sha or unique prefix (>= 4 hex), HEAD/@, a branch, tag,
   * remote branch or full ref, a date (YYYY-MM-DD = end of that day, UTC) or RFC-3339 time (no
   * offset = UTC) meaning the last commit at or before it on HEAD's first-parent history, each
   * followed by any of ~n, ^n, ^{}, ^{commit}. Annotated tags are peeled. Unknown → REV_NOT_FOUND.
   */
  async resolve(rev: string): Promise<string> {
    const m = /^([^~^]*)(.*)$/s.exec(rev);
    let base = m?.[1] ?? "";
    const suffix = m?.[2] ?? "";
    if (base === "@") base = "HEAD";
    let oid = await this.resolveBase(base, rev);
    const step = /\^\{(commit)?\}|([~^])(\d*)/y;
    let pos = 0;
    while (pos < suffix.length) {
      step.lastIndex = pos;
      const s = step.exec(suffix);
      if (!s) throw revNotFound(rev, `bad suffix '${suffix.slice(pos)}'`);
      pos = step.lastIndex;
      const c = await this.readCommitFor(oid, rev); // peels tags
      oid = c.oid;
      if (!s[2]) continue; // ^{} / ^{commit}
      const n = s[3] === "" ? 1 : Number(s[3]);
      if (s[2] === "^") {
        if (n === 0) continue;
        const p = c.commit.parent[n - 1];
        if (!p) throw revNotFound(rev, `${oid.slice(0, 12)} has no parent ${n}`);
        oid = p;
      } else {
        for (let i = 0; i < n; i++) {
          const cur = i === 0 ? c : await this.readCommitFor(oid, rev);
          const p = cur.commit.parent[0];
          if (!p) throw revNotFound(rev, `history ends ${i} commits before ~${n}`);
          oid = p;
        }
      }
    }
    return (await this.readCommitFor(oid, rev)).oid;
  }

  /**
   * Every blob of the commit's tree, recursively, sorted by path (code-unit order); submodules
   * are included with mode 160000 so callers can skip them. With `subdir`, only entries under it,
   * with paths relative to it (none when it is absent from the tree). `commit` may be any rev.
   */
  async listTree(commit: string, subdir?: string): Promise<TreeEntry[]> {
    let treeOid = await this.treeOf(commit);
    for (const seg of splitRelPath(subdir ?? "", "list tree")) {
      const e = (await this.readTreeEntries(treeOid)).find((x) => x.path === seg);
      if (e?.type !== "tree") return [];
      treeOid = e.oid;
    }
    const out: TreeEntry[] = [];
    await this.collect(treeOid, "", out);
    return out.sort(byPath);
  }

  /** The bytes of a blob. Unknown oid → REV_NOT_FOUND; not a blob → GIT_ERROR. */
  async readBlob(oid: string): Promise<Uint8Array> {
    const own = await this.ownObject(oid);
    if (own?.type === "blob") return own.data;
    try {
      return (await (await gitLib()).readBlob({ ...this.opts, oid })).blob;
    } catch (e) {
      if (errCode(e) === "NotFoundError") throw revNotFound(oid, "no such object");
      throw gitError(`read blob '${oid}'`, e);
    }
  }

  /**
   * An object read by our own means (a pack, else its loose file: most reads of a cloned
   * repository are packed, and a missing loose file costs a failed open), its SHA-1 checked; undefined
   * when that fails in any way, and the caller asks isomorphic-git (whose answer or error stands).
   */
  private async ownObject(oid: string): Promise<RawObject | undefined> {
    if (!HEX40.test(oid)) return undefined;
    const own = (await this.packs.read(oid)) ?? this.looseObject(oid);
    return own && gitHash(own) === oid ? own : undefined;
  }

  /**
   * A loose object read straight from its file (a tenth of isomorphic-git's cost), its header's
   * size checked. Undefined when it is not loose or anything is off: readBlob then checks the
   * SHA-1 and falls back to isomorphic-git (errors included), as it does for packed objects.
   */
  private looseObject(oid: string): RawObject | undefined {
    let obj: Buffer;
    try {
      obj = inflateSync(readFileSync(path.join(this.commonDir, "objects", oid.slice(0, 2), oid.slice(2))));
    } catch {
      return undefined;
    }
    const nul = obj.indexOf(0);
    if (nul < 0 || nul > 32) return undefined;
    const m = /^(blob|tree|commit|tag) (\d+)$/.exec(obj.toString("latin1", 0, nul));
    if (!m || Number(m[2]) !== obj.length - nul - 1) return undefined;
    return { type: m[1]!, data: obj.subarray(nul + 1) };
  }

  /**
   * Size in bytes of a blob, measured from the object header without inflating the object when
   * possible (falls back to reading it).
   */
  async blobSize(oid: string): Promise<number> {
    return (await this.sizer.size(oid)) ?? (await this.readBlob(oid)).length;
  }

  /** The bytes of `path` at `commit`; undefined when the path is absent or not a file. */
  async readFileAt(commit: string, filePath: string): Promise<Uint8Array | undefined> {
    const parts = splitRelPath(filePath, "read file");
    if (parts.length === 0) return undefined;
    const tree = await this.treeOf(commit);
    try {
      return (await (await gitLib()).readBlob({ ...this.opts, oid: tree, filepath: parts.join("/") })).blob;
    } catch (e) {
      const code = errCode(e);
      if (code === "NotFoundError" || code === "ObjectTypeError") return undefined;
      throw gitError(`read '${filePath}' at ${commit}`, e);
    }
  }

  /**
   * Blob-level changes between two commits, sorted by path. A rename is D old + A new; a
   * file↔directory swap is the file's D or A plus the directory's entries. Mode-only changes are M.
   */
  async diffTrees(oldCommit: string, newCommit: string): Promise<TreeChange[]> {
    const [a, b] = await Promise.all([this.treeOf(oldCommit), this.treeOf(newCommit)]);
    const out: TreeChange[] = [];
    await this.diff(a, b, "", out);
    return out.sort(byPath);
  }

  /** Whether the object `sha` exists in the repository (any type; reachable or not). */
  async isAncestorOrKnown(sha: string): Promise<boolean> {
    if (!HEX40.test(sha)) return false;
    if (await this.sizer.has(sha)) return true;
    try {
      await (await gitLib()).readObject({ ...this.opts, oid: sha, format: "deflated" });
      return true;
    } catch {
      return false;
    }
  }

  /** Commits reachable from `ref` (default HEAD; any rev), newest first; [] for an unborn HEAD. */
  async log(opts: { ref?: string; depth?: number } = {}): Promise<CommitInfo[]> {
    const ref = opts.ref ?? "HEAD";
    if ((ref === "HEAD" || ref === "@") && (await this.head()) === undefined) return [];
    const oid = await this.resolve(ref);
    try {
      const commits = await (await gitLib()).log({ ...this.opts, ref: oid, ...(opts.depth ? { depth: opts.depth } : {}) });
      return commits.map((c) => toInfo(c.oid, c.commit));
    } catch (e) {
      throw gitError(`log ${ref}`, e);
    }
  }

  /** Local branches (sorted), then remote-tracking branches (sorted); symbolic remote HEADs left out. */
  async branches(): Promise<BranchInfo[]> {
    const out: BranchInfo[] = [];
    try {
      for (const name of (await (await gitLib()).listBranches({ ...this.opts })).sort()) {
        const sha = await this.tryRef(`refs/heads/${name}`);
        if (sha) out.push({ name, sha });
      }
      const remote: BranchInfo[] = [];
      for (const name of await (await gitLib()).listRefs({ ...this.opts, filepath: "refs/remotes" })) {
        const slash = name.indexOf("/");
        if (slash < 0 || name.endsWith("/HEAD")) continue;
        const sha = await this.tryRef(`refs/remotes/${name}`);
        if (sha) remote.push({ name, sha, remote: name.slice(0, slash) });
      }
      return out.concat(remote.sort(byName));
    } catch (e) {
      throw gitError("list branches", e);
    }
  }

  /** Tags sorted by name, each peeled to its commit; tags of trees or blobs are left out. */
  async tags(): Promise<TagInfo[]> {
    const out: TagInfo[] = [];
    let names: string[];
    try {
      names = await (await gitLib()).listTags({ ...this.opts });
    } catch (e) {
      throw gitError("list tags", e);
    }
    // A tag with no loose file is read from packed-refs alone (no failed open per tag).
    const loose = this.looseRefs("refs/tags");
    const packed = await this.packedRefs();
    for (const name of names.sort()) {
      const ref = `refs/tags/${name}`;
      const target = loose.has(ref) || !packed.has(ref) ? await this.tryRef(ref) : packed.get(ref);
      if (!target) continue;
      let peeled = this.peeled.get(target);
      if (peeled === undefined) {
        peeled = await this.peel(target);
        if (this.peeled.size >= 100_000) this.peeled.clear();
        this.peeled.set(target, peeled);
      }
      if (peeled) out.push({ name, ...peeled });
    }
    return out;
  }

  /** A tag ref's target peeled to its commit (with the first tagger's time), null when it names no commit. Objects never change: memoised by oid. */
  private async peel(target: string): Promise<{ sha: string; taggedTs?: number } | null> {
    let oid: string | undefined = target;
    let taggedTs: number | undefined;
    for (let depth = 0; oid && depth < 10; depth++) {
      const obj = await this.tagOrCommit(oid);
      if (obj?.type === "tag") {
        taggedTs ??= obj.tag.tagger?.timestamp;
        oid = obj.tag.object;
        continue;
      }
      if (obj?.type === "commit") return { sha: oid, ...(taggedTs !== undefined ? { taggedTs } : {}) };
      break;
    }
    return null;
  }

  /** Full names of the loose ref files under `prefix` ("refs/tags"); links are not followed. */
  private looseRefs(prefix: string): Set<string> {
    const out = new Set<string>();
    const walk = (rel: string) => {
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(path.join(this.commonDir, rel), { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        if (e.isDirectory()) walk(`${rel}/${e.name}`);
        else if (e.isFile()) out.add(`${rel}/${e.name}`);
      }
    };
    walk(prefix);
    return out;
  }

  /** What a tag ref points at: an annotated tag (parsed), a commit, or undefined for anything else or an unreadable object. */
  private async tagOrCommit(
    oid: string,
  ): Promise<{ type: "tag"; tag: { object: string; tagger?: { timestamp: number } } } | { type: "commit" } | undefined> {
    const own = await this.ownObject(oid);
    if (own?.type === "blob" || own?.type === "tree") return undefined;
    if (own?.type === "commit" && parseCommit(own.data.toString("utf8"))) return { type: "commit" };
    const tag = own?.type === "tag" ? parseTag(own.data.toString("utf8")) : undefined;
    if (tag) return { type: "tag", tag };
    // Not read (or not parsed) here: isomorphic-git's reading stands.
    const obj = await (await gitLib()).readObject({ ...this.opts, oid, format: "parsed" }).catch(() => undefined);
    if (obj?.type === "tag") return { type: "tag", tag: obj.object as { object: string; tagger?: { timestamp: number } } };
    return obj?.type === "commit" ? { type: "commit" } : undefined;
  }

  /**
   * The reflog of `ref` ("HEAD", "refs/heads/main", or a short branch name), oldest first,
   * parsed from .git/logs directly; [] when there is none.
   */
  async reflog(ref: string): Promise<ReflogEntry[]> {
    if (ref !== "HEAD" && !isSafeRefName(ref)) {
      throw new DrsgError("BAD_INPUT", `reflog: '${ref}' is not a valid ref name`, { ref });
    }
    const candidates =
      ref === "HEAD"
        ? [path.join(this.gitdir, "logs", "HEAD")]
        : (ref.startsWith("refs/") ? [ref] : [`refs/heads/${ref}`, `refs/remotes/${ref}`, `refs/tags/${ref}`]).map(
            (r) => path.join(this.commonDir, "logs", r),
          );
    for (const file of candidates) {
      let text: string;
      try {
        text = await readFile(file, "utf8");
      } catch {
        continue;
      }
      const out: ReflogEntry[] = [];
      for (const line of text.split("\n")) {
        const m = REFLOG_LINE.exec(line);
        if (m) out.push({ old: m[1]!, new: m[2]!, who: m[3]!, ts: Number(m[4]), message: m[6] ?? "" });
      }
      return out;
    }
    return [];
  }

  /** Whether a path (relative to the work-tree root) is in the index, i.e. tracked by git. */
  async isTracked(relPath: string): Promise<boolean> {
    const p = splitRelPath(relPath, "check tracked").join("/");
    return (await this.trackedFiles()).includes(p);
  }

  /**
   * Every path in the index (tracked files, POSIX, relative to the work-tree root), sorted.
   * Re-read only when the index file changes (grep asks on every call).
   */
  async trackedFiles(): Promise<readonly string[]> {
    const index = path.join(this.gitdir, "index");
    let stamp: string;
    try {
      const st = fs.statSync(index);
      stamp = `${st.mtimeMs}:${st.size}:${st.ino}`;
    } catch {
      return []; // no index yet: nothing is tracked
    }
    if (this.tracked?.stamp === stamp) return this.tracked.files;
    try {
      // Read directly (indexfile.ts); an index that reader declines goes to isomorphic-git.
      const direct = indexPaths(fs.readFileSync(index));
      const files = direct ?? (await (await gitLib()).listFiles({ fs, dir: this.root, gitdir: this.gitdir, cache: this.cache }));
      this.tracked = { stamp, files: files.sort() };
      return this.tracked.files;
    } catch (e) {
      throw gitError("list tracked files", e);
    }
  }

  /** The text of `.git/info/exclude` (gitignore syntax, relative to the root); "" when absent. */
  infoExclude(): string {
    try {
      return fs.readFileSync(path.join(this.commonDir, "info", "exclude"), "utf8");
    } catch {
      return "";
    }
  }

  /**
   * Whether a work-tree path (relative to the root, POSIX) is ignored by the repository's
   * .gitignore files and .git/info/exclude. Directories need `isDir` (patterns like `build/`).
   */
  async isIgnored(relPath: string, isDir = false): Promise<boolean> {
    const p = splitRelPath(relPath, "check ignore").join("/");
    if (p === "") return false;
    try {
      return await (await gitLib()).isIgnored({ fs, dir: this.root, gitdir: this.commonDir, filepath: isDir ? `${p}/` : p });
    } catch (e) {
      throw gitError(`check ignore '${relPath}'`, e);
    }
  }

  /** One commit's metadata; `sha` may be any rev. */
  async commitInfo(sha: string): Promise<CommitInfo> {
    const oid = HEX40.test(sha) ? sha : await this.resolve(sha);
    const c = await this.readCommitFor(oid, sha);
    return toInfo(c.oid, c.commit);
  }

  // ---- internals ----

  private async readHead(): Promise<{ ref?: string; oid?: string }> {
    let text: string;
    try {
      text = (await readFile(path.join(this.gitdir, "HEAD"), "utf8")).trim();
    } catch (e) {
      throw gitError(`read ${path.join(this.gitdir, "HEAD")}`, e);
    }
    if (text.startsWith("ref:")) return { ref: text.slice(4).trim() };
    if (HEX40.test(text)) return { oid: text };
    throw new DrsgError("GIT_ERROR", `read HEAD: unexpected content '${text.slice(0, 60)}'`, { gitdir: this.gitdir });
  }

  /** The sha a full ref name points at, or undefined when it does not exist. */
  private async tryRef(ref: string): Promise<string | undefined> {
    if (!ref) return undefined;
    // A full ref name is read here (its loose file, else packed-refs, read once per change):
    // isomorphic-git re-reads and re-parses packed-refs for every ref it resolves, which made
    // listing a repository's tags cost tags × packed-refs lines. A symbolic or absent ref is
    // left to isomorphic-git.
    if (ref.startsWith("refs/") && isSafeRefName(ref)) {
      let loose: string | undefined;
      try {
        loose = (await readFile(path.join(this.commonDir, ref), "utf8")).trim();
      } catch {
        loose = undefined;
      }
      if (loose !== undefined && HEX40.test(loose)) return loose;
      if (loose === undefined) {
        const packed = (await this.packedRefs()).get(ref);
        if (packed !== undefined) return packed;
      }
    }
    try {
      const oid = await (await gitLib()).resolveRef({ ...this.opts, ref });
      return HEX40.test(oid) ? oid : undefined;
    } catch {
      return undefined;
    }
  }

  /** packed-refs as full ref name → oid (peeled `^` lines left out), read again when the file changes. */
  private async packedRefs(): Promise<Map<string, string>> {
    const file = path.join(this.commonDir, "packed-refs");
    let stamp: string;
    try {
      const st = await stat(file);
      stamp = `${st.ino}:${st.size}:${st.mtimeMs}`;
    } catch {
      return new Map();
    }
    if (this.packed?.stamp === stamp) return this.packed.refs;
    const refs = new Map<string, string>();
    let text = "";
    try {
      text = await readFile(file, "utf8");
    } catch {
      // gone since the stat: no packed refs
    }
    for (const line of text.split("\n")) {
      const m = PACKED_REF.exec(line);
      if (m) refs.set(m[2]!, m[1]!);
    }
    this.packed = { stamp, refs };
    return refs;
  }

  private async resolveBase(base: string, rev: string): Promise<string> {
    if (HEX40.test(base)) {
      if (await this.isAncestorOrKnown(base)) return base;
      throw revNotFound(rev, "no such object");
    }
    if (base === "HEAD") {
      const h = await this.head();
      if (!h) throw revNotFound(rev, "HEAD has no commit yet");
      return h;
    }
    if (isSafeRefName(base)) {
      // git's lookup order (gitrevisions): refs/<x>, tags, heads, remotes, remotes/<x>/HEAD.
      const candidates = [`refs/${base}`, `refs/tags/${base}`, `refs/heads/${base}`, `refs/remotes/${base}`];
      candidates.push(`refs/remotes/${base}/HEAD`);
      if (base.startsWith("refs/") || /^[A-Z_]+$/.test(base)) candidates.unshift(base);
      for (const ref of candidates) {
        const oid = await this.tryRef(ref);
        if (oid) return oid;
      }
    }
    const ts = parseDate(base);
    if (ts !== undefined) return this.resolveDate(ts, rev);
    if (SHORT_HEX.test(base)) {
      try {
        return await (await gitLib()).expandOid({ ...this.opts, oid: base.toLowerCase() });
      } catch (e) {
        if (errCode(e) === "AmbiguousError") {
          const candidates = (e as { data?: { matches?: string[] } }).data?.matches;
          throw new DrsgError("REV_NOT_FOUND", `resolve '${rev}': ambiguous short sha`, { rev, ambiguous: true, candidates });
        }
      }
    }
    throw revNotFound(rev, "no such ref, date or object");
  }

  /** The last commit at or before `ts` on HEAD's first-parent chain. */
  private async resolveDate(ts: number, rev: string): Promise<string> {
    let oid = await this.head();
    while (oid) {
      const c = await this.readCommitFor(oid, rev);
      if (c.commit.committer.timestamp <= ts) return c.oid;
      oid = c.commit.parent[0];
    }
    throw revNotFound(rev, "no commit on HEAD's first-parent history is that old");
  }

  /** readCommit (peeling annotated tags) with errors mapped to DrsgError. */
  private async readCommitFor(oid: string, rev: string): Promise<{ oid: string; commit: CommitObject }> {
    // Our own read first (annotated tags peeled, as isomorphic-git does); anything else goes to it.
    let at = oid;
    for (let hops = 0; hops < 8; hops++) {
      const own = await this.ownObject(at);
      const tag = own?.type === "tag" ? parseTag(own.data.toString("utf8")) : undefined;
      if (tag) {
        at = tag.object;
        continue;
      }
      const commit = own?.type === "commit" ? parseCommit(own.data.toString("utf8")) : undefined;
      if (commit) return { oid: at, commit };
      break;
    }
    try {
      return await (await gitLib()).readCommit({ ...this.opts, oid });
    } catch (e) {
      const code = errCode(e);
      if (code === "NotFoundError") throw revNotFound(rev, "no such object");
      if (code === "ObjectTypeError") throw revNotFound(rev, "not a commit");
      throw gitError(`read commit '${rev}'`, e);
    }
  }

  /** The root tree oid of a commit given as any rev. */
  private async treeOf(commit: string): Promise<string> {
    const oid = HEX40.test(commit) ? commit : await this.resolve(commit);
    return (await this.readCommitFor(oid, commit)).commit.tree;
  }

  private async readTreeEntries(oid: string): Promise<IsoTreeEntry[]> {
    const own = await this.ownObject(oid);
    const entries = own?.type === "tree" ? parseTree(own.data) : undefined;
    if (entries) return entries;
    try {
      return (await (await gitLib()).readTree({ ...this.opts, oid })).tree;
    } catch (e) {
      throw gitError(`read tree '${oid}'`, e);
    }
  }

  private async collect(treeOid: string, prefix: string, out: TreeEntry[]): Promise<void> {
    const subtrees: Promise<void>[] = [];
    for (const e of await this.readTreeEntries(treeOid)) {
      const p = prefix + e.path;
      if (e.type === "tree") subtrees.push(this.collect(e.oid, `${p}/`, out));
      else out.push({ path: p, oid: e.oid, mode: e.mode });
    }
    await Promise.all(subtrees);
  }

  private async diff(a: string | undefined, b: string | undefined, prefix: string, out: TreeChange[]): Promise<void> {
    if (a === b) return;
    const [ea, eb] = await Promise.all([
      a ? this.readTreeEntries(a) : Promise.resolve([]),
      b ? this.readTreeEntries(b) : Promise.resolve([]),
    ]);
    const byName = new Map<string, { a?: IsoTreeEntry; b?: IsoTreeEntry }>();
    for (const e of ea) byName.set(e.path, { a: e });
    for (const e of eb) {
      const slot = byName.get(e.path);
      if (slot) slot.b = e;
      else byName.set(e.path, { b: e });
    }
    const subtrees: Promise<void>[] = [];
    for (const [name, { a: ta, b: tb }] of byName) {
      const p = prefix + name;
      const aTree = ta?.type === "tree" ? ta.oid : undefined;
      const bTree = tb?.type === "tree" ? tb.oid : undefined;
      if (aTree || bTree) subtrees.push(this.diff(aTree, bTree, `${p}/`, out));
      const fa = ta && ta.type !== "tree" ? ta : undefined;
      const fb = tb && tb.type !== "tree" ? tb : undefined;
      if (fa && fb) {
        if (fa.oid !== fb.oid || fa.mode !== fb.mode) {
          out.push({ path: p, change: "M", oldOid: fa.oid, newOid: fb.oid, oldMode: fa.mode, newMode: fb.mode });
        }
      } else if (fa) {
        out.push({ path: p, change: "D", oldOid: fa.oid, oldMode: fa.mode });
      } else if (fb) {
        out.push({ path: p, change: "A", newOid: fb.oid, newMode: fb.mode });
      }
    }
    await Promise.all(subtrees);
  }
}

// ---- helpers ----

function toInfo(oid: string, c: CommitObject): CommitInfo {
  const message = c.message.replace(/\s+$/, "");
  return {
    sha: oid,
    parents: [...c.parent],
    summary: message.split("\n", 1)[0] ?? "",
    message,
    author: c.author.name,
    authorEmail: c.author.email,
    committedAt: new Date(c.committer.timestamp * 1000).toISOString().replace(/\.\d{3}Z$/, "Z"),
    committedTs: c.committer.timestamp,
  };
}

/**
 * Seconds since the epoch for YYYY-MM-DD (end of that day, UTC) or an RFC-3339 time (UTC when
 * it carries no offset); undefined when `s` is neither.
 */
export function parseDate(s: string): number | undefined {
  const d = DATE_ONLY.exec(s);
  let iso: string;
  if (d) {
    iso = `${s}T23:59:59Z`;
  } else {
    const m = RFC3339.exec(s);
    if (!m) return undefined;
    let zone = (m[4] ?? "Z").toUpperCase();
    if (/^[+-]\d{4}$/.test(zone)) zone = `${zone.slice(0, 3)}:${zone.slice(3)}`;
    iso = `${m[1]}T${m[2]}${m[3] ?? ":00"}${zone}`;
  }
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return undefined;
  // Date.parse rolls 2024-02-31 over to March; refuse dates that do not exist.
  const day = iso.slice(0, 10);
  const check = new Date(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))));
  if (check.toISOString().slice(0, 10) !== day) return undefined;
  return Math.floor(ms / 1000);
}

/** A ref name git would accept (git check-ref-format, loosely), safe to join under the gitdir. */
function isSafeRefName(name: string): boolean {
  if (!name || name.startsWith("/") || name.endsWith("/") || name.endsWith(".") || name.endsWith(".lock")) return false;
  if (name.includes("..") || name.includes("//") || name.includes("@{") || name === "@") return false;
  if (/[\x00-\x20~^:?*[\\\x7f]/.test(name)) return false;
  return name.split("/").every((seg) => seg !== "" && !seg.startsWith("."));
}

/** Split a repo-relative POSIX path; absolute paths and ".." are refused. */
function splitRelPath(p: string, op: string): string[] {
  if (p.startsWith("/") || /^[A-Za-z]:[\\/]/.test(p)) {
    throw new DrsgError("PATH_OUTSIDE_TREE", `${op}: '${p}' is absolute; give a path relative to the repository`, { path: p });
  }
  const parts = p.split("/").filter((s) => s !== "" && s !== ".");
  if (parts.includes("..")) {
    throw new DrsgError("PATH_OUTSIDE_TREE", `${op}: '${p}' climbs out of the tree with '..'`, { path: p });
  }
  return parts;
}

function byPath(a: { path: string }, b: { path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** The object id git gives these contents. */
function gitHash(o: RawObject): string {
  return createHash("sha1").update(`${o.type} ${o.data.length}\0`).update(o.data).digest("hex");
}

function errCode(e: unknown): string | undefined {
  return typeof e === "object" && e !== null && "code" in e ? String((e as { code: unknown }).code) : undefined;
}

function revNotFound(rev: string, why: string): DrsgError {
  return new DrsgError("REV_NOT_FOUND", `resolve '${rev}': ${why}`, { rev });
}

function gitError(op: string, e: unknown): DrsgError {
  if (e instanceof DrsgError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  return new DrsgError("GIT_ERROR", `${op}: ${msg}`, {}, { cause: e });
}
