// The exclusive open: one process holds a database at a time. SQLite's own file lock is the
// truth (EXCLUSIVE locking mode, never released until close); `<db>.pid` only names the holder
// for the error message, so a stale one left by a killed process never blocks anything.

import { readFileSync, readlinkSync, realpathSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { onFirstUse } from "../lazy.js";
import type Database from "better-sqlite3";
import { DrsgError } from "../model/errors.js";

/**
 * better-sqlite3, required on the first open: a CLI verb a live server answers opens no file,
 * and required as CommonJS it is not scanned for exports as an ES module import of it is (~40 ms
 * of a cold process).
 */
export const sqlite = onFirstUse<typeof Database>("better-sqlite3");

/** The sidecar naming the process that holds `file`. */
export function pidFile(file: string): string {
  return `${file}.pid`;
}

/** When process `pid` started (ms since the epoch), from /proc; undefined where /proc does not say. */
function startedAt(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 22 (start time, clock ticks since boot) — counted after the command name, which is in
    // parentheses and may itself hold spaces or ')'. Linux's USER_HZ is 100 on every architecture.
    const ticks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
    const btime = Number(/^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1]);
    return Number.isFinite(ticks) && Number.isFinite(btime) ? btime * 1000 + ticks * 10 : undefined;
  } catch {
    return undefined;
  }
}

/** The pid recorded in the sidecar, if any (it may be stale; only informative). */
export function readHolderPid(file: string): number | undefined {
  try {
    const n = Number.parseInt(readFileSync(pidFile(file), "utf8").trim(), 10);
    return Number.isSafeInteger(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The pid the sidecar names when that very process is still alive; undefined otherwise. A killed
 * holder leaves its sidecar behind, and whatever holds the file now (another tool, or a drsg
 * that could not write the sidecar) is not that pid: naming it would send the user after a
 * process that is gone, or after an unrelated one that reused the number. So the pid must be
 * alive, be a drsg, and (where /proc tells) have started before the sidecar was written (1 s of
 * slack: boot time is given in whole seconds).
 */
export function liveHolderPid(file: string): number | undefined {
  const pid = readHolderPid(file);
  if (pid === undefined) return undefined;
  try {
    process.kill(pid, 0);
  } catch {
    // ESRCH: gone. EPERM: another user's process, so not the writer of our sidecar either.
    return undefined;
  }
  const started = startedAt(pid);
  if (started !== undefined) {
    let written: number;
    try {
      written = statSync(pidFile(file)).mtimeMs;
    } catch {
      return undefined;
    }
    if (started > written + 1000) return undefined;
  }
  return runsDrsg(pid) === false ? undefined : pid;
}

/**
 * Whether process `pid` could be a drsg (node running drsg's code: the same node executable as
 * this process, or a command line naming drsg); undefined where /proc does not say.
 */
function runsDrsg(pid: number): boolean | undefined {
  let exe: string;
  try {
    exe = readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return undefined;
  }
  try {
    if (exe === realpathSync(process.execPath)) return true;
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("drsg");
  } catch {
    return false;
  }
}

/** The DB_LOCKED error for `file`, naming the holder only when the sidecar's process is alive. */
export function lockedError(file: string, cause?: unknown): DrsgError {
  const pid = liveHolderPid(file);
  const who = pid === undefined ? "another process" : `process ${pid}`;
  return new DrsgError(
    "DB_LOCKED",
    `open database "${file}": it is held by ${who}; one process opens a database at a time — ` +
      `run \`drsg serve\` to share it, or stop that process`,
    { path: file, pid: pid ?? null },
    { cause },
  );
}

/** The SQLite result code of a thrown value (`SQLITE_BUSY`, ...), if it is an SQLite error. */
export function sqliteCode(e: unknown): string | undefined {
  if (e instanceof Error && "code" in e && typeof e.code === "string" && e.code.startsWith("SQLITE_")) {
    return e.code;
  }
  return undefined;
}

/** Maps an SQLite failure while opening `file` to a typed error. */
export function openError(file: string, e: unknown): DrsgError {
  if (e instanceof DrsgError) return e;
  const code = sqliteCode(e) ?? "";
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) return lockedError(file, e);
  if (code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT") {
    return new DrsgError(
      "DB_OPEN_FAILED",
      `open database "${file}": the file is not a drsg database (not SQLite); pass --db with the path of a database that \`drsg digest <dir> --apply\` built`,
      { path: file },
      { cause: e },
    );
  }
  const msg = e instanceof Error ? e.message : String(e);
  return new DrsgError("DB_OPEN_FAILED", `open database "${file}": ${msg}`, { path: file }, { cause: e });
}

/**
 * Opens a connection that never waits for a lock (`timeout: 0`) and, once it has touched the
 * file, never lets go of it (`locking_mode = EXCLUSIVE`, set before anything reads the file so
 * a WAL database keeps its wal-index in heap memory and no other process can even read it).
 */
export function openConnection(file: string, mustExist: boolean): Database.Database {
  let db: Database.Database;
  try {
    db = new (sqlite())(file, { timeout: 0, fileMustExist: mustExist });
  } catch (e) {
    throw openError(file, e);
  }
  try {
    db.pragma("locking_mode = EXCLUSIVE");
  } catch (e) {
    db.close();
    throw openError(file, e);
  }
  return db;
}

/**
 * Switches to WAL and takes the write lock now, so a second opener fails at once with
 * SQLITE_BUSY rather than at its first write; then records our pid beside the file.
 */
export function takeLock(db: Database.Database, file: string): void {
  try {
    db.pragma("journal_mode = WAL");
    db.exec("BEGIN IMMEDIATE; COMMIT");
  } catch (e) {
    throw openError(file, e);
  }
  try {
    writeFileSync(pidFile(file), `${process.pid}\n`);
  } catch {
    // Only informative: a read-only directory must not stop the open.
  }
}

/** Removes our sidecar (while the lock is still held, so we never delete a successor's). */
export function releaseLock(file: string): void {
  if (readHolderPid(file) !== process.pid) return;
  try {
    unlinkSync(pidFile(file));
  } catch {
    // Already gone.
  }
}
