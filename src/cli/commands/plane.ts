// drsg plane list|create|drop: through the list_planes, create_plane and drop_plane tools — on
// the repository's live server when one holds the database, else in this process.
import { DrsgError } from "../../model/errors.js";
import type { Tool } from "../../tools/tool.js";
import { createPlane, dropPlane } from "../../tools/write.js";
import { type Command, flag, str } from "../command.js";
import { ToolRunner, answerError } from "../tools.js";

export const planeCommand: Command = {
  name: "plane",
  summary: "list, create or drop planes",
  usage: "drsg plane list [--json] | create NAME | drop NAME --yes   [--db PATH]",
  options: { db: { type: "string" }, yes: { type: "boolean" }, json: { type: "boolean" } },
  async run(args, io) {
    const [sub, name] = args.positionals;
    if (sub === "list") {
      const runner = await ToolRunner.find(str(args, "db"));
      try {
        const planes = await runner.planes();
        if (flag(args, "json")) io.out(JSON.stringify(planes, null, 2));
        else if (planes.length === 0) io.out("no planes — drsg init (in a git repository) or drsg digest <dir> --apply builds one");
        else for (const p of planes) io.out(`${p.name}  ${p.nodes} node(s), ${p.edges} edge(s)${p.synced ? `  commit ${p.synced}` : ""}`);
        return 0;
      } finally {
        runner.close();
      }
    }
    if (sub === "create" || sub === "drop") {
      if (!name) throw new DrsgError("BAD_INPUT", `drsg plane ${sub}: a plane NAME is required`);
      if (sub === "drop" && !flag(args, "yes"))
        throw new DrsgError("CONFIRM_REQUIRED", `drsg plane drop '${name}': this deletes the plane and all its facts — add --yes`);
      const runner = await ToolRunner.find(str(args, "db"), { create: sub === "create" });
      try {
        const tool = (sub === "create" ? createPlane : dropPlane) as Tool;
        const r = await runner.call(tool, sub === "create" ? { name } : { name, confirm: true });
        if (r.isError) throw answerError(tool, r);
        io.out(sub === "create" ? `created plane '${name}'` : `dropped plane '${name}'`);
        return 0;
      } finally {
        runner.close();
      }
    }
    throw new DrsgError("BAD_INPUT", `drsg plane: expected list, create or drop\nusage: ${this.usage}`);
  },
};
