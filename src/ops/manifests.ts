// Deployment manifests → the `<plane>_ops` facts: Kubernetes workloads (multi-document YAML,
// Kustomize `images:` overrides), docker-compose services, Dockerfile stages and Helm
// `values.yaml` image blocks. Each Workload RUNS Images; an Image whose tag carries a revision
// is BUILT_FROM a `commit:<sha>` stand-in that joins it to the `<plane>_git` plane.
import { posix } from "node:path";
import { onFirstUse } from "../lazy.js";
import type { Document, LineCounter } from "yaml";

type YamlLib = typeof import("yaml");
/** A library warning (a Helm template's `{{ }}` read as a map key) is not printed on the user's terminal. */
const QUIET = { logLevel: "error" } as const;

/** The yaml package, loaded on first use (~70 ms to import; drsg-mcp starts without it). */
const yaml = onFirstUse<YamlLib>("yaml");
import type { EdgeFact, Facts, NodeFact } from "../model/facts.js";
import { type ImageRef, MAX_REFERENCE, parseImage, tagMeaning } from "./image.js";

export interface OpsFile {
  path: string;
  text: string;
}

/** What the history plane knows, to join tags to commits. */
export interface HistoryIndex {
  /** Full shas of every commit known. */
  commits: string[];
  /** Tag name → commit sha. */
  tags: Map<string, string>;
}

export interface OpsResult {
  facts: Facts;
  notes: string[];
}

const K8S_KINDS = new Set(["Deployment", "StatefulSet", "DaemonSet", "Job", "CronJob", "Pod", "ReplicaSet"]);

/**
 * Lockfiles written in YAML: generated, often the largest YAML in a repository (pnpm's run to
 * hundreds of kilobytes), and never a deployment.
 */
const YAML_LOCKFILES: ReadonlySet<string> = new Set(["pnpm-lock.yaml", "conda-lock.yml", "conda-lock.yaml"]);

export function isManifestPath(path: string): boolean {
  const base = posix.basename(path).toLowerCase();
  if (base === "dockerfile" || base.startsWith("dockerfile.") || base.endsWith(".dockerfile")) return true;
  return (base.endsWith(".yaml") || base.endsWith(".yml")) && !YAML_LOCKFILES.has(base);
}

interface Found {
  workload: { kind: string; name: string; namespace?: string; file: string; line: number };
  images: { raw: string; line: number }[];
}

function lineOf(lc: LineCounter, offset: number | undefined): number {
  return offset === undefined ? 1 : lc.linePos(offset).line;
}

function containersOf(spec: unknown): { image?: unknown }[] {
  const s = spec as { containers?: unknown; initContainers?: unknown } | undefined;
  const out: { image?: unknown }[] = [];
  for (const list of [s?.containers, s?.initContainers]) if (Array.isArray(list)) out.push(...(list as { image?: unknown }[]));
  return out;
}

function podSpecOf(kind: string, doc: Record<string, unknown>): unknown {
  const spec = doc.spec as Record<string, unknown> | undefined;
  if (!spec) return undefined;
  if (kind === "Pod") return spec;
  if (kind === "CronJob") return ((spec.jobTemplate as { spec?: { template?: { spec?: unknown } } })?.spec?.template)?.spec;
  return (spec.template as { spec?: unknown } | undefined)?.spec;
}

/** Find the line of `image:` values in a YAML document by walking its nodes. */
function imageLines(d: Document, lc: LineCounter): Map<string, number> {
  const lines = new Map<string, number>();
  const visit = (n: unknown) => {
    if (!n || typeof n !== "object") return;
    const node = n as { items?: unknown[]; key?: { value?: unknown }; value?: { value?: unknown; range?: number[] } };
    if (node.key && node.key.value === "image" && node.value && typeof node.value.value === "string")
      if (!lines.has(node.value.value)) lines.set(node.value.value, lineOf(lc, node.value.range?.[0]));
    if (Array.isArray(node.items)) for (const it of node.items) visit(it);
    if (node.value && typeof node.value === "object") visit(node.value);
  };
  visit(d.contents);
  return lines;
}

function kubernetes(f: OpsFile, docs: { doc: Document; js: unknown }[], lc: LineCounter, out: Found[]): void {
  for (const { doc, js } of docs) {
    const o = js as Record<string, unknown> | null;
    if (!o || typeof o !== "object" || typeof o.kind !== "string" || !K8S_KINDS.has(o.kind)) continue;
    const meta = (o.metadata as { name?: unknown; namespace?: unknown } | undefined) ?? {};
    const lines = imageLines(doc, lc);
    const images = containersOf(podSpecOf(o.kind, o))
      .map((c) => c.image)
      .filter((i): i is string => typeof i === "string")
      .map((raw) => ({ raw, line: lines.get(raw) ?? lineOf(lc, doc.range?.[0]) }));
    out.push({
      workload: {
        kind: o.kind,
        name: typeof meta.name === "string" ? meta.name : "(unnamed)",
        namespace: typeof meta.namespace === "string" ? meta.namespace : undefined,
        file: f.path,
        line: lineOf(lc, doc.range?.[0]),
      },
      images,
    });
  }
}

function compose(f: OpsFile, js: unknown, lc: LineCounter, doc: Document, out: Found[]): void {
  const services = (js as { services?: Record<string, { image?: unknown }> } | null)?.services;
  if (!services || typeof services !== "object") return;
  const lines = imageLines(doc, lc);
  for (const [name, svc] of Object.entries(services)) {
    const raw = svc && typeof svc.image === "string" ? svc.image : undefined;
    out.push({
      workload: { kind: "ComposeService", name, file: f.path, line: raw ? (lines.get(raw) ?? 1) : 1 },
      images: raw ? [{ raw, line: lines.get(raw) ?? 1 }] : [],
    });
  }
}

/** The line of the key at `path` (map keys from the document's root), or undefined. */
function keyLine(doc: Document, lc: LineCounter, path: string[]): number | undefined {
  let node: unknown = doc.contents;
  let line: number | undefined;
  for (const seg of path) {
    const items = (node as { items?: { key?: { value?: unknown; range?: number[] }; value?: unknown }[] } | null)?.items;
    const pair = Array.isArray(items) ? items.find((it) => it?.key && String(it.key.value) === seg) : undefined;
    if (!pair) return undefined;
    line = pair.key?.range ? lineOf(lc, pair.key.range[0]) : undefined;
    node = pair.value;
  }
  return line;
}

/** Helm values: every `image:` block ({repository, tag, registry?, digest?}) or string, at the line of its `image:` key. */
function helmValues(f: OpsFile, js: unknown, lc: LineCounter, doc: Document, out: Found[]): void {
  const chart = posix.basename(posix.dirname(f.path)) || "chart";
  const walk = (v: unknown, path: string[]) => {
    if (!v || typeof v !== "object" || Array.isArray(v)) return;
    for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
      if (k === "image") {
        let raw: string | undefined;
        if (typeof val === "string") raw = val;
        else if (val && typeof val === "object") {
          const b = val as { repository?: unknown; tag?: unknown; registry?: unknown; digest?: unknown };
          if (typeof b.repository === "string") {
            raw = `${typeof b.registry === "string" && b.registry ? `${b.registry}/` : ""}${b.repository}`;
            if (b.tag !== undefined && b.tag !== null && String(b.tag) !== "") raw += `:${String(b.tag)}`;
            if (typeof b.digest === "string" && b.digest) raw += `@${b.digest}`;
          }
        }
        if (raw) {
          const name = path.length ? `${chart}.${path.join(".")}` : chart;
          const line = keyLine(doc, lc, [...path, k]) ?? 1;
          out.push({ workload: { kind: "HelmValues", name, file: f.path, line }, images: [{ raw, line }] });
        }
      } else walk(val, [...path, k]);
    }
  };
  walk(js, []);
}

function dockerfile(f: OpsFile, out: Found[]): void {
  const stages: string[] = [];
  const lines = f.text.split("\n");
  lines.forEach((line, i) => {
    const m = /^\s*FROM\s+(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?\s*$/i.exec(line);
    if (!m) return;
    const from = m[1]!;
    const stage = m[2] ?? `stage ${stages.length}`;
    const internal = stages.includes(from);
    stages.push(stage);
    out.push({
      workload: { kind: "DockerfileStage", name: `${f.path}#${stage}`, file: f.path, line: i + 1 },
      images: internal || from.toLowerCase() === "scratch" || from.includes("$") ? [] : [{ raw: from, line: i + 1 }],
    });
  });
}

/** Kustomize `images:` overrides, by the directory of the kustomization file. */
function kustomizeOverrides(files: OpsFile[], notes: string[]): Map<string, { name: string; newName?: string; newTag?: string; digest?: string }[]> {
  const byDir = new Map<string, { name: string; newName?: string; newTag?: string; digest?: string }[]>();
  for (const f of files) {
    const base = posix.basename(f.path).toLowerCase();
    if (base !== "kustomization.yaml" && base !== "kustomization.yml") continue;
    try {
      const js = yaml().parseAllDocuments(f.text, QUIET)[0]?.toJS() as { images?: unknown } | undefined;
      if (!Array.isArray(js?.images)) continue;
      byDir.set(
        posix.dirname(f.path),
        (js.images as Record<string, unknown>[])
          .filter((x) => typeof x.name === "string")
          .map((x) => ({
            name: x.name as string,
            newName: typeof x.newName === "string" ? x.newName : undefined,
            newTag: x.newTag === undefined ? undefined : String(x.newTag),
            digest: typeof x.digest === "string" ? x.digest : undefined,
          })),
      );
    } catch (e) {
      notes.push(`${f.path}: kustomization not read (${(e as Error).message})`);
    }
  }
  return byDir;
}

function applyKustomize(path: string, raw: string, byDir: ReturnType<typeof kustomizeOverrides>): string {
  let dir = posix.dirname(path);
  for (;;) {
    for (const o of byDir.get(dir) ?? []) {
      const img = parseImage(raw);
      if (!img) return raw;
      const bare = img.registry ? `${img.registry}/${img.repository}` : img.repository;
      if (bare !== o.name && img.repository !== o.name) continue;
      let out = o.newName ?? bare;
      const tag = o.newTag ?? img.tag;
      if (tag) out += `:${tag}`;
      const digest = o.digest ?? img.digest;
      if (digest) out += `@${digest}`;
      return out;
    }
    if (dir === "." || dir === "" || dir === "/") return raw;
    dir = posix.dirname(dir);
  }
}

/** Build the `_ops` facts for a tree's manifests, joined to the history it has. */
export function opsFacts(files: OpsFile[], history: HistoryIndex): OpsResult {
  const notes: string[] = [];
  const found: Found[] = [];
  const overrides = kustomizeOverrides(files, notes);
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const base = posix.basename(f.path).toLowerCase();
    if (base === "dockerfile" || base.startsWith("dockerfile.") || base.endsWith(".dockerfile")) {
      dockerfile(f, found);
      continue;
    }
    if (!base.endsWith(".yaml") && !base.endsWith(".yml")) continue;
    if (base.startsWith("kustomization.")) continue;
    const lc = new (yaml().LineCounter)();
    let docs: Document[];
    try {
      docs = yaml().parseAllDocuments(f.text, { ...QUIET, lineCounter: lc }) as Document[];
    } catch (e) {
      notes.push(`${f.path}: malformed YAML, skipped (${(e as Error).message.split("\n")[0]})`);
      continue;
    }
    const ok: { doc: Document; js: unknown }[] = [];
    for (const d of docs) {
      if (d.errors.length > 0) {
        notes.push(`${f.path}:${lineOf(lc, d.errors[0]!.pos[0])}: malformed YAML document skipped (${d.errors[0]!.message.split("\n")[0]})`);
        continue;
      }
      try {
        ok.push({ doc: d, js: d.toJS({ maxAliasCount: 100 }) });
      } catch (e) {
        notes.push(`${f.path}: YAML document not read (${(e as Error).message.split("\n")[0]})`);
      }
    }
    const before = found.length;
    if (/^(docker-)?compose(\.[\w-]+)?\.ya?ml$/.test(base)) {
      for (const x of ok) compose(f, x.js, lc, x.doc, found);
      continue;
    }
    kubernetes(f, ok, lc, found);
    if (found.length === before && /^values(\.[\w-]+)?\.ya?ml$/.test(base)) for (const x of ok) helmValues(f, x.js, lc, x.doc, found);
  }

  const nodes = new Map<string, NodeFact>();
  const edges = new Map<string, EdgeFact>();
  const edge = (type: string, src: string, dst: string, props: EdgeFact["props"] = {}) => {
    const id = `${src}\u0000${type}\u0000${dst}`;
    if (!edges.has(id)) edges.set(id, { type, src, dst, props });
  };
  for (const x of found) {
    const w = x.workload;
    const key = `workload:${w.kind}/${w.namespace ? `${w.namespace}/` : ""}${w.name}@${w.file}`;
    const props: NodeFact["props"] = { kind: w.kind, name: w.name, file: w.file, line: w.line };
    if (w.namespace) props.namespace = w.namespace;
    if (!nodes.has(key)) nodes.set(key, { key, labels: ["Workload"], props });
    for (const im of x.images) {
      const raw = applyKustomize(w.file, im.raw, overrides);
      if (raw.length > MAX_REFERENCE) {
        notes.push(`${w.file}:${im.line}: image reference of ${raw.length} characters skipped (over ${MAX_REFERENCE})`);
        continue;
      }
      const img = parseImage(raw);
      if (!img) {
        notes.push(`${w.file}:${im.line}: not an image reference, skipped: ${JSON.stringify(raw.slice(0, 80))}`);
        continue;
      }
      const ikey = `image:${img.reference}`;
      if (!nodes.has(ikey)) nodes.set(ikey, { key: ikey, labels: ["Image"], props: imageProps(img, history) });
      const rp: EdgeFact["props"] = { line: im.line };
      if (raw !== im.raw) rp.kustomized_from = im.raw;
      edge("RUNS", key, ikey, rp);
      const built = builtFrom(img, history);
      if (built) {
        const ckey = `commit:${built.sha}`;
        if (!nodes.has(ckey)) nodes.set(ckey, { key: ckey, labels: ["Commit", "External"], props: { sha: built.sha } });
        edge("BUILT_FROM", ikey, ckey, { via: built.via });
      }
    }
  }
  return {
    facts: {
      nodes: [...nodes.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
      edges: [...edges.values()].sort((a, b) =>
        a.src !== b.src ? (a.src < b.src ? -1 : 1) : a.type !== b.type ? (a.type < b.type ? -1 : 1) : a.dst < b.dst ? -1 : a.dst > b.dst ? 1 : 0,
      ),
    },
    notes,
  };
}

function builtFrom(img: ImageRef, h: HistoryIndex): { sha: string; via: string } | undefined {
  const m = tagMeaning(img);
  if (m.kind === "revision") {
    const hits = h.commits.filter((c) => c.startsWith(m.hex.toLowerCase()));
    if (hits.length === 1) return { sha: hits[0]!, via: `tag ${img.tag} (sha)` };
    return undefined;
  }
  if (m.kind === "version") {
    const sha = h.tags.get(m.version) ?? h.tags.get(m.version.startsWith("v") ? m.version.slice(1) : `v${m.version}`);
    if (sha) return { sha, via: `tag ${img.tag} = git tag` };
  }
  return undefined;
}

function imageProps(img: ImageRef, h: HistoryIndex): NodeFact["props"] {
  const p: NodeFact["props"] = { reference: img.reference, repository: img.registry ? `${img.registry}/${img.repository}` : img.repository };
  if (img.registry) p.registry = img.registry;
  if (img.tag) p.tag = img.tag;
  if (img.digest) p.digest = img.digest;
  const m = tagMeaning(img);
  if (m.kind === "floating") p.tag_kind = "floating";
  else if (m.kind === "digest-only") p.tag_kind = "digest-only";
  else if (m.kind === "revision") {
    p.tag_kind = "revision";
    p.revision = m.hex;
    if (!h.commits.some((c) => c.startsWith(m.hex.toLowerCase()))) p.revision_known = false;
  } else if (m.kind === "version") {
    p.tag_kind = "version";
    if (!builtFrom(img, h)) p.revision_known = false;
  } else p.tag_kind = "other";
  return p;
}
