// Commit, tree and tag objects parsed from their raw bytes, read as isomorphic-git reads them
// (its GitCommit, GitTree and GitAnnotatedTag), so GitRepo can read them straight from a loose
// file or a pack: the history of a 6,000-commit repository took 3 s through isomorphic-git's
// readCommit and takes a tenth of that this way. Anything these do not read exactly as
// isomorphic-git would answers undefined, and the caller asks isomorphic-git instead (whose
// answer, or error, is then the one given).
import type { CommitObject, TreeEntry as IsoTreeEntry } from "isomorphic-git";

type Person = CommitObject["author"];

const PERSON = /^(.*) <(.*)> (.*) (.*)$/;
const OFFSET = /(\+|-)(\d\d)(\d\d)/;

function person(text: string | undefined): Person | undefined {
  if (text === undefined) return undefined;
  const m = PERSON.exec(text);
  if (!m) return undefined;
  const o = OFFSET.exec(m[4]!);
  if (!o) return undefined;
  const minutes = (o[1] === "+" ? 1 : -1) * (Number(o[2]) * 60 + Number(o[3]));
  return { name: m[1]!, email: m[2]!, timestamp: Number(m[3]), timezoneOffset: minutes === 0 ? minutes : -minutes };
}

/** git's message as isomorphic-git gives it: no CR, no leading newlines, one trailing newline. */
function normalizeNewlines(s: string): string {
  return `${s.replace(/\r/g, "").replace(/^\n+/, "").replace(/\n+$/, "")}\n`;
}

/** Header lines, continuation lines (a leading space) joined to the one before. */
function headerLines(text: string): string[] {
  const end = text.indexOf("\n\n");
  const out: string[] = [];
  for (const h of (end < 0 ? text : text.slice(0, end)).split("\n")) {
    if (h[0] === " " && out.length > 0) out[out.length - 1] += `\n${h.slice(1)}`;
    else out.push(h);
  }
  return out;
}

const headerKey = (h: string): string => h.slice(0, h.indexOf(" "));
const headerValue = (h: string): string => h.slice(h.indexOf(" ") + 1);

/**
 * A commit object's text: one `tree`, the `parent` lines right after it, then other headers
 * (the first of each wins), a blank line and the message. Undefined for anything else.
 */
export function parseCommit(text: string): CommitObject | undefined {
  const sep = text.indexOf("\n\n");
  if (sep < 0) return undefined;
  const hs = headerLines(text);
  if (hs.length === 0 || headerKey(hs[0]!) !== "tree") return undefined;
  const parent: string[] = [];
  let i = 1;
  while (i < hs.length && headerKey(hs[i]!) === "parent") parent.push(headerValue(hs[i++]!));
  const other = new Map<string, string>();
  for (; i < hs.length; i++) {
    const k = headerKey(hs[i]!);
    if (k !== "tree" && k !== "parent" && !other.has(k)) other.set(k, headerValue(hs[i]!));
  }
  const author = person(other.get("author"));
  const committer = person(other.get("committer"));
  if (!author || !committer) return undefined;
  const commit: CommitObject = {
    message: normalizeNewlines(text.slice(sep + 2)),
    tree: headerValue(hs[0]!),
    parent,
    author,
    committer,
  };
  const sig = other.get("gpgsig");
  if (sig !== undefined) commit.gpgsig = sig;
  return commit;
}

/**
 * An annotated tag's text: the object it points at and its tagger (the first of each header
 * wins). Undefined when it names no object or a person line does not parse.
 */
export function parseTag(text: string): { object: string; tagger?: Person } | undefined {
  if (text.indexOf("\n\n") < 0) return undefined;
  const first = new Map<string, string>();
  for (const h of headerLines(text)) {
    const k = headerKey(h);
    if (!first.has(k)) first.set(k, headerValue(h));
  }
  const object = first.get("object");
  if (object === undefined) return undefined;
  const out: { object: string; tagger?: Person } = { object };
  for (const k of ["tagger", "committer"]) {
    const v = first.get(k);
    if (!v) continue;
    const p = person(v);
    if (!p) return undefined;
    if (k === "tagger") out.tagger = p;
  }
  return out;
}

const TYPE_OF_MODE: Record<string, IsoTreeEntry["type"]> = {
  "040000": "tree",
  "100644": "blob",
  "100755": "blob",
  "120000": "blob",
  "160000": "commit",
};

/**
 * Whether isomorphic-git surely accepts this entry name. Stricter than its own check (which
 * refuses separators, `.`/`..`-like names and the spellings of `.git` on NTFS and HFS+): a
 * name this refuses goes to isomorphic-git, which accepts or refuses it itself.
 */
function plainName(name: string): boolean {
  if (name === "" || /[/\\:\u200C-\u200F\u202A-\u202E\u206A-\u206F\uFEFF\uFFFD]/.test(name)) return false;
  // Trailing dots and spaces dropped by a backward scan (a regex costs O(n²) on a long run of dots).
  let end = name.length;
  while (end > 0 && (name.charCodeAt(end - 1) === 46 || name.charCodeAt(end - 1) === 32)) end--;
  const lower = name.slice(0, end).toLowerCase();
  return lower !== "" && lower !== ".git" && !/^\.?git~[1-9]$/.test(lower);
}

/**
 * A tree object's entries (`<mode> <name>\0<20-byte oid>` each), in the order isomorphic-git
 * gives them (by the names' UTF-8 bytes, where git's own order puts `a/` after `a.b`);
 * undefined if any entry is odd (a name that is not valid UTF-8 included).
 */
export function parseTree(data: Buffer): IsoTreeEntry[] | undefined {
  const out: (IsoTreeEntry & { raw: Buffer })[] = [];
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(32, at);
    const nul = data.indexOf(0, at);
    if (space < 0 || nul < 0 || space > nul || nul + 21 > data.length) return undefined;
    let mode = data.toString("latin1", at, space);
    if (mode === "40000") mode = "040000";
    const type = TYPE_OF_MODE[mode];
    if (!type) return undefined;
    const name = data.toString("utf8", space + 1, nul);
    if (!plainName(name)) return undefined;
    out.push({ mode, path: name, oid: data.toString("hex", nul + 1, nul + 21), type, raw: data.subarray(space + 1, nul) });
    at = nul + 21;
  }
  out.sort((a, b) => Buffer.compare(a.raw, b.raw));
  return out.map(({ mode, path, oid, type }) => ({ mode, path, oid, type }));
}
