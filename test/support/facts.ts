// Test support: build facts for an in-memory or on-disk tree through the real pipeline
// (real plugins, real worker threads, real resolvers), without a store.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, relative, sep } from "node:path";
import type { EdgeFact, Facts, NodeFact } from "../../src/model/facts.js";
import { PluginSet, officialPlugins, type LoadedPlugin } from "../../src/plugin/host.js";
import { type BuildResult, buildFacts } from "../../src/sync/pipeline.js";

export function listTree(dir: string, base = dir, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) {
      if (name !== "node_modules") listTree(p, base, out);
    } else if (st.isFile()) out.push(relative(base, p).split(sep).join("/"));
  }
  return out;
}

export async function factsOfFiles(
  files: Record<string, string | Uint8Array>,
  opts: { treeName?: string; extraPlugins?: LoadedPlugin[]; only?: string } = {},
): Promise<BuildResult> {
  const all = [...officialPlugins(), ...(opts.extraPlugins ?? [])];
  const plugins = new PluginSet(opts.only ? all.filter((p) => p.manifest.name === opts.only) : all);
  const enc = new TextEncoder();
  return buildFacts({
    files: Object.keys(files)
      .sort()
      .map((path) => ({
        path,
        read: async () => {
          const v = files[path]!;
          return typeof v === "string" ? enc.encode(v) : v;
        },
      })),
    plugins,
    treeName: opts.treeName ?? "fixture",
  });
}

export async function factsOfDir(
  dir: string,
  opts: { extraPlugins?: LoadedPlugin[]; only?: string } = {},
): Promise<BuildResult> {
  const files: Record<string, Uint8Array> = {};
  for (const rel of listTree(dir)) files[rel] = readFileSync(join(dir, rel));
  return factsOfFiles(files, { treeName: basename(dir), ...opts });
}

/** One line per fact, for readable failure messages. */
export function describeFacts(f: Facts): string {
  const lines: string[] = [];
  for (const n of f.nodes) lines.push(`node ${n.key} ${n.labels.join(",")}`);
  for (const e of f.edges) {
    const extra = ["_resolved_by", "_confidence", "_reason", "line"]
      .filter((k) => e.props[k] !== undefined)
      .map((k) => `${k.replace(/^_/, "")}=${JSON.stringify(e.props[k])}`)
      .join(" ");
    lines.push(`edge ${e.type} ${e.src} -> ${e.dst} ${extra}`);
  }
  return lines.join("\n");
}

/** An edge's call sites, `[line, col]` each (an edge that records no sites: its line, column 0). */
export function edgeSites(e: EdgeFact): number[][] {
  return Array.isArray(e.props.sites) ? (e.props.sites as number[][]) : [[e.props.line as number, 0]];
}

/** A node that is a symbol of the tree, not an External or UnresolvedRef stand-in. */
export function inTree(n: NodeFact | undefined): n is NodeFact {
  return n !== undefined && !n.labels.includes("External") && !n.labels.includes("UnresolvedRef");
}
