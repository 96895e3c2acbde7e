// grep: text over the source tree — literal, or a regular expression on a linear-time engine —
// scoped by `path`, with context lines; each hit names the symbol it falls in. The tree is the
// plane's synced_root (or the attached tree); ignored files stay out unless `all_files`.
import { realpathSync } from "node:fs";
import { z } from "zod";
import { DrsgError } from "../model/errors.js";
import type { PlaneInfo } from "../store/types.js";
import { DEFAULT_MAX_BYTES } from "../sync/walk.js";
import { BUDGET, headerLines, requirePlane } from "./common.js";
import { treeFor } from "./files.js";
import { type LineMatcher, compileMatcher, looksLikeRegex } from "./text/match.js";
import { looksBinary, readShared, splitLines } from "./text/read.js";
import { type SymbolIndex, enclosingSym, symbolIndex } from "./text/symbols.js";
import { listTree, parseScope } from "./text/tree.js";
import { type ToolContext, defineTool } from "./tool.js";

/** Longest line text shown; a longer line is windowed around its match. */
export const LINE_CLIP = 300;
export const DEFAULT_RESULTS = 50;
export const MAX_RESULTS = 200;

const input = z.strictObject({
  pattern: z.string().max(1000).describe("the text to find (literal unless regex: true)"),
  plane: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe("the plane whose synced_root is searched and whose symbols name the hits (without one: the attached tree)"),
  regex: z.boolean().default(false).describe("pattern is an RE2 regular expression (linear time; no backreferences or lookaround)"),
  ignore_case: z.boolean().default(false),
  path: z.string().max(1000).optional().describe("only under this directory, in this file, or with this extension (`.ts`)"),
  context: z.number().int().min(0).max(10).default(0).describe("lines shown before and after each hit"),
  max_results: z.number().int().min(1).max(MAX_RESULTS).default(DEFAULT_RESULTS).describe("hits shown (the true count is always given)"),
  all_files: z.boolean().default(false).describe("also search files .gitignore excludes"),
});

type Input = z.infer<typeof input>;

/** One file with hits, kept for rendering while the cap allows. */
interface FileHits {
  rel: string;
  lines: string[];
  /** Every matching line (0-based), including those past the cap. */
  hits: number[];
  /** How many of `hits` are shown. */
  shown: number;
}

/** The tree to search and the plane naming its symbols. */
function where(ctx: ToolContext, plane: string | undefined): { root: string; p?: PlaneInfo } {
  if (plane !== undefined) {
    const p = requirePlane(ctx.store, plane);
    return { root: treeFor(ctx, p), p };
  }
  if (!ctx.attached)
    throw new DrsgError(
      "NO_TREE",
      "grep: no plane named and no tree attached — pass plane (its synced_root is searched); list_planes shows each plane's root",
    );
  const root = ctx.attached;
  const p = ctx.store.listPlanes().find((x) => {
    if (typeof x.props.synced_root !== "string") return false;
    try {
      return realpathSync(x.props.synced_root) === root;
    } catch {
      return false;
    }
  });
  return p ? { root, p } : { root };
}

/** Clip a line to LINE_CLIP characters, keeping its match in view. */
export function clipLine(text: string, m: LineMatcher | undefined): string {
  if (text.length <= LINE_CLIP) return text;
  const at = m ? m.indexIn(text) : 0;
  let start = at > LINE_CLIP - 60 ? at - 100 : 0;
  if (start > 0 && isLow(text.charCodeAt(start))) start++;
  let end = Math.min(text.length, start + LINE_CLIP);
  if (end < text.length && isLow(text.charCodeAt(end))) end--;
  return `${start > 0 ? "…" : ""}${text.slice(start, end)}${end < text.length ? "…" : ""}`;
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

function shown(pattern: string, regex: boolean): string {
  const p = pattern.length > 100 ? `${pattern.slice(0, 100)}…` : pattern;
  return regex ? `/${p}/` : JSON.stringify(p);
}

/** Render the kept hits with their context, symbol lines and `--` separators, within `budget`. */
function render(
  files: FileHits[],
  ctxLines: number,
  m: LineMatcher,
  index: SymbolIndex | undefined,
  budget: number,
): { lines: string[]; shownHits: number; firstKey?: string; firstSite?: string } {
  const out: string[] = [];
  let size = 0;
  let shownHits = 0;
  let lastKey: string | undefined;
  let firstKey: string | undefined;
  let firstSite: string | undefined;
  let firstAny: string | undefined;
  let any = false;
  for (const f of files) {
    const isHit = new Set(f.hits);
    let last = -1; // the last line of this file printed
    for (let k = 0; k < f.shown; k++) {
      const h = f.hits[k]!;
      const chunk: string[] = [];
      const from = Math.max(h - ctxLines, last + 1);
      if (ctxLines > 0 && any && (last < 0 || from > last + 1)) chunk.push("--");
      for (let i = from; i < h; i++) chunk.push(`${f.rel}-${i + 1}- ${clipLine(f.lines[i]!, undefined)}`.trimEnd());
      chunk.push(`${f.rel}:${h + 1}: ${clipLine(f.lines[h]!, m)}`.trimEnd());
      const sym = index ? enclosingSym(index, f.rel, h + 1) : undefined;
      const key = sym?.key;
      if (key !== undefined && key !== lastKey) chunk.push(`    in ${key}`);
      let end = h;
      for (let i = h + 1; i <= Math.min(h + ctxLines, f.lines.length - 1) && !isHit.has(i); i++) {
        chunk.push(`${f.rel}-${i + 1}- ${clipLine(f.lines[i]!, undefined)}`.trimEnd());
        end = i;
      }
      const add = chunk.reduce((s, l) => s + l.length + 1, 0);
      if (size + add > budget) return { lines: out, shownHits, firstKey: firstKey ?? firstAny, firstSite };
      out.push(...chunk);
      size += add;
      shownHits++;
      any = true;
      last = end;
      lastKey = key;
      if (sym && !sym.whole) firstKey ??= key;
      if (sym) firstAny ??= key;
      firstSite ??= `${f.rel}:${h + 1}`;
    }
  }
  return { lines: out, shownHits, firstKey: firstKey ?? firstAny, firstSite };
}

async function run(ctx: ToolContext, inp: Input): Promise<string> {
  const { pattern, regex, ignore_case, context: ctxLines, max_results: cap, all_files } = inp;
  if (pattern === "") throw new DrsgError("BAD_INPUT", "grep: the pattern is empty — pass the text to look for");
  const matcher = compileMatcher(pattern, { regex, ignoreCase: ignore_case });
  const { root, p } = where(ctx, inp.plane);
  const scope = parseScope(root, inp.path);
  const listing = await listTree(root, scope, all_files);

  let total = 0;
  let filesWithHits = 0;
  let searched = 0;
  let binary = 0;
  let big = 0;
  let unreadable = 0;
  let kept = 0;
  const keep: FileHits[] = [];
  for (const f of listing.files) {
    // A shared buffer: the bytes are used up (searched, kept lines decoded) before the next read.
    const r = readShared(f.abs, DEFAULT_MAX_BYTES);
    if (r.kind === "big") {
      big++;
      continue;
    }
    if (r.kind !== "ok") {
      unreadable++;
      continue;
    }
    if (looksBinary(r.bytes)) {
      binary++;
      continue;
    }
    searched++;
    const hits = matcher.fileHits(r.bytes);
    if (hits.length === 0) continue;
    total += hits.length;
    filesWithHits++;
    if (kept < cap) {
      const n = Math.min(hits.length, cap - kept);
      keep.push({ rel: f.rel, lines: splitLines(r.bytes.toString("utf8")), hits, shown: n });
      kept += n;
    }
  }

  const head = p ? headerLines(ctx, p) : [];
  const index = p && keep.length > 0 ? symbolIndex(ctx, p) : undefined;
  const what = shown(pattern, regex);
  const scoped = scope.kind !== "tree" ? ` (searched only \`${inp.path}\`; drop \`path\` to widen)` : "";
  const tail: string[] = [];
  if (big + binary + unreadable > 0) {
    const parts = [
      binary ? `${binary} binary file(s)` : "",
      big ? `${big} file(s) over 2 MiB` : "",
      unreadable ? `${unreadable} unreadable file(s)` : "",
    ].filter(Boolean);
    tail.push(`not searched: ${parts.join(", ")}`);
  }
  if (total === 0) {
    const out = [...head, `no matches for ${what} in ${searched} file(s)${scoped}`];
    if (!regex && looksLikeRegex(pattern))
      out.push(`${what} was searched as literal text, and it looks like a regular expression — pass regex: true to search it as one`);
    if (listing.scopeIgnored) out.push(`\`${inp.path}\` is excluded by .gitignore — all_files: true searches it`);
    else if (listing.ignored > 0 && !all_files)
      out.push(`${listing.ignored} path(s) excluded by .gitignore were not searched — all_files: true includes them`);
    out.push(...tail);
    return out.join("\n");
  }
  const reserve = head.join("\n").length + 900;
  const r = render(keep, ctxLines, matcher, index, BUDGET - reserve);
  const out = [...head, ...r.lines];
  out.push(`${total} match(es) for ${what} in ${filesWithHits} file(s) of ${searched} searched${scoped}`);
  if (r.shownHits < total) {
    const why =
      r.shownHits < kept
        ? `cut to stay within ${BUDGET} characters — narrow with path, or use less context`
        : `capped at ${cap} — narrow with path${cap < MAX_RESULTS ? `, or raise max_results (at most ${MAX_RESULTS})` : ""}`;
    out.push(`… showing the first ${r.shownHits}: ${why}`);
  }
  out.push(...tail);
  if (r.firstKey) out.push(`context ${r.firstKey} expands any symbol named above; snippet ${r.firstKey} shows its source`);
  else if (r.firstSite) out.push(`snippet ${r.firstSite} reads the lines around a hit`);
  return out.join("\n");
}

export const grep = defineTool({
  name: "grep",
  description:
    "Text search over the plane's source tree (its synced_root): literal, or `regex: true` for an RE2 expression (linear time). `path` scopes to a directory, a file or an extension (`.ts`); `context` adds lines around each hit; files .gitignore excludes stay out unless `all_files`. Each hit names the symbol it falls in; the true count is given. Use it for text the graph does not hold — strings, comments, config — after context/search.",
  input,
  readOnly: true,
  cli: { positionals: ["pattern"], summary: "Text search over the plane's tree; each hit names its symbol." },
  run,
});
