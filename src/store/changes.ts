// The change feed: what each database commit in a range did to one plane's nodes and edges,
// read from the history tables (a version starting at commit s was written by s; one ending at
// s was superseded or deleted by s). Facts are named as exports name them — nodes by key, edges
// by (source key, type, target key) — so a node deleted and re-created under its key in one
// commit is one patch, and a fact rewritten unchanged is no change at all.
import { DrsgError } from "../model/errors.js";
import type { Props } from "../model/facts.js";
import type { StoreContext } from "./context.js";

export type ChangeKind = "created" | "patched" | "deleted";

export interface NodeChange {
  kind: ChangeKind;
  key: string;
  /** Labels after the change (before it, for a deletion). */
  labels: string[];
  /** For a patch: the properties whose values differ (labels as "(labels)"), sorted. */
  changed?: string[];
  before?: { labels: string[]; props: Props };
  after?: { labels: string[]; props: Props };
}

export interface EdgeChange {
  kind: ChangeKind;
  type: string;
  src: string;
  dst: string;
  changed?: string[];
  before?: Props;
  after?: Props;
}

export interface CommitChanges {
  seq: number;
  at: number;
  /** The plane's `synced_commit` right after this commit (the git commit a fold brought it to). */
  synced_commit?: string;
  /** Plane properties whose values this commit changed (sorted). */
  plane_props?: string[];
  nodes: NodeChange[];
  edges: EdgeChange[];
}

interface VersionRow {
  id: number;
  seq: number;
  a: string;
  b: string;
  c: string;
  d: number;
  e: number;
}

/** The entry of `k` in `m`, made by `make` when missing. */
function slot<V>(m: Map<string, V>, k: string, make: () => V): V {
  let v = m.get(k);
  if (v === undefined) m.set(k, (v = make()));
  return v;
}

/** Keys of node ids, any version (a node's key never changes). */
function keyLookup(ctx: StoreContext): (id: number) => string {
  const cache = new Map<number, string>();
  return (id) => {
    let k = cache.get(id);
    if (k === undefined) {
      const row = ctx
        .stmt("SELECT key FROM nodes WHERE id = @id UNION ALL SELECT key FROM node_hist WHERE id = @id LIMIT 1")
        .get({ id }) as { key: string } | undefined;
      k = row?.key ?? `#${id}`;
      cache.set(id, k);
    }
    return k;
  };
}

/** Names of the keys of `a` and `b` whose values differ, `_` provenance ignored. */
function diffProps(a: Props, b: Props): string[] {
  const out: string[] = [];
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (k.startsWith("_")) continue;
    if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) out.push(k);
  }
  return out.sort();
}

function canon(p: Props): string {
  return JSON.stringify(p, Object.keys(p).sort());
}

function sameProps(a: Props, b: Props): boolean {
  return canon(sortDeep(a) as Props) === canon(sortDeep(b) as Props);
}

function sortDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortDeep);
  if (v !== null && typeof v === "object") {
    const o: Record<string, unknown> = {};
    for (const k of Object.keys(v as object).sort()) o[k] = sortDeep((v as Record<string, unknown>)[k]);
    return o;
  }
  return v;
}

/**
 * Changes of plane `plane` in commits `from` (exclusive) .. `to` (inclusive), one entry per
 * commit that changed something, in commit order. `from` must be readable (at or above the
 * retained floor): the commit after it is compared with it.
 */
export function readChanges(ctx: StoreContext, plane: string, from: number, to: number): CommitChanges[] {
  if (!Number.isSafeInteger(from) || from < 0) throw new DrsgError("BAD_INPUT", `changes: since must be a commit sequence, got ${from}`);
  const floor = ctx.floor();
  if (from < floor) throw ctx.outOfRange(from, "changes since");
  const upto = Math.min(to, ctx.latest);
  if (upto <= from) return [];
  const ids = (
    ctx.stmt("SELECT id FROM planes WHERE name = @n UNION SELECT id FROM plane_hist WHERE name = @n").all({ n: plane }) as { id: number }[]
  ).map((r) => r.id);
  if (ids.length === 0) {
    throw new DrsgError("PLANE_NOT_FOUND", `changes: no plane "${plane}" in the retained history; list_planes shows the planes`, { plane });
  }
  const inPlane = `plane IN (${ids.map(Number).join(", ")})`;
  const range = { f: from, t: upto };
  const starts = (table: string, cols: string) =>
    `SELECT id, since AS seq, ${cols} FROM ${table} WHERE ${inPlane} AND since > @f AND since <= @t`;
  const nodeCols = "key AS a, labels AS b, props AS c, 0 AS d, 0 AS e";
  const edgeCols = "type AS a, props AS b, '' AS c, src AS d, dst AS e";
  const nodeStarts = ctx.db.prepare(`${starts("nodes", nodeCols)} UNION ALL ${starts("node_hist", nodeCols)}`).all(range) as VersionRow[];
  const nodeEnds = ctx.db
    .prepare(`SELECT id, until AS seq, ${nodeCols} FROM node_hist WHERE ${inPlane} AND until > @f AND until <= @t`)
    .all(range) as VersionRow[];
  const edgeStarts = ctx.db.prepare(`${starts("edges", edgeCols)} UNION ALL ${starts("edge_hist", edgeCols)}`).all(range) as VersionRow[];
  const edgeEnds = ctx.db
    .prepare(`SELECT id, until AS seq, ${edgeCols} FROM edge_hist WHERE ${inPlane} AND until > @f AND until <= @t`)
    .all(range) as VersionRow[];

  const bySeq = new Map<number, CommitChanges>();
  const commitOf = (seq: number): CommitChanges => {
    let c = bySeq.get(seq);
    if (!c) bySeq.set(seq, (c = { seq, at: 0, nodes: [], edges: [] }));
    return c;
  };

  // Nodes: pair versions by (commit, id), then by (commit, key).
  type NV = { key: string; labels: string[]; props: Props };
  const nv = (r: VersionRow): NV => ({ key: r.a, labels: JSON.parse(r.b) as string[], props: JSON.parse(r.c) as Props });
  const nodePairs = new Map<string, { before?: NV; after?: NV }>();
  for (const r of nodeStarts) slot(nodePairs, `${r.seq}\u0000${r.a}`, (): { before?: NV; after?: NV } => ({})).after = nv(r);
  for (const r of nodeEnds) slot(nodePairs, `${r.seq}\u0000${r.a}`, (): { before?: NV; after?: NV } => ({})).before = nv(r);
  for (const [k, { before, after }] of nodePairs) {
    const seq = Number(k.slice(0, k.indexOf("\u0000")));
    if (before && after) {
      const changed = diffProps(before.props, after.props);
      const labelsMoved = JSON.stringify(before.labels) !== JSON.stringify(after.labels);
      if (labelsMoved) changed.unshift("(labels)");
      if (!labelsMoved && sameProps(before.props, after.props)) continue;
      commitOf(seq).nodes.push({ kind: "patched", key: after.key, labels: after.labels, changed, before: { labels: before.labels, props: before.props }, after: { labels: after.labels, props: after.props } });
    } else if (after) commitOf(seq).nodes.push({ kind: "created", key: after.key, labels: after.labels, after: { labels: after.labels, props: after.props } });
    else if (before) commitOf(seq).nodes.push({ kind: "deleted", key: before.key, labels: before.labels, before: { labels: before.labels, props: before.props } });
  }

  // Edges: versions of one id pair up first (a patch in place); the rest pair by endpoints and type.
  const key = keyLookup(ctx);
  type EV = { type: string; src: string; dst: string; props: Props };
  const ev = (r: VersionRow): EV => ({ type: r.a, src: key(r.d), dst: key(r.e), props: JSON.parse(r.b) as Props });
  const byId = new Map<string, { before?: EV; after?: EV; seq: number }>();
  for (const r of edgeStarts) slot(byId, `${r.seq}:${r.id}`, (): { before?: EV; after?: EV; seq: number } => ({ seq: r.seq })).after = ev(r);
  for (const r of edgeEnds) slot(byId, `${r.seq}:${r.id}`, (): { before?: EV; after?: EV; seq: number } => ({ seq: r.seq })).before = ev(r);
  const loose = new Map<string, { made: EV[]; gone: EV[]; seq: number }>();
  for (const { before, after, seq } of byId.values()) {
    if (before && after) {
      if (sameProps(before.props, after.props)) continue;
      commitOf(seq).edges.push({ kind: "patched", type: after.type, src: after.src, dst: after.dst, changed: diffProps(before.props, after.props), before: before.props, after: after.props });
      continue;
    }
    const e = (after ?? before)!;
    const k = `${seq}\u0000${e.src}\u0000${e.type}\u0000${e.dst}`;
    const s = slot(loose, k, () => ({ made: [], gone: [], seq }));
    (after ? s.made : s.gone).push(e);
  }
  for (const { made, gone, seq } of loose.values()) {
    // Identical rewrites cancel; what remains pairs into patches, then creations or deletions.
    const left = [...gone];
    const fresh: EV[] = [];
    for (const m of made) {
      const i = left.findIndex((g) => sameProps(g.props, m.props));
      if (i >= 0) left.splice(i, 1);
      else fresh.push(m);
    }
    const c = commitOf(seq);
    while (fresh.length > 0 && left.length > 0) {
      const a = fresh.shift()!;
      const b = left.shift()!;
      c.edges.push({ kind: "patched", type: a.type, src: a.src, dst: a.dst, changed: diffProps(b.props, a.props), before: b.props, after: a.props });
    }
    for (const a of fresh) c.edges.push({ kind: "created", type: a.type, src: a.src, dst: a.dst, after: a.props });
    for (const b of left) c.edges.push({ kind: "deleted", type: b.type, src: b.src, dst: b.dst, before: b.props });
  }

  // Plane properties: which moved in each commit of the range, and the synced commit after it.
  const planeVersions = ctx.db
    .prepare(
      `SELECT props, since, ${Number.MAX_SAFE_INTEGER} AS until FROM planes WHERE name = @n UNION ALL SELECT props, since, until FROM plane_hist WHERE name = @n`,
    )
    .all({ n: plane }) as { props: string; since: number; until: number }[];
  const propsAt = (seq: number): Props | undefined => {
    const v = planeVersions.find((x) => x.since <= seq && x.until > seq);
    return v ? (JSON.parse(v.props) as Props) : undefined;
  };
  for (const v of planeVersions) {
    if (v.since <= from || v.since > upto) continue;
    const before = propsAt(v.since - 1) ?? {};
    const moved = diffProps(before, JSON.parse(v.props) as Props);
    if (moved.length > 0) commitOf(v.since).plane_props = moved;
  }

  const out = [...bySeq.values()].filter((c) => c.nodes.length > 0 || c.edges.length > 0 || c.plane_props).sort((a, b) => a.seq - b.seq);
  const at = ctx.db.prepare("SELECT at FROM commits WHERE seq = ?");
  for (const c of out) {
    c.at = (at.get(c.seq) as { at: number } | undefined)?.at ?? 0;
    const synced = propsAt(c.seq)?.synced_commit;
    if (typeof synced === "string") c.synced_commit = synced;
    c.nodes.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    c.edges.sort((a, b) => {
      const x = `${a.src}\u0000${a.type}\u0000${a.dst}`;
      const y = `${b.src}\u0000${b.type}\u0000${b.dst}`;
      return x < y ? -1 : x > y ? 1 : 0;
    });
  }
  return out;
}
