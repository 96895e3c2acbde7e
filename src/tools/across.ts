// Crossing repositories: an External stand-in in one plane (`npm:@acme/ui/Button`, a Go module
// path, a Maven/Java qualified name, a crate path, a Python module) is matched to the plane
// whose build declares that coordinate (package.json name, go.mod module, pom.xml
// groupId:artifactId, Cargo.toml name, pyproject name) and to the symbol its source stands in for.
import { posix } from "node:path";
import { keyName } from "../model/facts.js";
import type { StoredNode } from "../store/types.js";
import { attachmentsOf } from "./attachments.js";
import type { ToolContext } from "./tool.js";

const SKIP = /(^|\/)(node_modules|vendor|dist|build|target|\.venv|venv|testdata|fixtures?)\//;

const coordCache = new Map<string, { commit: string; coords: string[] }>();

/** Coordinates a plane's build declares, read from its tree at its commit (cached per commit). */
export async function declaredCoordinates(ctx: ToolContext, plane: string): Promise<string[]> {
  const p = ctx.store.getPlane(plane);
  const root = typeof p?.props.synced_root === "string" ? p.props.synced_root : undefined;
  const commit = typeof p?.props.synced_commit === "string" ? p.props.synced_commit : undefined;
  if (!root || !commit) return [];
  const id = `${ctx.store.path}\u0000${plane}`;
  const hit = coordCache.get(id);
  if (hit && hit.commit === commit) return hit.coords;
  const coords = new Set<string>();
  try {
    // Loaded here: impact without `across` reads no git code.
    const { GitRepo } = await import("../git/repo.js");
    const repo = await GitRepo.find(root);
    if (repo) {
      const rel = posix.normalize(root.slice(repo.root.length).replace(/^\/+/, "")) || "";
      const entries = await repo.listTree(commit, rel === "." ? undefined : rel || undefined);
      const dec = new TextDecoder();
      for (const e of entries) {
        if (SKIP.test(e.path)) continue;
        const base = posix.basename(e.path);
        if (!["package.json", "go.mod", "Cargo.toml", "pom.xml", "pyproject.toml"].includes(base)) continue;
        const text = dec.decode(await repo.readBlob(e.oid));
        if (base === "package.json") {
          try {
            const name = (JSON.parse(text) as { name?: unknown }).name;
            if (typeof name === "string" && name) coords.add(`npm:${name}`);
          } catch {
            // not JSON
          }
        } else if (base === "go.mod") {
          const m = /^\s*module\s+(\S+)/m.exec(text);
          if (m) coords.add(`go:${m[1]}`);
        } else if (base === "Cargo.toml") {
          const m = /\[package\][^[]*?\bname\s*=\s*"([^"]+)"/s.exec(text);
          if (m) coords.add(`rust:${m[1]!.replace(/-/g, "_")}`);
        } else if (base === "pom.xml") {
          const noParent = text.replace(/<parent>[\s\S]*?<\/parent>/, "").replace(/<dependencies>[\s\S]*<\/dependencies>/, "");
          const g = /<groupId>\s*([^<\s]+)\s*<\/groupId>/.exec(noParent);
          const a = /<artifactId>\s*([^<\s]+)\s*<\/artifactId>/.exec(noParent);
          if (g && a) coords.add(`maven:${g[1]}:${a[1]}`);
          if (g) coords.add(`java:${g[1]}`);
        } else if (base === "pyproject.toml") {
          const m = /\[project\][^[]*?\bname\s*=\s*"([^"]+)"/s.exec(text);
          if (m) coords.add(`python:${m[1]!.replace(/-/g, "_")}`);
        }
      }
    }
  } catch {
    // an unreadable tree declares nothing we can see
  }
  const list = [...coords].sort();
  coordCache.set(id, { commit, coords: list });
  return list;
}

function real(n: StoredNode | undefined): n is StoredNode {
  return n !== undefined && !n.labels.includes("External") && !n.labels.includes("UnresolvedRef");
}

/** The symbol of `plane` an External key stands in for, given the coordinates the plane declares. */
export function mapExternal(ctx: ToolContext, externalKey: string, plane: string, coords: string[]): StoredNode | undefined {
  const colon = externalKey.indexOf(":");
  if (colon < 0) return undefined;
  const scheme = externalKey.slice(0, colon);
  const rest = externalKey.slice(colon + 1);
  const r = ctx.store;
  const unique = (xs: StoredNode[]) => {
    const exported = xs.filter((n) => n.props.visibility === "exported");
    const pick = exported.length > 0 ? exported : xs;
    return pick.length === 1 ? pick[0] : undefined;
  };
  if (scheme === "npm") {
    for (const c of coords) {
      if (!c.startsWith("npm:")) continue;
      const pkg = c.slice(4);
      if (rest === pkg) {
        const m = r.getNodeByKey(plane, pkg);
        return real(m) ? m : undefined;
      }
      if (!rest.startsWith(`${pkg}/`)) continue;
      // `npm:mylib/greet` is the export `greet` of the module `mylib` (its entry: index collapses
      // to the package, key `mylib.greet`) or of a file `mylib/greet`; `mylib/sub/x` likewise.
      const sym = rest.slice(pkg.length + 1);
      const slash = sym.lastIndexOf("/");
      const member = slash < 0 ? `${pkg}.${sym}` : `${pkg}/${sym.slice(0, slash)}.${sym.slice(slash + 1)}`;
      for (const key of [member, `${pkg}/${sym}`]) {
        const exact = r.getNodeByKey(plane, key);
        if (real(exact)) return exact;
      }
      const name = keyName(sym);
      return unique(r.nodesByName(plane, name, 500).filter((n) => real(n) && (n.key.startsWith(`${pkg}/`) || n.key.startsWith(`${pkg}.`))));
    }
    return undefined;
  }
  const declared =
    scheme === "go"
      ? coords.filter((c) => c.startsWith("go:")).some((c) => rest.startsWith(c.slice(3)))
      : scheme === "rust"
        ? coords.filter((c) => c.startsWith("rust:")).some((c) => rest.startsWith(`${c.slice(5)}::`))
        : scheme === "java"
          ? coords.filter((c) => c.startsWith("java:")).some((c) => rest.startsWith(`${c.slice(5)}.`))
          : scheme === "python"
            ? coords.filter((c) => c.startsWith("python:")).some((c) => rest === c.slice(7) || rest.startsWith(`${c.slice(7)}.`))
            : false;
  if (!declared) return undefined;
  const exact = r.getNodeByKey(plane, rest);
  if (real(exact)) return exact;
  if (scheme === "python") {
    const top = rest.split(".")[0]!;
    return unique(r.nodesByName(plane, keyName(rest), 500).filter((n) => real(n) && n.key.startsWith(`${top}.`)));
  }
  return undefined;
}

/**
 * Attached local planes this database does not hold (dropped, or on a database that is no longer
 * mounted), by the plane that names them: a note in answers, never an error for the group.
 */
export function danglingAttachments(ctx: ToolContext, plane: string): string[] {
  const all = ctx.store.listPlanes();
  const have = new Set(all.map((p) => p.name));
  const group = new Set([plane, ...relatedPlanes(ctx, plane)]);
  const notes: string[] = [];
  for (const p of all) {
    if (!group.has(p.name)) continue;
    for (const a of attachmentsOf(p))
      if (a.kind === "local" && !have.has(a.plane))
        notes.push(`plane '${p.name}' attaches '${a.plane}', which this database does not hold now (dropped or unmounted) — skipped; drsg detach removes the attachment`);
  }
  return notes;
}

/** Local planes related to `plane` by attachments in either direction (transitively, cycle-safe), that exist now. */
export function relatedPlanes(ctx: ToolContext, plane: string): string[] {
  const all = ctx.store.listPlanes();
  const have = new Set(all.map((p) => p.name));
  const edges = new Map<string, Set<string>>();
  const link = (a: string, b: string) => {
    if (!edges.has(a)) edges.set(a, new Set());
    edges.get(a)!.add(b);
  };
  for (const p of all)
    for (const a of attachmentsOf(p)) {
      if (a.kind !== "local" || !have.has(a.plane)) continue;
      link(p.name, a.plane);
      link(a.plane, p.name);
    }
  const seen = new Set([plane]);
  const queue = [plane];
  while (queue.length > 0) for (const n of edges.get(queue.shift()!) ?? []) if (!seen.has(n)) (seen.add(n), queue.push(n));
  seen.delete(plane);
  return [...seen].sort();
}

/** Code planes other than `plane` (no _git / _ops). */
export function otherCodePlanes(ctx: ToolContext, plane: string): string[] {
  return ctx.store
    .listPlanes()
    .map((p) => p.name)
    .filter((n) => n !== plane && !/_(git|ops)$/.test(n))
    .sort();
}
