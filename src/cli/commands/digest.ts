// drsg digest <dir> [--apply] [--plane NAME] [--db PATH]: --apply writes into the database a
// command finds (src/cli/db.ts), refusing while the repository's live server holds it; a plane
// that already follows the tree is folded from its commit (only the change is read).
import { realpathSync } from "node:fs";
import { basename } from "node:path";
import { GitRepo } from "../../git/repo.js";
import type { PluginSet } from "../../plugin/host.js";
import { activePlugins, driftLine } from "../../plugin/registry.js";
import type { Store } from "../../store/types.js";
import { PlaneSync } from "../../sync/fold.js";
import { digest } from "../../sync/digest.js";
import { type Command, flag, str } from "../command.js";
import { findTarget, heldByServer, openChosen } from "../db.js";
import { progressBar } from "../progress.js";
import { renderDigest } from "../report.js";

/** Fold the plane when it records a commit of this tree's repository; undefined when it does not. */
async function foldExisting(store: Store, dir: string, plugins: PluginSet, name: string | undefined): Promise<string | undefined> {
  let root: string;
  try {
    root = realpathSync(dir);
  } catch {
    return undefined;
  }
  const plane = name ?? basename(root);
  const p = store.getPlane(plane);
  const synced = p?.props.synced_commit;
  if (!p || typeof synced !== "string" || p.props.synced_root !== root) return undefined;
  const repo = await GitRepo.find(root);
  if (!repo || !(await repo.head()) || !(await repo.isAncestorOrKnown(synced))) return undefined;
  const sync = await PlaneSync.open({ store, dir: root, plugins, plane, log: false });
  try {
    const r = await sync.foldTo("HEAD");
    const s = r.stats;
    const what =
      r.kind === "noop"
        ? `plane '${plane}' is already at ${r.to.slice(0, 12)}: nothing to fold`
        : `${r.kind === "fold" ? "folded" : r.kind === "rebuild" ? "rebuilt" : "built"} plane '${plane}' ${r.from ? `${r.from.slice(0, 12)}..` : ""}${r.to.slice(0, 12)}: ${r.filesChanged} file(s) ${r.kind === "fold" ? "changed" : "read"}, ${r.parsed} parsed` +
          (s ? `; nodes +${s.nodesCreated} ~${s.nodesPatched} -${s.nodesDeleted}, edges +${s.edgesCreated} ~${s.edgesPatched} -${s.edgesDeleted}` : "") +
          ` in ${(r.ms / 1000).toFixed(2)} s${r.reason ? ` (${r.reason})` : ""}`;
    const drift = driftLine(p.props.built_by, plugins.builtBy);
    const res = r.resolution;
    const how = res
      ? [
          ...res.partial.map((x) => `${x.family}: ${x.files} of ${x.of} file(s) re-resolved`),
          ...res.full.map((x) => `${x.family}: resolved in full (${x.why})`),
        ]
      : [];
    return [
      what,
      ...(how.length > 0 ? [`  resolution — ${how.join("; ")}`] : []),
      "  an existing plane is folded from the commit it records: only the change is read; drsg rebuild re-reads the whole tree",
      ...(drift ? [`  ${drift}`] : []),
    ].join("\n");
  } finally {
    await sync.close();
  }
}

export const digestCommand: Command = {
  name: "digest",
  summary: "parse a tree into a plane (a dry run unless --apply)",
  usage: "drsg digest [DIR=.] [--apply] [--plane NAME] [--db PATH]",
  options: { apply: { type: "boolean" }, plane: { type: "string" }, db: { type: "string" } },
  async run(args, io) {
    const dir = args.positionals[0] ?? ".";
    const plugins = activePlugins();
    const apply = flag(args, "apply");
    const target = apply ? await findTarget(str(args, "db")) : undefined;
    if (target?.server) throw heldByServer(target, "drsg digest --apply", "drsg rebuild re-reads the plane's tree through the server");
    const store = target ? await openChosen(target, { create: true }) : undefined;
    const bar = progressBar("digest", io.isTTY);
    try {
      // A plane that already follows this tree is folded: only what changed since its commit is
      // read and resolved (drsg rebuild re-reads everything).
      if (store) {
        const folded = await foldExisting(store, dir, plugins, str(args, "plane"));
        if (folded) {
          io.out(folded);
          return 0;
        }
      }
      const r = await digest({ dir, plugins, plane: str(args, "plane"), store, onProgress: bar });
      bar.end();
      io.out(renderDigest(r, { dbPath: target?.path }));
      return 0;
    } finally {
      bar.end();
      store?.close();
    }
  },
};
