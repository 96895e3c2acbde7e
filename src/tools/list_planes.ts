// list_planes: every plane with its size, commit, tree and what it holds.
import * as z from "../model/zod.js";
import { commitWindow } from "../store/store.js";
import { AS_OF_INPUT, AS_OF_OUTPUT } from "./asof.js";
import { freshnessLine, pluginDrift } from "./common.js";
import { isInside } from "./files.js";
import { defineTool, structured } from "./tool.js";

const output = z.object({
  /** The database's newest commit (the sequence `changes` and `as_of` take) and the oldest still readable. */
  commit: z.object({ seq: z.int(), at: z.nullable(z.string()), oldest_readable: z.int(), retained: z.int() }),
  planes: z.array(
    z.object({
      name: z.string(),
      nodes: z.int(),
      edges: z.int(),
      synced_commit: z.nullable(z.string()),
      synced_root: z.nullable(z.string()),
      tree: z.nullable(z.string()),
      holds: z.nullable(z.string()),
      plugin_drift: z.nullable(z.string()),
    }),
  ),
  as_of: AS_OF_OUTPUT,
});

export const listPlanes = defineTool({
  name: "list_planes",
  description:
    "List the planes of this database (one per repository, plus <plane>_git history and <plane>_ops deployment planes) with node/edge counts, the commit each reflects, the tree it was parsed from and whether that tree is readable here. Call first; pass the plane whose tree is your working directory on every other call.",
  input: z.strictObject({ as_of: AS_OF_INPUT }),
  output,
  readOnly: true,
  pure: true,
  cli: { positionals: [] },
  run(ctx) {
    const planes = ctx.store.listPlanes();
    const w = commitWindow(ctx.store);
    // As of a commit, the store's currentSeq() is that commit; a routed store's (mounts) runs
    // ahead of the main database's, whose commit this is.
    const seq = Math.min(ctx.store.currentSeq(), w.latest);
    const at = seq === w.latest && w.latestAt ? new Date(w.latestAt).toISOString() : null;
    const data: z.infer<typeof output> = {
      commit: { seq, at, oldest_readable: w.floor, retained: w.retain },
      planes: [],
    };
    const commitLine = `database commit ${seq}${at ? ` (${at})` : ""}; readable as of commits ${w.floor}..${w.latest} (changes and as_of take these)`;
    if (planes.length === 0) return structured(`no planes — build one with drsg digest <dir> --apply (or drsg init)\n${commitLine}`, data);
    const names = new Set(planes.map((p) => p.name));
    const lines: string[] = [`${planes.length} plane(s):`];
    for (const p of planes) {
      const entry: z.infer<typeof output>["planes"][number] = {
        name: p.name,
        nodes: p.nodeCount,
        edges: p.edgeCount,
        synced_commit: typeof p.props.synced_commit === "string" ? p.props.synced_commit : null,
        synced_root: typeof p.props.synced_root === "string" ? p.props.synced_root : null,
        tree: null,
        holds: null,
        plugin_drift: null,
      };
      data.planes.push(entry);
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
        entry.tree = readable;
      }
      if (p.name.endsWith("_git")) entry.holds = `commit history of plane ${p.name.slice(0, -4)}`;
      else if (p.name.endsWith("_ops")) entry.holds = `what the manifests of plane ${p.name.slice(0, -4)} deploy`;
      else if (names.has(`${p.name}_git`)) entry.holds = `source code; history is in ${p.name}_git`;
      if (entry.holds) lines.push(`  holds: ${entry.holds}`);
      const drift = pluginDrift(ctx, p);
      if (drift) {
        lines.push(`  ${drift}`);
        entry.plugin_drift = drift;
      }
    }
    lines.push(commitLine);
    return structured(lines.join("\n"), data);
  },
});
