// recall: code as it was at a revision, read from the git object store — a file, a line range,
// a directory, or a symbol's declaration then (found by parsing its file as it was, with the
// same plugin); `pattern` searches that tree; `vs` diffs against another revision. Paths obey
// DESIGN §8 (relative, no `..`, inside the plane's tree); symlinks are never followed.
import { relative, sep } from "node:path";
import { RE2JS } from "re2js";
import * as z from "../model/zod.js";
import { ExtractPool } from "../extract/pool.js";
import { type CommitInfo, GitRepo, type TreeEntry } from "../git/repo.js";
import { DrsgError, isDrsgError } from "../model/errors.js";
import type { Def, Partial } from "../model/partial.js";
import type { PlaneInfo, StoredNode } from "../store/types.js";
import { storeCache } from "../sync/digest.js";
import { DEFAULT_MAX_BYTES, SKIP_DIRS, isBinary } from "../sync/walk.js";
import { candidatesText, clipLines, headerLines, matchName, missText, requirePlane, substringNote, withMatchNote } from "./common.js";
import { checkShape, treeFor } from "./files.js";
import { diffLines, unifiedHunks } from "./linediff.js";
import { defineTool, type ToolContext } from "./tool.js";

const DEFAULT_LINES = 40;
const MAX_LINES = 400;
const LIST_CAP = 200;
const DIFF_CAP = 400;

const rev = z.union([z.string().check(z.minLength(1), z.maxLength(200)), z.int().check(z.nonnegative())]);

const input = z.strictObject({
  plane: z.string().check(z.minLength(1), z.maxLength(200)),
  name: z.optional(z.string().check(z.maxLength(1000))).check(z.describe('a file, `path:a-b`, a directory (`""` is the root), or a symbol (its declaration then)')),
  at: z.optional(rev).check(z.describe("revision: sha (≥4 hex), branch, tag, HEAD, with ~n/^n, or a date YYYY-MM-DD (default HEAD)")),
  vs: z.optional(rev).check(z.describe("diff `name` between this (older) revision and `at`")),
  lines: z.optional(z.int().check(z.minimum(1), z.maximum(MAX_LINES))).check(z.describe("lines to show (default 40; a symbol: its declared extent)")),
  pattern: z.optional(z.string().check(z.minLength(1), z.maxLength(1000))).check(z.describe("search the tree at `at` (under `name`) for this text")),
  regex: z.optional(z.boolean()).check(z.describe("`pattern` is a regular expression (RE2: linear time)")),
  ignore_case: z.optional(z.boolean()),
  max_results: z.optional(z.int().check(z.minimum(1), z.maximum(200))),
});

type Input = z.infer<typeof input>;

interface Where {
  ctx: ToolContext;
  plane: PlaneInfo;
  repo: GitRepo;
  /** The plane's tree inside the repository ("" at its root). */
  prefix: string;
  lines: string[];
}

interface Rev {
  sha: string;
  info: CommitInfo;
  asked: string;
}

type PathKind =
  | { kind: "file"; entry: TreeEntry }
  | { kind: "symlink"; entry: TreeEntry }
  | { kind: "submodule"; entry: TreeEntry }
  | { kind: "dir"; entries: TreeEntry[] }
  | { kind: "absent" };

const short = (sha: string) => sha.slice(0, 7);
const posix = (p: string) => p.replace(/\\/g, "/").replace(/^\.\//, "").replace(/\/+$/, "");

function repoPath(w: Where, rel: string): string {
  return w.prefix === "" ? rel : rel === "" ? w.prefix : `${w.prefix}/${rel}`;
}

async function resolveRev(w: Where, at: string): Promise<Rev> {
  let sha: string;
  try {
    sha = await w.repo.resolve(at);
  } catch (e) {
    if (isDrsgError(e, "REV_NOT_FOUND"))
      throw new DrsgError(
        "REV_NOT_FOUND",
        `recall: no revision '${at}' in the plane's repository (${e.message.replace(/^resolve '[^']*': /, "")}) — give a sha (≥4 hex), a branch, a tag, HEAD, a ~n/^n suffix or a date YYYY-MM-DD; history --plane ${w.plane.name} lists them`,
        { rev: at },
      );
    throw e;
  }
  return { sha, info: await w.repo.commitInfo(sha), asked: at };
}

function revLine(r: Rev): string {
  const via = r.asked === r.sha || r.sha.startsWith(r.asked) ? "" : `  (via ${r.asked})`;
  return `at ${r.sha.slice(0, 12)}  ${r.info.committedAt.slice(0, 10)}  ${r.info.author}  ${r.info.summary}${via}`;
}

/** What `rel` (relative to the plane's tree) is at a commit. */
async function pathAt(w: Where, sha: string, rel: string): Promise<PathKind> {
  if (rel === "") return { kind: "dir", entries: await w.repo.listTree(sha, w.prefix) };
  const slash = rel.lastIndexOf("/");
  const parent = slash < 0 ? "" : rel.slice(0, slash);
  const base = rel.slice(slash + 1);
  const entries = await w.repo.listTree(sha, repoPath(w, parent));
  const hit = entries.find((e) => e.path === base);
  if (hit) {
    if (hit.mode === "160000") return { kind: "submodule", entry: hit };
    if (hit.mode === "120000") return { kind: "symlink", entry: hit };
    return { kind: "file", entry: hit };
  }
  const under = entries.filter((e) => e.path.startsWith(`${base}/`)).map((e) => ({ ...e, path: e.path.slice(base.length + 1) }));
  return under.length > 0 ? { kind: "dir", entries: under } : { kind: "absent" };
}

function sizeText(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}

function textLines(bytes: Uint8Array): string[] {
  const t = new TextDecoder("utf-8").decode(bytes);
  const ls = t.split("\n");
  if (ls.length > 0 && ls[ls.length - 1] === "") ls.pop();
  return ls;
}

function numbered(ls: string[], from: number): string[] {
  return ls.map((l, i) => `${String(from + i).padStart(5)} | ${l}`);
}

/** A path a reader cannot open as text: said plainly. */
function notReadable(rel: string, r: Rev, k: Extract<PathKind, { kind: "absent" | "submodule" }>): string {
  if (k.kind === "absent") return `${rel} does not exist at ${short(r.sha)}`;
  return `${rel} is a submodule at ${short(r.sha)} (commit ${k.entry.oid.slice(0, 12)} of another repository) — recall does not read into submodules`;
}

async function symlinkText(w: Where, rel: string, r: Rev, e: TreeEntry): Promise<string> {
  const target = new TextDecoder().decode(await w.repo.readBlob(e.oid));
  return `${rel} is a symlink at ${short(r.sha)} (to ${target}) — links are not followed; recall the path it names if it lies in the tree`;
}

// ---- files and ranges ----

async function recallFile(w: Where, rel: string, r: Rev, range: { a: number; b?: number } | undefined, lines: number | undefined): Promise<string> {
  const k = await pathAt(w, r.sha, rel);
  if (k.kind === "absent" || k.kind === "submodule") return [...w.lines, revLine(r), notReadable(rel, r, k)].join("\n");
  if (k.kind === "symlink") return [...w.lines, revLine(r), await symlinkText(w, rel, r, k.entry)].join("\n");
  if (k.kind === "dir") {
    if (range) return [...w.lines, revLine(r), `${rel} is a directory at ${short(r.sha)}, not a file — recall ${rel} lists it`].join("\n");
    return listDir(w, rel, r, k.entries);
  }
  const bytes = await w.repo.readBlob(k.entry.oid);
  const out = [...w.lines, revLine(r)];
  if (isBinary(bytes)) return [...out, `${rel} is a binary file at ${short(r.sha)} (${sizeText(bytes.byteLength)}) — not shown`].join("\n");
  if (bytes.byteLength === 0) return [...out, `${rel} is empty at ${short(r.sha)}`].join("\n");
  const all = textLines(bytes);
  const total = all.length;
  const a = range?.a ?? 1;
  if (a > total)
    return [...out, `${rel} has ${total} line(s) at ${short(r.sha)}; line ${a} is past its end — recall ${rel}:1-${Math.min(total, DEFAULT_LINES)} reads its start`].join("\n");
  const want = range?.b !== undefined ? range.b - a + 1 : (lines ?? DEFAULT_LINES);
  const n = Math.min(want, lines ?? MAX_LINES, MAX_LINES);
  const b = Math.min(total, a + n - 1);
  out.push(`${rel}:${a}-${b} (${b - a + 1} of ${total} line(s)) at ${short(r.sha)}`);
  out.push(...numbered(all.slice(a - 1, b), a));
  if (b < total) {
    const next = `${b + 1}-${Math.min(total, b + n)}`;
    out.push(`… ${rel} continues to line ${total}; recall ${rel}:${next} at ${short(r.sha)} reads on`);
  }
  out.push(`snippet ${rel}:${a}-${b} reads the same lines at the plane's commit (worktree: true: as they are now)`);
  return clipLines(out.join("\n"));
}

async function listDir(w: Where, rel: string, r: Rev, entries: TreeEntry[]): Promise<string> {
  const dirs = new Map<string, number>();
  const files: TreeEntry[] = [];
  for (const e of entries) {
    const slash = e.path.indexOf("/");
    if (slash >= 0) {
      const d = e.path.slice(0, slash);
      dirs.set(d, (dirs.get(d) ?? 0) + 1);
    } else files.push(e);
  }
  const shown = rel === "" ? "/" : `${rel}/`;
  const out = [...w.lines, revLine(r), `${shown} at ${short(r.sha)} — ${dirs.size} dir(s), ${files.length} file(s)`];
  const rows: string[] = [];
  for (const d of [...dirs.keys()].sort()) rows.push(`  ${d}/  dir (${dirs.get(d)} file(s) below)`);
  files.sort((a, b) => (a.path < b.path ? -1 : 1));
  for (const [i, f] of files.entries()) {
    let what = f.mode === "160000" ? "submodule" : f.mode === "120000" ? "symlink" : "file";
    // Sizes from object headers, for the entries shown only.
    if (what === "file" && dirs.size + i < LIST_CAP) what = sizeText(await w.repo.blobSize(f.oid));
    rows.push(`  ${f.path}  ${what}`);
  }
  out.push(...rows.slice(0, LIST_CAP));
  if (rows.length > LIST_CAP) out.push(`  … and ${rows.length - LIST_CAP} more`);
  const first = [...dirs.keys()].sort()[0] ?? files[0]?.path ?? "NAME";
  out.push(`recall ${rel === "" ? "" : `${rel}/`}${first} at ${short(r.sha)} reads one`);
  return clipLines(out.join("\n"));
}

// ---- symbols ----

const SEGMENT = /::|[./#]/;

/** Names from the file level down to `d`: ["Cart", "add"]. */
function chainOf(p: Partial, d: Def): string[] {
  const names: string[] = [];
  let cur: Def | undefined = d;
  for (let guard = 0; cur && guard < 64; guard++) {
    names.unshift(cur.name);
    cur = cur.parent >= 0 ? p.defs[cur.parent] : undefined;
  }
  return names;
}

/** The definition in `p` that `key` names: the longest matching name chain, then the nearest line. */
function findDef(p: Partial, key: string, line: number | undefined): Def | undefined {
  const keySegs = key.replace(/\([^()]*\)$/, "").split(SEGMENT);
  let best: { d: Def; score: number; dist: number } | undefined;
  for (const d of p.defs) {
    const chain = chainOf(p, d);
    let score = 0;
    while (score < chain.length && chain[chain.length - 1 - score] === keySegs[keySegs.length - 1 - score]) score++;
    if (score === 0) continue;
    const dist = line === undefined ? 0 : Math.abs(d.line - line);
    if (!best || score > best.score || (score === best.score && dist < best.dist)) best = { d, score, dist };
  }
  return best?.d;
}

async function partialOf(w: Where, rel: string, oid: string, bytes: Uint8Array): Promise<Partial | undefined> {
  const plugins = w.ctx.plugins();
  const route = plugins.route(rel);
  if (!route) return undefined;
  const build = route.plugin.build;
  const cache = storeCache(w.ctx.store);
  const hit = cache.get(oid, build);
  if (hit) return { ...hit, path: rel };
  const pool = new ExtractPool(plugins.jobs(), 1);
  try {
    // The pool transfers the bytes it is handed, detaching them here; a copy of our own goes, so
    // the caller's `bytes` (still to be split into the declaration's lines) stay whole. Not
    // `bytes.slice()`: on a Buffer that is a view of the same memory, and a packed blob's buffer
    // is the whole ArrayBuffer, so the first, uncached call read an empty file (issue 18 §3).
    const { partial, json, packed } = await pool.extract(rel, route.job, new Uint8Array(bytes), { pack: true });
    try {
      cache.put([{ blob: oid, build, partial, json, packed }]);
    } catch {
      // a read-only database: the partial is simply not cached
    }
    return partial;
  } finally {
    await pool.close();
  }
}

/** The declaration of `node` at a revision, or the sentence saying why there is none. */
async function declarationAt(w: Where, node: StoredNode, r: Rev): Promise<{ rel: string; from: number; lines: string[]; def: Def } | { text: string }> {
  const file = typeof node.props.file === "string" ? node.props.file : undefined;
  if (!file) return { text: `${node.key} has no file in the plane, so there is nothing to read at ${short(r.sha)}` };
  checkShape(file);
  const rel = posix(file);
  const k = await pathAt(w, r.sha, rel);
  if (k.kind !== "file") {
    const why = k.kind === "absent" ? "does not exist" : k.kind === "dir" ? "is a directory" : `is a ${k.kind}`;
    return {
      text: `${node.key} is declared in ${rel} now, which ${why} at ${short(r.sha)} — recall with pattern: "${node.key.split(SEGMENT).pop()}" at ${short(r.sha)} searches that tree`,
    };
  }
  const bytes = await w.repo.readBlob(k.entry.oid);
  if (isBinary(bytes)) return { text: `${rel} is a binary file at ${short(r.sha)}` };
  const partial = await partialOf(w, rel, k.entry.oid, bytes);
  if (!partial) return { text: `no installed plugin reads ${rel}, so its declarations cannot be found` };
  const def = findDef(partial, node.key, typeof node.props.line === "number" ? node.props.line : undefined);
  if (!def) {
    const names = partial.defs.filter((d) => d.parent < 0).map((d) => d.name);
    return {
      text: `${node.key} is not declared in ${rel} at ${short(r.sha)}; that file then declared: ${names.slice(0, 20).join(", ") || "nothing"}${names.length > 20 ? `, … and ${names.length - 20} more` : ""}`,
    };
  }
  const all = textLines(bytes);
  return { rel, from: def.line, def, lines: all.slice(def.line - 1, Math.max(def.line, def.endLine)) };
}

async function recallSymbol(w: Where, node: StoredNode, r: Rev, lines: number | undefined): Promise<string> {
  const out = [...w.lines, revLine(r)];
  const d = await declarationAt(w, node, r);
  if ("text" in d) return [...out, d.text].join("\n");
  const n = Math.min(lines ?? MAX_LINES, MAX_LINES);
  const shown = d.lines.slice(0, n);
  out.push(`${node.key}  ${node.labels[0] ?? ""}  ${d.rel}:${d.from}-${d.from + d.lines.length - 1} at ${short(r.sha)}`);
  out.push(...numbered(shown, d.from));
  if (shown.length < d.lines.length)
    out.push(`… the declaration continues to line ${d.from + d.lines.length - 1}; recall ${d.rel}:${d.from + n}-${d.from + d.lines.length - 1} at ${short(r.sha)} reads on`);
  out.push(`snippet ${node.key} shows it at the plane's commit; recall ${node.key} at ${short(r.sha)} vs REV diffs it against another revision`);
  return clipLines(out.join("\n"));
}

// ---- diffs ----

function diffBlock(title: string, a: string[], b: string[]): string[] {
  const hunks = unifiedHunks(diffLines(a, b));
  if (hunks.length === 0) return [title, "  no difference"];
  const out = [title, ...hunks.slice(0, DIFF_CAP)];
  if (hunks.length > DIFF_CAP) out.push(`… ${hunks.length - DIFF_CAP} more diff line(s)`);
  return out;
}

async function fileTextAt(w: Where, rel: string, r: Rev): Promise<{ lines: string[] } | { text: string }> {
  const k = await pathAt(w, r.sha, rel);
  if (k.kind === "absent") return { lines: [] };
  if (k.kind !== "file") return { text: `${rel} is a ${k.kind} at ${short(r.sha)}` };
  const bytes = await w.repo.readBlob(k.entry.oid);
  if (isBinary(bytes)) return { text: `${rel} is a binary file at ${short(r.sha)} (${sizeText(bytes.byteLength)})` };
  return { lines: textLines(bytes) };
}

async function diffPath(w: Where, rel: string, old: Rev, now: Rev): Promise<string> {
  const out = [...w.lines, `diff of ${rel === "" ? "/" : rel}: ${short(old.sha)} (${old.asked}) → ${short(now.sha)} (${now.asked})`];
  const kOld = await pathAt(w, old.sha, rel);
  const kNow = await pathAt(w, now.sha, rel);
  if (kOld.kind === "dir" || kNow.kind === "dir") {
    const changes = (await w.repo.diffTrees(old.sha, now.sha)).filter((c) => {
      const p = repoPath(w, rel);
      return p === "" || c.path.startsWith(`${p}/`);
    });
    const cut = repoPath(w, "") === "" ? 0 : w.prefix.length + 1;
    out.push(`${changes.length} file(s) changed:`);
    for (const c of changes.slice(0, LIST_CAP)) out.push(`  ${c.change} ${c.path.slice(cut)}`);
    if (changes.length > LIST_CAP) out.push(`  … and ${changes.length - LIST_CAP} more`);
    if (changes.length > 0) out.push(`recall ${changes[0]!.path.slice(cut)} at ${short(now.sha)} vs ${short(old.sha)} diffs one`);
    return clipLines(out.join("\n"));
  }
  for (const [k, r] of [
    [kOld, old],
    [kNow, now],
  ] as const) {
    if (k.kind === "submodule" || k.kind === "symlink") return [...out, `${rel} is a ${k.kind} at ${short(r.sha)} — not diffed`].join("\n");
  }
  if (kOld.kind === "absent" && kNow.kind === "absent") return [...out, `${rel} exists at neither revision`].join("\n");
  const a = await fileTextAt(w, rel, old);
  const b = await fileTextAt(w, rel, now);
  if ("text" in a) return [...out, `${a.text} — not diffed`].join("\n");
  if ("text" in b) return [...out, `${b.text} — not diffed`].join("\n");
  if (kOld.kind === "absent") out.push(`${rel} does not exist at ${short(old.sha)} (added since)`);
  if (kNow.kind === "absent") out.push(`${rel} does not exist at ${short(now.sha)} (deleted since)`);
  out.push(...diffBlock(`--- ${rel}@${short(old.sha)}\n+++ ${rel}@${short(now.sha)}`, a.lines, b.lines));
  return clipLines(out.join("\n"));
}

async function diffSymbol(w: Where, node: StoredNode, old: Rev, now: Rev): Promise<string> {
  const out = [...w.lines, `diff of ${node.key}: ${short(old.sha)} (${old.asked}) → ${short(now.sha)} (${now.asked})`];
  const a = await declarationAt(w, node, old);
  const b = await declarationAt(w, node, now);
  if ("text" in a && "text" in b) return [...out, a.text, b.text].join("\n");
  if ("text" in a) out.push(`${a.text} — shown as added`);
  if ("text" in b) out.push(`${b.text} — shown as removed`);
  const la = "text" in a ? [] : a.lines;
  const lb = "text" in b ? [] : b.lines;
  const where = (d: typeof a, r: Rev) => ("text" in d ? `(none)@${short(r.sha)}` : `${d.rel}:${d.from}@${short(r.sha)}`);
  out.push(...diffBlock(`--- ${where(a, old)}\n+++ ${where(b, now)}`, la, lb));
  return clipLines(out.join("\n"));
}

// ---- pattern search ----

async function search(w: Where, rel: string, r: Rev, inp: Input): Promise<string> {
  const out = [...w.lines, revLine(r)];
  let test: (line: string) => boolean;
  const pat = inp.pattern!;
  if (inp.regex) {
    let re: RE2JS;
    try {
      re = RE2JS.compile(pat, inp.ignore_case ? RE2JS.CASE_INSENSITIVE : 0);
    } catch (e) {
      throw new DrsgError("BAD_REGEX", `recall: pattern /${pat}/ is not a valid RE2 expression: ${(e as Error).message} — or pass regex: false for a literal`, {
        pattern: pat,
      });
    }
    test = (l) => re.matcher(l).find();
  } else if (inp.ignore_case) {
    const low = pat.toLowerCase();
    test = (l) => l.toLowerCase().includes(low);
  } else test = (l) => l.includes(pat);

  const k = await pathAt(w, r.sha, rel);
  if (k.kind === "absent" || k.kind === "submodule") return [...out, notReadable(rel === "" ? "/" : rel, r, k)].join("\n");
  if (k.kind === "symlink") return [...out, await symlinkText(w, rel, r, k.entry)].join("\n");
  const files: TreeEntry[] =
    k.kind === "file"
      ? [{ ...k.entry, path: rel }]
      : k.entries
          .filter((e) => e.mode !== "160000" && e.mode !== "120000")
          .filter((e) => !e.path.split("/").slice(0, -1).some((s) => SKIP_DIRS.has(s)))
          .map((e) => ({ ...e, path: rel === "" ? e.path : `${rel}/${e.path}` }));
  const cap = inp.max_results ?? 50;
  const hits: string[] = [];
  let total = 0;
  let inFiles = 0;
  let skipped = 0;
  for (const f of files) {
    if ((await w.repo.blobSize(f.oid)) > DEFAULT_MAX_BYTES) {
      skipped++;
      continue;
    }
    const bytes = await w.repo.readBlob(f.oid);
    if (isBinary(bytes)) continue;
    let any = false;
    textLines(bytes).forEach((l, i) => {
      if (!test(l)) return;
      total++;
      any = true;
      if (hits.length < cap) hits.push(`  ${f.path}:${i + 1}: ${l.trim().slice(0, 200)}`);
    });
    if (any) inFiles++;
  }
  const scope = rel === "" ? "the tree" : rel;
  const shown = inp.regex ? `/${pat}/` : JSON.stringify(pat);
  out.push(`${shown} in ${scope} at ${short(r.sha)}: ${total} match(es) in ${inFiles} file(s) of ${files.length}${skipped ? ` (${skipped} file(s) over 2 MiB not searched)` : ""}`);
  out.push(...hits);
  if (total > hits.length) out.push(`  … and ${total - hits.length} more (max_results raises the cap, name narrows the scope)`);
  if (hits.length > 0) {
    const m = /^ {2}(.*):(\d+): /.exec(hits[0]!);
    if (m) out.push(`recall ${m[1]}:${m[2]} at ${short(r.sha)} reads the lines around a match`);
  }
  return clipLines(out.join("\n"));
}

// ---- the tool ----

const RANGE = /^(.*):(\d+)(?:-(\d+))?$/;

function parseRange(name: string): { path: string; a: number; b?: number } | undefined {
  const m = RANGE.exec(name);
  if (!m) return undefined;
  const path = m[1]!;
  if (path.includes("::") || !(path.includes("/") || path.includes("."))) return undefined;
  const a = Number(m[2]);
  const b = m[3] !== undefined ? Number(m[3]) : undefined;
  if (a < 1 || (b !== undefined && b < a))
    throw new DrsgError("BAD_INPUT", `recall: range '${name}' is not start-end with 1 ≤ start ≤ end`, { name });
  return { path, a, b };
}

export const recall = defineTool({
  name: "recall",
  description:
    "Code as it was at a revision, from git: `name` is a file, `path:a-b`, a directory (\"\" = root), or a symbol (its declaration then, found by parsing the file as it was). `at`: sha (≥4 hex), branch, tag, HEAD, ~n/^n, or a date (last commit at or before it). `pattern` (+ `regex`) searches that tree; `vs REV` diffs the name between REV and `at`.",
  input,
  readOnly: true,
  cli: { positionals: ["name"] },
  async run(ctx, inp) {
    let p = requirePlane(ctx.store, inp.plane);
    if (p.name.endsWith("_git")) p = ctx.store.getPlane(p.name.slice(0, -4)) ?? p;
    const root = treeFor(ctx, p);
    const repo = await GitRepo.find(root);
    if (!repo || !(await repo.head()))
      throw new DrsgError(
        "NO_TREE",
        `recall: the tree of plane '${p.name}' is not a git repository with commits — recall reads history from git; snippet reads the files as they are`,
      );
    const prefix = relative(repo.root, root).split(sep).join("/");
    const w: Where = { ctx, plane: p, repo, prefix, lines: headerLines(ctx, p) };
    const at = await resolveRev(w, String(inp.at ?? "HEAD"));
    const vs = inp.vs !== undefined ? await resolveRev(w, String(inp.vs)) : undefined;

    const asked = inp.name ?? "";
    checkShape(asked);
    const name = posix(asked.trim());
    if (inp.pattern !== undefined) return search(w, name === "." ? "" : name, at, inp);
    if (name === "" || name === ".") return vs ? diffPath(w, "", vs, at) : recallFile(w, "", at, undefined, inp.lines);
    const range = parseRange(name);
    if (range) {
      checkShape(range.path);
      return vs ? diffPath(w, posix(range.path), vs, at) : recallFile(w, posix(range.path), at, range, inp.lines);
    }
    // A path at that revision (or now) reads as a path; anything else names a symbol.
    const kAt = await pathAt(w, at.sha, name);
    const head = await repo.head();
    const kNow = kAt.kind === "absent" && head ? await pathAt(w, head, name) : kAt;
    if (kAt.kind !== "absent" || kNow.kind !== "absent" || (vs && (await pathAt(w, vs.sha, name)).kind !== "absent"))
      return vs ? diffPath(w, name, vs, at) : recallFile(w, name, at, undefined, inp.lines);
    const m = matchName(ctx.store, p.name, name);
    if (m.kind === "one") {
      const text = vs ? await diffSymbol(w, m.node, vs, at) : await recallSymbol(w, m.node, at, inp.lines);
      return withMatchNote(ctx, p, { note: m.substring ? substringNote(name, m.node) : undefined }, text);
    }
    if (m.kind === "many") return candidatesText(ctx, p, name, m);
    if (name.includes("/"))
      return [...w.lines, revLine(at), `${name} does not exist at ${short(at.sha)} (nor now), and no symbol is named so`].join("\n");
    return missText(ctx, p, name, [
      `recall reads symbols the plane holds now; for one that no longer exists, pattern: "${name}" at ${short(at.sha)} searches the tree as it was`,
    ]);
  },
});
