// drsg init: from inside a repository, make "drsg is serving this repository" true, safely and
// idempotently — digest it into a plane (with progress and the digest report), start `drsg serve
// watch` detached on a loopback port with a strong token, and add a stdio drsg-mcp entry to the
// agent hosts' configs. A `.drsg/` this user's drsg did not write (a clone's, someone else's) is
// refused. Everything added outside `.drsg/` is recorded in `.drsg/init.json` for `--remove`.
import { closeSync, constants, existsSync, lstatSync, mkdirSync, openSync, readFileSync, realpathSync, rmSync, chmodSync, unlinkSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { PhaseLine } from "../cli/progress.js";
import { renderDigest } from "../cli/report.js";
import { GitRepo } from "../git/repo.js";
import { DrsgError } from "../model/errors.js";
import { PACKAGE_ROOT } from "../paths.js";
import type { PluginSet } from "../plugin/host.js";
import { openStore } from "../store/store.js";
import { type DigestResult, digest } from "../sync/digest.js";
import { type ConfigOutcome, type EntryTarget, type FileRecord, createdProjectFiles, mergeRecords, undoFile, writeConfigs } from "./configs.js";
import { parseAddr } from "./http.js";
import { freePort, launchServeWatch, portFree, stopProcess, stopRepoServer } from "./launch.js";
import {
  DB_NAME,
  INIT_NAME,
  RECORD_NAME,
  STATE_DIR,
  type ServerRecord,
  assertTrustedState,
  ensureStateDir,
  hostOf,
  isLoopbackHost,
  isServeWatchOf,
  liveServer,
  readRecord,
  readStateJson,
  strongToken,
  tokenWeakness,
  writeFileAtomic,
  writeStateJson,
} from "./state.js";

export interface InitOptions {
  dir: string;
  plane?: string;
  /** host:port named by the user; else a free loopback port. */
  addr?: string;
  /** A token named by the user (`--token`, else DRSG_TOKEN); else a fresh strong one. */
  token?: string;
  rebuild?: boolean;
  /** HTTP entries (url + literal token, in untracked files only, 0600) instead of stdio drsg-mcp. */
  http?: boolean;
  /** Also the user-level configs of the installed hosts. */
  global?: boolean;
  /** The home directory for user-level configs (tests); default os.homedir(). */
  home?: string;
  plugins: PluginSet;
  out(line: string): void;
  /** The TTY progress line (phase and count) while digesting. */
  progress?: PhaseLine;
}

/** `.drsg/init.json`: what init added, so `init --remove` can take exactly that out. */
export interface InitRecord {
  version: 1;
  plane: string;
  entries: "stdio" | "http";
  files: FileRecord[];
  /** Text init appended to `.git/info/exclude`, chunk by chunk. */
  exclude: string[];
}

export interface InitResult {
  root: string;
  plane: string;
  server: ServerRecord;
  action: "reused" | "started" | "restarted" | "rebuilt";
  configs: ConfigOutcome[];
  digest?: DigestResult;
}

/** The repository `dir` is in, as its realpath'd work-tree root. */
async function repoOf(dir: string, doing: string): Promise<GitRepo> {
  let real: string;
  try {
    real = realpathSync(resolve(dir));
  } catch {
    throw new DrsgError("DIR_NOT_FOUND", `${doing}: no directory '${dir}' (--dir)`);
  }
  const repo = await GitRepo.find(real);
  if (!repo) throw new DrsgError("GIT_ERROR", `${doing}: ${real} is not inside a git repository — drsg init follows commits; drsg digest ${real} --apply reads a plain tree`);
  return repo;
}

function excludeFile(repo: GitRepo): string {
  return join(repo.commonDir, "info", "exclude");
}

/** Append the lines `.git/info/exclude` lacks (one chunk, recorded); undefined when none is missing. */
function addExcludes(repo: GitRepo, lines: string[]): string | undefined {
  const f = excludeFile(repo);
  mkdirSync(dirname(f), { recursive: true });
  if (existsSync(f) && !lstatSync(f).isFile()) return undefined;
  const have = existsSync(f) ? readFileSync(f, "utf8") : "";
  const present = new Set(have.split("\n").map((l) => l.trim()));
  const missing = lines.filter((l) => !present.has(l));
  if (missing.length === 0) return undefined;
  const chunk = `${have === "" || have.endsWith("\n") ? "" : "\n"}${present.has("# drsg") ? "" : "# drsg\n"}${missing.join("\n")}\n`;
  writeFileAtomic(f, have + chunk, existsSync(f) ? lstatSync(f).mode & 0o777 : 0o644);
  return chunk;
}

/** Take the recorded chunks back out of `.git/info/exclude` (each where it still stands whole). */
function removeExcludes(repo: GitRepo, chunks: string[]): number {
  const f = excludeFile(repo);
  if (!existsSync(f) || !lstatSync(f).isFile()) return 0;
  let text = readFileSync(f, "utf8");
  let n = 0;
  for (const c of [...chunks].reverse()) {
    const at = text.lastIndexOf(c);
    if (at < 0) continue;
    text = text.slice(0, at) + text.slice(at + c.length);
    n++;
  }
  if (n > 0) writeFileAtomic(f, text, lstatSync(f).mode & 0o777);
  return n;
}

/** Create the database file readable by this user alone before SQLite opens it (its -wal/-shm copy the mode). */
function privateDb(db: string): void {
  try {
    const fd = openSync(db, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    closeSync(fd);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  for (const f of [db, `${db}-wal`, `${db}-shm`]) {
    try {
      const st = lstatSync(f);
      if (st.isFile() && (st.mode & 0o077) !== 0) chmodSync(f, 0o600);
    } catch {
      // absent
    }
  }
}

/** The token to serve with: the user's (refused when weak), else the prior record's when strong, else a fresh one. */
function chooseToken(user: string | undefined, prior: ServerRecord | undefined): { token: string; fromUser: boolean } {
  if (user !== undefined) {
    const weak = tokenWeakness(user);
    if (weak)
      throw new DrsgError("BAD_INPUT", `drsg init: the token given (--token or DRSG_TOKEN) is too weak: ${weak} — drop it and init makes one of 32 random bytes`);
    return { token: user, fromUser: true };
  }
  if (prior && tokenWeakness(prior.token) === undefined) return { token: prior.token, fromUser: false };
  return { token: strongToken(), fromUser: false };
}

function plainEmptyReport(r: DigestResult): string[] {
  const unclaimed = Object.entries(r.report.unclaimed).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const files = unclaimed.reduce((n, [, c]) => n + c, 0);
  const shown = unclaimed.slice(0, 8).map(([e, n]) => `${e} (${n})`).join(", ");
  return [
    `nothing to index in ${r.dir}: no installed plugin claims any of its ${files} file(s)${shown ? ` — ${shown}${unclaimed.length > 8 ? ", …" : ""}` : ""}`,
    `  the plane '${r.plane}' has no symbols; '${r.plane}_git' still holds the commit history`,
    "  drsg plugin list --available shows the languages you can add; then drsg rebuild reads the tree again",
  ];
}

function configLines(outcomes: ConfigOutcome[]): string[] {
  const mark = { created: "+", added: "~", updated: "~", unchanged: "=", skipped: "!" } as const;
  const word = { created: "created", added: "entry added", updated: "entry updated", unchanged: "unchanged", skipped: "not modified" } as const;
  return outcomes.map((o) => `  ${mark[o.status]} ${o.display} — ${o.host}: ${word[o.status]}${o.note ? ` (${o.note})` : ""}`);
}

export async function init(opts: InitOptions): Promise<InitResult> {
  const repo = await repoOf(opts.dir, "drsg init");
  const root = repo.root;
  await assertTrustedState(root, "drsg init");
  const userToken = opts.token ?? (process.env.DRSG_TOKEN?.trim() || undefined);
  const priorRec = await readRecord(root);
  const prior = priorRec.ok ? priorRec.record : undefined;
  const { token, fromUser } = chooseToken(userToken, prior);
  const wanted = opts.addr ? parseAddr(opts.addr) : undefined;
  const plane = opts.plane ?? readStateJson<InitRecord>(root, INIT_NAME)?.plane ?? prior?.plane ?? basename(root);
  const stateDir = ensureStateDir(root);
  const db = join(stateDir, DB_NAME);

  // A live server for this repository is reused, unless asked for another plane, address or token.
  let live = await liveServer(root, 5000);
  let action: InitResult["action"] = "started";
  if (live) {
    const why = opts.rebuild
      ? "the plane is about to be rebuilt"
      : fromUser && userToken !== live.token
        ? "a new token was given"
        : wanted && (wanted.port !== Number(live.addr.slice(live.addr.lastIndexOf(":") + 1)) || wanted.host !== hostOf(live.addr))
          ? `--addr ${opts.addr} differs from ${live.addr}`
          : live.plane && live.plane !== plane
            ? `it follows plane '${live.plane}', not '${plane}'`
            : undefined;
    if (why) {
      opts.out(`stopping drsg serve watch pid ${live.pid} — ${why}`);
      await stopProcess(live.pid);
      live = undefined;
      action = opts.rebuild ? "rebuilt" : "restarted";
    } else {
      action = "reused";
      opts.out(`drsg already serves ${root}: serve watch pid ${live.pid} at http://${live.addr}/ — reusing it, the plane is untouched`);
    }
  } else if (prior) action = "restarted";

  let digested: DigestResult | undefined;
  if (!live) {
    // A recorded server that runs but does not answer (hung, or too slow) holds the database: stop it first.
    if (prior && isServeWatchOf(prior.pid, root)) {
      opts.out(`stopping drsg serve watch pid ${prior.pid} — it does not answer /health`);
      await stopProcess(prior.pid);
    }
    // The plane: digested here (progress, then the report) so serve watch starts in sync; a plane
    // that already has a commit is brought to HEAD by serve watch's first fold instead.
    privateDb(db);
    const store = openStore(db, { create: true });
    try {
      const needs = opts.rebuild || !store.getPlane(plane)?.props.synced_commit;
      if (needs) {
        if (opts.rebuild && store.getPlane(plane)) store.write((w) => w.dropPlane(plane));
        const bar = opts.progress;
        opts.out(`digesting ${root} into plane '${plane}' …`);
        bar?.phase("reading the tree");
        let extracting = false;
        try {
          digested = await digest({
            dir: root,
            plugins: opts.plugins,
            plane,
            store,
            onProgress: (done, total) => {
              if (!extracting) {
                extracting = true;
                bar?.phase("parsing");
              }
              bar?.progress(done, total);
              if (done === total) bar?.phase("resolving and writing");
            },
          });
        } finally {
          bar?.end();
        }
        if (Object.keys(digested.report.plugins).length === 0) for (const l of plainEmptyReport(digested)) opts.out(l);
        else opts.out(renderDigest(digested, { dbPath: db }));
      }
    } finally {
      store.close();
    }
    privateDb(db);
    let host = "127.0.0.1";
    let port = 0;
    if (wanted) ({ host, port } = wanted);
    else if (prior && isLoopbackHost(hostOf(prior.addr))) {
      const p = Number(prior.addr.slice(prior.addr.lastIndexOf(":") + 1));
      // The recorded port when free: HTTP entries written earlier keep pointing at the server.
      if (Number.isInteger(p) && p > 0 && (await portFree(hostOf(prior.addr), p))) ({ host, port } = { host: hostOf(prior.addr), port: p });
      else port = await freePort(host);
    }
    live = await launchServeWatch({ root, plane, db, token, host, port, addrFromUser: wanted !== undefined });
    opts.out(`plane '${plane}' ${action === "started" ? "ready" : action} — drsg serve watch pid ${live.pid} follows every commit of ${root}`);
  }

  // Agent configs: stdio drsg-mcp naming this repository (default), or HTTP with the literal token.
  const target: EntryTarget =
    opts.http === true
      ? { kind: "http", url: `http://${live.addr}/mcp`, token: live.token }
      : { kind: "stdio", command: join(PACKAGE_ROOT, "bin", "drsg-mcp.js"), args: ["--repo", root] };
  const configs = await writeConfigs({ root, target, global: opts.global === true, repo, ...(opts.home ? { home: opts.home } : {}) });
  const old = readStateJson<InitRecord>(root, INIT_NAME);
  const chunk = addExcludes(repo, [`/${STATE_DIR}/`, ...createdProjectFiles(configs, root).map((f) => `/${f}`)]);
  const record: InitRecord = {
    version: 1,
    plane,
    entries: target.kind,
    files: mergeRecords(old?.files ?? [], configs.flatMap((c) => (c.record ? [c.record] : []))),
    exclude: [...(old?.exclude ?? []), ...(chunk ? [chunk] : [])],
  };
  writeStateJson(root, INIT_NAME, record);

  opts.out(`agent configs (${target.kind === "stdio" ? `stdio: ${target.command} --repo ${root}` : `HTTP: ${target.url}, literal token, files 0600`}):`);
  for (const l of configLines(configs)) opts.out(l);
  if (chunk) opts.out(`  + .git/info/exclude: ${chunk.trim().split("\n").filter((l) => !l.startsWith("#")).join(" ")} (drsg's own files stay out of git status)`);
  opts.out(`dashboard: http://${live.addr}/`);
  opts.out(`MCP over HTTP: http://${live.addr}/mcp (token in ${join(STATE_DIR, RECORD_NAME)}); the database is ${join(STATE_DIR, DB_NAME)}`);
  opts.out(`drsg status shows the server; drsg stop stops it (the next agent session starts it again); drsg init --remove undoes all of this`);
  return { root, plane, server: live, action, configs, ...(digested ? { digest: digested } : {}) };
}

export interface RemoveOptions {
  dir: string;
  /** Delete `.drsg/` too (database, logs, record). */
  purge?: boolean;
  out(line: string): void;
}

/**
 * Undo `drsg init`: stop the server, take out exactly the entries init recorded (deleting files
 * it created that now hold nothing else) and its `.git/info/exclude` lines; `.drsg/` stays unless
 * `purge`.
 */
export async function removeInit(opts: RemoveOptions): Promise<void> {
  const repo = await repoOf(opts.dir, "drsg init --remove");
  const root = repo.root;
  await assertTrustedState(root, "drsg init --remove");
  const stopped = await stopRepoServer(root);
  opts.out(stopped ? `stopped drsg serve watch pid ${stopped.pid}${stopped.how === "killed" ? " (killed: it did not stop within 15 s)" : ""}` : "no drsg serve watch was running");
  const rec = readStateJson<InitRecord>(root, INIT_NAME);
  if (!rec) opts.out(`drsg init has not run here (no ${join(STATE_DIR, INIT_NAME)}): no agent config entries to remove`);
  else {
    opts.out("agent configs:");
    for (const f of [...(rec.files ?? [])].reverse()) opts.out(undoFile(f, root));
    const n = removeExcludes(repo, rec.exclude ?? []);
    if (n > 0) opts.out("  - .git/info/exclude (drsg's lines removed)");
  }
  const stateDir = join(root, STATE_DIR);
  for (const f of [INIT_NAME, RECORD_NAME]) {
    try {
      unlinkSync(join(stateDir, f));
    } catch {
      // absent
    }
  }
  if (opts.purge) {
    if (existsSync(stateDir) && !lstatSync(stateDir).isSymbolicLink()) rmSync(stateDir, { recursive: true, force: true });
    opts.out(`removed ${STATE_DIR}/ (database, logs)`);
  } else if (existsSync(join(stateDir, DB_NAME)))
    opts.out(`kept ${join(STATE_DIR, DB_NAME)}, out of git status by ${join(STATE_DIR, ".gitignore")} (drsg init --remove --purge deletes ${STATE_DIR}/ too)`);
}
