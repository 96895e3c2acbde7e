// drsg rebuild --plane NAME [--db PATH]: re-read the tree a plane was built from (its own
// synced_root, at its own commit) with the plugins installed now.
import { DrsgError } from "../../model/errors.js";
import { activePlugins } from "../../plugin/registry.js";
import { rebuildPlane } from "../../sync/fold.js";
import { renderRebuild } from "../../tools/rebuild.js";
import { type Command, str } from "../command.js";
import { openDb } from "../db.js";

export const rebuildCommand: Command = {
  name: "rebuild",
  summary: "re-read a plane's own tree with the installed plugins (clears plugin drift)",
  usage: "drsg rebuild --plane NAME [--db PATH]",
  options: { plane: { type: "string" }, db: { type: "string" } },
  async run(args, io) {
    const plane = str(args, "plane") ?? args.positionals[0];
    if (!plane) throw new DrsgError("BAD_INPUT", "drsg rebuild: --plane NAME is required");
    const store = openDb(str(args, "db"));
    try {
      const before = store.getPlane(plane)?.props.built_by;
      const r = await rebuildPlane({ store, plane, plugins: activePlugins() });
      io.out(renderRebuild(r, before, store.getPlane(plane)?.props.built_by));
      return 0;
    } finally {
      store.close();
    }
  },
};
