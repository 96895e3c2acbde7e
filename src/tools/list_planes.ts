// list_planes: every plane with its size, commit, tree and what it holds.
import { z } from "zod";
import { freshnessLine, pluginDrift } from "./common.js";
import { isInside } from "./files.js";
import { defineTool } from "./tool.js";

export const listPlanes = defineTool({
  name: "list_planes",
  description:
    "List the planes of this database (one per repository, plus <plane>_git history and <plane>_ops deployment planes) with node/edge counts, the commit each reflects, the tree it was parsed from and whether that tree is readable here. Call first; pass the plane whose tree is your working directory on every other call.",
  input: z.strictObject({}),
  readOnly: true,
  pure: true,
  cli: { positionals: [] },
  run(ctx) {
    const planes = ctx.store.listPlanes();
    if (planes.length === 0) return "no planes — build one with drsg digest <dir> --apply (or drsg init)";
    const names = new Set(planes.map((p) => p.name));
    const lines: string[] = [`${planes.length} plane(s):`];
    for (const p of planes) {
      lines.push(`${p.name}  ${p.nodeCount} node(s), ${p.edgeCount} edge(s)`);
      const fresh = freshnessLine(p);
      if (fresh) lines.push(`  ${fresh}`);
      const root = typeof p.props.synced_root === "string" ? p.props.synced_root : undefined;
      if (root) {
        const readable =
          ctx.transport !== "http"
            ? "readable"
            : ctx.attached && isInside(ctx.attached, root)
              ? "readable (inside the attached tree)"
              : "not readable over HTTP (outside the attached tree)";
        lines.push(`  tree: ${root} — ${readable}`);
      }
      if (p.name.endsWith("_git")) lines.push(`  holds: commit history of plane ${p.name.slice(0, -4)}`);
      else if (p.name.endsWith("_ops")) lines.push(`  holds: what the manifests of plane ${p.name.slice(0, -4)} deploy`);
      else if (names.has(`${p.name}_git`)) lines.push(`  holds: source code; history is in ${p.name}_git`);
      const drift = pluginDrift(ctx, p);
      if (drift) lines.push(`  ${drift}`);
    }
    return lines.join("\n");
  },
});
