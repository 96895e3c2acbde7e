// HTTP path templates from every framework's spelling to one form: `:id`, `{id}`, `<int:id>`,
// `${id}`, `[id]` and a concatenated variable all become `{}`; query strings and trailing
// slashes go; a scheme and host are dropped.

/** Normalise a route or URL path template; undefined when it is not a path. */
export function normalisePath(raw: string): string | undefined {
  let p = raw.trim();
  if (p === "") return undefined;
  p = p.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "");
  p = p.replace(/[?#].*$/, "");
  if (!p.startsWith("/")) p = `/${p}`;
  const segs = p
    .split("/")
    .filter((s) => s !== "")
    .map((s) => {
      if (/^:\w+\??$/.test(s) || /^\{[^}]*\}$/.test(s) || /^<[^>]+>$/.test(s) || /^\[\[?\.{0,3}\w+\]?\]$/.test(s) || /^\$\{[^}]*\}$/.test(s) || s === "*" || s === "{}")
        return "{}";
      if (s.includes("${") || s.includes("{}")) return "{}";
      if (s.startsWith("(") && s.endsWith(")")) return ""; // Next.js route group
      return s;
    })
    .filter((s) => s !== "");
  return `/${segs.join("/")}`;
}

/** Do a route template and a client path name the same endpoint? `tail` allows an unknown base before the path. */
export function pathsMatch(route: string, client: string, tail = false): boolean {
  const r = route.split("/").filter(Boolean);
  const c = client.split("/").filter(Boolean);
  if (c.length > r.length || (!tail && c.length !== r.length)) return false;
  const off = r.length - c.length;
  for (let i = 0; i < c.length; i++) {
    const a = r[i + off]!;
    const b = c[i]!;
    if (a === "{}" || b === "{}") continue;
    if (a !== b) return false;
  }
  return true;
}

export function methodsMatch(route: string, client: string): boolean {
  return route === "ANY" || client === "ANY" || route === client;
}
