// Handing the C heap's free pages back to the system (glibc's malloc_trim), for a process that
// follows a repository for hours. glibc returns freed memory only from the top of each arena;
// pages freed in the middle stay resident until malloc_trim, which nothing in node calls. A
// follower's folds free tens of MB of SQLite, zlib and V8 compiler memory each time, and the
// holes they leave ratchet RSS up over its first hundred folds (measured: 52 MB of a follower's
// 63 MB of C heap was free but resident).
//
// Node has no binding for malloc_trim, and drsg builds no native code of its own; SQLite's
// extension loader (better-sqlite3, already here) can call a named function of a shared library.
// sqlite3_load_extension(libc, "malloc_trim") calls malloc_trim(db): on x86-64 and arm64 the
// first argument is the `pad` to leave at the top of the main arena — a pointer's value, so the
// top is not trimmed, while every arena's free middle pages are released (madvise), which is
// the part that matters. malloc_trim answers 1 when it released memory, which SQLite reports as
// an initialisation error; either way the library is closed again with the private database.
import { readFileSync } from "node:fs";
import type Database from "better-sqlite3";
import { sqlite } from "./lock.js";

let libc: string | null | undefined;

/** The glibc this process runs on (its path as mapped), or null: another libc, another system. */
function glibcPath(): string | null {
  if (libc !== undefined) return libc;
  libc = null;
  if (process.platform !== "linux" || (process.arch !== "x64" && process.arch !== "arm64")) return libc;
  try {
    for (const line of readFileSync("/proc/self/maps", "utf8").split("\n")) {
      const at = line.indexOf("/");
      if (at >= 0 && line.endsWith("/libc.so.6")) {
        libc = line.slice(at);
        break;
      }
    }
  } catch {
    // no /proc: leave it
  }
  return libc;
}

/**
 * Give the C heap's free pages back to the system (every glibc arena's). True when it ran;
 * false where it cannot (no glibc, an SQLite without extension loading) — nothing is changed then.
 */
export function trimCHeap(): boolean {
  const path = glibcPath();
  if (path === null) return false;
  let db: Database.Database | undefined;
  try {
    db = new (sqlite())(":memory:");
    // better-sqlite3 passes an entry point on to sqlite3_load_extension (its typings omit it).
    (db.loadExtension as (file: string, entryPoint: string) => unknown).call(db, path, "malloc_trim");
    return true;
  } catch (e) {
    // malloc_trim's 1 ("released some") reads as a failed initialisation; anything else did not run.
    if (/error during initialization/.test(String((e as Error)?.message))) return true;
    libc = null;
    return false;
  } finally {
    db?.close();
  }
}
