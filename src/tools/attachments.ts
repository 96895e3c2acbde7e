// Planes that reach each other: attach (a plane on this instance, or one a drsg serves elsewhere
// by url, its token read from an environment variable named here — never passed in), detach,
// attachments (with `probe`). Recorded as the plane property `attachments`.
import { z } from "zod";
import { DrsgError } from "../model/errors.js";
import type { PropValue } from "../model/facts.js";
import type { PlaneInfo, Store } from "../store/types.js";
import { requirePlane } from "./common.js";
import { defineTool, type ToolContext } from "./tool.js";

export interface Attachment {
  kind: "local" | "remote";
  /** The plane attached (on this instance, or on the remote server). */
  plane: string;
  url?: string;
  /** Name of the environment variable holding the remote's token. */
  token_env?: string;
}

export const REMOTE_TIMEOUT_MS = 3000;

export function attachmentsOf(p: PlaneInfo): Attachment[] {
  const raw = p.props.attachments;
  if (!Array.isArray(raw)) return [];
  return raw.filter((a): a is Attachment & PropValue => typeof a === "object" && a !== null && typeof (a as { plane?: unknown }).plane === "string") as Attachment[];
}

function same(a: Attachment, b: Attachment): boolean {
  return a.kind === b.kind && a.plane === b.plane && (a.url ?? "") === (b.url ?? "");
}

function writeTo(store: Store, plane: string, fn: Parameters<Store["write"]>[0]) {
  const routed = store as Store & { writeTo?: (p: string, f: typeof fn) => unknown };
  return routed.writeTo ? routed.writeTo(plane, fn) : store.write(fn);
}

function setAttachments(store: Store, plane: string, list: Attachment[]): void {
  writeTo(store, plane, (w) => w.setPlaneProps(plane, { attachments: list as unknown as PropValue }));
}

/** Call a remote drsg's JSON-RPC with the recorded url and the token from the environment, bounded. */
export async function remoteCall(a: Attachment, method: string, params: Record<string, unknown>, timeoutMs = REMOTE_TIMEOUT_MS): Promise<unknown> {
  if (a.kind !== "remote" || !a.url) throw new DrsgError("BAD_INPUT", "not a remote attachment");
  const headers: Record<string, string> = { "content-type": "application/json" };
  const token = a.token_env ? process.env[a.token_env] : undefined;
  if (token) headers.authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(new URL("/rpc", a.url), {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (e) {
    throw new DrsgError("TIMEOUT", `remote ${a.url} did not answer ${method} within ${timeoutMs} ms (${(e as Error).name})`);
  }
  if (res.status !== 200) throw new DrsgError("UNAUTHORIZED", `remote ${a.url} answered HTTP ${res.status} to ${method}${res.status === 401 ? ` — set ${a.token_env ?? "its token variable"}` : ""}`);
  const body = (await res.json()) as { result?: unknown; error?: { message?: string } };
  if (body.error) throw new DrsgError("BAD_INPUT", `remote ${a.url}: ${body.error.message ?? "error"}`);
  return body.result;
}

async function probe(a: Attachment, timeoutMs = REMOTE_TIMEOUT_MS): Promise<string> {
  if (a.kind !== "remote" || !a.url) return "local";
  try {
    const r = await fetch(new URL("/health", a.url), { signal: AbortSignal.timeout(timeoutMs) });
    if (r.status !== 200) return `answers HTTP ${r.status}`;
    const h = (await r.json()) as { pid?: number };
    return `answers (pid ${h.pid ?? "?"})`;
  } catch {
    return `does not answer within ${timeoutMs} ms`;
  }
}

const PlaneName = z.string().min(1).max(200);

export const attach = defineTool({
  name: "attach",
  description:
    "Let a plane ask another: a plane on this instance (`target`), or a plane a drsg serves elsewhere (`url` + `target`, the token read from the environment variable `token_env` — never passed here). `both: true` records the way back (local targets). Used by wire and impact `across`.",
  input: z.strictObject({
    plane: PlaneName,
    target: PlaneName,
    url: z.string().url().max(2000).optional(),
    token_env: z.string().regex(/^[A-Z_][A-Z0-9_]{0,63}$/).optional(),
    both: z.boolean().optional(),
  }),
  readOnly: false,
  cli: { positionals: [], summary: "Let a plane ask another (local, or remote by url): wire and impact --across use it." },
  async run(ctx, { plane, target, url, token_env, both }) {
    const p = requirePlane(ctx.store, plane);
    let a: Attachment;
    let note = "";
    if (url) {
      const u = new URL(url);
      if (u.protocol !== "http:" && u.protocol !== "https:") throw new DrsgError("BAD_INPUT", `attach: url must be http(s), got ${u.protocol}`);
      a = { kind: "remote", plane: target, url: u.origin, ...(token_env ? { token_env } : {}) };
      note = ` — ${await probe(a)}`;
      if (both) note += "; the way back is not recorded on a remote server (attach there)";
    } else {
      if (target === plane) throw new DrsgError("BAD_INPUT", "attach: a plane cannot attach itself");
      requirePlane(ctx.store, target);
      a = { kind: "local", plane: target };
    }
    const list = attachmentsOf(p);
    if (!list.some((x) => same(x, a))) setAttachments(ctx.store, plane, [...list, a]);
    if (both && a.kind === "local") {
      const t = requirePlane(ctx.store, target);
      const back: Attachment = { kind: "local", plane };
      const tl = attachmentsOf(t);
      if (!tl.some((x) => same(x, back))) setAttachments(ctx.store, target, [...tl, back]);
    }
    return `plane '${plane}' attaches ${a.kind === "remote" ? `'${target}' at ${a.url}` : `'${target}'`}${both && a.kind === "local" ? " (and the way back)" : ""}${note}`;
  },
});

export const detach = defineTool({
  name: "detach",
  description: "Forget an attachment of a plane (and, with `both`, the way back).",
  input: z.strictObject({ plane: PlaneName, target: PlaneName, url: z.string().max(2000).optional(), both: z.boolean().optional() }),
  readOnly: false,
  cli: { positionals: [], summary: "Forget an attachment of a plane." },
  run(ctx, { plane, target, url, both }) {
    const p = requirePlane(ctx.store, plane);
    const list = attachmentsOf(p);
    const keep = list.filter((x) => !(x.plane === target && (url ? x.url === new URL(url).origin : x.kind === "local")));
    if (keep.length === list.length) throw new DrsgError("BAD_INPUT", `detach: plane '${plane}' does not attach '${target}'${url ? ` at ${url}` : ""}`);
    setAttachments(ctx.store, plane, keep);
    if (both && !url && ctx.store.getPlane(target)) {
      const t = requirePlane(ctx.store, target);
      setAttachments(ctx.store, target, attachmentsOf(t).filter((x) => !(x.kind === "local" && x.plane === plane)));
    }
    return `plane '${plane}' no longer attaches '${target}'`;
  },
});

export const attachments = defineTool({
  name: "attachments",
  description: "The planes a plane may ask (local, or remote by url); `probe: true` asks each remote whether it answers now (bounded).",
  input: z.strictObject({ plane: PlaneName, probe: z.boolean().optional() }),
  readOnly: true,
  cli: { positionals: [], summary: "The planes a plane may ask; --probe asks each remote whether it answers." },
  async run(ctx, { plane, probe: doProbe }) {
    const p = requirePlane(ctx.store, plane);
    const list = attachmentsOf(p);
    if (list.length === 0) return `plane '${plane}' attaches nothing — attach {plane, target} adds one`;
    const lines = [`plane '${plane}' attaches ${list.length}:`];
    for (const a of list) {
      const state = a.kind === "local" ? (ctx.store.getPlane(a.plane) ? "here" : "here, but missing now") : doProbe ? await probe(a) : "not probed";
      lines.push(`  ${a.plane}${a.url ? ` at ${a.url}${a.token_env ? ` (token from $${a.token_env})` : ""}` : ""}  — ${state}`);
    }
    return lines.join("\n");
  },
});

/** Planes reachable from `plane` through attachments (transitively, cycle-safe), local ones only. */
export function attachedLocal(ctx: ToolContext, plane: string): string[] {
  const seen = new Set<string>([plane]);
  const out: string[] = [];
  const queue = [plane];
  while (queue.length > 0) {
    const p = ctx.store.getPlane(queue.shift()!);
    if (!p) continue;
    for (const a of attachmentsOf(p)) {
      if (a.kind !== "local" || seen.has(a.plane)) continue;
      seen.add(a.plane);
      out.push(a.plane);
      queue.push(a.plane);
    }
  }
  return out;
}
