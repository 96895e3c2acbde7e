// The repository's drsg state under `.drsg/`: where its database lives, and the record of the
// server this user's drsg started for it (`server.json`). Everything in a working tree may have
// come from a clone, so a record is trusted only when this user's drsg could have written it:
// `.drsg/` a real directory (no link) owned by us and writable by nobody else, `server.json` a
// regular file owned by us, mode 0600, not tracked by git, naming a loopback address and a live
// drsg process. Anything else is refused with the reason and the way to fix it.
import { chmodSync, closeSync, existsSync, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { constants } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { DrsgError } from "../model/errors.js";
import { probeHealth } from "./endpoint.js";
import { nodeCrypto } from "../lazy.js";

export const STATE_DIR = ".drsg";
export const DB_NAME = "graph.drsg";
export const RECORD_NAME = "server.json";
/** What `drsg init` added to this repository (agent config entries, exclude lines): `--remove` undoes exactly that. */
export const INIT_NAME = "init.json";

export interface ServerRecord {
  /** host:port the server listens on. */
  addr: string;
  token: string;
  pid: number;
  plane: string;
  /** Absolute path of the database it holds. */
  db: string;
  /** The repository root it follows. */
  dir: string;
  /** True when the user named the address on the command line (`--addr`); else loopback only. */
  addr_from_user?: boolean;
}

/** A bearer token of real strength: 32 random bytes, base64url (43 characters). */
export function strongToken(): string {
  return nodeCrypto().randomBytes(32).toString("base64url");
}

/**
 * Why a token a user supplied (`--token`, `DRSG_TOKEN`) is too weak to guard a server, or
 * undefined when it will do. Randomness cannot be measured from one sample, so this asks for what
 *  32 random bytes look like in any common encoding: at least 32 characters, an estimated 160
 * bits or more by the string's own character frequencies, and no repeating period (patterned strings fail).
 */
export function tokenWeakness(token: string): string | undefined {
  if (token.length < 32) return `it is ${token.length} character(s) long; a token needs at least 32 random bytes`;
  if (/\s/.test(token)) return "it contains white space";
  const counts = new Map<string, number>();
  for (const ch of token) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bitsPerChar = 0;
  for (const n of counts.values()) {
    const p = n / token.length;
    bitsPerChar -= p * Math.log2(p);
  }
  const bits = bitsPerChar * token.length;
  for (let k = 1; k <= token.length / 2; k++)
    if (token.slice(k) === token.slice(0, token.length - k)) return `it repeats itself every ${k} character(s); a token needs 32 random bytes`;
  if (bits < 160) return `it looks patterned (about ${Math.floor(bits)} bits by its own character frequencies; 32 random bytes give 160 or more)`;
  return undefined;
}

/** The repository root holding `start` the way git finds it (the first directory up with `.git`). */
export function findRepoRoot(start: string): string | undefined {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, ".git"))) return dir;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/** The repository's database path when `drsg init` made one (`<root>/.drsg/graph.drsg`). */
export function repoDb(root: string): string | undefined {
  const f = join(root, STATE_DIR, DB_NAME);
  try {
    return lstatSync(f).isFile() ? f : undefined;
  } catch {
    return undefined;
  }
}

/** Is `host` (no port) a loopback name or address? */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** The host part of `host:port` / `[v6]:port`. */
export function hostOf(addr: string): string {
  const m = /^\[([^\]]+)\](?::\d+)?$/.exec(addr);
  if (m) return m[1]!;
  const i = addr.lastIndexOf(":");
  return i > 0 ? addr.slice(0, i) : addr;
}

function uid(): number | undefined {
  return typeof process.getuid === "function" ? process.getuid() : undefined;
}

/** Why `path` (a directory we keep state in) cannot be trusted, or undefined when it can. */
export function untrustedDir(path: string): string | undefined {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(path);
  } catch {
    return undefined; // absent: nothing to trust or distrust yet
  }
  if (st.isSymbolicLink()) return `${path} is a symbolic link`;
  if (!st.isDirectory()) return `${path} is not a directory`;
  const me = uid();
  if (me !== undefined && st.uid !== me) return `${path} is owned by uid ${st.uid}, not you (uid ${me})`;
  if ((st.mode & 0o022) !== 0) return `${path} is writable by other users (mode ${(st.mode & 0o777).toString(8)})`;
  return undefined;
}

export type RecordTrust =
  | { ok: true; record: ServerRecord }
  | { ok: false; absent: true }
  | { ok: false; absent: false; why: string; fix: string };

/**
 * Read `<root>/.drsg/server.json` if this user's drsg could have written it. Does not probe the
 * server (see liveServer). A record git tracks, or one another user could have written, is refused.
 */
export async function readRecord(root: string): Promise<RecordTrust> {
  const dir = join(root, STATE_DIR);
  const file = join(dir, RECORD_NAME);
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(file);
  } catch {
    return { ok: false, absent: true };
  }
  const fix = `remove it (rm -rf ${dir}) and run drsg init again`;
  const bad = (why: string): RecordTrust => ({ ok: false, absent: false, why, fix });
  const dirWhy = untrustedDir(dir);
  if (dirWhy) return bad(dirWhy);
  if (st.isSymbolicLink()) return bad(`${file} is a symbolic link`);
  if (!st.isFile()) return bad(`${file} is not a regular file`);
  const me = uid();
  if (me !== undefined && st.uid !== me) return bad(`${file} is owned by uid ${st.uid}, not you (uid ${me})`);
  if ((st.mode & 0o077) !== 0) return bad(`${file} is readable or writable by other users (mode ${(st.mode & 0o777).toString(8)}; drsg writes it 0600)`);
  // Loaded here: a verb run where no record exists reads no git code.
  const { GitRepo } = await import("../git/repo.js");
  const repo = await GitRepo.find(root);
  if (repo) {
    const files = await repo.trackedFiles().catch(() => [] as readonly string[]);
    const tracked = files.find((f) => f === `${STATE_DIR}/${RECORD_NAME}` || f.startsWith(`${STATE_DIR}/`));
    if (tracked)
      return {
        ok: false,
        absent: false,
        why: `${STATE_DIR}/ is tracked by git (${tracked}): it came with the repository, not from your drsg`,
        fix: `git rm -r --cached ${STATE_DIR} && rm -rf ${dir}, then run drsg init`,
      };
  }
  let rec: Partial<ServerRecord>;
  try {
    rec = JSON.parse(readFileSync(file, "utf8")) as Partial<ServerRecord>;
  } catch {
    return bad(`${file} is not JSON`);
  }
  if (!rec || typeof rec !== "object" || typeof rec.addr !== "string" || typeof rec.token !== "string" || typeof rec.pid !== "number")
    return bad(`${file} does not hold a server record (addr, token, pid)`);
  if (!isLoopbackHost(hostOf(rec.addr)) && rec.addr_from_user !== true) return bad(`${file} names a non-loopback address ${rec.addr}`);
  return {
    ok: true,
    record: {
      addr: rec.addr,
      token: rec.token,
      pid: rec.pid,
      plane: typeof rec.plane === "string" ? rec.plane : "",
      db: typeof rec.db === "string" ? rec.db : join(dir, DB_NAME),
      dir: typeof rec.dir === "string" ? rec.dir : root,
      ...(rec.addr_from_user === true ? { addr_from_user: true } : {}),
    },
  };
}

/** Is `pid` alive and running drsg? */
export function isDrsgProcess(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("drsg");
  } catch {
    return false;
  }
}

/** Is `pid` the `drsg serve watch` of `root` (so stopping it stops nothing else)? */
export function isServeWatchOf(pid: number, root: string): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    const at = argv.indexOf("--dir");
    return argv.includes("serve") && argv.includes("watch") && at >= 0 && resolve(argv[at + 1] ?? "") === resolve(root);
  } catch {
    return false;
  }
}

/**
 * The live server this user's drsg started for `root`: a trusted record whose pid is a live drsg
 * process and whose address answers /health with that same pid. Undefined when none.
 */
export async function liveServer(root: string, timeoutMs = 1500): Promise<ServerRecord | undefined> {
  const t = await readRecord(root);
  if (!t.ok) return undefined;
  const rec = t.record;
  if (!isDrsgProcess(rec.pid)) return undefined;
  const h = await probeHealth(`http://${rec.addr}/mcp`, timeoutMs);
  return h && h.pid === rec.pid ? rec : undefined;
}

/** Create `<root>/.drsg` (0700) if absent; refuse one that cannot be trusted. */
export function ensureStateDir(root: string): string {
  const dir = join(root, STATE_DIR);
  const why = untrustedDir(dir);
  if (why) throw new DrsgError("UNTRUSTED_STATE", `${why} — drsg keeps its database and server record there; remove it (rm -rf ${dir}) and run drsg init again`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Ours (checked above): made by an older drsg with the umask's mode, it is tightened now.
  if ((lstatSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
  // The folder keeps itself out of git status, whatever is left of it: `init --remove` takes its
  // line back out of .git/info/exclude and keeps the database. Replaced, never written through.
  const ignore = join(dir, ".gitignore");
  if (!existsSync(ignore) && !isLink(ignore)) writeFileAtomic(ignore, SELF_IGNORE, 0o600);
  return dir;
}

/** `.drsg/.gitignore`: everything in the folder, itself too. */
const SELF_IGNORE = "# drsg's own folder (database, server record, logs): never committed\n*\n";

/** A problem with the repository's `.drsg/`: why it cannot be trusted and how to fix that. */
export interface StateProblem {
  why: string;
  fix: string;
}

/** Why a state file (init.json, graph.drsg) cannot be trusted: a link, not a file, someone else's, open to others. */
function untrustedFile(file: string, privateMode: boolean): string | undefined {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(file);
  } catch {
    return undefined;
  }
  if (st.isSymbolicLink()) return `${file} is a symbolic link`;
  if (!st.isFile()) return `${file} is not a regular file`;
  const me = uid();
  if (me !== undefined && st.uid !== me) return `${file} is owned by uid ${st.uid}, not you (uid ${me})`;
  const mask = privateMode ? 0o077 : 0o022;
  if ((st.mode & mask) !== 0) return `${file} is open to other users (mode ${(st.mode & 0o777).toString(8)})`;
  return undefined;
}

/**
 * Whether `<root>/.drsg/` could only have come from this user's drsg: undefined when it is absent
 * or trusted, else why not and how to fix it. A `.drsg/` that git tracks came with the repository
 * (a clone), whatever its modes say; one owned by someone else, or a link, is refused too.
 */
export async function stateProblem(root: string): Promise<StateProblem | undefined> {
  const dir = join(root, STATE_DIR);
  if (!existsSync(dir) && !isLink(dir)) return undefined;
  const fix = `remove it (rm -rf ${dir}) and run drsg init again`;
  const dirWhy = untrustedDir(dir);
  if (dirWhy) return { why: dirWhy, fix };
  // Loaded here: a verb run where no record exists reads no git code.
  const { GitRepo } = await import("../git/repo.js");
  const repo = await GitRepo.find(root);
  if (repo) {
    const files = await repo.trackedFiles().catch(() => [] as readonly string[]);
    const tracked = files.find((f) => f.startsWith(`${STATE_DIR}/`));
    if (tracked)
      return {
        why: `${STATE_DIR}/ is tracked by git (${tracked}): it came with the repository, not from your drsg`,
        fix: `git rm -r --cached ${STATE_DIR} && rm -rf ${dir}, then run drsg init`,
      };
  }
  const rec = await readRecord(root);
  if (!rec.ok && !rec.absent) return { why: rec.why, fix: rec.fix };
  const initWhy = untrustedFile(join(dir, INIT_NAME), true);
  if (initWhy) return { why: initWhy, fix };
  const dbWhy = untrustedFile(join(dir, DB_NAME), false);
  if (dbWhy) return { why: dbWhy, fix };
  return undefined;
}

function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Refuse (UNTRUSTED_STATE, with the reason and the fix) a `.drsg/` this user's drsg did not make. */
export async function assertTrustedState(root: string, doing: string): Promise<void> {
  const p = await stateProblem(root);
  if (p) throw new DrsgError("UNTRUSTED_STATE", `${doing}: ${p.why} — drsg never uses state it did not write; ${p.fix}`, { why: p.why, fix: p.fix });
}

/** Whether `drsg init` set this repository up (and `--remove` has not undone it). */
export function isInitialised(root: string): boolean {
  try {
    return lstatSync(join(root, STATE_DIR, INIT_NAME)).isFile();
  } catch {
    return false;
  }
}

/** Read a JSON state file under `.drsg/` (the caller checked the directory); undefined when absent or not JSON. */
export function readStateJson<T>(root: string, name: string): T | undefined {
  const f = join(root, STATE_DIR, name);
  try {
    if (!lstatSync(f).isFile()) return undefined;
    return JSON.parse(readFileSync(f, "utf8")) as T;
  } catch {
    return undefined;
  }
}

/** Write a JSON state file under `.drsg/` (0600, atomically). */
export function writeStateJson(root: string, name: string, value: unknown): void {
  const dir = ensureStateDir(root);
  writeFileAtomic(join(dir, name), `${JSON.stringify(value, null, 2)}\n`, 0o600);
}

/**
 * Write `file` atomically (a temp file beside it, then rename) without following a link: the
 * temp file is created exclusively with O_NOFOLLOW, and a rename replaces a link rather than
 * writing through it. The parent directory must already be trusted by the caller.
 */
export function writeFileAtomic(file: string, text: string, mode = 0o600): void {
  const tmp = `${file}.${process.pid}.${nodeCrypto().randomBytes(4).toString("hex")}.tmp`;
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, file);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
    throw e;
  }
}

/** Record the server drsg started for `root` (0600, in a 0700 `.drsg/`). */
export function writeRecord(root: string, rec: ServerRecord): void {
  const dir = ensureStateDir(root);
  writeFileAtomic(join(dir, RECORD_NAME), `${JSON.stringify(rec, null, 2)}\n`, 0o600);
}
