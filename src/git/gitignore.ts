// A small .gitignore matcher for walking a tree outside any git repository (inside one, the walk
// asks isomorphic-git). Covers the common syntax: comments, `\` escapes, `!` negation, trailing
// `/` (directories only), a `/` at the start or middle anchoring to the file's directory, `*`, `?`,
// `[...]`, and `**` as a leading `**/`, a trailing `/**` or a middle `/**/`.

export interface IgnoreRule {
  /** Directory of the .gitignore, relative to the walk root ("" for the root), POSIX. */
  base: string;
  negate: boolean;
  dirOnly: boolean;
  re: RegExp;
}

/** Parse one .gitignore file found in directory `base` (relative to the walk root). */
export function parseGitignore(text: string, base = ""): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (let line of text.split(/\r?\n/)) {
    if (line === "" || line.startsWith("#")) continue;
    // Trailing spaces are dropped unless escaped with a backslash.
    line = line.replace(/(?<!\\)\s+$/, "");
    if (line === "") continue;
    let negate = false;
    if (line.startsWith("!")) {
      negate = true;
      line = line.slice(1);
    } else if (line.startsWith("\\!") || line.startsWith("\\#")) {
      line = line.slice(1);
    }
    let dirOnly = false;
    if (line.endsWith("/")) {
      dirOnly = true;
      line = line.replace(/\/+$/, "");
    }
    if (line === "") continue;
    const anchored = line.includes("/");
    if (line.startsWith("/")) line = line.slice(1);
    const re = new RegExp(`^${globToRegex(anchored ? line : `**/${line}`)}$`);
    rules.push({ base, negate, dirOnly, re });
  }
  return rules;
}

/**
 * Whether `relPath` (relative to the walk root, POSIX) is ignored by `rules`, given in precedence
 * order (outer .gitignore files first, lines in file order): the last matching rule decides.
 * The caller must not descend into ignored directories (git never re-includes below them).
 */
export function isIgnoredBy(rules: readonly IgnoreRule[], relPath: string, isDir: boolean): boolean {
  let ignored = false;
  for (const r of rules) {
    if (r.dirOnly && !isDir) continue;
    let p = relPath;
    if (r.base !== "") {
      if (!relPath.startsWith(`${r.base}/`)) continue;
      p = relPath.slice(r.base.length + 1);
    }
    if (r.re.test(p)) ignored = !r.negate;
  }
  return ignored;
}

function globToRegex(glob: string): string {
  let out = "";
  let i = 0;
  while (i < glob.length) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        const atStart = i === 0 || glob[i - 1] === "/";
        const next = glob[i + 2];
        if (atStart && next === "/") {
          out += "(?:.*/)?"; // "**/": zero or more directories
          i += 3;
          continue;
        }
        if (atStart && next === undefined) {
          out += ".*"; // trailing "/**": everything inside
          i += 2;
          continue;
        }
        out += "[^/]*"; // any other "**" is an ordinary "*"
        i += 2;
        continue;
      }
      out += "[^/]*";
    } else if (c === "?") {
      out += "[^/]";
    } else if (c === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close < 0) {
        out += "\\[";
      } else {
        let body = glob.slice(i + 1, close);
        if (body.startsWith("!")) body = `^${body.slice(1)}`;
        out += `[${body.replace(/\\/g, "\\\\")}]`;
        i = close;
      }
    } else if (c === "\\" && i + 1 < glob.length) {
      i++;
      out += escapeRe(glob[i]!);
    } else {
      out += escapeRe(c);
    }
    i++;
  }
  return out;
}

function escapeRe(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}
