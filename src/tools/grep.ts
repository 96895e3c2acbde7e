// grep: text over the source tree — literal, or a regular expression on a linear-time engine —
// scoped by `path`, with context lines; each hit names the symbol it falls in. By default the
// text is the commit the plane reflects (its blobs, so hits and symbols agree with the synced
// line); `worktree: true` reads the plane's synced_root (or the attached tree) as it is now,
// says which files differ from the commit, and names no symbol in those. Ignored files stay
// out of a working-tree search unless `all_files`.
import { realpathSync } from "node:fs";
import * as z from "../model/zod.js";
import { DrsgError } from "../model/errors.js";
import type { PlaneInfo } from "../store/types.js";
import { DEFAULT_MAX_BYTES } from "../sync/walk.js";
import { BUDGET, headerLines, requirePlane } from "./common.js";
import { treeFor } from "./files.js";
import { type LineMatcher, compileMatcher, looksLikeRegex } from "./text/match.js";
import { type ReadResult, looksBinary, splitLines } from "./text/read.js";
import { differs, readBlobCapped, sourceLine, textSource } from "./text/source.js";
import { type SymbolIndex, enclosingSym, symbolIndex } from "./text/symbols.js";
import { type TreeListing, listCommitted, listTree, parseCommittedScope, parseScope } from "./text/tree.js";
import { type ToolContext, defineTool } from "./tool.js";

/** Longest line text shown; a longer line is windowed around its match. */
export const LINE_CLIP = 300;
export const DEFAULT_RESULTS = 50;
export const MAX_RESULTS = 200;

const input = z.strictObject({
  pattern: z.string().check(z.maxLength(1000), z.describe("the text to find (literal unless regex: true)")),
  plane: z.optional(z.string().check(z.minLength(1), z.maxLength(200))).check(z.describe("the plane whose synced_root is searched and whose symbols name the hits (without one: the attached tree)")),
  regex: z._default(z.boolean(), false).check(z.describe("pattern is an RE2 regular expression (linear time; no backreferences or lookaround)")),
  ignore_case: z._default(z.boolean(), false),
  path: z.optional(z.string().check(z.maxLength(1000))).check(z.describe("only under this directory, in this file, or with this extension (`.ts`)")),
  context: z._default(z.int().check(z.minimum(0), z.maximum(10)), 0).check(z.describe("lines shown before and after each hit")),
  max_results: z._default(z.int().check(z.minimum(1), z.maximum(MAX_RESULTS)), DEFAULT_RESULTS).check(z.describe("hits shown (the true count is always given)")),
  all_files: z._default(z.boolean(), false).check(z.describe("also search files .gitignore excludes (working tree only)")),
  worktree: z._default(z.boolean(), false).check(z.describe("search the working tree as it is now instead of the commit the plane reflects; files that differ from that commit are named, and their hits name no symbol")),
  offset: z._default(z.int().check(z.minimum(0), z.maximum(1_000_000)), 0).check(z.describe("skip this many hits (paging: the elision line names the next offset)")),
});

type Input = z.infer<typeof input>;

/** One file with hits, kept for rendering while the cap allows. */
interface FileHits {
  rel: string;
  lines: string[];
  /** Every matching line (0-based), including those past the cap. */
  hits: number[];
  /** The first of `hits` shown, and how many. */
  from: number;
  shown: number;
  /** The file differs from the plane's commit: its hits name no symbol. */
  dirty: boolean;
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
    for (let k = f.from; k < f.from + f.shown; k++) {
      const h = f.hits[k]!;
      const chunk: string[] = [];
      const from = Math.max(h - ctxLines, last + 1);
      if (ctxLines > 0 && any && (last < 0 || from > last + 1)) chunk.push("--");
      for (let i = from; i < h; i++) chunk.push(`${f.rel}-${i + 1}- ${clipLine(f.lines[i]!, undefined)}`.trimEnd());
      chunk.push(`${f.rel}:${h + 1}: ${clipLine(f.lines[h]!, m)}`.trimEnd());
      const sym = index && !f.dirty ? enclosingSym(index, f.rel, h + 1) : undefined;
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
  const { pattern, regex, ignore_case, context: ctxLines, max_results: cap, all_files, offset } = inp;
  if (pattern === "") throw new DrsgError("BAD_INPUT", "grep: the pattern is empty — pass the text to look for");
  const matcher = compileMatcher(pattern, { regex, ignoreCase: ignore_case });
  const { root, p } = where(ctx, inp.plane);
  const src = await textSource(p, root, inp.worktree);
  const scope = src.kind === "commit" ? await parseCommittedScope(src.tree, inp.path) : parseScope(root, inp.path);

  let total = 0;
  let filesWithHits = 0;
  let searched = 0;
  let binary = 0;
  let big = 0;
  let unreadable = 0;
  let kept = 0;
  const dirty: string[] = [];
  const keep: FileHits[] = [];
  const one = (rel: string, r: ReadResult & { rel?: string }): void => {
    if (r.kind === "not-file") return;
    if (r.kind === "big") {
      big++;
      return;
    }
    if (r.kind !== "ok") {
      unreadable++;
      return;
    }
    if (looksBinary(r.bytes)) {
      binary++;
      return;
    }
    searched++;
    const hits = matcher.fileHits(r.bytes);
    if (hits.length === 0) return;
    // Only a file with hits is compared with the commit (its hits' symbols depend on it); a
    // link is compared as the file it opened.
    const changed = differs(src, r.rel ?? rel, r.bytes) === true;
    if (changed) dirty.push(rel);
    const before = total;
    total += hits.length;
    filesWithHits++;
    // The page: hits offset … offset+cap-1 in file and line order.
    if (kept < cap && total > offset) {
      const from = Math.max(0, offset - before);
      const n = Math.min(hits.length - from, cap - kept);
      keep.push({ rel, lines: splitLines(r.bytes.toString("utf8")), hits, from, shown: n, dirty: changed });
      kept += n;
    }
  };
  let listing: TreeListing;
  if (src.kind === "commit") {
    listing = await listCommitted(src.tree, scope);
    for (const f of listing.files) one(f.rel, await readBlobCapped(src.tree, f.entry!, DEFAULT_MAX_BYTES));
  } else {
    // Each file is read while the walk holds its directory open (no walk down per file).
    listing = await listTree(root, scope, all_files, (rel, read) => one(rel, read(DEFAULT_MAX_BYTES)));
  }

  const head = p ? headerLines(ctx, p) : [];
  const from = sourceLine(src);
  if (from) head.push(from);
  // Symbols are the plane's: true of its commit, and of a working file only while unchanged.
  const index = p && keep.length > 0 ? symbolIndex(ctx, p) : undefined;
  const what = shown(pattern, regex);
  const scoped = scope.kind !== "tree" ? ` (searched only \`${inp.path}\`; drop \`path\` to widen)` : "";
  const tail: string[] = [];
  if (dirty.length > 0) {
    const sha = src.kind === "worktree" && src.tree ? src.tree.sha.slice(0, 12) : "";
    const names = dirty.slice(0, 10).join(", ");
    tail.push(
      `${dirty.length} file(s) with hits differ from commit ${sha} (uncommitted edits or untracked) — their hits name no symbol: ${names}${dirty.length > 10 ? `, … and ${dirty.length - 10} more` : ""}`,
    );
  }
  if (big + binary + unreadable > 0) {
    const parts = [
      binary ? `${binary} binary file(s)` : "",
      big ? `${big} file(s) over 2 MiB` : "",
      unreadable ? `${unreadable} unreadable file(s)` : "",
    ].filter(Boolean);
    tail.push(`not searched: ${parts.join(", ")}`);
  }
  if (src.kind === "commit" && all_files) tail.push("all_files applies to the working tree (worktree: true): a commit holds only tracked files, all of them searched");
  if (total === 0) {
    const out = [...head, `no matches for ${what} in ${searched} file(s)${scoped}`];
    if (!regex && looksLikeRegex(pattern))
      out.push(`${what} was searched as literal text, and it looks like a regular expression — pass regex: true to search it as one`);
    if (listing.scopeIgnored) out.push(`\`${inp.path}\` is excluded by .gitignore — all_files: true searches it`);
    else if (listing.ignored > 0 && !all_files)
      out.push(`${listing.ignored} path(s) excluded by .gitignore were not searched — all_files: true includes them`);
    if (src.kind === "commit") out.push(`searched commit ${src.tree.sha.slice(0, 12)}; worktree: true searches the working tree, uncommitted edits included`);
    out.push(...tail);
    return out.join("\n");
  }
  const reserve = head.join("\n").length + 900;
  const r = render(keep, ctxLines, matcher, index, BUDGET - reserve);
  const out = [...head, ...r.lines];
  out.push(`${total} match(es) for ${what} in ${filesWithHits} file(s) of ${searched} searched${scoped}`);
  const next = offset + r.shownHits;
  if (offset > 0 && kept === 0) out.push(`offset ${offset} is past the last hit — offset: 0 starts again`);
  else if (next < total || offset > 0) {
    const range = `hits ${offset + 1}–${next}`;
    if (next >= total) out.push(`… showing ${range}, the last page`);
    else {
      const why =
        r.shownHits < kept
          ? `cut to stay within ${BUDGET} characters — offset: ${next} reads on; or narrow with path, or use less context`
          : `capped at ${cap} — offset: ${next} reads the next page; or narrow with path${cap < MAX_RESULTS ? `, or raise max_results (at most ${MAX_RESULTS})` : ""}`;
      out.push(`… showing ${offset === 0 ? `the first ${r.shownHits}` : range}: ${why}`);
    }
  }
  out.push(...tail);
  if (r.firstKey) out.push(`context ${r.firstKey} expands any symbol named above; snippet ${r.firstKey} shows its source`);
  else if (r.firstSite) out.push(`snippet ${r.firstSite}${inp.worktree ? " (worktree: true)" : ""} reads the lines around a hit`);
  return out.join("\n");
}

export const grep = defineTool({
  name: "grep",
  description:
    "Text search over the plane's source as of the commit it reflects (its synced: line), so every hit's symbol is right; `worktree: true` searches the working tree instead (uncommitted edits; files that differ from the commit are named and their hits name no symbol). Literal, or `regex: true` for an RE2 expression (linear time). `path` scopes to a directory, a file or an extension (`.ts`); `context` adds lines around each hit; `offset` pages; in the working tree, files .gitignore excludes stay out unless `all_files`. The true count is given. Use it for text the graph does not hold — strings, comments, config — after context/search.",
  input,
  readOnly: true,
  cli: { positionals: ["pattern"], summary: "Text search over the plane's tree; each hit names its symbol." },
  run,
});
