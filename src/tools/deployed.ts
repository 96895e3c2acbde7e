// deployed: what commit a running thing was built from, and what runs a commit (and what runs
// something older or newer). A floating tag, a digest-only reference and a revision the history
// does not hold are each said in those words — never answered with nothing.
import * as z from "../model/zod.js";
import { GitRepo } from "../git/repo.js";
import { DrsgError } from "../model/errors.js";
import type { PlaneInfo, Reader, StoredNode } from "../store/types.js";
import { headerLines } from "./common.js";
import { defineTool } from "./tool.js";

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

function basePlane(name: string): string {
  return name.replace(/_(ops|git)$/, "");
}

interface Commit {
  sha: string;
  short: string;
  summary: string;
  at: string;
  ts: number;
}

function commitOf(r: Reader, gitPlane: string, sha: string): Commit | undefined {
  if (!r.getPlane(gitPlane)) return undefined;
  const n = r.getNodeByKey(gitPlane, `commit:${sha}`);
  if (!n) return undefined;
  return {
    sha,
    short: sha.slice(0, 12),
    summary: str(n.props.summary) ?? "",
    at: str(n.props.committed_at) ?? "",
    ts: typeof n.props.committed_ts === "number" ? n.props.committed_ts : 0,
  };
}

/** A revision named as a sha prefix, HEAD, a branch or a tag, resolved in the history plane. */
function resolveRev(r: Reader, gitPlane: string, rev: string): string | undefined {
  if (!r.getPlane(gitPlane)) return undefined;
  if (rev === "HEAD") return str(r.getNodeByKey(gitPlane, "head")?.props.sha);
  const br = r.getNodeByKey(gitPlane, `branch:${rev}`);
  if (br) return str(br.props.tip);
  const tg = r.getNodeByKey(gitPlane, `tag:${rev}`);
  if (tg) return str(tg.props.target);
  if (/^[0-9a-f]{4,40}$/i.test(rev)) {
    const hits = r.nodesKeyContaining(gitPlane, `commit:${rev.toLowerCase()}`, 3).filter((n) => n.key.startsWith(`commit:${rev.toLowerCase()}`));
    if (hits.length === 1) return str(hits[0]!.props.sha);
    if (hits.length > 1) throw new DrsgError("AMBIGUOUS_NAME", `deployed: revision '${rev}' matches several commits — give more of the sha`);
  }
  return undefined;
}

/** Whether `a` is an ancestor of `b` through PARENT edges of the history plane (bounded walk). */
function isAncestor(r: Reader, gitPlane: string, a: string, b: string): boolean {
  const start = r.getNodeByKey(gitPlane, `commit:${b}`);
  if (!start) return false;
  const seen = new Set<number>([start.id]);
  const queue = [start.id];
  while (queue.length > 0 && seen.size < 20_000) {
    const id = queue.shift()!;
    for (const e of r.edgesOut(gitPlane, id, "PARENT")) {
      if (seen.has(e.dst)) continue;
      const n = r.getNode(gitPlane, e.dst);
      if (!n) continue;
      if (n.props.sha === a) return true;
      seen.add(e.dst);
      queue.push(e.dst);
    }
  }
  return false;
}

function imageLine(img: StoredNode): string {
  return `${str(img.props.reference) ?? img.key}`;
}

/** How an image relates to the history: one line. */
function provenance(r: Reader, ops: string, gitPlane: string, img: StoredNode): { line: string; sha?: string } {
  const built = r.edgesOut(ops, img.id, "BUILT_FROM")[0];
  if (built) {
    const c = r.getNode(ops, built.dst);
    const sha = str(c?.props.sha) ?? "";
    const info = commitOf(r, gitPlane, sha);
    return {
      sha,
      line: info
        ? `built from commit ${info.short}  ${info.at.slice(0, 10)}  ${info.summary}  (${str(built.props.via) ?? "tag"})`
        : `built from commit ${sha.slice(0, 12)} (${str(built.props.via) ?? "tag"})`,
    };
  }
  const kind = str(img.props.tag_kind);
  const tag = str(img.props.tag) ?? "latest (implicit)";
  if (kind === "floating") return { line: `floating tag \`${tag}\` — it names no revision; what runs depends on when the image was pulled` };
  if (kind === "digest-only") return { line: `digest-only reference (${str(img.props.digest)}) — no tag names a revision; the registry alone knows what commit built it` };
  if (kind === "revision") return { line: `tag \`${tag}\` names revision ${str(img.props.revision)}, which this history does not hold` };
  if (kind === "version") return { line: `tag \`${tag}\` names a version that matches no git tag in this history` };
  return { line: `tag \`${tag}\` names no revision drsg can read` };
}

export const deployed = defineTool({
  name: "deployed",
  description:
    "What is deployed, from the manifests in the tree (Kubernetes, docker-compose, Dockerfiles, Helm values): given a workload, image or manifest file — what commit it was built from; given a commit (sha, HEAD, a tag, a branch) — what runs it, and what runs something older or newer. Floating tags, digest-only references and unknown revisions are said as such.",
  input: z.strictObject({ plane: z.string().check(z.minLength(1), z.maxLength(200)), name: z.string().check(z.minLength(1), z.maxLength(1000)) }),
  readOnly: true,
  cli: { positionals: ["name"] },
  async run(ctx, { plane, name }) {
    const base = basePlane(plane);
    const ops = `${base}_ops`;
    const gitPlane = `${base}_git`;
    const r = ctx.store;
    const code = r.getPlane(base);
    const head: string[] = code ? headerLines(ctx, code as PlaneInfo) : [];
    const opsPlane = r.getPlane(ops);
    if (!opsPlane)
      return [...head, `plane '${ops}' does not exist: the tree of '${base}' has no Kubernetes, compose, Dockerfile or Helm manifests drsg reads (or it was never digested with --apply)`].join("\n");
    const workloads = r.nodesByLabel(ops, "Workload", 100_000);
    const images = r.nodesByLabel(ops, "Image", 100_000);
    const lines = [...head];

    // A commit: what runs it, and what runs older / newer commits.
    let sha = resolveRev(r, gitPlane, name);
    const root = code && typeof code.props.synced_root === "string" ? code.props.synced_root : undefined;
    if (!sha && root && /[~^]|^\d{4}-\d{2}-\d{2}|^[\w./-]+$/.test(name)) {
      // HEAD~2, main^, a date: ask the repository the plane was built from.
      try {
        const repo = await GitRepo.find(root);
        const resolved = repo ? await repo.resolve(name) : undefined;
        if (resolved && r.getNodeByKey(gitPlane, `commit:${resolved}`)) sha = resolved;
      } catch {
        // not a revision
      }
    }
    if (sha) {
      const c = commitOf(r, gitPlane, sha);
      lines.push(`commit ${sha.slice(0, 12)}${c ? `  ${c.at.slice(0, 10)}  ${c.summary}` : ""}${name !== sha && !sha.startsWith(name) ? `  (via ${name})` : ""}`);
      const rows: { sha: string; ts: number; text: string; same: boolean }[] = [];
      for (const img of images) {
        const p = provenance(r, ops, gitPlane, img);
        if (!p.sha) continue;
        const runners = r.edgesIn(ops, img.id, "RUNS").map((e) => r.getNode(ops, e.src)).filter((w): w is StoredNode => w !== undefined);
        const ci = commitOf(r, gitPlane, p.sha);
        for (const w of runners)
          rows.push({
            sha: p.sha,
            ts: ci?.ts ?? 0,
            same: p.sha === sha,
            text: `${str(w.props.kind)} ${str(w.props.name)}  ${str(w.props.file)}:${w.props.line}  runs ${imageLine(img)}  (commit ${p.sha.slice(0, 12)}${ci ? ` ${ci.at.slice(0, 10)}` : ""})`,
          });
      }
      const same = rows.filter((x) => x.same);
      // Older / newer by ancestry first (commits can share a timestamp), then by time.
      const olderThan = (x: { sha: string; ts: number }) =>
        isAncestor(r, gitPlane, x.sha, sha) || (!isAncestor(r, gitPlane, sha, x.sha) && c !== undefined && x.ts < c.ts);
      const older = rows.filter((x) => !x.same && olderThan(x));
      const newer = rows.filter((x) => !x.same && !olderThan(x));
      lines.push(same.length ? `runs this commit (${same.length}):` : "nothing in the manifests runs this commit");
      for (const x of same) lines.push(`  ${x.text}`);
      if (older.length) lines.push(`runs an older commit (${older.length}):`, ...older.map((x) => `  ${x.text}`));
      if (newer.length) lines.push(`runs a newer commit (${newer.length}):`, ...newer.map((x) => `  ${x.text}`));
      const unpinned = images.filter((i) => !provenance(r, ops, gitPlane, i).sha).length;
      if (unpinned) lines.push(`${unpinned} image(s) name no revision of this history (floating tags, digests, unknown revisions) — deployed <workload> says which`);
      return lines.join("\n");
    }

    // A workload, an image or a file.
    const lower = name.toLowerCase();
    const hitsW = workloads.filter(
      (w) => str(w.props.name)?.toLowerCase() === lower || str(w.props.file) === name || w.key === name,
    );
    const hitsI = images.filter((i) => str(i.props.reference) === name || str(i.props.repository) === name || i.key === name);
    if (hitsW.length === 0 && hitsI.length === 0) {
      lines.push(`nothing deployed matches \`${name}\`, and it is not a revision of ${gitPlane}`);
      lines.push(`workloads: ${workloads.map((w) => str(w.props.name)).slice(0, 20).join(", ") || "none"}${workloads.length > 20 ? `, … and ${workloads.length - 20} more` : ""}`);
      return lines.join("\n");
    }
    for (const w of hitsW) {
      lines.push(`${str(w.props.kind)} ${str(w.props.name)}${w.props.namespace ? ` (namespace ${str(w.props.namespace)})` : ""}  ${str(w.props.file)}:${w.props.line}`);
      const runs = r.edgesOut(ops, w.id, "RUNS");
      if (runs.length === 0) lines.push("  runs no image drsg could read");
      for (const e of runs) {
        const img = r.getNode(ops, e.dst);
        if (!img) continue;
        lines.push(`  image ${imageLine(img)}${e.props.kustomized_from ? ` (kustomized from ${str(e.props.kustomized_from)})` : ""}`);
        lines.push(`    ${provenance(r, ops, gitPlane, img).line}`);
      }
    }
    for (const img of hitsI) {
      lines.push(`image ${imageLine(img)}`);
      lines.push(`  ${provenance(r, ops, gitPlane, img).line}`);
      const runners = r.edgesIn(ops, img.id, "RUNS").map((e) => r.getNode(ops, e.src)).filter((w): w is StoredNode => w !== undefined);
      for (const w of runners) lines.push(`  run by ${str(w.props.kind)} ${str(w.props.name)}  ${str(w.props.file)}:${w.props.line}`);
    }
    return lines.join("\n");
  },
});
