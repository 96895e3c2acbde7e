// drsg init [--dir D] [--plane P] [--addr HOST:PORT] [--token T] [--rebuild] [--http] [--global]
// drsg init --remove [--purge]
import { DrsgError } from "../../model/errors.js";
import { activePlugins } from "../../plugin/registry.js";
import { init, removeInit } from "../../server/init.js";
import { type Command, flag, str } from "../command.js";
import { phaseLine } from "../progress.js";

export const initCommand: Command = {
  name: "init",
  summary: "digest this repository, start serve watch for it, and add drsg to the agent hosts' configs (safe to re-run; --remove undoes it)",
  usage:
    "drsg init [--dir D] [--plane P] [--addr HOST:PORT] [--token T] [--rebuild] [--http] [--global]  |  drsg init --remove [--purge] [--dir D]",
  options: {
    dir: { type: "string" },
    plane: { type: "string" },
    addr: { type: "string" },
    token: { type: "string" },
    rebuild: { type: "boolean" },
    http: { type: "boolean" },
    global: { type: "boolean" },
    remove: { type: "boolean" },
    purge: { type: "boolean" },
  },
  async run(args, io) {
    const dir = str(args, "dir") ?? args.positionals[0] ?? ".";
    if (flag(args, "remove")) {
      for (const f of ["plane", "addr", "token", "rebuild", "http", "global"])
        if (args.values[f] !== undefined) throw new DrsgError("BAD_INPUT", `drsg init --remove: --${f} does not apply (--remove takes only --purge and --dir)`);
      await removeInit({ dir, purge: flag(args, "purge"), out: (l) => io.out(l) });
      return 0;
    }
    if (flag(args, "purge")) throw new DrsgError("BAD_INPUT", "drsg init: --purge goes with --remove");
    await init({
      dir,
      plane: str(args, "plane"),
      addr: str(args, "addr"),
      token: str(args, "token"),
      rebuild: flag(args, "rebuild"),
      http: flag(args, "http"),
      global: flag(args, "global"),
      plugins: activePlugins(),
      out: (l) => io.out(l),
      progress: phaseLine("drsg init", io.isTTY),
    });
    return 0;
  },
};
