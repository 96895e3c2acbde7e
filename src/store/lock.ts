// The exclusive open: one process holds a database at a time. SQLite's own file lock is the
// truth (EXCLUSIVE locking mode, never released until close); `<db>.pid` only names the holder
// for the error message, so a stale one left by a killed process never blocks anything.

import { readFileSync, unlinkSync, writeFileSync } from "node:fs";
import Database from "better-sqlite3";
import { DrsgError } from "../model/errors.js";

/** The sidecar naming the process that holds `file`. */
export function pidFile(file: string): string {
  return `${file}.pid`;
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

/** The DB_LOCKED error for `file`, naming the holder when the sidecar does. */
export function lockedError(file: string, cause?: unknown): DrsgError {
  const pid = readHolderPid(file);
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
    db = new Database(file, { timeout: 0, fileMustExist: mustExist });
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
