// Which database a command opens, the way git finds `.git`: --db, else $DRSG_DB (set but empty is
// an error, never the working directory), else the repository's `.drsg/graph.drsg` found by
// walking up from the working directory, else ./graph.drsg. And who holds it: when the live
// server this user's drsg started for the repository (`.drsg/server.json`, trusted only as
// src/server/state.ts decides) holds that file, a command goes to the server instead of opening it.
import { realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { DrsgError, isDrsgError } from "../model/errors.js";
import { DB_NAME, STATE_DIR, type ServerRecord, findRepoRoot, liveServer, readRecord, repoDb } from "../server/state.js";
import { openStore } from "../store/store.js";
import type { Store } from "../store/types.js";

/** Where the path came from: the flag, the environment, the repository's `.drsg/`, the live server's record, or the working directory. */
export type DbSource = "flag" | "env" | "repo" | "server" | "cwd";

export interface DbChoice {
  /** Absolute path of the database. */
  path: string;
  source: DbSource;
  /** The repository root found from the start directory, if any. */
  root?: string;
}

export interface DbTarget extends DbChoice {
  /** Set when a live server of this repository holds `path`: send the command there. */
  server?: ServerRecord;
}

/** The database a command names or finds, without opening it (see the file comment). */
export function chooseDb(flagValue: string | undefined, start: string = process.cwd()): DbChoice {
  const root = findRepoRoot(start);
  const at = (path: string, source: DbSource): DbChoice => (root ? { path, source, root } : { path, source });
  if (flagValue !== undefined) {
    if (flagValue.trim() === "") throw new DrsgError("BAD_INPUT", "--db is empty — name a database file, or leave --db out to use this repository's");
    return at(resolve(flagValue), "flag");
  }
  const env = process.env.DRSG_DB;
  if (env !== undefined) {
    if (env.trim() === "")
      throw new DrsgError("BAD_ENV", "DRSG_DB is set but empty — set it to a database path, or unset it to use this repository's .drsg/graph.drsg", {
        variable: "DRSG_DB",
      });
    return at(resolve(env), "env");
  }
  const own = root ? repoDb(root) : undefined;
  if (own) return at(own, "repo");
  return at(resolve(DB_NAME), "cwd");
}

/** The chosen path (compatibility helper for messages). */
export function dbPath(flagValue: string | undefined, start?: string): string {
  return chooseDb(flagValue, start).path;
}

function sameFile(a: string, b: string): boolean {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  return real(a) === real(b);
}

/**
 * The database and, when a live server of the repository holds it, that server. With nothing
 * named and no `.drsg/graph.drsg`, a live server's own database (init --db elsewhere) is the
 * repository's. A record that is absent, untrusted or names a dead server means: open the file.
 */
export async function findTarget(flagValue: string | undefined, start: string = process.cwd()): Promise<DbTarget> {
  const choice = chooseDb(flagValue, start);
  if (!choice.root) return choice;
  const rec = await liveServer(choice.root);
  if (!rec) return choice;
  if (sameFile(rec.db, choice.path)) return { ...choice, server: rec };
  if (choice.source === "cwd") return { path: rec.db, source: "server", root: choice.root, server: rec };
  return choice;
}

/** The DB_MISSING message for what the CLI looked for (never advising a second database when one exists). */
async function missingError(choice: DbChoice, e: DrsgError): Promise<DrsgError> {
  const own = choice.root ? repoDb(choice.root) : undefined;
  if (own && !sameFile(own, choice.path)) {
    const how = choice.source === "flag" ? "drop --db" : choice.source === "env" ? "unset DRSG_DB" : "leave --db out";
    return new DrsgError(
      "DB_MISSING",
      `open database "${choice.path}": no such file (named by ${choice.source === "flag" ? "--db" : "$DRSG_DB"}); this repository's database is ${own} — ${how} to use it`,
      { ...e.data, repository_db: own },
    );
  }
  if (own)
    // The repository's own file, there but empty (an init interrupted before its first write).
    return new DrsgError("DB_MISSING", `open database "${own}": the file is empty — drsg init --rebuild (in ${choice.root}) builds it again`, e.data);
  if (choice.source === "flag" || choice.source === "env")
    return new DrsgError(
      "DB_MISSING",
      `open database "${choice.path}": no such file (named by ${choice.source === "flag" ? "--db" : "$DRSG_DB"}) — check the path; drsg init (in a git repository) or drsg digest <dir> --apply --db ${choice.path} builds one`,
      e.data,
    );
  const where = choice.root
    ? `no ${join(choice.root, STATE_DIR, DB_NAME)} in this repository and no ./${DB_NAME}`
    : `no ./${DB_NAME} here (and no git repository around ${process.cwd()} with a ${STATE_DIR}/${DB_NAME})`;
  const fix = choice.root
    ? `run drsg init in ${choice.root} (digests it and keeps it in sync), or drsg digest <dir> --apply; --db PATH or $DRSG_DB names another database`
    : "drsg init inside a git repository, or drsg digest <dir> --apply builds one; --db PATH or $DRSG_DB names another database";
  return new DrsgError("DB_MISSING", `no database found: ${where} — ${fix}`, e.data);
}

/** Extra words for DB_LOCKED when the repository's server record could not be trusted (why it was not used). */
async function lockedError(choice: DbChoice, e: DrsgError): Promise<DrsgError> {
  if (!choice.root) return e;
  const t = await readRecord(choice.root);
  if (t.ok || t.absent) return e;
  return new DrsgError("DB_LOCKED", `${e.message}. ${join(choice.root, STATE_DIR, "server.json")} was not used: ${t.why} — ${t.fix}`, e.data, { cause: e });
}

/** Open the chosen database in this process, with messages that say what was looked for. */
export async function openChosen(choice: DbChoice, opts: { create?: boolean; maintenance?: boolean; mapped?: boolean } = {}): Promise<Store> {
  try {
    return openStore(choice.path, { create: opts.create ?? false, maintenance: opts.maintenance === true, mapped: opts.mapped === true });
  } catch (e) {
    if (isDrsgError(e, "DB_MISSING")) throw await missingError(choice, e);
    if (isDrsgError(e, "DB_LOCKED")) throw await lockedError(choice, e);
    throw e;
  }
}

/**
 * Open the database a command names or finds, in this process. Refuses (DB_LOCKED, saying how
 * to proceed) when the repository's live server holds it: `what` names the command for that message.
 */
export async function openLocal(flagValue: string | undefined, opts: { create?: boolean; start?: string; what?: string; alternative?: string } = {}): Promise<Store> {
  const t = await findTarget(flagValue, opts.start);
  if (t.server) throw heldByServer(t, opts.what ?? "this command", opts.alternative);
  return openChosen(t, opts);
}

/** The error for a command that must open the file itself while the repository's server holds it. */
export function heldByServer(t: DbTarget, what: string, alternative?: string): DrsgError {
  const s = t.server!;
  return new DrsgError(
    "DB_LOCKED",
    `${what} opens the database itself, and drsg serve (pid ${s.pid}, ${s.addr}) holds ${t.path} for this repository — ` +
      `${alternative ? `${alternative}; or ` : ""}stop the server first (drsg stop, or kill ${s.pid}), run this again, then drsg init starts the server again`,
    { path: t.path, pid: s.pid, addr: s.addr },
  );
}

/**
 * Open by path choice only, without asking a server (serve and watch hold the file themselves:
 * a live holder makes the open fail with DB_LOCKED naming it).
 */
export function openDb(flagValue: string | undefined, opts: { create?: boolean; start?: string; maintenance?: boolean } = {}): Promise<Store> {
  return openChosen(chooseDb(flagValue, opts.start), opts);
}
