// drsg status [--dir D] [--json]: the server of this repository — pid, address, plane, the commit
// the plane reflects against HEAD, how far behind it is, its last fold, plugin drift, the
// dashboard's URL. Says plainly when the repository is not initialised or the server not running.
// Exit 0 running, 3 not running, 4 not initialised.
import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { GitRepo } from "../../git/repo.js";
import { DrsgError, errorText } from "../../model/errors.js";
import { activePlugins, driftLine } from "../../plugin/registry.js";
import { repoPlane } from "../../server/launch.js";
import { DB_NAME, STATE_DIR, findRepoRoot, liveServer, readRecord, repoDb, stateProblem } from "../../server/state.js";
import { openStore } from "../../store/store.js";
import { type Command, flag, str } from "../command.js";
import { rpcCall } from "../remote.js";

export interface ServerStatus {
  root: string;
  state: "running" | "not running" | "not initialised";
  pid?: number;
  addr?: string;
  dashboard?: string;
  plane?: string;
  synced?: string;
  head?: string;
  behind?: number | "unknown";
  lastFold?: string;
  drift?: string;
  note?: string;
}

/** The last fold/build line serve watch logged for `plane` under `.drsg/logs`. */
function lastFold(root: string, plane: string): string | undefined {
  const dir = join(root, STATE_DIR, "logs");
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.startsWith("drsg-serve.") && f.endsWith(".log")).sort();
  } catch {
    return undefined;
  }
  const re = new RegExp(`^(\\S+) info  drsg-serve\\[\\d+\\] ((?:fold|build|rebuild) ${plane.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} .*)$`);
  for (const f of files.reverse()) {
    let text: string;
    try {
      text = readFileSync(join(dir, f), "utf8");
    } catch {
      continue;
    }
    const lines = text.trimEnd().split("\n");
    for (let i = lines.length - 1; i >= 0; i--) {
      const m = re.exec(lines[i]!);
      if (m) return `${m[1]} — ${m[2]}`;
    }
  }
  return undefined;
}

/** How many commits HEAD is ahead of `synced` (a prefix), first parents and merges alike, up to 10 000. */
async function behind(repo: GitRepo, synced: string): Promise<number | "unknown"> {
  const log = await repo.log({ depth: 10_000 }).catch(() => []);
  const at = log.findIndex((c) => c.sha.startsWith(synced));
  return at < 0 ? "unknown" : at;
}

export async function serverStatus(dir: string): Promise<ServerStatus> {
  const root = findRepoRoot(resolve(dir));
  if (!root) throw new DrsgError("GIT_ERROR", `drsg status: ${resolve(dir)} is not inside a git repository`);
  const problem = await stateProblem(root);
  if (problem) throw new DrsgError("UNTRUSTED_STATE", `drsg status: ${problem.why} — ${problem.fix}`);
  const db = repoDb(root);
  const rec = await readRecord(root);
  if (!db) return { root, state: "not initialised", note: `drsg init sets ${root} up (no ${join(STATE_DIR, DB_NAME)})` };
  const repo = await GitRepo.find(root);
  const head = await repo?.head();
  const plane = repoPlane(root, rec.ok ? rec.record : undefined);
  const live = await liveServer(root);
  const out: ServerStatus = { root, state: live ? "running" : "not running", plane, ...(head ? { head } : {}) };
  if (live) {
    out.pid = live.pid;
    out.addr = live.addr;
    out.dashboard = `http://${live.addr}/`;
    try {
      const answer = await rpcCall(live, "list_planes", {}, 10_000);
      if (answer.isError) throw new DrsgError(answer.code ?? "INTERNAL", answer.text);
      const text = answer.text;
      const lines = text.split("\n");
      const start = lines.findIndex((l) => l.startsWith(`${plane}  `));
      const block: string[] = [];
      for (let i = start + 1; start >= 0 && i < lines.length && lines[i]!.startsWith("  "); i++) block.push(lines[i]!.trim());
      const synced = block.map((l) => /^synced: commit ([0-9a-f]+)/.exec(l)?.[1]).find(Boolean);
      if (synced) out.synced = synced;
      const drift = block.find((l) => l.startsWith("plugins "));
      if (drift) out.drift = drift;
      if (block.some((l) => l.startsWith("being rebuilt"))) out.note = "the plane is being rebuilt";
    } catch (e) {
      out.note = `the server did not answer list_planes: ${errorText(e)}`;
    }
  } else {
    out.note = "not running — the next agent session (drsg-mcp) starts it, or run drsg init";
    try {
      const store = openStore(db, { readonly: true });
      try {
        const p = store.getPlane(plane);
        const c = p?.props.synced_commit;
        if (typeof c === "string" && c) out.synced = c.slice(0, 12);
        const d = p ? driftLine(p.props.built_by, activePlugins().builtBy) : undefined;
        if (d) out.drift = d;
      } finally {
        store.close();
      }
    } catch (e) {
      out.note = `not running, and the database could not be read: ${errorText(e)}`;
    }
  }
  if (out.synced && repo && head) out.behind = head.startsWith(out.synced) ? 0 : await behind(repo, out.synced);
  const fold = lastFold(root, plane);
  if (fold) out.lastFold = fold;
  return out;
}

function render(s: ServerStatus): string {
  if (s.state === "not initialised") return `${s.root}: not initialised — ${s.note}`;
  const lines = [`${s.root}: drsg serve watch ${s.state === "running" ? `running, pid ${s.pid}, at ${s.addr}` : "not running"}`];
  if (s.dashboard) lines.push(`  dashboard: ${s.dashboard}   MCP: ${s.dashboard}mcp`);
  const sync = s.synced ? `commit ${s.synced}` : "no commit yet";
  const gap = s.behind === undefined ? "" : s.behind === 0 ? " (in sync with HEAD)" : s.behind === "unknown" ? ` (HEAD ${s.head?.slice(0, 12)} is not a descendant of it: the next start rebuilds)` : `, ${s.behind} commit(s) behind HEAD ${s.head?.slice(0, 12)}`;
  lines.push(`  plane '${s.plane}': ${sync}${gap}`);
  lines.push(`  last fold: ${s.lastFold ?? "none logged yet"}`);
  lines.push(`  plugins: ${s.drift ?? "unchanged since the plane was built"}`);
  if (s.note) lines.push(`  ${s.note}`);
  return lines.join("\n");
}

export const statusCommand: Command = {
  name: "status",
  summary: "the drsg server of this repository: pid, address, plane, commits behind, last fold, plugin drift",
  usage: "drsg status [--dir D] [--json]",
  options: { dir: { type: "string" }, json: { type: "boolean" } },
  async run(args, io) {
    const s = await serverStatus(str(args, "dir") ?? args.positionals[0] ?? ".");
    io.out(flag(args, "json") ? JSON.stringify(s, null, 2) : render(s));
    return s.state === "running" ? 0 : s.state === "not running" ? 3 : 4;
  },
};
