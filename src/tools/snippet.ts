// snippet: source text — a symbol's declared extent, or `path:line` / `path:a-b` — read by default
// from the commit the plane reflects (its blobs: the lines are the ones the symbols were parsed
// from), or with `worktree: true` from the working tree, every path confined to it and opened
// without following a link on any component (DESIGN §8); says which symbol the range opens in
// (only where the file is unchanged since the commit) and how to read on.
import * as z from "../model/zod.js";
import { DrsgError } from "../model/errors.js";
import type { PlaneInfo, StoredNode } from "../store/types.js";
import { BUDGET, candidatesText, headerLines, matchName, missText, requirePlane, substringNote, withMatchNote } from "./common.js";
import { checkShape, treeFor } from "./files.js";
import { type ReadResult, looksBinary, splitLines } from "./text/read.js";
import { readTreeFile } from "./text/safeopen.js";
import { type TextSource, differs, readBlobCapped, resolveCommitted, sourceLine, textSource } from "./text/source.js";
import { enclosing, normFile, symbolIndex } from "./text/symbols.js";
import { type ToolContext, defineTool } from "./tool.js";

export const MAX_LINES = 400;
/** Lines shown for `path:line`, and for a symbol that records no end line. */
export const DEFAULT_LINES = 40;
/** Longest line shown whole. */
const LINE_CLIP = 1000;
/** Largest file snippet reads. */
const MAX_FILE = 32 * 1024 * 1024;

const input = z.strictObject({
  plane: z.string().check(z.minLength(1), z.maxLength(200)),
  name: z.string().check(z.minLength(1), z.maxLength(1000), z.describe("a symbol (key, key suffix or substring), or `path:line` / `path:a-b` relative to the tree")),
  lines: z.optional(z.int().check(z.minimum(1), z.maximum(MAX_LINES))).check(z.describe(`at most this many lines (default: the declared extent, or ${DEFAULT_LINES} from path:line)`)),
  worktree: z._default(z.boolean(), false).check(z.describe("read the working tree as it is now instead of the commit the plane reflects (says when the file differs from that commit)")),
});

type Input = z.infer<typeof input>;

const RANGE = /^(.*):(\d+)(?:-(\d+))?$/;

/** `path:line` or `path:a-b` — only when the part before the last `:` looks like a path (`/` or `.`, no `::`). */
export function parseRange(name: string): { path: string; a: number; b?: number } | undefined {
  const m = RANGE.exec(name);
  if (!m) return undefined;
  const path = m[1]!;
  if (path === "" || path.includes("::") || !(path.includes("/") || path.includes("."))) return undefined;
  const a = Number(m[2]);
  const b = m[3] !== undefined ? Number(m[3]) : undefined;
  if (!Number.isSafeInteger(a) || a < 1 || (b !== undefined && (!Number.isSafeInteger(b) || b < a)))
    throw new DrsgError("BAD_INPUT", `snippet: range '${name}' is not path:line or path:start-end with 1 ≤ start ≤ end`, { name });
  return { path, a, b };
}

/** A name that is a path leaving the tree by its shape: refused before any name matching. */
function pathShaped(name: string): boolean {
  return /^[/\\~]|^[A-Za-z]:/.test(name) || name.split(/[/\\]/).includes("..");
}

interface Source {
  rel: string;
  lines: string[];
  /** Read from the working tree and differs from the plane's commit: no symbol is named in it. */
  dirty?: boolean;
}

/** Where a verb call reads: the text source and the lines that open the answer. */
interface Reading {
  src: TextSource;
  head: string[];
  worktree: boolean;
}

async function reading(ctx: ToolContext, p: PlaneInfo, worktree: boolean): Promise<Reading> {
  const src = await textSource(p, treeFor(ctx, p), worktree);
  const head = headerLines(ctx, p);
  const from = sourceLine(src);
  if (from) head.push(from);
  return { src, head, worktree };
}

/** Read `rel` (an argument or a node's file property) from the source, confined to the tree. */
async function readSource(rd: Reading, rel: string, whose?: string): Promise<Source> {
  try {
    checkShape(rel);
  } catch (e) {
    if (whose && e instanceof DrsgError && e.code === "PATH_OUTSIDE_TREE")
      throw new DrsgError("PATH_OUTSIDE_TREE", `snippet: ${whose} records file '${rel}', which is refused: ${e.message}`, { path: rel });
    throw e;
  }
  const norm = normFile(rel).replace(/\/+$/, "");
  const src = rd.src;
  let r: ReadResult;
  let at = norm;
  if (src.kind === "commit") {
    const e = await resolveCommitted(src.tree, norm);
    if (e === "outside") {
      const why = "is a link that points outside the source tree — links out are never followed";
      if (whose) throw new DrsgError("PATH_OUTSIDE_TREE", `snippet: ${whose} records file '${rel}', which is refused: path '${rel}' ${why}`, { path: rel });
      throw new DrsgError("PATH_OUTSIDE_TREE", `path '${rel}' ${why}`, { path: rel });
    }
    if (!e) {
      const isDir = src.tree.files.some((f) => f.path.startsWith(`${norm}/`));
      if (isDir) throw new DrsgError("BAD_INPUT", `snippet: '${rel}' is not a file — grep with path: '${rel}' searches a directory`, { path: rel });
      const sha = src.tree.sha.slice(0, 12);
      if (whose)
        throw new DrsgError("PATH_NOT_FOUND", `snippet: ${whose} is declared in '${rel}', which is not a file in commit ${sha} — grep finds its text`, {
          path: rel,
        });
      throw new DrsgError("PATH_NOT_FOUND", `snippet: '${rel}' is not a file in commit ${sha} (the commit the plane reflects) — worktree: true reads the working tree`, {
        path: rel,
      });
    }
    r = await readBlobCapped(src.tree, e, MAX_FILE);
    at = e.path;
  } else {
    try {
      const t = readTreeFile(src.root, norm, MAX_FILE);
      r = t;
      if (t.kind === "ok" && t.rel) at = t.rel;
    } catch (e) {
      if (whose && e instanceof DrsgError && e.code === "PATH_OUTSIDE_TREE")
        throw new DrsgError("PATH_OUTSIDE_TREE", `snippet: ${whose} records file '${rel}', which is refused: ${e.message}`, { path: rel });
      if (whose && e instanceof DrsgError && e.code === "PATH_NOT_FOUND")
        throw new DrsgError(
          "PATH_NOT_FOUND",
          `snippet: ${whose} is declared in '${rel}', which is not in the working tree now — the tree moved on since the plane was synced; drop worktree to read the commit`,
          { path: rel },
        );
      if (e instanceof DrsgError && e.code === "BAD_INPUT")
        throw new DrsgError("BAD_INPUT", `snippet: '${rel}' is not a regular file`, { path: rel });
      throw e;
    }
  }
  if (r.kind === "not-file") throw new DrsgError("BAD_INPUT", `snippet: '${rel}' is not a file — grep with path: '${rel}' searches a directory`, { path: rel });
  if (r.kind === "big") throw new DrsgError("BAD_INPUT", `snippet: '${rel}' is ${r.size} bytes, too large to read`, { path: rel });
  if (r.kind === "unreadable") throw new DrsgError("PATH_NOT_FOUND", `snippet: '${rel}' cannot be read (${r.code})`, { path: rel });
  if (looksBinary(r.bytes)) throw new DrsgError("BAD_INPUT", `snippet: '${rel}' is a binary file`, { path: rel });
  const dirty = differs(src, at, r.bytes) === true;
  return { rel: at, lines: splitLines(r.bytes.toString("utf8")), ...(dirty ? { dirty } : {}) };
}

/** The line saying a working file is not the commit's (its lines may not be the symbols' now). */
function dirtyLine(rd: Reading, src: Source): string[] {
  if (!src.dirty || rd.src.kind !== "worktree" || !rd.src.tree) return [];
  return [
    `${src.rel} differs from commit ${rd.src.tree.sha.slice(0, 12)} (uncommitted edits): these are the working file's lines, and no symbol is named in them — drop worktree to read the commit`,
  ];
}

function clip(text: string): string {
  if (text.length <= LINE_CLIP) return text;
  let end = LINE_CLIP;
  const c = text.charCodeAt(end);
  if (c >= 0xdc00 && c <= 0xdfff) end--;
  return `${text.slice(0, end)}… (${text.length} characters)`;
}

/**
 * Lines a..b (1-based, b already within the file) as `%5d | text`, within the budget.
 * Returns the last line shown.
 */
function numbered(src: Source, a: number, b: number, budget: number, out: string[]): number {
  let size = 0;
  for (let i = a; i <= b; i++) {
    const l = `${String(i).padStart(5)} | ${clip(src.lines[i - 1]!)}`.trimEnd();
    if (size + l.length + 1 > budget && i > a) return i - 1;
    out.push(l);
    size += l.length + 1;
  }
  return b;
}

/**
 * Render a range: header, the symbol it opens in, numbered lines, how to read on (when the lines
 * shown stop before `target`, the last line asked for), and what to ask next.
 */
function renderRange(ctx: ToolContext, p: PlaneInfo, rd: Reading, src: Source, a: number, want: number, target: number, key?: string): string {
  const total = src.lines.length;
  const b = Math.min(total, a + want - 1);
  const head = [...rd.head, ...dirtyLine(rd, src)];
  // Symbols are the plane's: named where the text is the commit's (or the plane has no commit).
  if (!src.dirty) key ??= enclosing(symbolIndex(ctx, p), src.rel, a);
  else key = undefined;
  const body: string[] = [];
  const reserve = head.join("\n").length + src.rel.length * 3 + (key?.length ?? 0) * 2 + 300;
  const last = numbered(src, a, b, BUDGET - reserve, body);
  const out = [...head, `${src.rel}:${a}-${last} (${last - a + 1} line${last === a ? "" : "s"} of ${total})`];
  if (key) out.push(`in ${key}`);
  out.push(...body);
  const to = Math.min(total, target);
  if (last < to) {
    const y = Math.min(to, last + Math.max(want, DEFAULT_LINES), last + MAX_LINES);
    out.push(`… continues to line ${to}; snippet ${src.rel}:${last + 1}-${y}${rd.worktree ? " (worktree: true)" : ""} reads on`);
  }
  if (key) out.push(`context ${key} — callers, callees and every other edge`);
  return out.join("\n");
}

async function nodeSnippet(ctx: ToolContext, p: PlaneInfo, rd: Reading, n: StoredNode, lines: number | undefined): Promise<string> {
  const file = typeof n.props.file === "string" ? n.props.file : typeof n.props.path === "string" ? n.props.path : undefined;
  if (file === undefined) {
    const stored = typeof n.props.source === "string" ? n.props.source : typeof n.props._code === "string" ? n.props._code : undefined;
    if (stored === undefined)
      return [...headerLines(ctx, p), `${n.key} records no file and no source — describe ${n.key} shows its properties`].join("\n");
    const src: Source = { rel: n.key, lines: splitLines(stored) };
    const out = [...headerLines(ctx, p), `${n.key} (stored source, ${src.lines.length} lines)`];
    const last = numbered(src, 1, Math.min(src.lines.length, lines ?? MAX_LINES), BUDGET - 400, out);
    if (last < src.lines.length) out.push(`… ${src.lines.length - last} more line(s) not shown`);
    out.push(`context ${n.key} — callers, callees and every other edge`);
    return out.join("\n");
  }
  const src = await readSource(rd, file, n.key);
  const start = typeof n.props.line === "number" && n.props.line >= 1 ? Math.floor(n.props.line) : 1;
  if (start > src.lines.length)
    return [
      ...rd.head,
      ...dirtyLine(rd, src),
      `${n.key} is recorded at ${src.rel}:${start}, but ${src.rel} has ${src.lines.length} lines ${rd.src.kind === "commit" ? "in that commit" : "now — the tree moved on since the plane was synced; drop worktree to read the commit"}; grep finds its text`,
    ].join("\n");
  const declared = typeof n.props.end_line === "number" && n.props.end_line >= start ? Math.floor(n.props.end_line) : undefined;
  const end = declared ?? start + DEFAULT_LINES - 1;
  const want = Math.min(end - start + 1, lines ?? MAX_LINES);
  // In a file changed since the commit, the recorded extent may no longer hold this symbol.
  return renderRange(ctx, p, rd, src, start, want, end, src.dirty ? undefined : n.key);
}

/** The file `name` names in the tree, when it looks like a path and one is there (links out refused). */
async function fileAt(rd: Reading, name: string): Promise<Source | undefined> {
  if (!/[/.]/.test(name) || name.includes("::")) return undefined;
  try {
    const src = await readSource(rd, name);
    return src.lines.length > 0 ? src : undefined;
  } catch (e) {
    if (e instanceof DrsgError && e.code === "PATH_OUTSIDE_TREE") throw e;
    return undefined;
  }
}

async function run(ctx: ToolContext, { plane, name, lines, worktree }: Input): Promise<string> {
  const p = requirePlane(ctx.store, plane);
  if (name.trim() === "") throw new DrsgError("BAD_INPUT", "snippet: name is empty — pass a symbol, or path:line");
  const range = parseRange(name);
  if (range) {
    const rd = await reading(ctx, p, worktree);
    const src = await readSource(rd, range.path);
    if (range.a > src.lines.length)
      throw new DrsgError("BAD_INPUT", `snippet: line ${range.a} is past the end of ${src.rel} (${src.lines.length} lines)`, {
        name,
        lines: src.lines.length,
      });
    const asked = range.b !== undefined ? range.b - range.a + 1 : DEFAULT_LINES;
    const want = Math.min(asked, lines ?? MAX_LINES);
    return renderRange(ctx, p, rd, src, range.a, want, range.b ?? src.lines.length);
  }
  if (pathShaped(name)) checkShape(name);
  const exact = ctx.store.getNodeByKey(p.name, name);
  const needsFile = (n: StoredNode) => typeof n.props.file === "string" || typeof n.props.path === "string";
  if (exact) return nodeSnippet(ctx, p, needsFile(exact) ? await reading(ctx, p, worktree) : NO_READING, exact, lines);
  // A path to a file in the tree reads from its first line.
  const rd = await reading(ctx, p, worktree);
  const file = await fileAt(rd, name);
  if (file) return renderRange(ctx, p, rd, file, 1, lines ?? DEFAULT_LINES, file.lines.length);
  const m = matchName(ctx.store, p.name, name);
  if (m.kind === "one")
    return withMatchNote(ctx, p, { note: m.substring ? substringNote(name, m.node) : undefined }, await nodeSnippet(ctx, p, rd, m.node, lines));
  if (m.kind === "many") return candidatesText(ctx, p, name, m);
  return missText(ctx, p, name, [
    "grep finds text and names the symbol each hit falls in; snippet path:line or path:start-end reads a range",
  ]);
}

/** For a node that stores its source: nothing is read from any tree. */
const NO_READING: Reading = { src: { kind: "worktree", root: "" }, head: [], worktree: false };

export const snippet = defineTool({
  name: "snippet",
  description:
    "Source text as of the commit the plane reflects (its synced: line): a symbol's declared extent (`name` = key, key suffix or substring), or a range `path:line` / `path:start-end` relative to the tree. `worktree: true` reads the working tree instead and says when the file differs from that commit. Says which symbol the range opens in and how to read on; `lines` caps it (≤ 400).",
  input,
  readOnly: true,
  cli: { positionals: ["name"], summary: "A symbol's source, or path:a-b from the plane's tree." },
  run,
});
