// upgrade_status and apply_upgrade: the only tools a server offers while its database waits for
// a schema upgrade that is not instant (maintenance mode, src/store/upgrade.ts). apply_upgrade
// copies the file aside first and says where.
import * as z from "../model/zod.js";
import { DrsgError } from "../model/errors.js";
import { maintenanceOf, type UpgradeStatus } from "../store/upgrade.js";
import { defineTool, type ToolContext } from "./tool.js";

function pending(ctx: ToolContext, what: string) {
  const m = maintenanceOf(ctx.store);
  if (!m) throw new DrsgError("BAD_INPUT", `${what}: the database "${ctx.store.path}" needs no upgrade`, { path: ctx.store.path });
  return m;
}

function render(s: UpgradeStatus): string {
  const lines = [
    s.applied
      ? `upgraded ${s.path} from schema v${s.from} to v${s.to}`
      : `${s.path} is schema v${s.from}; this drsg reads v${s.to} — the upgrade is not instant, so nothing else is served until it is applied`,
  ];
  for (const st of s.steps) lines.push(`  v${st.from} → v${st.from + 1}: ${st.what}${st.instant ? "" : " (rewrites the graph tables: takes a while on a large file)"}`);
  if (s.backup) lines.push(`the file as it was is at ${s.backup} (delete it once the upgraded database serves you well)`);
  lines.push(s.applied ? "restart the server (or reconnect) to be served every tool" : "apply_upgrade runs it, after copying the file aside");
  return lines.join("\n");
}

export const upgradeStatus = defineTool({
  name: "upgrade_status",
  description: "Why only the upgrade tools are served: the database's schema version, this drsg's, and what the upgrade does.",
  input: z.strictObject({}),
  readOnly: true,
  run(ctx) {
    return render(pending(ctx, "upgrade_status").status());
  },
});

export const applyUpgrade = defineTool({
  name: "apply_upgrade",
  description: "Upgrade the database to this drsg's schema: copies the file aside first (the answer says where), then migrates it in one transaction.",
  input: z.strictObject({}),
  readOnly: false,
  hints: { idempotent: true },
  run(ctx) {
    return render(pending(ctx, "apply_upgrade").apply());
  },
});

/** The tools of maintenance mode. */
export const MAINTENANCE_TOOLS = [upgradeStatus, applyUpgrade];
