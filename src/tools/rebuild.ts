// rebuild: re-read the tree a plane was built from — its own synced_root at its own commit,
// never a directory the caller names — with the plugins installed now, clearing plugin drift.
import * as z from "../model/zod.js";
import type { PropValue } from "../model/facts.js";
import { type FoldResult, PlaneSync, rebuildPlane } from "../sync/fold.js";
import { headerLines, requirePlane } from "./common.js";
import { defineTool } from "./tool.js";

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
  const was = new Set(Array.isArray(before) ? before.map(String) : []);
  const now = new Set(Array.isArray(after) ? after.map(String) : []);
  const added = [...now].filter((b) => !was.has(b));
  const removed = [...was].filter((b) => !now.has(b));
  lines.push(
    added.length + removed.length > 0
      ? `  builders changed: ${[...added.map((b) => `+${b}`), ...removed.map((b) => `-${b}`)].join(", ")}`
      : "  builders unchanged",
  );
  if (Array.isArray(after)) lines.push(`  built_by: ${after.map(String).join(", ")}`);
  return lines.join("\n");
}

export const rebuild = defineTool({
  name: "rebuild",
  description:
    "Re-read the whole tree a plane was built from (its own synced_root, at the commit it reflects) with the plugins installed now — after `drsg plugin install`, when answers say the plugins changed since the plane was built. Keeps node ids and facts that parsers do not own. Takes only the plane name.",
  input: z.strictObject({ plane: z.string().check(z.minLength(1), z.maxLength(200)) }),
  readOnly: false,
  run: async (ctx, { plane }) => {
    const before = requirePlane(ctx.store, plane).props.built_by;
    // A server following this plane (serve watch: `extras.sync`) rebuilds through its own sync,
    // so its in-memory state stays that of the plane.
    const sync = ctx.extras?.sync;
    const r =
      sync instanceof PlaneSync && sync.plane === plane
        ? await sync.rebuild("rebuild asked for")
        : await rebuildPlane({ store: ctx.store, plane, plugins: ctx.plugins() });
    const p = requirePlane(ctx.store, plane);
    return [...headerLines(ctx, p), renderRebuild(r, before, p.props.built_by)].join("\n");
  },
});
