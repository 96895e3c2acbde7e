// drsg rebuild [--plane NAME] [--db PATH]: re-read the tree a plane was built from (its own
// synced_root, at its own commit) with the plugins installed now. It runs the `rebuild` tool:
// on the repository's live server when one holds the database (so the server's own sync
// rebuilds, and keeps following), else in this process — the same report either way.
import { rebuild } from "../../tools/rebuild.js";
import type { Tool } from "../../tools/tool.js";
import { type Command, str } from "../command.js";
import { ToolRunner, answerError } from "../tools.js";

export const rebuildCommand: Command = {
  name: "rebuild",
  summary: "re-read a plane's own tree with the installed plugins (clears plugin drift)",
  usage: "drsg rebuild [--plane NAME] [--db PATH]   (plane: else $DRSG_PLANE, else the only code plane)",
  options: { plane: { type: "string" }, db: { type: "string" } },
  async run(args, io) {
    const input: Record<string, unknown> = {};
    const named = str(args, "plane") ?? args.positionals[0];
    if (named !== undefined) input.plane = named;
    const runner = await ToolRunner.find(str(args, "db"));
    try {
      await runner.defaultPlane(input, "drsg rebuild");
      const r = await runner.call(rebuild as Tool, input);
      if (r.isError) throw answerError(rebuild as Tool, r);
      io.out(r.text);
      return 0;
    } finally {
      runner.close();
    }
  },
};
