// drsg stop [--dir D]: stop this repository's drsg serve watch (SIGTERM, then SIGKILL after 15 s).
// The agent configs stay: the next agent session's drsg-mcp starts it again.
import { resolve } from "node:path";
import { DrsgError } from "../../model/errors.js";
import { stopRepoServer } from "../../server/launch.js";
import { assertTrustedState, findRepoRoot } from "../../server/state.js";
import { type Command, str } from "../command.js";

export const stopCommand: Command = {
  name: "stop",
  summary: "stop this repository's drsg serve watch (the next agent session starts it again)",
  usage: "drsg stop [--dir D]",
  options: { dir: { type: "string" } },
  async run(args, io) {
    const dir = resolve(str(args, "dir") ?? args.positionals[0] ?? ".");
    const root = findRepoRoot(dir);
    if (!root) throw new DrsgError("GIT_ERROR", `drsg stop: ${dir} is not inside a git repository`);
    await assertTrustedState(root, "drsg stop");
    const r = await stopRepoServer(root);
    if (!r) {
      io.out(`${root}: drsg serve watch is not running`);
      return 3;
    }
    io.out(`${root}: stopped drsg serve watch pid ${r.pid}${r.how === "killed" ? " (killed: it did not stop within 15 s)" : ""}`);
    return 0;
  },
};
