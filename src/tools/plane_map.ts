// plane_map: a plane at a glance, aggregated before anything is drawn — the directory tree under
// `under` (or louvain communities of the file graph) as clusters sized by the symbols they
// define, with the heaviest call links between them. Descending is another call (a directory,
// a file — then its symbols — or a community). Costs one pass over the plane's graph view per
// commit (cached), then work in the number of files, never in the number of nodes drawn.
import louvainModule from "graphology-communities-louvain";
import { graphology } from "../graph/graphology.js";
import * as z from "../model/zod.js";
import { type PlaneGraph, perView } from "../graph/view.js";
import { DrsgError } from "../model/errors.js";
import { freshnessLine } from "./common.js";
import { planeOf } from "./graph_lines.js";
import { defineTool } from "./tool.js";

// The package is CommonJS (module.exports = louvain) while its types declare a default export.
const louvain = louvainModule as unknown as (typeof louvainModule)["default"];

/** Labels that are places, not symbols: not counted in a cluster's size. */
const NOT_SYMBOLS = new Set(["File", "Module", "UnresolvedRef", "Package", "Directory"]);

interface FileIndex {
  /** file → symbols defined in it */
  symbols: Map<string, number>;
  /** "fileA\0fileB" (A→B) → call sites from A to B, A ≠ B */
  calls: Map<string, number>;
  /** node id → file, for nodes that have one */
  fileOf: Map<string, string>;
}

function fileIndex(g: PlaneGraph): FileIndex {
  return perView(g, "plane_map.files", () => buildFileIndex(g));
}

function buildFileIndex(g: PlaneGraph): FileIndex {
  const symbols = new Map<string, number>();
  const fileOf = new Map<string, string>();
  g.forEachNode((id, a) => {
    if (!a.file) return;
    fileOf.set(id, a.file);
    if (!NOT_SYMBOLS.has(a.label)) symbols.set(a.file, (symbols.get(a.file) ?? 0) + 1);
    else if (!symbols.has(a.file)) symbols.set(a.file, 0);
  });
  const calls = new Map<string, number>();
  g.forEachEdge((_e, a, s, t) => {
    if (a.type !== "CALLS") return;
    const fs = fileOf.get(s);
    const ft = fileOf.get(t);
    if (!fs || !ft || fs === ft) return;
    const k = `${fs}\u0000${ft}`;
    calls.set(k, (calls.get(k) ?? 0) + (a.count ?? 1));
  });
  const idx = { symbols, calls, fileOf };
  return idx;
}

/** mulberry32: louvain's rng, seeded so the same commit always yields the same communities. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}


/** file → community, for the files under `under` (louvain over the undirected weighted file call graph). */
function fileCommunities(g: PlaneGraph, idx: FileIndex, under: string, files: string[]): Map<string, number> {
  const byUnder = perView(g, "plane_map.communities", () => new Map<string, Map<string, number>>());
  const hit = byUnder.get(under);
  if (hit) return hit;
  const fg = new (graphology().UndirectedGraph)<Record<string, never>, { weight: number }>();
  const inScope = new Set(files);
  for (const f of files) fg.addNode(f);
  for (const [k, n] of idx.calls) {
    const [a, b] = k.split("\u0000") as [string, string];
    if (!inScope.has(a) || !inScope.has(b)) continue;
    if (fg.hasEdge(a, b)) fg.updateEdgeAttribute(a, b, "weight", (w) => (w ?? 0) + n);
    else fg.addEdge(a, b, { weight: n });
  }
  const out = new Map<string, number>();
  if (fg.size === 0) for (const [i, f] of files.entries()) out.set(f, i);
  else {
    const m = louvain(fg, { getEdgeWeight: "weight", rng: seeded(0x5eed) });
    for (const f of files) out.set(f, m[f] ?? -1);
  }
  byUnder.set(under, out);
  return out;
}

function commonDir(paths: string[]): string {
  if (paths.length === 0) return "";
  let parts = paths[0]!.split("/").slice(0, -1);
  for (const p of paths.slice(1)) {
    const q = p.split("/");
    let i = 0;
    while (i < parts.length && parts[i] === q[i]) i++;
    parts = parts.slice(0, i);
  }
  return parts.join("/");
}

interface Cluster {
  id: string;
  name: string;
  kind: "dir" | "file" | "community" | "symbol" | "rest";
  symbols: number;
  files: number;
  /** What to pass to descend: `under` for a dir or file, `community` for a community. */
  under?: string;
  community?: number;
  node_id?: number;
  label?: string;
}

export const planeMap = defineTool({
  name: "plane_map",
  description:
    "The plane at a glance, aggregated: clusters — the directories and files directly under `under` (default the root; group: dir), or louvain communities of the file call graph (group: louvain) — each sized by the symbols it defines, with the heaviest CALLS links between clusters (call sites summed). Descend with `under` = a cluster's path (a file gives its symbols) or `community` = a community's number. Capped at `max_clusters` (the lightest are merged into one) and `max_links`, with true totals.",
  input: z.strictObject({
    plane: z.string().check(z.minLength(1), z.maxLength(200)),
    under: z._default(z.string().check(z.maxLength(1000)), ""),
    group: z._default(z.enum(["dir", "louvain"]), "dir"),
    community: z.optional(z.int().check(z.minimum(0), z.maximum(1_000_000))),
    max_clusters: z._default(z.int().check(z.minimum(2), z.maximum(500)), 80),
    max_links: z._default(z.int().check(z.minimum(0), z.maximum(2000)), 200),
  }),
  readOnly: true,
  pure: true,
  run(ctx, input) {
    const p = planeOf(ctx, input.plane);
    const under = input.under.replace(/^\.?\/+|\/+$/g, "");
    if (under.split("/").includes("..")) throw new DrsgError("BAD_INPUT", `plane_map: under '${input.under}' may not contain '..'`);
    if (input.community !== undefined && input.group !== "louvain") throw new DrsgError("BAD_INPUT", "plane_map: community needs group: louvain");
    const g = ctx.views.get(p.name);
    const idx = fileIndex(g);
    const inside = (f: string) => under === "" || f === under || f.startsWith(`${under}/`);
    let files = [...idx.symbols.keys()].filter(inside).sort();
    const head = { plane: p.name, synced: freshnessLine(p)?.replace(/^synced: /, "") ?? null, group: input.group };
    const totalSymbols = files.reduce((s, f) => s + idx.symbols.get(f)!, 0);

    // Which cluster each file (or, inside one file, each symbol node) falls in.
    let clusterOf: (file: string) => string | undefined;
    const clusters = new Map<string, Cluster>();
    let effective = under;
    let symbolLinks: Map<string, number> | undefined;

    if (files.length === 1 && files[0] === under) {
      // A file: its symbols are the clusters, their calls to each other the links.
      const ids: string[] = [];
      for (const [id, f] of idx.fileOf) if (f === under && !NOT_SYMBOLS.has(g.getNodeAttribute(id, "label"))) ids.push(id);
      const inFile = new Set(ids);
      symbolLinks = new Map();
      for (const id of ids) {
        const a = g.getNodeAttributes(id);
        clusters.set(id, { id, name: a.key, kind: "symbol", symbols: 1, files: 1, node_id: Number(id), label: a.label });
        g.forEachOutEdge(id, (_e, ea, _s, t) => {
          if (ea.type !== "CALLS" || !inFile.has(t) || t === id) return;
          const k = `${id}\u0000${t}`;
          symbolLinks!.set(k, (symbolLinks!.get(k) ?? 0) + (ea.count ?? 1));
        });
      }
      clusterOf = () => undefined;
    } else if (input.group === "louvain") {
      const comm = fileCommunities(g, idx, under, files);
      if (input.community !== undefined) {
        files = files.filter((f) => comm.get(f) === input.community);
        if (files.length === 0) throw new DrsgError("BAD_INPUT", `plane_map: no community ${input.community} under '${under}' at this commit`);
        for (const f of files) clusters.set(f, { id: f, name: f, kind: "file", symbols: idx.symbols.get(f)!, files: 1, under: f });
        clusterOf = (f) => (clusters.has(f) ? f : undefined);
      } else {
        const members = new Map<number, string[]>();
        for (const f of files) {
          const c = comm.get(f)!;
          const list = members.get(c);
          if (list) list.push(f);
          else members.set(c, [f]);
        }
        for (const [c, fs] of members) {
          const heaviest = [...fs].sort((a, b) => idx.symbols.get(b)! - idx.symbols.get(a)! || (a < b ? -1 : 1))[0]!;
          const dir = commonDir(fs);
          const name = fs.length === 1 ? heaviest : `${dir || "."}/ · ${heaviest.split("/").pop()} +${fs.length - 1}`;
          clusters.set(`c${c}`, { id: `c${c}`, name, kind: "community", symbols: fs.reduce((s, f) => s + idx.symbols.get(f)!, 0), files: fs.length, community: c });
        }
        clusterOf = (f) => (comm.has(f) ? `c${comm.get(f)}` : undefined);
      }
    } else {
      // The directory tree: the next path component under `under`; a lone directory is entered.
      const step = (base: string) => {
        const m = new Map<string, { kind: "dir" | "file"; files: string[] }>();
        for (const f of files) {
          const rest = base === "" ? f : f.slice(base.length + 1);
          const seg = rest.split("/")[0]!;
          const path = base === "" ? seg : `${base}/${seg}`;
          const kind = rest.includes("/") ? "dir" : "file";
          const e = m.get(path);
          if (e) e.files.push(f);
          else m.set(path, { kind, files: [f] });
        }
        return m;
      };
      let groups = step(effective);
      while (groups.size === 1 && [...groups.values()][0]!.kind === "dir") {
        effective = [...groups.keys()][0]!;
        groups = step(effective);
      }
      const owner = new Map<string, string>();
      for (const [path, e] of groups) {
        const name = effective === "" ? path : path.slice(effective.length + 1);
        clusters.set(path, { id: path, name: e.kind === "dir" ? `${name}/` : name, kind: e.kind, symbols: e.files.reduce((s, f) => s + idx.symbols.get(f)!, 0), files: e.files.length, under: path });
        for (const f of e.files) owner.set(f, path);
      }
      clusterOf = (f) => owner.get(f);
    }

    // Cap: the heaviest clusters stay, the rest merge into one.
    const sorted = [...clusters.values()].sort((a, b) => b.symbols - a.symbols || (a.id < b.id ? -1 : 1));
    const shown = sorted.slice(0, input.max_clusters - (sorted.length > input.max_clusters ? 1 : 0));
    const shownIds = new Set(shown.map((c) => c.id));
    const restOf = sorted.slice(shown.length);
    if (restOf.length > 0)
      shown.push({ id: "(rest)", name: `${restOf.length} more`, kind: "rest", symbols: restOf.reduce((s, c) => s + c.symbols, 0), files: restOf.reduce((s, c) => s + c.files, 0) });
    const final = (id: string | undefined) => (id === undefined ? undefined : shownIds.has(id) ? id : "(rest)");

    const linkW = new Map<string, number>();
    let outside = 0;
    if (symbolLinks)
      for (const [k, n] of symbolLinks) {
        const [a, b] = k.split("\u0000") as [string, string];
        const ca = final(a);
        const cb = final(b);
        if (ca === cb) continue;
        const lk = `${ca}\u0000${cb}`;
        linkW.set(lk, (linkW.get(lk) ?? 0) + n);
      }
    else {
      for (const [k, n] of idx.calls) {
        const [a, b] = k.split("\u0000") as [string, string];
        const ia = inside(a);
        const ib = inside(b);
        if (!ia && !ib) continue;
        if (ia !== ib) {
          outside += n;
          continue;
        }
        const ca = final(clusterOf(a));
        const cb = final(clusterOf(b));
        if (ca === undefined || cb === undefined || ca === cb) continue;
        const lk = `${ca}\u0000${cb}`;
        linkW.set(lk, (linkW.get(lk) ?? 0) + n);
      }
    }
    const links = [...linkW]
      .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))
      .map(([k, calls]) => {
        const [src, dst] = k.split("\u0000") as [string, string];
        return { src, dst, calls };
      });
    return {
      ...head,
      under: effective,
      community: input.community ?? null,
      total_symbols: totalSymbols,
      total_files: files.length,
      total_clusters: clusters.size,
      clusters: shown,
      total_links: links.length,
      links: links.slice(0, input.max_links),
      calls_crossing_boundary: outside,
      next: "plane_map with under = a cluster's `under` (or community = its number) descends; neighbourhood on a symbol draws its surroundings",
    };
  },
});
