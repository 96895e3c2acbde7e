// history: where HEAD is, the branches (locals first, HEAD marked), tags, rebases and the newest
// commits, read from the `<plane>_git` history plane, with caps and true counts.
import * as z from "../model/zod.js";
import { HEAD_KEY, gitPlaneName } from "../git/plane.js";
import type { PlaneInfo, StoredNode } from "../store/types.js";
import { clipLines, headerLines, requirePlane } from "./common.js";
import { defineTool, type ToolContext } from "./tool.js";

const REF_CAP = 12;

const str = (v: unknown): string => (typeof v === "string" ? v : "");
const num = (v: unknown): number => (typeof v === "number" ? v : 0);
const day = (ts: number): string => (ts > 0 ? new Date(ts * 1000).toISOString().slice(0, 10) : "????-??-??");

/** The code plane and its history plane for a name that may be either. */
export function historyPlanes(ctx: ToolContext, plane: string): { code?: PlaneInfo; git?: PlaneInfo; asked: PlaneInfo } {
  const asked = requirePlane(ctx.store, plane);
  if (plane.endsWith("_git")) return { asked, git: asked, code: ctx.store.getPlane(plane.slice(0, -4)) };
  return { asked, code: asked, git: ctx.store.getPlane(gitPlaneName(plane)) };
}

export const history = defineTool({
  name: "history",
  description:
    "The repository's history as the plane follows it: where HEAD is, branches (locals first, HEAD marked with *), tags, rebases (reconstructed from the reflog, best-effort) and the newest commits, with counts. `plane` is the code plane or its <plane>_git history plane. Then recall NAME at REV reads code as it was.",
  input: z.strictObject({
    plane: z.string().check(z.minLength(1), z.maxLength(200)),
    limit: z.optional(z.int().check(z.minimum(1), z.maximum(200))).check(z.describe("newest commits to list (default 15)")),
    offset: z.optional(z.int().check(z.minimum(0), z.maximum(1_000_000))).check(z.describe("skip this many of the newest commits (paging)")),
  }),
  readOnly: true,
  pure: true,
  cli: { positionals: [] },
  run(ctx, { plane, limit = 15, offset = 0 }) {
    const { code, git, asked } = historyPlanes(ctx, plane);
    const lines = headerLines(ctx, code ?? asked);
    if (!git) {
      lines.push(
        `plane '${plane}' has no history plane: ${gitPlaneName(plane)} is written beside a code plane by drsg digest --apply, drsg watch and serve watch when the tree is in git`,
      );
      return lines.join("\n");
    }
    const g = git.name;
    const commits: StoredNode[] = [];
    const branches: StoredNode[] = [];
    const tags: StoredNode[] = [];
    const rebases: StoredNode[] = [];
    let head: StoredNode | undefined;
    const byId = new Map<number, StoredNode>();
    for (const n of ctx.store.allNodes(g)) {
      byId.set(n.id, n);
      const l = n.labels[0];
      if (l === "Commit") commits.push(n);
      else if (l === "Branch") branches.push(n);
      else if (l === "Tag") tags.push(n);
      else if (l === "Rebase") rebases.push(n);
      else if (n.key === HEAD_KEY) head = n;
    }
    if (commits.length === 0) {
      lines.push(`no commits in ${g} — it is the history plane of '${g.slice(0, -4)}' (<plane>_git), written when a tree in git is digested or followed`);
      return lines.join("\n");
    }
    const bySha = new Map<string, StoredNode>();
    for (const c of commits) bySha.set(str(c.props.sha), c);
    const summaryOf = (sha: string) => str(bySha.get(sha)?.props.summary);

    // Reachability over PARENT from every branch, tag and HEAD: what a rewrite left behind is not.
    const parents = new Map<number, number[]>();
    for (const e of ctx.store.allEdges(g)) {
      if (e.type !== "PARENT") continue;
      const xs = parents.get(e.src) ?? [];
      xs.push(e.dst);
      parents.set(e.src, xs);
    }
    const reach = new Set<number>();
    const stack: number[] = [];
    const tipShas = [...branches.map((b) => str(b.props.tip)), ...tags.map((t) => str(t.props.target)), str(head?.props.sha)];
    for (const s of tipShas) {
      const c = bySha.get(s);
      if (c) stack.push(c.id);
    }
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (reach.has(id)) continue;
      reach.add(id);
      for (const p of parents.get(id) ?? []) stack.push(p);
    }
    const merges = commits.filter((c) => c.props.is_merge === true).length;
    lines.push(
      `${commits.length} commit(s), ${merges} of them merges; ${branches.length} branch(es), ${tags.length} tag(s), ${rebases.length} rebase(s)`,
    );
    const gone = commits.length - [...reach].filter((id) => byId.get(id)?.labels[0] === "Commit").length;
    if (gone > 0)
      lines.push(`${gone} commit(s) are no longer reachable from a branch, tag or HEAD (left behind by a rebase, reset or amend); they stay in the plane`);

    const headSha = str(head?.props.sha);
    const headBranch = str(head?.props.branch);
    if (head && headSha)
      lines.push(`HEAD: ${headBranch ? `on ${headBranch}` : "detached"} at ${headSha.slice(0, 7)}  ${summaryOf(headSha)}`.trimEnd());
    else if (head) lines.push(`HEAD: on ${headBranch || "?"}, no commit yet`);

    const local = branches.filter((b) => b.props.remote === undefined).sort(byName);
    const remote = branches.filter((b) => b.props.remote !== undefined).sort(byName);
    const shownBranches = [...local, ...remote].slice(0, REF_CAP);
    if (branches.length > 0) {
      lines.push(`branches (${shownBranches.length} shown of ${branches.length}):`);
      const w = Math.max(...shownBranches.map((b) => str(b.props.name).length));
      for (const b of shownBranches) {
        const tip = str(b.props.tip);
        const mark = b.props.is_head === true ? "*" : " ";
        lines.push(`${mark} ${str(b.props.name).padEnd(w)}  ${tip.slice(0, 7)}  ${summaryOf(tip)}`.trimEnd());
      }
    }
    if (tags.length > 0) {
      const when = (t: StoredNode) => num(t.props.tagged_ts) || num(bySha.get(str(t.props.target))?.props.committed_ts);
      const sorted = [...tags].sort((a, b) => when(b) - when(a) || byName(a, b));
      const shown = sorted.slice(0, REF_CAP);
      lines.push(`tags (newest ${shown.length} of ${tags.length}):`);
      const w = Math.max(...shown.map((t) => str(t.props.name).length));
      for (const t of shown) {
        const target = str(t.props.target);
        lines.push(`  ${str(t.props.name).padEnd(w)}  ${target.slice(0, 7)}  ${day(when(t))}  ${summaryOf(target)}`.trimEnd());
      }
    }
    if (rebases.length > 0) {
      const sorted = [...rebases].sort((a, b) => (str(b.props.started_at) < str(a.props.started_at) ? -1 : 1));
      const shown = sorted.slice(0, REF_CAP);
      lines.push(`rebases (${shown.length < rebases.length ? `newest ${shown.length} of ` : ""}${rebases.length}):`);
      for (const r of shown) {
        const state = r.props.aborted === true ? "aborted" : r.props.completed === true ? "completed" : "in progress";
        const replaced = Array.isArray(r.props.replaced) ? r.props.replaced.length : 0;
        lines.push(
          `  ${str(r.props.branch)}  ${str(r.props.started_at).slice(0, 10)}  ${num(r.props.steps)} step(s) onto ${str(r.props.onto).slice(0, 7)}, ${state}${replaced ? `, replaced ${replaced} commit(s)` : ""}${r.props.result ? ` → ${str(r.props.result).slice(0, 7)}` : ""}`,
        );
      }
      lines.push("  (rebases are reconstructed from the local reflog, which git expires: best-effort, and absence is not evidence)");
    }
    const listed = commits
      .filter((c) => reach.has(c.id))
      .sort((a, b) => num(b.props.committed_ts) - num(a.props.committed_ts) || (str(a.props.sha) < str(b.props.sha) ? -1 : 1));
    const shown = listed.slice(offset, offset + limit);
    const which = offset > 0 ? `${offset + 1}–${offset + shown.length} newest` : `newest ${shown.length}`;
    lines.push(`commits (${which} of ${listed.length}${listed.length < commits.length ? " reachable" : ""}):`);
    for (const c of shown) {
      lines.push(
        `  ${str(c.props.short)}  ${day(num(c.props.committed_ts))}  ${str(c.props.author).slice(0, 18).padEnd(18)} ${str(c.props.summary)}${c.props.is_merge === true ? "  [merge]" : ""}`,
      );
    }
    const rest = listed.length - offset - shown.length;
    if (rest > 0) lines.push(`  … and ${rest} more — offset: ${offset + shown.length} reads the next page (limit raises the page size)`);
    else if (offset > 0 && shown.length === 0) lines.push(`  (offset ${offset} is past the end: offset: 0 starts again)`);
    const ledger = git.props.ledger as Record<string, unknown> | undefined;
    if (ledger?.truncated === true) lines.push(`note: ${str(ledger.note)}`);
    lines.push(`next: recall NAME at ${shown[0] ? str(shown[0].props.short) : "REV"} reads a file, directory or symbol as it was then`);
    return clipLines(lines.join("\n"));
  },
});

function byName(a: StoredNode, b: StoredNode): number {
  const x = str(a.props.name);
  const y = str(b.props.name);
  return x < y ? -1 : x > y ? 1 : 0;
}
