// changes: the feed of what changed in a plane since a database commit (or between two) —
// nodes and edges created, patched and deleted, grouped per commit with its time and, for a
// mirrored plane, the git commit the fold brought it to. Counts are complete; the listed
// entries are paged (`offset`, `limit`).
import * as z from "../model/zod.js";
import { DrsgError } from "../model/errors.js";
import type { CommitChanges, EdgeChange, NodeChange } from "../store/changes.js";
import { commitWindow, planeChanges } from "../store/store.js";
import { clipLines } from "./common.js";
import { defineTool, structured } from "./tool.js";

const kind = z.enum(["created", "patched", "deleted"]);
const counts = z.object({ created: z.int(), patched: z.int(), deleted: z.int() });
const nodeEntry = z.object({
  kind,
  key: z.string(),
  labels: z.array(z.string()),
  changed: z.optional(z.array(z.string())),
  before: z.optional(z.object({ labels: z.array(z.string()), props: z.record(z.string(), z.unknown()) })),
  after: z.optional(z.object({ labels: z.array(z.string()), props: z.record(z.string(), z.unknown()) })),
});
const edgeEntry = z.object({
  kind,
  type: z.string(),
  src: z.string(),
  dst: z.string(),
  changed: z.optional(z.array(z.string())),
  before: z.optional(z.record(z.string(), z.unknown())),
  after: z.optional(z.record(z.string(), z.unknown())),
});

const output = z.object({
  plane: z.string(),
  since: z.int(),
  until: z.int(),
  /** The newest commit of the database: pass it as `since` next time to see only what is new. */
  latest: z.int(),
  commits: z.array(
    z.object({
      seq: z.int(),
      at: z.string(),
      synced_commit: z.optional(z.string()),
      plane_props: z.optional(z.array(z.string())),
      nodes_changed: counts,
      edges_changed: counts,
      nodes: z.array(nodeEntry),
      edges: z.array(edgeEntry),
    }),
  ),
  /** Entries (node and edge changes) in the whole range; `commits` lists `limit` of them from `offset`. */
  total: z.int(),
  offset: z.int(),
  next_offset: z.nullable(z.int()),
});

function tally(xs: { kind: "created" | "patched" | "deleted" }[]): z.infer<typeof counts> {
  const c = { created: 0, patched: 0, deleted: 0 };
  for (const x of xs) c[x.kind]++;
  return c;
}

const SIGN = { created: "+", patched: "~", deleted: "-" } as const;

function nodeText(n: NodeChange): string {
  const changed = n.kind === "patched" && n.changed?.length ? `  (${n.changed.join(", ")})` : "";
  return `${SIGN[n.kind]} ${n.key}  ${n.labels[0] ?? ""}${changed}`;
}

function edgeText(e: EdgeChange): string {
  const changed = e.kind === "patched" && e.changed?.length ? `  (${e.changed.join(", ")})` : "";
  return `${SIGN[e.kind]} ${e.src} -${e.type}-> ${e.dst}${changed}`;
}

export const changes = defineTool({
  name: "changes",
  description:
    "What changed in a plane since database commit `since` (exclusive) up to `until` (default the latest): nodes and edges created (+), patched (~, with the properties that moved) and deleted (-), grouped per database commit with its time and, on a mirrored plane, the git commit the fold brought it to. Counts are complete; entries are paged by `offset`/`limit`. list_planes shows the current commit; pass it as `since` later to see what is new. `detail: true` adds properties before and after.",
  input: z.strictObject({
    plane: z.string().check(z.minLength(1), z.maxLength(200)),
    since: z.int().check(z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER)),
    until: z.optional(z.int().check(z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER))),
    limit: z._default(z.int().check(z.minimum(1), z.maximum(1000)), 100),
    offset: z._default(z.int().check(z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER)), 0),
    detail: z._default(z.boolean(), false),
  }),
  output,
  readOnly: true,
  pure: true,
  hints: { title: "Changes since a commit" },
  cli: { positionals: ["since"], summary: "What changed in a plane since a database commit, per commit." },
  run(ctx, inp) {
    const w = commitWindow(ctx.store, inp.plane);
    const until = Math.min(inp.until ?? w.latest, w.latest);
    if (inp.until !== undefined && inp.until < inp.since)
      throw new DrsgError("BAD_INPUT", `changes: until (${inp.until}) is before since (${inp.since})`);
    const all: CommitChanges[] = planeChanges(ctx.store, inp.plane, inp.since, until);
    // Flatten in commit order (nodes, then edges) and page.
    type Entry = { seq: number; node?: NodeChange; edge?: EdgeChange };
    const entries: Entry[] = [];
    for (const c of all) {
      for (const node of c.nodes) entries.push({ seq: c.seq, node });
      for (const edge of c.edges) entries.push({ seq: c.seq, edge });
    }
    const page = entries.slice(inp.offset, inp.offset + inp.limit);
    const next = inp.offset + page.length < entries.length ? inp.offset + page.length : null;
    const strip = <T extends { before?: unknown; after?: unknown }>(x: T): T => {
      if (inp.detail) return x;
      const { before: _b, after: _a, ...rest } = x;
      return rest as T;
    };
    const commits: z.infer<typeof output>["commits"] = [];
    const lines: string[] = [];
    const range = until > inp.since ? `commits ${inp.since + 1}..${until}` : "no commit (since is the latest)";
    const nodesAll = all.reduce((n, c) => n + c.nodes.length, 0);
    const edgesAll = all.reduce((n, c) => n + c.edges.length, 0);
    lines.push(`changes to plane '${inp.plane}' in ${range}: ${all.length} commit(s) changed it — ${nodesAll} node(s), ${edgesAll} edge(s)`);
    for (const c of all) {
      const mine = page.filter((e) => e.seq === c.seq);
      const entry = {
        seq: c.seq,
        at: new Date(c.at).toISOString(),
        ...(c.synced_commit ? { synced_commit: c.synced_commit } : {}),
        ...(c.plane_props ? { plane_props: c.plane_props } : {}),
        nodes_changed: tally(c.nodes),
        edges_changed: tally(c.edges),
        nodes: mine.filter((e) => e.node).map((e) => strip(e.node!)),
        edges: mine.filter((e) => e.edge).map((e) => strip(e.edge!)),
      };
      commits.push(entry);
      const n = entry.nodes_changed;
      const e = entry.edges_changed;
      const git = c.synced_commit && c.plane_props?.includes("synced_commit") ? `  folded git ${c.synced_commit.slice(0, 12)}` : "";
      const props = c.plane_props ? `; plane: ${c.plane_props.join(", ")}` : "";
      lines.push(
        `commit ${c.seq} (${entry.at})${git} — nodes +${n.created} ~${n.patched} -${n.deleted}, edges +${e.created} ~${e.patched} -${e.deleted}${props}`,
      );
      for (const x of mine) lines.push(`  ${x.node ? `node ${nodeText(x.node)}` : `edge ${edgeText(x.edge!)}`}`);
    }
    if (next !== null) lines.push(`… ${entries.length - next} more change(s): call again with offset ${next}`);
    lines.push(`latest database commit: ${w.latest}${w.latestAt ? ` (${new Date(w.latestAt).toISOString()})` : ""} — pass since ${w.latest} later to see only what is new`);
    return structured(clipLines(lines.join("\n")), {
      plane: inp.plane,
      since: inp.since,
      until,
      latest: w.latest,
      commits,
      total: entries.length,
      offset: inp.offset,
      next_offset: next,
    });
  },
});
