// drsg plane list|create|drop
import { DrsgError } from "../../model/errors.js";
import { type Command, flag, str } from "../command.js";
import { openDb } from "../db.js";

export const planeCommand: Command = {
  name: "plane",
  summary: "list, create or drop planes",
  usage: "drsg plane list|create NAME|drop NAME --yes [--db PATH]",
  options: { db: { type: "string" }, yes: { type: "boolean" }, json: { type: "boolean" } },
  async run(args, io) {
    const [sub, name] = args.positionals;
    if (sub === "list") {
      const store = openDb(str(args, "db"));
      try {
        const planes = store.listPlanes();
        if (flag(args, "json")) io.out(JSON.stringify(planes, null, 2));
        else if (planes.length === 0) io.out("no planes — drsg digest <dir> --apply builds one");
        else
          for (const p of planes) {
            const commit = typeof p.props.synced_commit === "string" ? `  commit ${p.props.synced_commit.slice(0, 12)}` : "";
            io.out(`${p.name}  ${p.nodeCount} node(s), ${p.edgeCount} edge(s)${commit}`);
          }
        return 0;
      } finally {
        store.close();
      }
    }
    if (sub === "create" || sub === "drop") {
      if (!name) throw new DrsgError("BAD_INPUT", `drsg plane ${sub}: a plane NAME is required`);
      if (sub === "drop" && !flag(args, "yes"))
        throw new DrsgError("CONFIRM_REQUIRED", `drsg plane drop '${name}': this deletes the plane and all its facts — add --yes`);
      const store = openDb(str(args, "db"), { create: sub === "create" });
      try {
        store.write((w) => {
          if (sub === "create") {
            if (w.getPlane(name)) throw new DrsgError("PLANE_EXISTS", `drsg plane create: plane '${name}' exists already`);
            w.createPlane(name);
          } else {
            if (!w.getPlane(name)) throw new DrsgError("PLANE_NOT_FOUND", `drsg plane drop: no plane '${name}'`);
            w.dropPlane(name);
          }
        });
        io.out(sub === "create" ? `created plane '${name}'` : `dropped plane '${name}'`);
        return 0;
      } finally {
        store.close();
      }
    }
    throw new DrsgError("BAD_INPUT", `drsg plane: expected list, create or drop\nusage: ${this.usage}`);
  },
};
