// The tools a server offers: in `read` mode none that writes, and on a database in maintenance
// mode the upgrade tools only. Apart from run.ts, so a cold CLI verb loads neither list.
import type { ServeMode } from "../mcp/mode.js";
import type { Store } from "../store/types.js";
import { maintenanceOf } from "../store/upgrade.js";
import type { Tool } from "./tool.js";
import { MAINTENANCE_TOOLS } from "./upgrade.js";

/**
 * The tools a server in `mode` lists and serves: in `read` mode, none that writes. A database in
 * maintenance mode (an upgrade that is not instant pending) is served the upgrade tools only.
 */
export function toolsFor(tools: Tool[], mode: ServeMode, store?: Store): Tool[] {
  const offered = store && maintenanceOf(store) ? (MAINTENANCE_TOOLS as Tool[]) : tools;
  return mode === "read" ? readTools(offered) : offered;
}

/** The tools a read-only server serves: every read, and a write tool's read variant in its place. */
export function readTools(tools: Tool[]): Tool[] {
  const out: Tool[] = [];
  for (const t of tools) {
    const r = t.readOnly ? t : t.readVariant;
    if (r?.readOnly) out.push(r);
  }
  return out;
}
