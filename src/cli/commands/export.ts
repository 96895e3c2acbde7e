// drsg export --plane NAME [--db PATH]: the plane as JSON Lines, nodes then edges, stable order.
import { DrsgError } from "../../model/errors.js";
import { exportPlane } from "../../sync/export.js";
import { type Command, str } from "../command.js";
import { openDb } from "../db.js";

export const exportCommand: Command = {
  name: "export",
  summary: "print a plane as JSON Lines (nodes, then edges)",
  usage: "drsg export --plane NAME [--db PATH]",
  options: { plane: { type: "string" }, db: { type: "string" } },
  async run(args, io) {
    const plane = str(args, "plane");
    if (!plane) throw new DrsgError("BAD_INPUT", "drsg export: --plane NAME is required");
    const store = openDb(str(args, "db"));
    try {
      for (const line of exportPlane(store, plane)) io.out(line);
      return 0;
    } finally {
      store.close();
    }
  },
};
