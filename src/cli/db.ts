// Which database a command opens: --db, else $DRSG_DB, else ./graph.drsg.
import { resolve } from "node:path";
import { openStore } from "../store/store.js";
import type { Store } from "../store/types.js";

export function dbPath(flagValue: string | undefined): string {
  return resolve(flagValue ?? process.env.DRSG_DB ?? "graph.drsg");
}

export function openDb(flagValue: string | undefined, opts: { create?: boolean; maintenance?: boolean } = {}): Store {
  return openStore(dbPath(flagValue), { create: opts.create ?? false, maintenance: opts.maintenance === true });
}
