// The `<plane>_ops` plane: manifests of the tree at the plane's commit → Workload / Image facts,
// reconciled like code facts (parser-owned, `_generated_by: ops`), joined to `<plane>_git`.
import type { Facts } from "../model/facts.js";
import type { Reader, Store, Writer } from "../store/types.js";
import { type ApplyStats, applyFacts, loadPlaneState } from "../sync/apply.js";
import { type HistoryIndex, type OpsFile, isManifestPath, opsFacts } from "./manifests.js";

export const OPS_BUILD = "ops";

export function opsPlaneName(plane: string): string {
  return `${plane}_ops`;
}

/** Commits and tags the history plane holds. */
export function historyIndex(r: Reader, gitPlane: string): HistoryIndex {
  // Read on first use: only an image tag that names a revision or a version needs it, and the
  // commits of a long history are thousands of rows.
  let commits: string[] | undefined;
  let tags: Map<string, string> | undefined;
  return {
    get commits() {
      if (!commits) {
        commits = [];
        if (r.getPlane(gitPlane))
          for (const n of r.nodesByLabel(gitPlane, "Commit", 1_000_000)) if (typeof n.props.sha === "string") commits.push(n.props.sha);
      }
      return commits;
    },
    get tags() {
      if (!tags) {
        tags = new Map();
        if (r.getPlane(gitPlane))
          for (const n of r.nodesByLabel(gitPlane, "Tag", 100_000))
            if (typeof n.props.name === "string" && typeof n.props.target === "string") tags.set(n.props.name, n.props.target);
      }
      return tags;
    },
  };
}

/** Read the manifest files among a walk's files (YAML, Dockerfiles), skipping unreadable ones. */
export async function readManifests(files: { path: string }[], read: (path: string) => Promise<Uint8Array>): Promise<OpsFile[]> {
  const out: OpsFile[] = [];
  const dec = new TextDecoder("utf-8");
  for (const f of files) {
    if (!isManifestPath(f.path)) continue;
    try {
      const bytes = await read(f.path);
      if (bytes.byteLength > 4 * 1024 * 1024) continue;
      out.push({ path: f.path, text: dec.decode(bytes) });
    } catch {
      // unreadable: not a manifest we can use
    }
  }
  return out;
}

function stamp(f: Facts): Facts {
  return {
    nodes: f.nodes.map((n) => ({ ...n, props: { ...n.props, _generated_by: OPS_BUILD } })),
    edges: f.edges.map((e) => ({ ...e, props: { ...e.props, _generated_by: OPS_BUILD } })),
  };
}

/**
 * Write `<plane>_ops` inside the caller's transaction. Creates the plane only when the tree has
 * manifests (or the plane already exists). Returns undefined when there was nothing to do.
 */
export function writeOpsPlane(
  w: Writer,
  store: Store,
  plane: string,
  files: OpsFile[],
  meta: { commit?: string; root: string },
): { stats: ApplyStats; notes: string[] } | undefined {
  const ops = opsPlaneName(plane);
  const exists = w.getPlane(ops) !== undefined;
  const r = opsFacts(files, historyIndex(w, `${plane}_git`));
  if (!exists && r.facts.nodes.length === 0) return undefined;
  if (!exists) w.createPlane(ops);
  const stats = applyFacts(w, ops, stamp(r.facts), loadPlaneState(store, ops));
  w.setPlaneProps(ops, {
    synced_commit: meta.commit ?? null,
    synced_root: meta.root,
    notes: r.notes.slice(0, 200),
  });
  return { stats, notes: r.notes };
}
