// `#include` resolution over the files of the tree, and translation units as the transitive
// closure of in-tree includes. Everything is indexed (paths, basenames, include roots), so a
// lookup costs O(1) and a closure costs its own size; nothing compares files pairwise.
import { posix } from "node:path";
import type { Import, Partial } from "../../model/partial.js";

/** How an include was found: relative to the including file, under an include root, or by a unique name. */
export type IncludeRule = "relative" | "include_dir" | "basename";

export interface InTreeInclude {
  to: number;
  by: IncludeRule;
  line: number;
  /** As written: `"x.h"` or `<x.h>`. */
  text: string;
}

export interface OutsideInclude {
  /** External key: `c:<stdio.h>` or `c:"config.h"`. */
  key: string;
  system: boolean;
  line: number;
  text: string;
}

/** Headers of the C standard library and POSIX: `<…>` includes of these stay outside the tree. */
const STANDARD_HEADERS: ReadonlySet<string> = new Set(
  `assert.h complex.h ctype.h errno.h fenv.h float.h inttypes.h iso646.h limits.h locale.h math.h setjmp.h
  signal.h stdalign.h stdarg.h stdatomic.h stdbool.h stddef.h stdint.h stdio.h stdlib.h stdnoreturn.h string.h
  tgmath.h threads.h time.h uchar.h wchar.h wctype.h aio.h arpa/inet.h cpio.h dirent.h dlfcn.h fcntl.h fnmatch.h
  glob.h grp.h iconv.h langinfo.h libgen.h monetary.h mqueue.h netdb.h net/if.h netinet/in.h netinet/tcp.h nl_types.h
  poll.h pthread.h pwd.h regex.h sched.h search.h semaphore.h spawn.h strings.h sys/ipc.h sys/mman.h sys/msg.h
  sys/resource.h sys/select.h sys/sem.h sys/shm.h sys/socket.h sys/stat.h sys/statvfs.h sys/time.h sys/times.h
  sys/types.h sys/uio.h sys/un.h sys/utsname.h sys/wait.h syslog.h tar.h termios.h ulimit.h unistd.h utime.h
  utmpx.h wordexp.h malloc.h alloca.h endian.h execinfo.h getopt.h sys/ioctl.h sys/param.h sys/file.h
  sys/epoll.h sys/event.h sys/sysctl.h windows.h winsock2.h ws2tcpip.h io.h process.h direct.h`
    .split(/\s+/)
    .filter((s) => s.length > 0),
);

/** Directory names treated as include roots (`-Iinclude`), besides the tree root. */
const INCLUDE_DIRS: ReadonlySet<string> = new Set(["include", "inc", "includes"]);

function dirOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

function baseOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? path : path.slice(i + 1);
}

/** Join and normalise; undefined when the result leaves the tree. */
function joinIn(dir: string, spec: string): string | undefined {
  const j = posix.normalize(dir ? `${dir}/${spec}` : spec);
  if (j === ".." || j.startsWith("../") || j.startsWith("/")) return undefined;
  return j.startsWith("./") ? j.slice(2) : j;
}

/** Is `dir` the directory `of` or one of its ancestors ("" is the root, an ancestor of all)? */
function isAncestorDir(dir: string, of: string): boolean {
  return dir === "" || of === dir || of.startsWith(`${dir}/`);
}

/** Number of leading directory segments two directories share. */
function sharedDepth(a: string, b: string): number {
  if (a === "" || b === "") return 0;
  const x = a.split("/");
  const y = b.split("/");
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return n;
}

export class IncludeGraph {
  readonly paths: string[];
  readonly inTree: InTreeInclude[][];
  readonly outside: OutsideInclude[][];
  private readonly index = new Map<string, number>();
  private readonly byBase = new Map<string, number[]>();
  /** Include roots: "" (the tree root) and every directory named include / inc / includes. */
  private readonly roots: string[];
  private readonly closures = new Map<number, Set<number>>();
  private readonly closureLists = new Map<number, number[]>();
  private readonly outsideTu = new Map<number, boolean>();

  constructor(partials: Partial[]) {
    this.paths = partials.map((p) => p.path);
    const rootSet = new Set<string>([""]);
    this.paths.forEach((path, i) => {
      this.index.set(path, i);
      const b = baseOf(path);
      const list = this.byBase.get(b);
      if (list) list.push(i);
      else this.byBase.set(b, [i]);
      const parts = dirOf(path).split("/");
      for (let k = 0; k < parts.length; k++)
        if (INCLUDE_DIRS.has(parts[k]!)) rootSet.add(parts.slice(0, k + 1).join("/"));
    });
    this.roots = [...rootSet].sort();
    this.inTree = partials.map(() => []);
    this.outside = partials.map(() => []);
    partials.forEach((p, i) => {
      for (const imp of p.imports) this.add(i, imp);
    });
  }

  private add(from: number, imp: Import): void {
    if (imp.form !== "include" && imp.form !== "system") return;
    const system = imp.form === "system";
    const spec = imp.source.trim();
    if (!spec) return;
    const text = system ? `<${spec}>` : `"${spec}"`;
    const found = this.find(from, spec, system);
    if (found) this.inTree[from]!.push({ to: found.to, by: found.by, line: imp.line, text });
    else this.outside[from]!.push({ key: `c:${text}`, system, line: imp.line, text });
  }

  /** The in-tree file an include names, by the first rule that finds exactly one. */
  find(from: number, spec: string, system: boolean): { to: number; by: IncludeRule } | undefined {
    const fromPath = this.paths[from]!;
    const fromDir = dirOf(fromPath);
    if (!system) {
      const rel = joinIn(fromDir, spec);
      const i = rel === undefined ? undefined : this.index.get(rel);
      if (i !== undefined) return { to: i, by: "relative" };
    }
    const hits: { root: string; to: number }[] = [];
    for (const root of this.roots) {
      const cand = joinIn(root, spec);
      const i = cand === undefined ? undefined : this.index.get(cand);
      if (i !== undefined && !hits.some((h) => h.to === i)) hits.push({ root, to: i });
    }
    if (hits.length === 1) return { to: hits[0]!.to, by: "include_dir" };
    if (hits.length > 1) {
      // Several roots hold it: the one whose project (the root's parent) contains the includer, deepest first.
      const near = hits
        .filter((h) => h.root !== "" && isAncestorDir(dirOf(h.root), fromDir))
        .sort((a, b) => b.root.length - a.root.length);
      if (near.length > 0 && (near.length === 1 || near[0]!.root.length > near[1]!.root.length))
        return { to: near[0]!.to, by: "include_dir" };
      return undefined;
    }
    // An include the compiler finds through some -I flag: the unique file with that path suffix.
    // `<stdio.h>`-style names of the C and POSIX libraries are never looked for this way.
    if (system && STANDARD_HEADERS.has(spec)) return undefined;
    const norm = joinIn("", spec);
    if (norm === undefined) return undefined;
    const same = (this.byBase.get(baseOf(norm)) ?? []).filter((i) => {
      const p = this.paths[i]!;
      return p === norm || p.endsWith(`/${norm}`);
    });
    const others = same.filter((i) => i !== from);
    if (others.length === 1) return { to: others[0]!, by: "basename" };
    // `<x.h>` is not searched next to the includer, so nearness proves nothing for it.
    if (others.length > 1 && !system) {
      // Several projects ship the name (examples/a/src/x.h, examples/b/src/x.h): the one sharing the
      // deepest directory prefix with the includer, when exactly one does.
      let best = -1;
      let bestDepth = 0;
      let tie = false;
      for (const i of others) {
        const depth = sharedDepth(fromDir, dirOf(this.paths[i]!));
        if (depth > bestDepth) {
          best = i;
          bestDepth = depth;
          tie = false;
        } else if (depth === bestDepth) tie = true;
      }
      if (best >= 0 && !tie) return { to: best, by: "basename" };
    }
    return undefined;
  }

  /** The translation unit of a file: itself and every in-tree file it includes, transitively. */
  closure(i: number): Set<number> {
    const hit = this.closures.get(i);
    if (hit) return hit;
    const seen = new Set<number>([i]);
    const stack = [i];
    while (stack.length > 0) {
      const f = stack.pop()!;
      for (const e of this.inTree[f]!) {
        if (seen.has(e.to)) continue;
        seen.add(e.to);
        stack.push(e.to);
      }
    }
    this.closures.set(i, seen);
    return seen;
  }

  /** The translation unit as a sorted list of file indices (memoised). */
  closureList(i: number): number[] {
    let v = this.closureLists.get(i);
    if (!v) {
      v = [...this.closure(i)].sort((a, b) => a - b);
      this.closureLists.set(i, v);
    }
    return v;
  }

  /** Does the translation unit include a header from outside the tree (system or not found)? */
  includesOutside(i: number): boolean {
    let v = this.outsideTu.get(i);
    if (v === undefined) {
      v = false;
      for (const f of this.closure(i))
        if (this.outside[f]!.length > 0) {
          v = true;
          break;
        }
      this.outsideTu.set(i, v);
    }
    return v;
  }
}
