// Opening a file of a working tree without following a symlink on any path component, and
// without a check-then-open race (DESIGN §8, issue 14 "the file reads under a race"): the walk
// starts at the tree root's directory descriptor and opens one component at a time relative to
// the previous one (openat-style, through /proc/self/fd/<fd>/<name>) with O_NOFOLLOW, so a
// directory swapped for a link mid-walk fails to open instead of being entered; the opened file
// is fstat'ed (a regular file) and its real path (/proc/self/fd/<fd>) re-checked inside the tree.
// A symlink inside the tree is followed only by resolving its text to a path inside the tree and
// walking that path the same way. Errors are typed and name paths relative to the tree only.
import { closeSync, constants, existsSync, fstatSync, openSync, readSync, readdirSync, readlinkSync, type Dirent } from "node:fs";
import { posix } from "node:path";
import { DrsgError } from "../../model/errors.js";
import { isInside } from "../files.js";
import type { ReadResult } from "./read.js";

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const DIR_FLAGS = constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW;
const FILE_FLAGS = constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK;
/** Links inside the tree followed in a row before giving up (as the kernel's ELOOP does). */
const MAX_LINKS = 8;

/** Whether descriptor-relative opens are available (Linux's /proc). */
export const HAVE_PROC_FD = existsSync("/proc/self/fd");

function fdPath(fd: number, name?: string): string {
  return name === undefined ? `/proc/self/fd/${fd}` : `/proc/self/fd/${fd}/${name}`;
}

function code(e: unknown): string {
  return (e as NodeJS.ErrnoException)?.code ?? "EIO";
}

/** The typed error for a failed open of `rel`, naming only the relative path. */
function openError(rel: string, e: unknown): DrsgError {
  const c = code(e);
  if (c === "ENOENT" || c === "ENOTDIR")
    return new DrsgError("PATH_NOT_FOUND", `path '${rel}' does not exist in the source tree`, { path: rel });
  if (c === "ELOOP" || c === "EMLINK")
    return new DrsgError("PATH_OUTSIDE_TREE", `path '${rel}' goes through a symbolic link that leaves the source tree or loops — links out are never followed`, {
      path: rel,
    });
  return new DrsgError("PATH_NOT_FOUND", `path '${rel}' cannot be read (${c})`, { path: rel, errno: c });
}

/** A directory of the tree held open: its descriptor and its path relative to the root. */
export interface DirHandle {
  fd: number;
  rel: string;
}

/** Open the tree root (canonical, trusted: the operator's or the plane's) as a directory. */
export function openRoot(root: string): DirHandle {
  try {
    return { fd: openSync(root, constants.O_RDONLY | O_DIRECTORY), rel: "" };
  } catch (e) {
    throw new DrsgError("NO_TREE", `the source tree cannot be opened (${code(e)})`, { errno: code(e) });
  }
}

/** Open `name` (one component) in `dir` without following it when it is a link. */
export function openIn(dir: DirHandle, name: string, flags: number): number {
  if (name === "" || name === "." || name === ".." || name.includes("/") || name.includes("\0"))
    throw new DrsgError("PATH_OUTSIDE_TREE", `path component '${name}' is refused`, { path: name });
  return openSync(fdPath(dir.fd, name), flags | O_NOFOLLOW);
}

/** The entries of an open directory (read through its descriptor, not its path). */
export function readDirHandle(dir: DirHandle): Dirent[] {
  return readdirSync(fdPath(dir.fd), { withFileTypes: true });
}

/**
 * A subdirectory of `dir` opened without following a link, its real path re-checked inside the
 * tree at `canonRoot`; undefined when it is not such a directory now.
 */
export function openSubdir(canonRoot: string, dir: DirHandle, name: string): DirHandle | undefined {
  const rel = dir.rel === "" ? name : `${dir.rel}/${name}`;
  let fd: number;
  try {
    fd = openIn(dir, name, DIR_FLAGS);
  } catch {
    return undefined;
  }
  try {
    checkReal(canonRoot, fd, rel);
  } catch {
    return undefined;
  }
  return { fd, rel };
}

export function closeDir(dir: DirHandle): void {
  try {
    closeSync(dir.fd);
  } catch {
    // already closed
  }
}

/** The relative path a link's text names from directory `dirRel`, or undefined when it leaves the tree. */
function linkTarget(canonRoot: string, dirRel: string, text: string): string | undefined {
  let rel: string;
  if (text.startsWith("/")) {
    if (!isInside(canonRoot, text)) return undefined;
    rel = posix.relative(canonRoot, text);
  } else rel = posix.normalize(posix.join(dirRel === "" ? "." : dirRel, text));
  if (rel === ".." || rel.startsWith("../") || posix.isAbsolute(rel)) return undefined;
  return rel === "." ? "" : rel;
}

export type Opened = { kind: "file"; fd: number; rel: string } | { kind: "dir"; dir: DirHandle };

/**
 * Open `rel` (already refused by shape when absolute or holding `..`) inside the tree whose
 * canonical root is `canonRoot`: every component opened relative to the one before with
 * O_NOFOLLOW; a link inside the tree is resolved to the path it names and walked again; a link
 * out is PATH_OUTSIDE_TREE. The caller closes what it gets. `rel` in the answer is the path
 * actually opened (a link's target).
 */
export function openTreePath(canonRoot: string, rel: string, links = 0): Opened {
  const parts = rel.split("/").filter((s) => s !== "" && s !== ".");
  let dir = openRoot(canonRoot);
  try {
    for (let i = 0; i < parts.length; i++) {
      const name = parts[i]!;
      const last = i === parts.length - 1;
      const sofar = parts.slice(0, i + 1).join("/");
      let fd: number;
      try {
        fd = openIn(dir, name, last ? FILE_FLAGS : DIR_FLAGS);
      } catch (e) {
        const c = code(e);
        // ELOOP (a link as the last component) or ENOTDIR (a link where a directory was asked):
        // read the link itself, never through it, and follow it only when it stays inside.
        if (c !== "ELOOP" && c !== "ENOTDIR") throw openError(sofar, e);
        let text: string;
        try {
          text = readlinkSync(fdPath(dir.fd, name));
        } catch {
          throw openError(sofar, e);
        }
        if (links >= MAX_LINKS) throw openError(sofar, Object.assign(new Error("loop"), { code: "ELOOP" }));
        const target = linkTarget(canonRoot, dir.rel, text);
        if (target === undefined)
          throw new DrsgError("PATH_OUTSIDE_TREE", `path '${sofar}' is a link that points outside the source tree — links out are never followed`, {
            path: sofar,
          });
        const rest = parts.slice(i + 1).join("/");
        closeDir(dir);
        dir = { fd: -1, rel: "" };
        return openTreePath(canonRoot, rest === "" ? target : target === "" ? rest : `${target}/${rest}`, links + 1);
      }
      const st = fstatSync(fd);
      if (st.isDirectory()) {
        closeDir(dir);
        dir = { fd, rel: sofar };
        continue;
      }
      if (!last || !st.isFile()) {
        closeSync(fd);
        if (!last) throw openError(sofar, Object.assign(new Error("not a directory"), { code: "ENOTDIR" }));
        throw new DrsgError("BAD_INPUT", `path '${sofar}' is not a regular file`, { path: sofar });
      }
      checkReal(canonRoot, fd, sofar);
      return { kind: "file", fd, rel: sofar };
    }
    checkReal(canonRoot, dir.fd, dir.rel);
    const out = dir;
    dir = { fd: -1, rel: "" };
    return { kind: "dir", dir: out };
  } finally {
    if (dir.fd >= 0) closeDir(dir);
  }
}

/** Re-check the real path of an opened descriptor: it must lie inside the tree. */
function checkReal(canonRoot: string, fd: number, rel: string): void {
  if (!HAVE_PROC_FD) return;
  let real: string;
  try {
    real = readlinkSync(fdPath(fd));
  } catch {
    return;
  }
  if (!isInside(canonRoot, real)) {
    closeSync(fd);
    throw new DrsgError("PATH_OUTSIDE_TREE", `path '${rel}' resolved outside the source tree while it was opened — refused`, { path: rel });
  }
}

/** Read an opened regular file when it is at most `max` bytes (closes the descriptor). */
export function readOpened(fd: number, max: number): ReadResult {
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { kind: "not-file" };
    if (st.size > max) return { kind: "big", size: st.size };
    const buf = Buffer.allocUnsafe(st.size);
    let n = 0;
    while (n < st.size) {
      const r = readSync(fd, buf, n, st.size - n, n);
      if (r === 0) break;
      n += r;
    }
    return { kind: "ok", bytes: n === st.size ? buf : buf.subarray(0, n) };
  } catch (e) {
    return { kind: "unreadable", code: code(e) };
  } finally {
    closeSync(fd);
  }
}

/**
 * The bytes of the regular file `rel` of the tree (at most `max`), opened as openTreePath does.
 * A missing file, a link out and a non-file are typed errors; a read failure is "unreadable".
 */
export function readTreeFile(canonRoot: string, rel: string, max: number): ReadResult & { rel?: string } {
  const o = openTreePath(canonRoot, rel);
  if (o.kind === "dir") {
    closeDir(o.dir);
    return { kind: "not-file" };
  }
  const r = readOpened(o.fd, max);
  return r.kind === "ok" ? { ...r, rel: o.rel } : r;
}

let scratch: Buffer | undefined;

/**
 * The bytes of regular file `name` in an open directory of the tree (at most `max`), opened
 * without following a link: what a walk that holds the directory reads, without walking down
 * from the root again. The directory's real path was re-checked when it was opened (openSubdir),
 * and a last component opened O_NOFOLLOW relative to it lies in it, so the file is not
 * re-checked one by one (that readlink cost as much as the open). For a walk that reads thousands of files
 * and keeps none: the bytes are a view of one shared buffer, valid until the next call (use
 * them before any await); read to EOF with no fstat, one byte over `max` making it "big".
 */
export function readFileIn(dir: DirHandle, name: string, max: number): ReadResult {
  let fd: number;
  try {
    fd = openIn(dir, name, FILE_FLAGS);
  } catch (e) {
    return { kind: "unreadable", code: code(e) };
  }
  if (!scratch || scratch.length < max + 1) scratch = Buffer.allocUnsafe(max + 1);
  const buf = scratch;
  try {
    let n = 0;
    for (;;) {
      const r = readSync(fd, buf, n, max + 1 - n, null);
      if (r === 0) break;
      n += r;
      if (n > max) return { kind: "big", size: n };
    }
    return { kind: "ok", bytes: buf.subarray(0, n) };
  } catch (e) {
    // A directory (EISDIR) or a FIFO swapped in (EAGAIN under O_NONBLOCK) is not a file.
    const c = code(e);
    return c === "EISDIR" || c === "EAGAIN" ? { kind: "not-file" } : { kind: "unreadable", code: c };
  } finally {
    closeSync(fd);
  }
}

/** The text of file `name` in an open directory when it is a regular file (no link followed); "" otherwise. */
export function readSmallIn(dir: DirHandle, name: string, max = 1 << 20): string {
  let fd: number;
  try {
    fd = openIn(dir, name, FILE_FLAGS);
  } catch {
    return "";
  }
  const r = readOpened(fd, max);
  return r.kind === "ok" ? r.bytes.toString("utf8") : "";
}
