// drsg export [--plane NAME] [--db PATH]: the plane as JSON Lines, nodes then edges, stable order.
// It reads the file itself (no server tool streams a whole plane): while the repository's live
// server holds the database it says so and how to proceed.
import { exportPlane } from "../../sync/export.js";
import { type Command, str } from "../command.js";
import { findTarget, heldByServer, openChosen } from "../db.js";
import { soleCodePlane } from "../tools.js";

export const exportCommand: Command = {
  name: "export",
  summary: "print a plane as JSON Lines (nodes, then edges)",
  usage: "drsg export [--plane NAME] [--db PATH]   (plane: else $DRSG_PLANE, else the only code plane)",
  options: { plane: { type: "string" }, db: { type: "string" } },
  async run(args, io) {
    const t = await findTarget(str(args, "db"));
    if (t.server) throw heldByServer(t, "drsg export");
    const store = await openChosen(t);
    try {
      const plane = str(args, "plane") ?? (process.env.DRSG_PLANE?.trim() || soleCodePlane(store.listPlanes().map((p) => p.name), "drsg export"));
      for (const line of exportPlane(store, plane)) {
        // The reader went away (`| head`): stop reading the plane; that is not an error.
        if (io.closed?.()) break;
        io.out(line);
      }
      return 0;
    } finally {
      store.close();
    }
  },
};
