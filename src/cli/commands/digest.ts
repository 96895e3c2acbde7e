// drsg digest <dir> [--apply] [--plane NAME] [--db PATH]: --apply writes into the database a
// command finds (src/cli/db.ts), refusing while the repository's live server holds it.
import { activePlugins } from "../../plugin/registry.js";
import { digest } from "../../sync/digest.js";
import { type Command, flag, str } from "../command.js";
import { findTarget, heldByServer, openChosen } from "../db.js";
import { progressBar } from "../progress.js";
import { renderDigest } from "../report.js";

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
