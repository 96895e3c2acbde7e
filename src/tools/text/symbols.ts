// Which symbol a line of a file falls in: the innermost node of the plane whose `file` is that
// file and whose `line` ≤ L ≤ `end_line`. The per-file lists are built by one scan of the plane
// (the store's node sites, no property maps parsed) and kept until the plane changes.
import type { PlaneInfo } from "../../store/types.js";
import type { ToolContext } from "../tool.js";

interface Sym {
  line: number;
  end: number;
  key: string;
  /** A whole file's symbol (a module): named only when nothing narrower encloses a line. */
  whole: boolean;
}

export type SymbolIndex = Map<string, Sym[]>;

const cache = new Map<string, { stamp: string; index: SymbolIndex }>();

/** POSIX, no leading `./`: how walked paths and `file` properties are compared. */
export function normFile(f: string): string {
  return f.replace(/\\/g, "/").replace(/^(\.\/)+/, "");
}

/** The plane's symbols by file, sorted by start line (outer before inner on a tie). */
export function symbolIndex(ctx: ToolContext, p: PlaneInfo): SymbolIndex {
  const id = `${ctx.store.path}\u0000${p.name}`;
  const stamp = `${ctx.store.currentSeq()}:${p.nodeCount}:${p.edgeCount}:${String(p.props.synced_commit ?? "")}`;
  const hit = cache.get(id);
  if (hit && hit.stamp === stamp) return hit.index;
  const index: SymbolIndex = new Map();
  for (const n of ctx.store.nodeSites(p.name)) {
    if (!n.key) continue;
    const end = n.end_line !== undefined && n.end_line >= n.line ? n.end_line : n.line;
    const f = normFile(n.file);
    let list = index.get(f);
    if (!list) index.set(f, (list = []));
    list.push({ line: n.line, end, key: n.key, whole: n.label === "Module" || n.label === "File" });
  }
  for (const list of index.values()) list.sort((a, b) => a.line - b.line || b.end - a.end || (a.key < b.key ? -1 : 1));
  cache.set(id, { stamp, index });
  return index;
}

/** The innermost symbol of `file` enclosing `line` (latest start; then the shortest extent). */
export function enclosing(index: SymbolIndex, file: string, line: number): string | undefined {
  return enclosingSym(index, file, line)?.key;
}

/** Like enclosing, and whether the symbol is a whole file's. */
export function enclosingSym(index: SymbolIndex, file: string, line: number): { key: string; whole: boolean } | undefined {
  const list = index.get(normFile(file));
  if (!list) return undefined;
  let best: Sym | undefined;
  for (const s of list) {
    if (s.line > line) break;
    if (s.end < line) continue;
    if (!best || s.line > best.line || (s.line === best.line && s.end <= best.end)) best = s;
  }
  return best;
}
