// Reading files safely (DESIGN §8): which tree a verb may read, and confinement of every path
// — an argument or a node's `file` property — to that tree. Absolute paths and `..` are refused
// by shape; reads then open the path component by component without following a link out
// (text/safeopen.ts). Errors name paths relative to the tree, never an absolute one.
import { realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { DrsgError } from "../model/errors.js";
import type { PlaneInfo } from "../store/types.js";
import type { ToolContext } from "./tool.js";

/** Refuse a path by its shape: absolute, drive-prefixed, or containing a `..` segment. */
export function checkShape(rel: string): void {
  const p = rel.replace(/\\/g, "/");
  if (p.includes("\0")) throw outside(rel, "contains a NUL byte");
  if (isAbsolute(p) || /^[A-Za-z]:/.test(p) || p.startsWith("~"))
    throw outside(rel, "is absolute; paths are relative to the source tree");
  if (p.split("/").some((s) => s === "..")) throw outside(rel, "contains `..`; paths may not leave the source tree");
}

function outside(rel: string, why: string): DrsgError {
  return new DrsgError("PATH_OUTSIDE_TREE", `path '${rel}' ${why}`, { path: rel });
}

/** Is `child` (canonical) inside `root` (canonical)? */
export function isInside(root: string, child: string): boolean {
  const r = relative(root, child);
  return r === "" || (!r.startsWith(`..${sep}`) && r !== ".." && !isAbsolute(r));
}

/**
 * The canonical absolute path of `rel` inside `root`, refusing anything that leaves it
 * (symlinks included). A missing file is PATH_NOT_FOUND. A check only: what is opened next may
 * have changed since — verbs that read open through text/safeopen.ts instead.
 */
export function confine(root: string, rel: string): string {
  checkShape(rel);
  const canonRoot = realpathSync(root);
  const joined = resolve(canonRoot, rel === "" ? "." : rel);
  if (!isInside(canonRoot, joined)) throw outside(rel, "resolves outside the source tree");
  let canon: string;
  try {
    canon = realpathSync(joined);
  } catch {
    throw new DrsgError("PATH_NOT_FOUND", `path '${rel}' does not exist in the source tree`, { path: rel });
  }
  if (!isInside(canonRoot, canon)) throw outside(rel, "is a link that points outside the source tree");
  return canon;
}

/**
 * The tree a verb reads for a plane: its `synced_root` when this transport may read it
 * (stdio/CLI: anywhere; HTTP: only inside the attached tree), else the attached tree.
 */
export function treeFor(ctx: ToolContext, p: PlaneInfo | undefined): string {
  const root = p && typeof p.props.synced_root === "string" ? p.props.synced_root : undefined;
  if (root) {
    let canon: string | undefined;
    try {
      canon = realpathSync(root);
      if (!statSync(canon).isDirectory()) canon = undefined;
    } catch {
      canon = undefined;
    }
    // Over HTTP an answer never names a path of the server's file system.
    const shown = ctx.transport === "http" ? "its synced_root" : root;
    if (canon) {
      if (ctx.transport !== "http") return canon;
      if (ctx.attached && isInside(ctx.attached, canon)) return canon;
      if (!ctx.attached)
        throw new DrsgError(
          "NO_TREE",
          `plane '${p!.name}' was parsed from ${shown}, but this server has no attached tree, so no file is read over HTTP — start it with drsg serve watch --dir <tree>`,
        );
      throw new DrsgError(
        "PATH_OUTSIDE_TREE",
        `plane '${p!.name}' was parsed from a tree outside the attached tree; over HTTP only the attached tree is read`,
      );
    }
    if (!ctx.attached)
      throw new DrsgError("NO_TREE", `plane '${p!.name}' was parsed from ${shown}, which is not readable here (missing?)`);
  }
  if (ctx.attached) return ctx.attached;
  throw new DrsgError(
    "NO_TREE",
    `no source tree to read${p ? ` for plane '${p.name}'` : ""}: the plane records no synced_root and no tree is attached`,
  );
}

/** Join for display: POSIX relative path of an absolute one inside root. */
export function relPath(root: string, abs: string): string {
  return relative(root, abs).split(sep).join("/");
}

export { join };
