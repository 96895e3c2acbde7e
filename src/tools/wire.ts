// wire: what serves an HTTP path and what asks for it — routes declared in code matched to client
// calls by method and path template, across every language in the plane and the planes it
// attaches (remote ones asked over JSON-RPC). Computed per call from each plane's commit (kept
// in memory per commit, never stored).
import { posix } from "node:path";
import * as z from "../model/zod.js";
import { GitRepo } from "../git/repo.js";
import { DrsgError } from "../model/errors.js";
import { SKIP_DIRS } from "../sync/walk.js";
import { type ClientCall, type Route, type SourceFile, scanCalls, scanRoutes } from "../wire/scan.js";
import { methodsMatch, normalisePath, pathsMatch } from "../wire/path.js";
import { danglingAttachments, relatedPlanes } from "./across.js";
import { attachmentsOf, remoteCall } from "./attachments.js";
import { clipLines, headerLines, requirePlane, resolveOne } from "./common.js";
import { defineTool, type ToolContext } from "./tool.js";

const SOURCE = /\.(m|c)?(t|j)sx?$|\.py$|\.go$|\.java$|\.kt$|\.rs$/;

interface Scanned {
  plane: string;
  routes: (Route & { symbol?: string })[];
  calls: (ClientCall & { symbol?: string })[];
  note?: string;
}

const cache = new Map<string, { commit: string; scanned: Scanned }>();

/** Routes and client calls of one local plane at its commit (memoised per commit). */
async function scanPlane(ctx: ToolContext, plane: string): Promise<Scanned> {
  const p = requirePlane(ctx.store, plane);
  const root = typeof p.props.synced_root === "string" ? p.props.synced_root : undefined;
  const commit = typeof p.props.synced_commit === "string" ? p.props.synced_commit : undefined;
  if (!root || !commit) return { plane, routes: [], calls: [], note: `plane '${plane}' records no commit and tree to read` };
  const id = `${ctx.store.path}\u0000${plane}`;
  const hit = cache.get(id);
  if (hit && hit.commit === commit) return hit.scanned;
  const repo = await GitRepo.find(root);
  if (!repo) return { plane, routes: [], calls: [], note: `plane '${plane}': ${root} is not a git repository here` };
  const rel = posix.normalize(root.slice(repo.root.length).replace(/^\/+/, ""));
  const entries = await repo.listTree(commit, rel && rel !== "." ? rel : undefined);
  const files: SourceFile[] = [];
  const dec = new TextDecoder();
  for (const e of entries) {
    if (!SOURCE.test(e.path) || e.mode === "160000" || e.mode === "120000") continue;
    if (e.path.split("/").some((s) => SKIP_DIRS.has(s))) continue;
    const bytes = await repo.readBlob(e.oid);
    if (bytes.byteLength > 1024 * 1024) continue;
    files.push({ path: e.path, text: dec.decode(bytes) });
  }
  const symbols = symbolIndex(ctx, plane);
  const at = (file: string, line: number) => symbols.get(file)?.find((s) => s.line <= line && line <= s.end)?.key;
  const scanned: Scanned = {
    plane,
    // A named inline handler is the handler: never the function it is written in.
    routes: scanRoutes(files).map((r) => ({ ...r, symbol: handlerKey(ctx, plane, r) ?? (r.inline ? undefined : at(r.file, r.line)) })),
    calls: scanCalls(files).map((c) => ({ ...c, symbol: at(c.file, c.line) })),
  };
  cache.set(id, { commit, scanned });
  return scanned;
}

/** file → definitions sorted innermost-first (by extent), for naming what a line falls in. */
function symbolIndex(ctx: ToolContext, plane: string): Map<string, { key: string; line: number; end: number }[]> {
  const by = new Map<string, { key: string; line: number; end: number }[]>();
  for (const n of ctx.store.allNodes(plane)) {
    const file = n.props.file;
    const line = n.props.line;
    const end = n.props.end_line;
    if (typeof file !== "string" || typeof line !== "number" || typeof end !== "number") continue;
    if (n.labels[0] === "Module" || n.labels[0] === "File") continue;
    const list = by.get(file) ?? [];
    list.push({ key: n.key, line, end });
    by.set(file, list);
  }
  for (const l of by.values()) l.sort((a, b) => a.end - a.line - (b.end - b.line));
  return by;
}

/** The key of a route's named handler when one definition in its file (or the plane) has that name. */
function handlerKey(ctx: ToolContext, plane: string, r: Route): string | undefined {
  if (!r.handler) return undefined;
  const name = r.handler.split(".").pop()!;
  const cands = ctx.store.nodesByName(plane, name, 50).filter((n) => !n.labels.includes("UnresolvedRef") && !n.labels.includes("External"));
  const here = cands.filter((n) => n.props.file === r.file);
  if (here.length === 1) return here[0]!.key;
  return cands.length === 1 ? cands[0]!.key : undefined;
}

interface Match {
  route: Route & { symbol?: string; plane: string };
  call: ClientCall & { symbol?: string; plane: string };
  tail: boolean;
}

function matchAll(routes: Match["route"][], calls: Match["call"][]): Match[] {
  const out: Match[] = [];
  for (const c of calls) {
    if (!c.path) continue;
    for (const r of routes) {
      if (r.dynamic) continue;
      if (!methodsMatch(r.method, c.method)) continue;
      if (pathsMatch(r.path, c.path)) out.push({ route: r, call: c, tail: false });
      else if (c.unknownBase && pathsMatch(r.path, c.path, true)) out.push({ route: r, call: c, tail: true });
    }
  }
  return out;
}

function routeLine(r: Match["route"], home: string): string {
  const what = r.dynamic ? `dynamic path ${JSON.stringify(r.written)} — the parser cannot read it` : r.path;
  return `${r.method} ${what}  ${r.plane === home ? "" : `[${r.plane}] `}${r.file}:${r.line}${r.symbol ? `  ${r.symbol}` : r.handler ? `  handler ${r.handler}${r.inline ? " (inline)" : ""}` : ""}  (${r.framework})`;
}

function callLine(c: Match["call"], home: string): string {
  const what = c.dynamic ? `dynamic URL ${JSON.stringify(c.written)} — the parser cannot read it` : `${c.path}`;
  return `${c.method} ${what}  ${c.plane === home ? "" : `[${c.plane}] `}${c.file}:${c.line}${c.symbol ? `  in ${c.symbol}` : ""}  (${c.client})`;
}

const CAP = 30;

function capped(lines: string[], cap = CAP): string[] {
  return lines.length > cap ? [...lines.slice(0, cap), `… and ${lines.length - cap} more`] : lines;
}

export const wire = defineTool({
  name: "wire",
  description:
    "What serves an HTTP path and what calls it: routes declared in code (Express/Koa/Fastify/Hono, Next.js, Flask/FastAPI/Django, Go net/http/gin/chi/echo, Spring, axum/actix) matched to client calls (fetch, axios, ky, got, requests, httpx, http.Get/NewRequest, RestTemplate, WebClient) by method and path template, across this plane and the planes it attaches. Give `path` (e.g. `GET /api/users/42`), `handler` (a symbol), or `call` (`file:line` of a client call); none lists everything with what is unmatched.",
  input: z.strictObject({
    plane: z.string().check(z.minLength(1), z.maxLength(200)),
    path: z.optional(z.string().check(z.minLength(1), z.maxLength(2000))),
    handler: z.optional(z.string().check(z.minLength(1), z.maxLength(1000))),
    call: z.optional(z.string().check(z.minLength(1), z.maxLength(2000))),
    format: z.optional(z.enum(["text", "json"])),
  }),
  readOnly: true,
  cli: { positionals: ["path"], summary: "What serves an HTTP path and what calls it, across attached planes." },
  async run(ctx, { plane, path, handler, call, format }) {
    const p = requirePlane(ctx.store, plane);
    const local = [plane, ...relatedPlanes(ctx, plane)];
    const scanned = await Promise.all(local.map((x) => scanPlane(ctx, x)));
    if (format === "json") return { plane, routes: scanned[0]!.routes, calls: scanned[0]!.calls };
    const notes = [...danglingAttachments(ctx, plane), ...scanned.map((s) => s.note).filter((n): n is string => n !== undefined)];
    const routes: Match["route"][] = scanned.flatMap((s) => s.routes.map((r) => ({ ...r, plane: s.plane })));
    const calls: Match["call"][] = scanned.flatMap((s) => s.calls.map((c) => ({ ...c, plane: s.plane })));
    for (const a of attachmentsOf(p).filter((x) => x.kind === "remote")) {
      try {
        const r = (await remoteCall(a, "wire", { plane: a.plane, format: "json" })) as { text?: string };
        const body = JSON.parse(r.text ?? "{}") as { routes?: Route[]; calls?: ClientCall[] };
        const tag = `${a.plane}@${a.url}`;
        routes.push(...(body.routes ?? []).map((x) => ({ ...x, plane: tag })));
        calls.push(...(body.calls ?? []).map((x) => ({ ...x, plane: tag })));
      } catch (e) {
        notes.push(`remote ${a.plane} at ${a.url} not asked: ${(e as Error).message}`);
      }
    }
    const matches = matchAll(routes, calls);
    const lines = [...headerLines(ctx, p)];
    lines.push(`searched ${[...local, ...attachmentsOf(p).filter((x) => x.kind === "remote").map((x) => `${x.plane}@${x.url}`)].join(", ")}: ${routes.length} route(s), ${calls.length} client call(s)`);

    if (path) {
      const m = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|ANY)\s+(.*)$/i.exec(path.trim());
      const method = m ? m[1]!.toUpperCase() : "ANY";
      const norm = normalisePath(m ? m[2]! : path);
      if (!norm) throw new DrsgError("BAD_INPUT", `wire: '${path}' is not a path`);
      const served = routes.filter((r) => !r.dynamic && methodsMatch(r.method, method) && pathsMatch(r.path, norm));
      const asking = calls.filter((c) => c.path && methodsMatch(c.method, method) && (pathsMatch(norm, c.path) || (c.unknownBase && pathsMatch(norm, c.path, true)) || pathsMatch(c.path, norm)));
      lines.push(`${method} ${norm}`);
      lines.push(served.length ? `served by (${served.length}):` : "served by nothing drsg found in these planes");
      lines.push(...capped(served.map((r) => `  ${routeLine(r, plane)}`)));
      lines.push(asking.length ? `called from (${asking.length}):` : "called from nowhere drsg found");
      lines.push(...capped(asking.map((c) => `  ${callLine(c, plane)}`)));
    } else if (handler) {
      const r = resolveOne(ctx, p, handler);
      if ("text" in r) return r.text;
      const key = r.node.key;
      const mine = routes.filter((x) => x.symbol === key);
      lines.push(`${key}`);
      if (mine.length === 0) lines.push("declares no route drsg found (is it registered under another name?)");
      for (const rt of mine) {
        lines.push(`serves ${routeLine(rt, plane)}`);
        const callers = matches.filter((x) => x.route === rt);
        lines.push(callers.length ? `  called from (${callers.length}):` : "  called from nowhere drsg found");
        lines.push(...capped(callers.map((x) => `    ${callLine(x.call, plane)}${x.tail ? "  (base URL unknown: matched on the path's tail)" : ""}`)));
      }
    } else if (call) {
      const m = /^(.*):(\d+)$/.exec(call.trim());
      if (!m) throw new DrsgError("BAD_INPUT", `wire: call must be file:line, got '${call}'`);
      const here = calls.filter((c) => c.file === m[1] && c.line === Number(m[2]));
      if (here.length === 0) lines.push(`no client call drsg recognises at ${call}`);
      for (const c of here) {
        lines.push(callLine(c, plane));
        if (c.dynamic) continue;
        const to = matches.filter((x) => x.call === c);
        lines.push(to.length ? `  served by (${to.length}):` : "  served by nothing in these planes");
        lines.push(...capped(to.map((x) => `    ${routeLine(x.route, plane)}${x.tail ? "  (base URL unknown: matched on the path's tail)" : ""}`)));
      }
    } else {
      const matchedRoutes = new Set(matches.map((x) => x.route));
      const matchedCalls = new Set(matches.map((x) => x.call));
      lines.push(`matched (${matches.length}):`);
      lines.push(...capped(matches.map((x) => `  ${callLine(x.call, plane)}\n    -> ${routeLine(x.route, plane)}${x.tail ? "  (base URL unknown: matched on the path's tail)" : ""}`)));
      const ur = routes.filter((r) => !matchedRoutes.has(r) && !r.dynamic);
      lines.push(`routes no client here calls (${ur.length}):`, ...capped(ur.map((r) => `  ${routeLine(r, plane)}`)));
      const dr = routes.filter((r) => r.dynamic);
      if (dr.length) lines.push(`routes with a path the parser cannot read (${dr.length}):`, ...capped(dr.map((r) => `  ${routeLine(r, plane)}`)));
      const uc = calls.filter((c) => !matchedCalls.has(c) && !c.dynamic);
      lines.push(`client calls nothing here serves (${uc.length}):`, ...capped(uc.map((c) => `  ${callLine(c, plane)}`)));
      const dyn = calls.filter((c) => c.dynamic);
      if (dyn.length) lines.push(`client calls with a dynamic URL the parser cannot read (${dyn.length}):`, ...capped(dyn.map((c) => `  ${callLine(c, plane)}`)));
    }
    for (const n of notes) lines.push(`note: ${n}`);
    lines.push("note: routes and calls are read from source text at each plane's commit; computed URLs and framework forms drsg does not know are missing, so treat this as a lower bound.");
    return clipLines(lines.join("\n"));
  },
});
