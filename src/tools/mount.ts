// mount / unmount / mounts: serve other databases' planes beside this one (confined to
// $DRSG_MOUNT_ROOT); `mounts` maps every plane to the tree it was parsed from.
import * as z from "../model/zod.js";
import { DrsgError } from "../model/errors.js";
import type { MountManager } from "../server/mounts.js";
import type { RoutedStore } from "../store/routed.js";
import { defineTool, type ToolContext } from "./tool.js";

function manager(ctx: ToolContext): MountManager {
  const m = ctx.extras?.mounts as MountManager | undefined;
  if (!m) throw new DrsgError("FORBIDDEN", "this server does not mount databases (drsg serve does, with DRSG_MOUNT_ROOT set)");
  return m;
}

export const mount = defineTool({
  name: "mount",
  description:
    "Serve the planes of another drsg database file beside this one, now (its own lock, writer and plane names; its repositories are followed by watchers). The path must lie inside the server's mount root ($DRSG_MOUNT_ROOT).",
  input: z.strictObject({ path: z.string().check(z.minLength(1), z.maxLength(4096)), name: z.optional(z.string().check(z.minLength(1), z.maxLength(100))), watch: z.optional(z.boolean()) }),
  readOnly: false,
  async run(ctx, { path, name, watch }) {
    const r = await manager(ctx).mount(path, name, watch ?? true);
    ctx.views.forget();
    return `mounted '${r.name}' (${r.path}): planes ${r.planes.join(", ") || "none"}; watching ${r.watching.join(", ") || "nothing"}`;
  },
});

export const unmount = defineTool({
  name: "unmount",
  description: "Stop serving a mounted database: its watchers stop and its lock is released (nothing is deleted).",
  input: z.strictObject({ name: z.string().check(z.minLength(1), z.maxLength(4096)) }),
  readOnly: false,
  async run(ctx, { name }) {
    const r = await manager(ctx).unmount(name);
    ctx.views.forget();
    return `unmounted '${r.name}' (${r.path}); its lock ${r.lockFree ? "came free" : "is still held by another process"}; nothing was deleted`;
  },
});

export const mounts = defineTool({
  name: "mounts",
  description: "Every database this server serves (its own and the mounted ones) and every plane with the tree it was parsed from — how to map a working directory to a plane.",
  input: z.strictObject({}),
  readOnly: true,
  run(ctx) {
    const m = ctx.extras?.mounts as MountManager | undefined;
    const routed = m?.routed;
    const lines: string[] = [];
    const show = (label: string, s: { listPlanes(): { name: string; props: Record<string, unknown> }[] }, watching: string[] = []) => {
      lines.push(label);
      for (const p of s.listPlanes()) {
        const root = typeof p.props.synced_root === "string" ? p.props.synced_root : "(no tree)";
        const commit = typeof p.props.synced_commit === "string" ? `  commit ${p.props.synced_commit.slice(0, 12)}` : "";
        lines.push(`  ${p.name}  ${root}${commit}${watching.includes(p.name) ? "  (watched)" : ""}`);
      }
    };
    const main = routed ? routed.main : ctx.store;
    show(`main: ${main.path}`, main);
    for (const x of (routed as RoutedStore | undefined)?.listMounts() ?? []) show(`mount '${x.name}': ${x.path}`, x.store, m?.watching(x.name));
    if (!routed) lines.push("(this server does not mount databases)");
    return lines.join("\n");
  },
});
