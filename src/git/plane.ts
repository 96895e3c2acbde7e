// The `<plane>_git` history plane (DESIGN §6): Commit, Branch, Tag, Head and Rebase nodes with
// PARENT, TIP, TAGS, ON, ONTO and REPLACED edges. Append-mostly: a commit node is written once
// and never rewritten (commits are immutable); only the moving refs (branches, tags, HEAD) and
// rebases still in progress are patched. Reading (async, git) is split from writing (sync, inside
// the caller's transaction) so a fold can write its code plane and history in one commit.
import type { EdgeFact, NodeFact, PropValue, Props } from "../model/facts.js";
import { compareEdges } from "../resolve/common.js";
import { applyFacts } from "../sync/apply.js";
import { readNodeKeys, readNodesByPrimaryLabel } from "../store/reader.js";
import type { Reader, Writer } from "../store/types.js";
import type { CommitInfo, GitRepo, ReflogEntry } from "./repo.js";

/** `_generated_by` of every history fact: nobody edits history by hand. */
export const GIT_BUILD = "git";
/** Commits read on a first build (newest first, across every ref); the ledger says when it bit. */
export const DEFAULT_MAX_COMMITS = 10_000;

export function gitPlaneName(plane: string): string {
  return `${plane}_git`;
}

export const commitKey = (sha: string): string => `commit:${sha}`;
export const branchKey = (name: string): string => `branch:${name}`;
export const tagKey = (name: string): string => `tag:${name}`;
export const HEAD_KEY = "head";

interface EdgeRef {
  src: string;
  type: string;
  dst: string;
  props: Props;
}

/** What one history update writes: computed by readGitPlane, applied by writeGitPlane. */
export interface GitPlaneDelta {
  plane: string;
  createPlane: boolean;
  /** Nodes to create, or whose labels/props replace the stored ones (moving refs). */
  upsert: NodeFact[];
  /** Keys of nodes to delete (branches and tags that are gone). */
  remove: string[];
  addEdges: EdgeRef[];
  removeEdges: { src: string; type: string; dst: string }[];
  props: Record<string, PropValue | null>;
  /** New commits read in this update. */
  newCommits: number;
}

export function isEmptyDelta(d: GitPlaneDelta): boolean {
  return (
    !d.createPlane &&
    d.upsert.length === 0 &&
    d.remove.length === 0 &&
    d.addEdges.length === 0 &&
    d.removeEdges.length === 0 &&
    Object.keys(d.props).length === 0
  );
}

export interface ReadGitOptions {
  /** Commits read at most in one update (the first build reads history up to it). */
  maxCommits?: number;
  /** The code plane's tree, recorded as the history plane's synced_root. */
  root?: string;
}

interface Rebase {
  key: string;
  props: Props;
  onto?: string;
  replaced: string[];
}

const stamp = (p: Props): Props => ({ ...p, _generated_by: GIT_BUILD });

function commitFact(c: CommitInfo): NodeFact {
  const isMerge = c.parents.length > 1;
  return {
    key: commitKey(c.sha),
    labels: isMerge ? ["Commit", "Merge"] : ["Commit"],
    props: stamp({
      sha: c.sha,
      short: c.sha.slice(0, 7),
      summary: c.summary,
      author: c.author,
      author_email: c.authorEmail,
      committed_at: c.committedAt,
      committed_ts: c.committedTs,
      is_merge: isMerge,
    }),
  };
}

/** A max-heap of commits by committer time (ties by sha), for newest-first history walks. */
class NewestFirst {
  private readonly items: CommitInfo[] = [];
  get size(): number {
    return this.items.length;
  }
  private before(a: CommitInfo, b: CommitInfo): boolean {
    return a.committedTs > b.committedTs || (a.committedTs === b.committedTs && a.sha < b.sha);
  }
  push(c: CommitInfo): void {
    const xs = this.items;
    xs.push(c);
    let i = xs.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.before(xs[i]!, xs[p]!)) break;
      [xs[i], xs[p]] = [xs[p]!, xs[i]!];
      i = p;
    }
  }
  pop(): CommitInfo | undefined {
    const xs = this.items;
    const top = xs[0];
    const last = xs.pop();
    if (xs.length > 0 && last) {
      xs[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < xs.length && this.before(xs[l]!, xs[m]!)) m = l;
        if (r < xs.length && this.before(xs[r]!, xs[m]!)) m = r;
        if (m === i) break;
        [xs[i], xs[m]] = [xs[m]!, xs[i]!];
        i = m;
      }
    }
    return top;
  }
}

/**
 * Rebases reconstructed from HEAD's reflog, oldest first. Best-effort by nature: the reflog is
 * local and expires, and its wording differs across git versions.
 */
export function rebasesFromReflog(entries: ReflogEntry[]): { startTs: number; oldTip: string; onto: string; steps: number; completed: boolean; aborted: boolean; branch?: string; result?: string; finishedTs?: number }[] {
  const out: ReturnType<typeof rebasesFromReflog> = [];
  let cur: (typeof out)[number] | undefined;
  const RE = /^rebase(?: -[im])?(?: \(([a-z]+)\))?:? ?(.*)$/;
  for (const e of entries) {
    const finished = /^rebase(?: -[im])? finished: (.*)$/.exec(e.message);
    const m = finished ? null : RE.exec(e.message);
    const action = finished ? "finish" : m?.[1];
    const rest = finished ? finished[1]! : (m?.[2] ?? "");
    if (!finished && !m) continue;
    if (action === "start" || (!action && /^checkout /.test(rest))) {
      if (cur) out.push(cur);
      cur = { startTs: e.ts, oldTip: e.old, onto: e.new, steps: 0, completed: false, aborted: false };
      continue;
    }
    if (!cur) continue;
    if (action === "finish" || action === "abort") {
      const b = /refs\/heads\/(\S+)/.exec(rest);
      if (b) cur.branch = b[1]!;
      cur.completed = action === "finish";
      cur.aborted = action === "abort";
      cur.result = e.new;
      cur.finishedTs = e.ts;
      out.push(cur);
      cur = undefined;
      continue;
    }
    if (action === undefined || ["pick", "reword", "edit", "squash", "fixup", "continue", "merge"].includes(action)) cur.steps++;
  }
  if (cur) out.push(cur);
  return out;
}

/** The edges out of `nodes`, by src, type and dst key. */
function edgesOutOf(r: Reader, plane: string, nodes: { id: number }[]): Map<string, { props: Props }> {
  const out = nodes.flatMap((n) => r.edgesOut(plane, n.id));
  const keyOf = new Map(readNodeKeys(r, plane, [...new Set(out.flatMap((e) => [e.src, e.dst]))]).map(({ id, key }) => [id, key]));
  const edges = new Map<string, { props: Props }>();
  for (const e of out) {
    const src = keyOf.get(e.src);
    const dst = keyOf.get(e.dst);
    if (src !== undefined && dst !== undefined) edges.set(`${src}\u0000${e.type}\u0000${dst}`, { props: e.props });
  }
  return edges;
}

/** The labels of what moves in a history plane (commits never change), one per node. */
const MOVING_LABELS = ["Branch", "Tag", "Head", "Rebase"] as const;
/** The properties of those nodes that name a commit a walk started from. */
const TIP_PROPS = ["tip", "target", "sha", "onto", "replaced_tip", "result"] as const;

function iso(ts: number): string {
  return new Date(ts * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * Work out what the history plane `plane` lacks or holds stale, reading git and the store.
 * Commits already in the plane stop the walk (their ancestors were read with them), so an
 * update reads only the new commits; a first build reads up to `maxCommits`, newest first.
 */
export async function readGitPlane(repo: GitRepo, r: Reader, plane: string, opts: ReadGitOptions = {}): Promise<GitPlaneDelta> {
  const max = opts.maxCommits ?? DEFAULT_MAX_COMMITS;
  const info = r.getPlane(plane);
  const has = (key: string) => (info ? r.getNodeByKey(plane, key) !== undefined : false);
  const delta: GitPlaneDelta = {
    plane,
    createPlane: !info,
    upsert: [],
    remove: [],
    addEdges: [],
    removeEdges: [],
    props: {},
    newCommits: 0,
  };

  const head = await repo.head();
  const headRef = await repo.headRef();
  const branches = await repo.branches();
  const tags = await repo.tags();
  const reflog = await repo.reflog("HEAD").catch(() => [] as ReflogEntry[]);
  const rebases = rebasesFromReflog(reflog);

  // What the plane's moving part holds — read first: a tip it records (a branch's, a tag's, HEAD's,
  // a rebase's) was walked by the update that wrote it, so only a tip that moved is walked again.
  // One label each, as written below: read by the label index alone (finding a label in second
  // place would scan the whole plane, commits included, once per database commit).
  const haveNodes = new Map<string, { labels: string[]; props: Props; id: number }>();
  const walked = new Set<string>();
  if (info) {
    for (const label of MOVING_LABELS) {
      for (const n of readNodesByPrimaryLabel(r, plane, label)) {
        haveNodes.set(n.key, { labels: n.labels, props: n.props, id: n.id });
        for (const p of TIP_PROPS) if (typeof n.props[p] === "string") walked.add(n.props[p]);
      }
    }
  }

  // New commits: newest first from every tip, stopping at commits the plane holds — and, on a
  // plane whose first read was bounded, at commits older than what it read (the ledger says
  // older commits are not in the plane: an update must not read them back a window at a time).
  const prior = info?.props.ledger as Props | undefined;
  const floorTs = prior?.truncated === true && typeof prior.oldest_ts === "number" ? prior.oldest_ts : undefined;
  const fresh = new Map<string, CommitInfo>();
  const queued = new Set<string>();
  const heap = new NewestFirst();
  const enqueue = async (sha: string | undefined) => {
    if (!sha || queued.has(sha) || has(commitKey(sha))) return;
    queued.add(sha);
    try {
      const c = await repo.commitInfo(sha);
      if (floorTs === undefined || c.committedTs >= floorTs) heap.push(c);
    } catch {
      // pruned or never fetched: history simply ends there
    }
  };
  const tips = [head, ...branches.map((b) => b.sha), ...tags.map((t) => t.sha)];
  // Commits a rebase replaced are kept while git still has them (they are history too).
  for (const rb of rebases) tips.push(rb.oldTip, rb.onto, rb.result);
  for (const t of tips) if (t === undefined || !walked.has(t)) await enqueue(t);
  let truncated = false;
  while (heap.size > 0) {
    if (fresh.size >= max) {
      truncated = true;
      break;
    }
    const c = heap.pop()!;
    fresh.set(c.sha, c);
    for (const p of c.parents) await enqueue(p);
  }
  const present = (sha: string) => fresh.has(sha) || has(commitKey(sha));
  for (const c of fresh.values()) {
    delta.upsert.push(commitFact(c));
    c.parents.forEach((p, i) => {
      if (present(p)) delta.addEdges.push({ src: commitKey(c.sha), type: "PARENT", dst: commitKey(p), props: stamp({ order: i + 1 }) });
    });
  }
  delta.newCommits = fresh.size;

  // Moving refs: what they should be, against what the plane holds.
  const wantNodes = new Map<string, NodeFact>();
  const wantEdges = new Map<string, EdgeRef>();
  const edge = (src: string, type: string, dst: string, props: Props = {}) => {
    wantEdges.set(`${src}\u0000${type}\u0000${dst}`, { src, type, dst, props: stamp(props) });
  };
  const headBranch = headRef?.startsWith("refs/heads/") ? headRef.slice("refs/heads/".length) : undefined;
  for (const b of branches) {
    const key = branchKey(b.name);
    const props: Props = { name: b.name, is_head: !b.remote && b.name === headBranch, tip: b.sha };
    if (b.remote) props.remote = b.remote;
    wantNodes.set(key, { key, labels: ["Branch"], props: stamp(props) });
    edge(key, "TIP", commitKey(b.sha));
  }
  for (const t of tags) {
    const key = tagKey(t.name);
    const props: Props = { name: t.name, target: t.sha };
    if (t.taggedTs !== undefined) props.tagged_ts = t.taggedTs;
    wantNodes.set(key, { key, labels: ["Tag"], props: stamp(props) });
    edge(key, "TAGS", commitKey(t.sha));
  }
  const headProps: Props = { detached: headBranch === undefined && head !== undefined };
  if (head) headProps.sha = head;
  if (headBranch) headProps.branch = headBranch;
  wantNodes.set(HEAD_KEY, { key: HEAD_KEY, labels: ["Head"], props: stamp(headProps) });
  if (head) edge(HEAD_KEY, "TIP", commitKey(head));
  if (headBranch && branches.some((b) => b.name === headBranch && !b.remote)) edge(HEAD_KEY, "ON", branchKey(headBranch));

  // Rebases: one node per reconstructed rebase, keyed by when it started and what it left.
  const rebaseNodes: Rebase[] = [];
  for (const rb of rebases) {
    const key = `rebase:${iso(rb.startTs)}:${rb.oldTip.slice(0, 7)}`;
    const props: Props = {
      branch: rb.branch ?? "(unknown)",
      steps: rb.steps,
      completed: rb.completed,
      started_at: iso(rb.startTs),
      onto: rb.onto,
      replaced_tip: rb.oldTip,
    };
    if (rb.aborted) props.aborted = true;
    if (rb.finishedTs !== undefined) props.finished_at = iso(rb.finishedTs);
    if (rb.result) props.result = rb.result;
    // The commits replaced: the old tip's first-parent line, as many as were picked (best-effort).
    const replaced: string[] = [];
    if (rb.completed) {
      let sha: string | undefined = rb.oldTip;
      for (let i = 0; i < rb.steps && sha && sha !== rb.onto; i++) {
        replaced.push(sha);
        const c: CommitInfo | undefined = fresh.get(sha) ?? (await repo.commitInfo(sha).catch(() => undefined));
        sha = c?.parents[0];
      }
    }
    props.replaced = replaced;
    rebaseNodes.push({ key, props, onto: rb.onto, replaced });
  }
  for (const rb of rebaseNodes) {
    wantNodes.set(rb.key, { key: rb.key, labels: ["Rebase"], props: stamp(rb.props) });
    if (rb.onto) edge(rb.key, "ONTO", commitKey(rb.onto));
    for (const s of rb.replaced) edge(rb.key, "REPLACED", commitKey(s));
  }

  // Diff the moving part against the plane (commits are never in it: they are immutable). A node
  // whose labels and properties are unchanged holds the edges the last update gave it: they follow
  // from its properties and from which commits the plane had, and commits arrive only as this
  // update's new ones. So only a changed or removed node's edges are read back and compared.
  const changed = new Set<string>();
  for (const [key, n] of wantNodes) {
    const h = haveNodes.get(key);
    if (!h || canon(h.labels) !== canon(n.labels) || canon(h.props) !== canon(n.props)) {
      delta.upsert.push(n);
      changed.add(key);
    }
  }
  // A rebase the reflog forgot stays, with its edges.
  for (const key of haveNodes.keys()) if (!wantNodes.has(key) && !key.startsWith("rebase:")) delta.remove.push(key);
  const haveEdges = edgesOutOf(r, plane, [...changed, ...delta.remove].flatMap((k) => haveNodes.get(k) ?? []));
  const commitOf = (key: string) => (key.startsWith("commit:") ? key.slice("commit:".length) : undefined);
  for (const [id, e] of wantEdges) {
    const sha = commitOf(e.dst);
    if (!changed.has(e.src)) {
      if (sha !== undefined && fresh.has(sha)) delta.addEdges.push(e);
      continue;
    }
    if (sha !== undefined && !present(sha)) continue;
    const h = haveEdges.get(id);
    if (!h || canon(h.props) !== canon(e.props)) delta.addEdges.push(e);
  }
  for (const [id] of haveEdges) {
    if (wantEdges.has(id)) continue;
    const [src, type, dst] = id.split("\u0000") as [string, string, string];
    delta.removeEdges.push({ src, type, dst });
  }

  // Plane properties: the commit HEAD is at, the tree, and what the history read covers.
  const want: Record<string, PropValue> = {};
  if (head) want.synced_commit = head;
  if (opts.root) want.synced_root = opts.root;
  if (!info) {
    let oldest: number | undefined;
    for (const c of fresh.values()) if (oldest === undefined || c.committedTs < oldest) oldest = c.committedTs;
    want.ledger = {
      at: Math.floor(Date.now() / 1000),
      commits_read: fresh.size,
      max_commits: max,
      truncated,
      ...(truncated && oldest !== undefined ? { oldest_ts: oldest } : {}),
      note: truncated
        ? `history read newest first up to ${max} commits; older commits are not in this plane`
        : "whole reachable history read",
    };
  } else if (truncated) {
    want.ledger = { ...(info.props.ledger as Props | undefined), last_update_truncated: true, max_commits: max };
  }
  for (const [k, v] of Object.entries(want)) if (!info || canon(info.props[k]) !== canon(v)) delta.props[k] = v;
  return delta;
}

function canon(v: unknown): string {
  if (v === undefined) return "undefined";
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canon).join(",")}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canon(o[k])}`)
    .join(",")}}`;
}

export interface GitWriteStats {
  nodes: number;
  edges: number;
}

/** Apply a delta inside the caller's transaction. Endpoints are looked up by key, so it stays valid. */
/**
 * The first write of a history plane: nothing there to look up, so the facts go in as applyFacts
 * creates a fresh plane's (in batches). As the general path leaves them: one edge per src, type
 * and dst, with the last props given for it.
 */
function writeNewGitPlane(w: Writer, d: GitPlaneDelta): GitWriteStats {
  const edges = new Map<string, EdgeFact>();
  for (const e of d.addEdges) edges.set(`${e.src}\u0000${e.type}\u0000${e.dst}`, { type: e.type, src: e.src, dst: e.dst, props: e.props });
  const facts = {
    nodes: [...d.upsert].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
    edges: [...edges.values()].sort(compareEdges),
  };
  applyFacts(w, d.plane, facts, { nodes: new Map(), edges: new Map() }, { keepState: false });
  if (Object.keys(d.props).length > 0) w.setPlaneProps(d.plane, d.props);
  const keys = new Set(d.upsert.map((n) => n.key));
  return { nodes: d.upsert.length, edges: d.addEdges.filter((e) => keys.has(e.src) && keys.has(e.dst)).length };
}

export function writeGitPlane(w: Writer, d: GitPlaneDelta): GitWriteStats {
  const stats: GitWriteStats = { nodes: 0, edges: 0 };
  if (isEmptyDelta(d)) return stats;
  if (!w.getPlane(d.plane)) {
    w.createPlane(d.plane);
    return writeNewGitPlane(w, d);
  }
  for (const key of d.remove) {
    const n = w.getNodeByKey(d.plane, key);
    if (n) {
      w.deleteNode(d.plane, n.id);
      stats.nodes++;
    }
  }
  for (const n of d.upsert) {
    const prior = w.getNodeByKey(d.plane, n.key);
    if (!prior) w.createNode(d.plane, n);
    else if (n.key.startsWith("commit:")) continue; // commits are immutable: never rewritten
    else w.updateNode(d.plane, prior.id, { labels: n.labels, props: n.props });
    stats.nodes++;
  }
  for (const e of d.removeEdges) {
    const s = w.getNodeByKey(d.plane, e.src);
    const t = w.getNodeByKey(d.plane, e.dst);
    if (!s || !t) continue;
    for (const x of w.edgesOut(d.plane, s.id, e.type)) {
      if (x.dst !== t.id) continue;
      w.deleteEdge(d.plane, x.id);
      stats.edges++;
    }
  }
  for (const e of d.addEdges) {
    const s = w.getNodeByKey(d.plane, e.src);
    const t = w.getNodeByKey(d.plane, e.dst);
    if (!s || !t) continue;
    const prior = w.edgesOut(d.plane, s.id, e.type).find((x) => x.dst === t.id);
    if (prior) w.updateEdge(d.plane, prior.id, e.props);
    else w.createEdge(d.plane, { type: e.type, src: s.id, dst: t.id, props: e.props });
    stats.edges++;
  }
  if (Object.keys(d.props).length > 0) w.setPlaneProps(d.plane, d.props);
  return stats;
}
