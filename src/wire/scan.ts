// What serves HTTP and what asks for it, read from source text: routes declared with
// Express/Koa/Fastify/Hono, Next.js file routes, Flask/FastAPI/Django, Go net/http/gin/chi/echo,
// Spring and axum/actix; client calls through fetch, axios, ky, got, requests, httpx,
// http.Get/NewRequest, RestTemplate and WebClient. Patterns are ours (never an agent's), so
// plain RegExp is safe here. A URL the text does not spell out is reported as dynamic.
import { posix } from "node:path";
import { normalisePath } from "./path.js";

export interface Route {
  method: string;
  /** Normalised template. */
  path: string;
  /** As written (with prefixes applied). */
  written: string;
  file: string;
  line: number;
  framework: string;
  /** Handler name as written, when the declaration names one. */
  handler?: string;
  /** The handler is a named function written inline (`app.get('/x', function h() {…})`). */
  inline?: boolean;
  /** The path is computed from something the text does not spell out: listed, never matched. */
  dynamic?: boolean;
}

export interface ClientCall {
  method: string;
  path?: string;
  written: string;
  file: string;
  line: number;
  client: string;
  /** The URL starts with something the text does not spell out (a base URL variable). */
  unknownBase: boolean;
  /** The whole URL is computed: nothing to match. */
  dynamic: boolean;
}

export interface SourceFile {
  path: string;
  text: string;
}

/** Make a line-number lookup for one text (offset → line) without rescanning. */
function liner(text: string): (i: number) => number {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (idx) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= idx) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

const JS = /\.(m|c)?(t|j)sx?$/;
const PY = /\.py$/;
const GO = /\.go$/;
const JAVA = /\.(java|kt)$/;
const RS = /\.rs$/;

/** Read a URL expression as written: a string literal, a template literal, or a concatenation. */
export function readUrlExpr(expr: string): { written: string; path?: string; unknownBase: boolean; dynamic: boolean } {
  const e = expr.trim();
  const str = /^(['"])((?:\\.|(?!\1).)*)\1/.exec(e);
  const tpl = /^`((?:\\.|[^`])*)`/.exec(e);
  let written: string;
  let unknownBase = false;
  if (str || tpl) {
    written = str ? str[2]! : tpl![1]!;
    // a concatenation after the literal: "/users/" + id → /users/{}
    const after = e.slice((str ?? tpl)![0].length).trim();
    if (/^\+/.test(after)) written += "{}";
    if (tpl && /^\$\{[^}]+\}/.test(written)) {
      unknownBase = true;
      written = written.replace(/^\$\{[^}]+\}/, "");
    }
  } else {
    // base + "/users/" + id  /  f"{BASE}/users/{id}" (Python f-strings)
    const f = /^f(['"])(.*?)\1/.exec(e);
    if (f) {
      written = f[2]!.replace(/\{[^}]*\}/g, (m, off: number) => (off === 0 ? "" : "{}"));
      unknownBase = /^\{/.test(f[2]!);
    } else {
      const concat = /^[\w.]+\s*\+\s*(['"`])((?:\\.|(?!\1).)*)\1/.exec(e);
      if (!concat) return { written: e.slice(0, 80), unknownBase: true, dynamic: true };
      written = concat[2]!;
      unknownBase = true;
      if (/\+\s*\w/.test(e.slice(concat[0].length))) written += "{}";
    }
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(written)) unknownBase = false;
  const path = normalisePath(written.replace(/\$\{[^}]*\}/g, "{}"));
  return { written, path, unknownBase, dynamic: path === undefined };
}

/** Text of the balanced (...) starting at `open` (index of "("), capped. */
function argsAt(text: string, open: number, cap = 2000): string {
  let depth = 0;
  for (let i = open; i < text.length && i < open + cap; i++) {
    const ch = text[i];
    if (ch === "(") depth++;
    else if (ch === ")") {
      depth--;
      if (depth === 0) return text.slice(open + 1, i);
    }
  }
  return text.slice(open + 1, Math.min(text.length, open + cap));
}

/** Split top-level arguments on commas. */
function splitArgs(args: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let cur = "";
  for (let i = 0; i < args.length; i++) {
    const ch = args[i]!;
    if (quote) {
      cur += ch;
      if (ch === "\\") cur += args[++i] ?? "";
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === "'" || ch === '"' || ch === "`") quote = ch;
    else if ("([{".includes(ch)) depth++;
    else if (")]}".includes(ch)) depth--;
    else if (ch === "," && depth === 0) {
      out.push(cur.trim());
      cur = "";
      continue;
    }
    cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

function relModule(from: string, spec: string, files: Set<string>): string | undefined {
  if (!spec.startsWith(".")) return undefined;
  const base = posix.normalize(posix.join(posix.dirname(from), spec)).replace(/\.(m|c)?js$/, "");
  for (const cand of [base, `${base}.ts`, `${base}.tsx`, `${base}.js`, `${base}.mjs`, `${base}.cjs`, `${base}/index.ts`, `${base}/index.js`])
    if (files.has(cand)) return cand;
  return undefined;
}

/** String constants a file declares (`const base = "/api"`, `base := "/api"`, `var base = "/api"`), by name. */
function stringConsts(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const seen = new Set<string>();
  for (const m of text.matchAll(/(?:\b(?:const|let|var)\s+(\w+)(?:\s*:\s*string)?\s*=|\b(\w+)\s*:=)\s*(['"`])((?:\\.|(?!\3)[^\\\n$])*)\3\s*(?:;|\n|,|\))/g)) {
    const name = (m[1] ?? m[2])!;
    // A name bound twice in one file is not a constant we can trust.
    if (seen.has(name)) out.delete(name);
    else out.set(name, m[4]!);
    seen.add(name);
  }
  // Go's grouped declarations: const ( base = "/api" … ).
  for (const block of text.matchAll(/\bconst\s*\(([^)]*)\)/g))
    for (const m of block[1]!.matchAll(/^\s*(\w+)\s*(?:string\s*)?=\s*"((?:\\.|[^"\\\n])*)"\s*$/gm)) {
      if (seen.has(m[1]!)) out.delete(m[1]!);
      else out.set(m[1]!, m[2]!);
      seen.add(m[1]!);
    }
  return out;
}

/**
 * A route's path argument as written: a string literal, or a concatenation of literals and
 * string constants the file declares (`baseUrl + "/cart"`). Anything else is dynamic.
 */
export function readRoutePath(expr: string, consts: Map<string, string>): { written: string; dynamic: boolean } {
  const parts = splitConcat(expr.trim());
  let written = "";
  for (const part of parts) {
    const lit = /^(['"`])((?:\\.|(?!\1).)*)\1$/s.exec(part);
    if (lit && !(lit[1] === "`" && lit[2]!.includes("${"))) written += lit[2]!;
    else if (/^\w+$/.test(part) && consts.has(part)) written += consts.get(part)!;
    else return { written: expr.trim().slice(0, 120), dynamic: true };
  }
  return { written, dynamic: parts.length === 0 };
}

/** Split `a + "b" + c` on top-level `+`. */
function splitConcat(e: string): string[] {
  const out: string[] = [];
  let quote: string | undefined;
  let depth = 0;
  let cur = "";
  for (let i = 0; i < e.length; i++) {
    const ch = e[i]!;
    if (quote) {
      cur += ch;
      if (ch === "\\") cur += e[++i] ?? "";
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === "'" || ch === '"' || ch === "`") quote = ch;
    else if ("([{".includes(ch)) depth++;
    else if (")]}".includes(ch)) depth--;
    else if (ch === "+" && depth === 0) {
      out.push(cur.trim());
      cur = "";
      continue;
    }
    cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** A JS handler argument: a name, or a named function written inline. */
function jsHandler(arg: string): { handler?: string; inline?: boolean } {
  if (/^[\w.]+$/.test(arg)) return { handler: arg };
  const fn = /^(?:async\s+)?function\s*\*?\s*(\w+)\s*\(/.exec(arg);
  return fn ? { handler: fn[1]!, inline: true } : {};
}

const HTTP_VERBS = ["get", "post", "put", "patch", "delete", "del", "all", "options", "head"];

function jsRoutes(files: SourceFile[], out: Route[]): void {
  const paths = new Set(files.map((f) => f.path));
  // file → prefix applied by a mount elsewhere (app.use('/api', router) where router comes from that file)
  const filePrefix = new Map<string, string>();
  const varPrefix = new Map<string, Map<string, string>>();
  for (const f of files) {
    if (!JS.test(f.path)) continue;
    const imports = new Map<string, string>();
    for (const m of f.text.matchAll(/import\s+(\w+)\s+from\s+['"]([^'"]+)['"]/g)) imports.set(m[1]!, m[2]!);
    for (const m of f.text.matchAll(/import\s*\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g))
      for (const part of m[1]!.split(",")) {
        const local = part.trim().split(/\s+as\s+/).pop()?.trim();
        if (local) imports.set(local, m[2]!);
      }
    for (const m of f.text.matchAll(/(?:const|let|var)\s+(\w+)\s*=\s*require\(\s*['"]([^'"]+)['"]\s*\)/g)) imports.set(m[1]!, m[2]!);
    const local = new Map<string, string>();
    for (const m of f.text.matchAll(/\b(\w+)\.(use|route|register)\(\s*(['"`])([^'"`]+)\3\s*,\s*(\w+)/g)) {
      const [, , , , prefix, target] = m;
      const src = imports.get(target!);
      const mod = src ? relModule(f.path, src, paths) : undefined;
      if (mod) filePrefix.set(mod, (filePrefix.get(mod) ?? "") + prefix!);
      else local.set(target!, prefix!);
    }
    for (const m of f.text.matchAll(/\b(\w+)\s*=\s*new\s+(?:Koa)?Router\(\s*\{[^}]*prefix\s*:\s*(['"`])([^'"`]+)\2/g)) local.set(m[1]!, m[3]!);
    for (const m of f.text.matchAll(/\b(\w+)\s*=\s*new\s+Hono\(\)\s*\.basePath\(\s*(['"`])([^'"`]+)\2/g)) local.set(m[1]!, m[3]!);
    varPrefix.set(f.path, local);
  }
  for (const f of files) {
    if (!JS.test(f.path)) continue;
    const line = liner(f.text);
    const consts = stringConsts(f.text);
    const re = new RegExp(`\\b(\\w+)\\.(${HTTP_VERBS.join("|")})\\(`, "g");
    for (const m of f.text.matchAll(re)) {
      const [, recv, verb] = m;
      if (/^(axios|ky|got|http|https|request|superagent|client|api|\$http|fetch)$/i.test(recv!)) continue;
      const args = splitArgs(argsAt(f.text, m.index! + m[0].length - 1));
      if (args.length < 2) continue;
      const first = args[0]!;
      // A route's path is a string, or an expression with a "/…" literal or a known string constant
      // in it (map.get(key) and the like are not routes).
      const literal = /^(['"`])\//.test(first) || /^(['"`])(\*?)\1$/.test(first);
      const built = !literal && (/\+\s*(['"`])\//.test(first) || (/^\w+$/.test(first) && (consts.get(first) ?? "").startsWith("/")));
      if (!literal && !built) continue;
      const { handler, inline } = jsHandler(args[args.length - 1] ?? "");
      const read = readRoutePath(first, consts);
      const prefix = (filePrefix.get(f.path) ?? "") + (varPrefix.get(f.path)?.get(recv!) ?? "");
      const method = verb === "all" ? "ANY" : verb === "del" ? "DELETE" : verb!.toUpperCase();
      const base = { method, file: f.path, line: line(m.index!), framework: "express/koa/hono", handler, ...(inline ? { inline } : {}) };
      if (read.dynamic) {
        out.push({ ...base, path: "", written: read.written, dynamic: true });
        continue;
      }
      const written = prefix + read.written;
      const path = normalisePath(written);
      if (path) out.push({ ...base, path, written });
    }
    // Fastify route({ method, url })
    for (const m of f.text.matchAll(/\.route\(\s*\{[^}]*?method\s*:\s*['"](\w+)['"][^}]*?url\s*:\s*['"]([^'"]+)['"]/gs)) {
      const path = normalisePath(m[2]!);
      if (path) out.push({ method: m[1]!.toUpperCase(), path, written: m[2]!, file: f.path, line: line(m.index!), framework: "fastify" });
    }
  }
  // Next.js file routes.
  for (const f of files) {
    const api = /(?:^|\/)pages\/(api\/.*)\.(?:m|c)?(?:t|j)sx?$/.exec(f.path);
    if (api) {
      const rest = api[1]!.replace(/\/index$/, "").replace(/^api\/index$/, "api");
      const path = normalisePath(`/${rest}`);
      if (path) out.push({ method: "ANY", path, written: `/${rest}`, file: f.path, line: 1, framework: "next.js pages" });
      continue;
    }
    const app = /(?:^|\/)app\/(.*?)\/?route\.(?:m|c)?(?:t|j)sx?$/.exec(f.path) ?? /^(?:src\/)?app\/()route\.(?:t|j)sx?$/.exec(f.path);
    if (app) {
      const rest = app[1]!;
      const path = normalisePath(`/${rest}`);
      if (!path) continue;
      const line = liner(f.text);
      let any = false;
      for (const m of f.text.matchAll(/export\s+(?:async\s+)?(?:function\s+|const\s+)(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b/g)) {
        any = true;
        out.push({ method: m[1]!, path, written: `/${rest}`, file: f.path, line: line(m.index!), framework: "next.js app", handler: m[1] });
      }
      if (!any) out.push({ method: "ANY", path, written: `/${rest}`, file: f.path, line: 1, framework: "next.js app" });
    }
  }
}

function pyRoutes(files: SourceFile[], out: Route[]): void {
  const modPrefix = new Map<string, string>(); // blueprint/router variable name → prefix
  for (const f of files) {
    if (!PY.test(f.path)) continue;
    for (const m of f.text.matchAll(/(\w+)\s*=\s*(?:Blueprint|APIRouter)\(([^)]*)\)/g)) {
      const pre = /(?:url_prefix|prefix)\s*=\s*['"]([^'"]+)['"]/.exec(m[2]!);
      if (pre) modPrefix.set(m[1]!, pre[1]!);
    }
    for (const m of f.text.matchAll(/(?:register_blueprint|include_router)\(\s*([\w.]+)([^)]*)\)/g)) {
      const pre = /(?:url_prefix|prefix)\s*=\s*['"]([^'"]+)['"]/.exec(m[2]!);
      const name = m[1]!.split(".").pop()!;
      if (pre) modPrefix.set(name, pre[1]! + (modPrefix.get(name) ?? ""));
    }
  }
  for (const f of files) {
    if (!PY.test(f.path)) continue;
    const line = liner(f.text);
    for (const m of f.text.matchAll(/@(\w+)\.(route|get|post|put|patch|delete|api_route)\(\s*['"]([^'"]*)['"]([^)]*)\)\s*\n(?:\s*@[^\n]*\n)*\s*(?:async\s+)?def\s+(\w+)/g)) {
      const [, obj, kind, p, rest, fn] = m;
      const prefix = modPrefix.get(obj!) ?? "";
      const written = prefix + p!;
      const path = normalisePath(written);
      if (!path) continue;
      // Flask and FastAPI default to GET when no methods are listed.
      let methods = [kind === "route" || kind === "api_route" ? "GET" : kind!.toUpperCase()];
      const ms = /methods\s*=\s*\[([^\]]*)\]/.exec(rest!);
      if (ms) methods = [...ms[1]!.matchAll(/['"](\w+)['"]/g)].map((x) => x[1]!.toUpperCase());
      for (const method of methods)
        out.push({ method, path, written, file: f.path, line: line(m.index!), framework: kind === "route" ? "flask" : "flask/fastapi", handler: fn });
    }
  }
  // Django urlpatterns, with include() prefixes by module.
  const includes = new Map<string, string>();
  for (const f of files)
    if (PY.test(f.path))
      for (const m of f.text.matchAll(/path\(\s*['"]([^'"]*)['"]\s*,\s*include\(\s*['"]([\w.]+)['"]/g)) includes.set(m[2]!, m[1]!);
  for (const f of files) {
    if (!/(^|\/)urls\.py$/.test(f.path)) continue;
    const mod = f.path.replace(/\.py$/, "").split("/").join(".");
    let prefix = "";
    for (const [m, p] of includes) if (mod.endsWith(m)) prefix = p;
    const line = liner(f.text);
    for (const m of f.text.matchAll(/\b(?:re_)?path\(\s*r?['"]([^'"]*)['"]\s*,\s*([\w.]+)(?:\.as_view\(\))?/g)) {
      if (m[2] === "include") continue;
      const written = `/${prefix}${m[1]!}`.replace(/\/+/g, "/");
      const path = normalisePath(written.replace(/\^|\$/g, ""));
      if (path) out.push({ method: "ANY", path, written, file: f.path, line: line(m.index!), framework: "django", handler: m[2]!.split(".").pop() });
    }
  }
}

/** The index of the `}` closing the block whose `{` is the first after `from`. */
function blockEnd(text: string, from: number): number {
  const open = text.indexOf("{", from);
  if (open < 0) return text.length;
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) return i;
  }
  return text.length;
}

function goRoutes(files: SourceFile[], out: Route[]): void {
  for (const f of files) {
    if (!GO.test(f.path)) continue;
    const line = liner(f.text);
    const groups = new Map<string, string>();
    for (const m of f.text.matchAll(/(\w+)\s*:?=\s*(\w+)\.Group\(\s*"([^"]+)"/g)) groups.set(m[1]!, (groups.get(m[2]!) ?? "") + m[3]!);
    const blocks: { start: number; end: number; prefix: string }[] = [];
    for (const m of f.text.matchAll(/\.Route\(\s*"([^"]+)"\s*,\s*func/g)) blocks.push({ start: m.index!, end: blockEnd(f.text, m.index!), prefix: m[1]! });
    const prefixAt = (i: number) =>
      blocks
        .filter((b) => b.start < i && i < b.end)
        .sort((a, b) => a.start - b.start)
        .map((b) => b.prefix)
        .join("");
    const consts = stringConsts(f.text);
    for (const m of f.text.matchAll(/\b(\w+)\.(HandleFunc|Handle)\(/g)) {
      const args = splitArgs(argsAt(f.text, m.index! + m[0].length - 1));
      if (args.length < 2) continue;
      const read = readRoutePath(args[0]!, consts);
      const handler = /^[\w.]+$/.test(args[1]!) ? args[1] : undefined;
      const base = { file: f.path, line: line(m.index!), framework: "net/http", handler };
      if (read.dynamic) {
        out.push({ ...base, method: "ANY", path: "", written: read.written, dynamic: true });
        continue;
      }
      let pat = read.written;
      let method = "ANY";
      const mm = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+(.*)$/.exec(pat);
      if (mm) {
        method = mm[1]!;
        pat = mm[2]!;
      }
      const written = prefixAt(m.index!) + pat;
      const path = normalisePath(written.replace(/\{\$\}$/, ""));
      if (path) out.push({ ...base, method, path, written });
    }
    for (const m of f.text.matchAll(/\b(\w+)\.(GET|POST|PUT|PATCH|DELETE|Get|Post|Put|Patch|Delete|Any)\(/g)) {
      const args = splitArgs(argsAt(f.text, m.index! + m[0].length - 1));
      if (args.length < 2) continue;
      const first = args[0]!;
      // Only string paths (or "/…" concatenations and string constants): r.Get(ctx, key) is no route.
      if (!/^"/.test(first) && !/\+\s*"\//.test(first) && !(consts.get(first) ?? "").startsWith("/")) continue;
      const read = readRoutePath(first, consts);
      const method = m[2] === "Any" ? "ANY" : m[2]!.toUpperCase();
      const handler = /^[\w.]+$/.test(args[args.length - 1]!) ? args[args.length - 1] : undefined;
      const base = { method, file: f.path, line: line(m.index!), framework: "gin/chi/echo", handler };
      if (read.dynamic) {
        out.push({ ...base, path: "", written: read.written, dynamic: true });
        continue;
      }
      const written = (groups.get(m[1]!) ?? "") + prefixAt(m.index!) + read.written;
      const path = normalisePath(written);
      if (path) out.push({ ...base, path, written });
    }
  }
}

function javaRoutes(files: SourceFile[], out: Route[]): void {
  for (const f of files) {
    if (!JAVA.test(f.path)) continue;
    const line = liner(f.text);
    const classMap = /@RequestMapping\(\s*(?:value\s*=\s*|path\s*=\s*)?\{?\s*"([^"]*)"[^)]*\)\s*(?:@\w+(?:\([^)]*\))?\s*)*(?:public\s+|final\s+|abstract\s+)*class\b/.exec(f.text);
    const base = classMap ? classMap[1]! : "";
    for (const m of f.text.matchAll(/@(Get|Post|Put|Delete|Patch|Request)Mapping(?:\(([^)]*)\))?\s*(?:@\w+(?:\([^)]*\))?\s*)*(?:public|protected|private)?[\w<>[\], ?]*?\s(\w+)\s*\(/g)) {
      if (classMap && m.index === classMap.index) continue;
      const args = m[2] ?? "";
      const p = /(?:value\s*=\s*|path\s*=\s*)?\{?\s*"([^"]*)"/.exec(args)?.[1] ?? "";
      let method = m[1] === "Request" ? "ANY" : m[1]!.toUpperCase();
      const rm = /RequestMethod\.(\w+)/.exec(args);
      if (rm) method = rm[1]!;
      const written = base + p;
      const path = normalisePath(written || "/");
      if (path) out.push({ method, path, written, file: f.path, line: line(m.index!), framework: "spring", handler: m[3] });
    }
  }
}

function rustRoutes(files: SourceFile[], out: Route[]): void {
  for (const f of files) {
    if (!RS.test(f.path)) continue;
    const line = liner(f.text);
    for (const m of f.text.matchAll(/\.route\(\s*"([^"]+)"\s*,\s*((?:\s*\.?\s*(?:get|post|put|patch|delete)\(\s*[\w:]+\s*\))+)/g)) {
      const path = normalisePath(m[1]!);
      if (!path) continue;
      for (const h of m[2]!.matchAll(/(get|post|put|patch|delete)\(\s*([\w:]+)\s*\)/g))
        out.push({ method: h[1]!.toUpperCase(), path, written: m[1]!, file: f.path, line: line(m.index!), framework: "axum", handler: h[2]!.split("::").pop() });
    }
    for (const m of f.text.matchAll(/#\[(get|post|put|patch|delete)\(\s*"([^"]+)"[^\]]*\]\s*(?:pub\s+)?(?:async\s+)?fn\s+(\w+)/g)) {
      const path = normalisePath(m[2]!);
      if (path) out.push({ method: m[1]!.toUpperCase(), path, written: m[2]!, file: f.path, line: line(m.index!), framework: "actix", handler: m[3] });
    }
  }
}

export function scanRoutes(files: SourceFile[]): Route[] {
  const out: Route[] = [];
  jsRoutes(files, out);
  pyRoutes(files, out);
  goRoutes(files, out);
  javaRoutes(files, out);
  rustRoutes(files, out);
  return out;
}

function methodFromOptions(text: string): string | undefined {
  return /method\s*:\s*['"](\w+)['"]/i.exec(text)?.[1]?.toUpperCase();
}

export function scanCalls(files: SourceFile[]): ClientCall[] {
  const out: ClientCall[] = [];
  const push = (f: SourceFile, line: number, method: string, client: string, expr: string) => {
    const u = readUrlExpr(expr);
    out.push({ method, path: u.path, written: u.written, file: f.path, line, client, unknownBase: u.unknownBase, dynamic: u.dynamic });
  };
  for (const f of files) {
    const line = liner(f.text);
    if (JS.test(f.path)) {
      const instances = new Set<string>();
      for (const m of f.text.matchAll(/(?:const|let|var)\s+(\w+)\s*=\s*(?:axios|ky)\.(?:create|extend)\(/g)) instances.add(m[1]!);
      for (const m of f.text.matchAll(/\bfetch\(/g)) {
        const args = splitArgs(argsAt(f.text, m.index! + 5));
        if (args.length === 0) continue;
        push(f, line(m.index!), methodFromOptions(args[1] ?? "") ?? "GET", "fetch", args[0]!);
      }
      for (const m of f.text.matchAll(/\b(axios|ky|got|\w+)\.(get|post|put|patch|delete|head)\(/g)) {
        const [, obj, verb] = m;
        if (!["axios", "ky", "got"].includes(obj!) && !instances.has(obj!)) continue;
        const args = splitArgs(argsAt(f.text, m.index! + m[0].length - 1));
        if (args.length === 0) continue;
        push(f, line(m.index!), verb!.toUpperCase(), obj!, args[0]!);
      }
      for (const m of f.text.matchAll(/\b(?:axios|got)\(\s*(['"`])/g)) {
        const args = splitArgs(argsAt(f.text, f.text.indexOf("(", m.index!)));
        push(f, line(m.index!), methodFromOptions(args[1] ?? "") ?? "GET", "axios/got", args[0] ?? "");
      }
    } else if (PY.test(f.path)) {
      for (const m of f.text.matchAll(/\b(requests|httpx|session|client)\.(get|post|put|patch|delete|head)\(/g)) {
        const args = splitArgs(argsAt(f.text, m.index! + m[0].length - 1));
        if (args.length === 0) continue;
        const first = args[0]!.replace(/^url\s*=\s*/, "");
        push(f, line(m.index!), m[2]!.toUpperCase(), m[1]!, first);
      }
    } else if (GO.test(f.path)) {
      for (const m of f.text.matchAll(/\bhttp\.(Get|Post|Head)\(/g)) {
        const args = splitArgs(argsAt(f.text, m.index! + m[0].length - 1));
        if (args.length > 0) push(f, line(m.index!), m[1]!.toUpperCase(), "net/http", args[0]!);
      }
      for (const m of f.text.matchAll(/\bhttp\.NewRequest(?:WithContext)?\(/g)) {
        let args = splitArgs(argsAt(f.text, m.index! + m[0].length - 1));
        if (m[0].includes("WithContext")) args = args.slice(1);
        if (args.length < 2) continue;
        const method = /"(\w+)"/.exec(args[0]!)?.[1] ?? /http\.Method(\w+)/.exec(args[0]!)?.[1]?.toUpperCase() ?? "ANY";
        push(f, line(m.index!), method, "net/http", args[1]!);
      }
    } else if (JAVA.test(f.path)) {
      for (const m of f.text.matchAll(/\b\w*[Tt]emplate\.(getForObject|getForEntity|postForObject|postForEntity|put|delete|patchForObject|exchange)\(/g)) {
        const args = splitArgs(argsAt(f.text, m.index! + m[0].length - 1));
        if (args.length === 0) continue;
        const verb = m[1]!;
        const method = verb.startsWith("get") ? "GET" : verb.startsWith("post") ? "POST" : verb.startsWith("patch") ? "PATCH" : verb === "put" ? "PUT" : verb === "delete" ? "DELETE" : (/HttpMethod\.(\w+)/.exec(args[1] ?? "")?.[1] ?? "ANY");
        push(f, line(m.index!), method, "RestTemplate", args[0]!);
      }
      for (const m of f.text.matchAll(/\.(get|post|put|patch|delete)\(\)\s*\.uri\(/g)) {
        const args = splitArgs(argsAt(f.text, m.index! + m[0].length - 1));
        if (args.length > 0) push(f, line(m.index!), m[1]!.toUpperCase(), "WebClient", args[0]!);
      }
    }
  }
  return out;
}
