// drsg init [--dir D] [--plane P] [--addr A] [--token T] [--rebuild] [--db PATH]
import { activePlugins } from "../../plugin/registry.js";
import { init } from "../../server/init.js";
import { type Command, flag, str } from "../command.js";

export const initCommand: Command = {
  name: "init",
  summary: "digest this repository, start serve watch for it, and write .mcp.json (safe to re-run)",
  usage: "drsg init [--dir D] [--plane P] [--addr HOST:PORT] [--token T] [--rebuild] [--db PATH]",
  options: {
    dir: { type: "string" },
    plane: { type: "string" },
    addr: { type: "string" },
    token: { type: "string" },
    rebuild: { type: "boolean" },
    db: { type: "string" },
  },
  async run(args, io) {
    await init({
      dir: str(args, "dir") ?? ".",
      plane: str(args, "plane"),
      addr: str(args, "addr"),
      token: str(args, "token"),
      db: str(args, "db"),
      rebuild: flag(args, "rebuild"),
      plugins: activePlugins(),
      out: (l) => io.out(l),
    });
    return 0;
  },
};
