// Which symbol a line of a file falls in: the innermost node of the plane whose `file` is that
// file and whose `line` ≤ L ≤ `end_line`. The per-file lists are built by one scan of the plane
// and kept until the plane changes (grep names a symbol for every hit it shows).
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
  for (const n of ctx.store.allNodes(p.name)) {
    const file = n.props.file;
    const line = n.props.line;
    if (typeof file !== "string" || typeof line !== "number" || !n.key) continue;
    if (n.labels.includes("UnresolvedRef")) continue;
    const end = typeof n.props.end_line === "number" && n.props.end_line >= line ? n.props.end_line : line;
    const f = normFile(file);
    let list = index.get(f);
    if (!list) index.set(f, (list = []));
    list.push({ line, end, key: n.key, whole: n.labels[0] === "Module" || n.labels[0] === "File" });
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
