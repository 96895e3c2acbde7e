// plane_overview: every plane at a glance as JSON — counts, the commit it reflects and how many
// commits HEAD is ahead of it, the plugin builds and their drift, its _git / _ops siblings, the
// call-resolution share and the last full build's report (the `ledger` prop). What the
// dashboard's Planes view shows; an agent gets the same facts in one call.
import * as z from "../model/zod.js";
import { HEAD_KEY, commitKey, gitPlaneName } from "../git/plane.js";
import type { PlaneInfo } from "../store/types.js";
import { freshnessLine, pluginDrift } from "./common.js";
import { defineTool, type ToolContext } from "./tool.js";

/** Commits walked back from HEAD looking for the synced one before saying "more than". */
const BEHIND_SCAN = 1000;

const str = (v: unknown): string | undefined => (typeof v === "string" && v.length > 0 ? v : undefined);

/**
 * How many commits HEAD (as the history plane last saw it) is ahead of `synced`: a breadth-first
 * walk over PARENT edges from HEAD; undefined when there is no history or HEAD is unknown.
 */
function behindHead(ctx: ToolContext, git: PlaneInfo, synced: string | undefined): { head?: string; behind?: number; note?: string } {
  const head = ctx.store.getNodeByKey(git.name, HEAD_KEY);
  const headSha = str(head?.props.sha);
  if (!headSha) return {};
  if (!synced) return { head: headSha };
  if (headSha === synced) return { head: headSha, behind: 0 };
  const g = ctx.views.get(git.name);
  const start = ctx.store.getNodeByKey(git.name, commitKey(headSha));
  const target = ctx.store.getNodeByKey(git.name, commitKey(synced));
  if (!start || !target) return { head: headSha, note: "the synced commit is not in the history plane" };
  const dist = new Map<string, number>([[String(start.id), 0]]);
  let frontier = [String(start.id)];
  while (frontier.length > 0 && dist.size <= BEHIND_SCAN) {
    const next: string[] = [];
    for (const u of frontier) {
      const d = dist.get(u)!;
      let found = false;
      g.forEachOutEdge(u, (_e, a, _s, v) => {
        if (a.type !== "PARENT" || dist.has(v)) return;
        dist.set(v, d + 1);
        if (v === String(target.id)) found = true;
        next.push(v);
      });
      if (found) return { head: headSha, behind: d + 1 };
    }
    frontier = next;
  }
  return { head: headSha, note: dist.size > BEHIND_SCAN ? `more than ${BEHIND_SCAN} commits behind HEAD` : "HEAD does not descend from the synced commit (history rewritten)" };
}

/** Resolved vs unresolved CALLS edges of a code plane, from its graph view (cached per commit). */
function resolution(ctx: ToolContext, plane: string): { calls: number; unresolved: number; share: number | null } {
  const g = ctx.views.get(plane);
  let calls = 0;
  let unresolved = 0;
  g.forEachEdge((_e, a, _s, _t, _sa, ta) => {
    if (a.type !== "CALLS") return;
    calls++;
    if (ta.label === "UnresolvedRef") unresolved++;
  });
  return { calls, unresolved, share: calls > 0 ? Math.round((1000 * (calls - unresolved)) / calls) / 1000 : null };
}

export const planeOverview = defineTool({
  name: "plane_overview",
  description:
    "Every plane as JSON: node/edge counts, the commit it is synced to and how many commits HEAD is ahead of it, the plugin builds (built_by) and the drift line when installed plugins differ, its <plane>_git and <plane>_ops siblings, the share of CALLS edges resolved, and the last full build's report (ledger: facts per plugin, unclaimed extensions, skipped files). `plane` narrows to one plane.",
  input: z.strictObject({ plane: z.optional(z.string().check(z.minLength(1), z.maxLength(200))) }),
  readOnly: true,
  pure: true,
  run(ctx, { plane }) {
    const all = ctx.store.listPlanes();
    const names = new Set(all.map((p) => p.name));
    const chosen = plane === undefined ? all : all.filter((p) => p.name === plane);
    if (plane !== undefined && chosen.length === 0)
      return { planes: [], error: `no plane '${plane}' — planes: ${[...names].join(", ") || "none"}` };
    return {
      planes: chosen.map((p) => {
        const kind = p.name.endsWith("_git") && names.has(p.name.slice(0, -4)) ? "git" : p.name.endsWith("_ops") && names.has(p.name.slice(0, -4)) ? "ops" : "code";
        const synced = str(p.props.synced_commit);
        const out: Record<string, unknown> = {
          name: p.name,
          kind,
          nodes: p.nodeCount,
          edges: p.edgeCount,
          synced: freshnessLine(p)?.replace(/^synced: /, "") ?? null,
          synced_commit: synced ?? null,
          synced_root: str(p.props.synced_root) ?? null,
          built_by: p.props.built_by ?? null,
          rebuilding_since: p.props.rebuilding_since ?? null,
          drift: pluginDrift(ctx, p) ?? null,
          ledger: p.props.ledger ?? null,
        };
        if (kind === "code") {
          const git = names.has(gitPlaneName(p.name)) ? ctx.store.getPlane(gitPlaneName(p.name)) : undefined;
          out.siblings = { git: git ? git.name : null, ops: names.has(`${p.name}_ops`) ? `${p.name}_ops` : null };
          out.resolution = resolution(ctx, p.name);
          if (git) Object.assign(out, behindHead(ctx, git, synced));
        } else out.sibling_of = p.name.slice(0, -4);
        return out;
      }),
    };
  },
});
