// A plugin folder's sha256, remembered across processes: every verb checks the plugin set (the
// drift line, the pins of installed plugins), and reading and hashing ~400 files costs a cold
// verb tens of milliseconds. A folder's record holds each file's stamp — device, inode, size,
// mtime and ctime in nanoseconds — and is used only when every file is there with the same
// stamp; any difference (a file added, gone, rewritten, touched, replaced) hashes the folder again.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import type { BigIntStats } from "node:fs";
import { join } from "node:path";
import { dataDir } from "../paths.js";

/**
 * A file whose ctime is younger than this when it is hashed is not remembered: the kernel
 * stamps times at a coarse granularity, so a write right after the hashing could leave the same
 * stamp on different bytes (git's "racy index" problem). Seconds later, any write moves ctime.
 */
export const SETTLE_MS = 2000;

/** What is remembered of one folder. */
export interface FolderRecord {
  /** Relative POSIX path → stamp. */
  stamps: Record<string, string>;
  sha256: string;
  files: Record<string, string>;
  /** The drsg that compiled the folder's recover rules (manifest.ts), these very bytes. */
  checked?: string;
}

/** What is remembered of a plugin set (registry.ts activeBuilds): every input of its last load whole, and its builds. */
export interface SetRecord {
  stamps: string[];
  builtBy: string[];
}

interface CacheFile {
  version: 1;
  folders: Record<string, FolderRecord>;
  /** By the official plugins' folder (each drsg install has its own set). */
  sets?: Record<string, SetRecord>;
}

/** A file's stamp: what changes whenever its bytes can have changed. */
export function stampOf(st: BigIntStats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}

/** Whether every file's ctime is at least SETTLE_MS (or `settleMs`) before `now` (ms). */
export function settled(stats: Iterable<BigIntStats>, now: number, settleMs = SETTLE_MS): boolean {
  const before = BigInt(Math.floor(now - settleMs)) * 1_000_000n;
  for (const st of stats) if (st.ctimeNs > before) return false;
  return true;
}

/** Where the records live: beside the plugin registry, in the user's data directory. */
export function hashCachePath(): string {
  return join(dataDir(), "plugin-hashes.json");
}

let memo: { path: string; file: CacheFile } | undefined;

function load(): { path: string; file: CacheFile } {
  const path = hashCachePath();
  if (memo && memo.path === path) return memo;
  let file: CacheFile = { version: 1, folders: {} };
  try {
    const raw = JSON.parse(readFileSync(path, "utf8")) as CacheFile;
    if (raw && raw.version === 1 && raw.folders && typeof raw.folders === "object") file = raw;
  } catch {
    // Absent or unreadable: a cache, so it starts empty.
  }
  memo = { path, file };
  return memo;
}

/** The key of the record of a folder's build files (all but its tests/): its path with a suffix no path has. */
export function buildsKey(dir: string): string {
  return `${dir}\u0000builds`;
}

/** The record of folder `dir` (a path, or a buildsKey) when every stamp matches `stamps` (same files, same stamps). */
export function cachedFolder(dir: string, stamps: Record<string, string>): FolderRecord | undefined {
  const r = load().file.folders[dir];
  if (!r || typeof r.stamps !== "object" || typeof r.sha256 !== "string" || typeof r.files !== "object") return undefined;
  const want = Object.keys(stamps);
  if (Object.keys(r.stamps).length !== want.length) return undefined;
  for (const rel of want) if (r.stamps[rel] !== stamps[rel] || typeof r.files[rel] !== "string") return undefined;
  return r;
}

/** Remember folder `dir`'s hashes (written to disk at once; a data directory that cannot be written is left alone). */
export function rememberFolder(dir: string, record: FolderRecord): void {
  load().file.folders[dir] = record;
  save();
}

/** Note that `by` compiled the rules of folder `dir` as remembered with hash `sha256` (nothing when no such record). */
export function markChecked(dir: string, sha256: string, by: string): void {
  const r = load().file.folders[dir];
  if (!r || r.sha256 !== sha256 || r.checked === by) return;
  r.checked = by;
  save();
}

/** The builds of the plugin set of `dir` when its record's inputs are exactly `stamps`. */
export function cachedSet(dir: string, stamps: readonly string[]): string[] | undefined {
  const r = load().file.sets?.[dir];
  if (!r || !Array.isArray(r.stamps) || !Array.isArray(r.builtBy) || r.stamps.length !== stamps.length) return undefined;
  for (let i = 0; i < stamps.length; i++) if (r.stamps[i] !== stamps[i]) return undefined;
  return r.builtBy.every((b) => typeof b === "string") ? [...r.builtBy] : undefined;
}

/** Remember the plugin set of `dir` (written at once, as rememberFolder). */
export function rememberSet(dir: string, record: SetRecord): void {
  const file = load().file;
  file.sets = { ...file.sets, [dir]: record };
  save();
}

function save(): void {
  const m = load();
  // Folders gone (an older drsg's package, a removed plugin) are forgotten as the file is written.
  for (const key of Object.keys(m.file.folders)) if (!existsSync(key.split("\u0000")[0]!)) delete m.file.folders[key];
  for (const key of Object.keys(m.file.sets ?? {})) if (!existsSync(key)) delete m.file.sets![key];
  try {
    mkdirSync(dataDir(), { recursive: true });
    const tmp = `${m.path}.tmp-${process.pid}`;
    writeFileSync(tmp, JSON.stringify(m.file));
    renameSync(tmp, m.path);
  } catch {
    // Read-only or missing home: every load hashes, as before.
  }
}

/** Forget what this process read of the cache file (tests that change $DRSG_HOME or the file). */
export function resetHashCache(): void {
  memo = undefined;
}
