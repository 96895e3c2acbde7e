// rebuild: re-read the tree a plane was built from — its own synced_root at its own commit,
// never a directory the caller names — with the plugins installed now, clearing plugin drift.
import { z } from "zod";
import type { PropValue } from "../model/facts.js";
import { driftLine } from "../plugin/registry.js";
import { type FoldResult, rebuildPlane } from "../sync/fold.js";
import { headerLines, requirePlane } from "./common.js";
import { defineTool } from "./tool.js";

/** A server that follows the plane (serve watch) rebuilds through its own sync: `extras.rebuild`. */
export type RebuildHook = (plane: string) => Promise<FoldResult>;

/** The rebuild report: what was read, what changed, and the builders before and after. */
export function renderRebuild(r: FoldResult, before: PropValue | undefined, after: PropValue | undefined): string {
  const lines: string[] = [];
  const at = r.to ? `commit ${r.to.slice(0, 12)}` : "the working tree";
  lines.push(`rebuilt plane '${r.plane}' at ${at}: ${r.filesChanged} file(s) read, ${r.parsed} parsed, ${r.cached} from cache`);
  const s = r.stats;
  if (s)
    lines.push(
      `  nodes +${s.nodesCreated} ~${s.nodesPatched} -${s.nodesDeleted}, edges +${s.edgesCreated} ~${s.edgesPatched} -${s.edgesDeleted} in ${(r.ms / 1000).toFixed(2)} s`,
    );
  const drift = Array.isArray(after) ? driftLine(before, after.map(String)) : undefined;
  lines.push(drift ? `  builders changed: ${drift.replace(/^plugins changed since this plane was built: /, "").replace(/ — rebuild re-reads the tree$/, "")}` : "  builders unchanged");
  if (Array.isArray(after)) lines.push(`  built_by: ${after.map(String).join(", ")}`);
  return lines.join("\n");
}

export const rebuild = defineTool({
  name: "rebuild",
  description:
    "Re-read the whole tree a plane was built from (its own synced_root, at the commit it reflects) with the plugins installed now — after `drsg plugin install`, when answers say the plugins changed since the plane was built. Keeps node ids and facts that parsers do not own. Takes only the plane name.",
  input: z.strictObject({ plane: z.string().min(1).max(200) }),
  readOnly: false,
  run: async (ctx, { plane }) => {
    const before = requirePlane(ctx.store, plane).props.built_by;
    const hook = ctx.extras?.rebuild as RebuildHook | undefined;
    const r = hook ? await hook(plane) : await rebuildPlane({ store: ctx.store, plane, plugins: ctx.plugins() });
    const p = requirePlane(ctx.store, plane);
    return [...headerLines(ctx, p), renderRebuild(r, before, p.props.built_by)].join("\n");
  },
});
