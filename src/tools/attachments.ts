// Planes that reach each other: attach (a plane on this instance, or one a drsg serves elsewhere
// by url), detach, attachments (with `probe`). Recorded as the plane property `attachments`.
// Which remote origins may be contacted, and the token each is sent, are the operator's
// configuration (DRSG_ATTACH_ALLOW, src/tools/outbound.ts), never an agent's: an agent names a
// url, and drsg contacts it only when it is loopback or listed, sending a token only to a
// listed origin the operator gave one.
import * as z from "../model/zod.js";
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

/** The outbound requests (node's http, https, net, dns): loaded when a remote is contacted, not by every verb that reads attachments. */
const outbound = () => import("./outbound.js");

/**
 * Call a remote drsg's JSON-RPC at the recorded url, bounded: only when the url is one drsg may
 * contact (URL_NOT_ALLOWED otherwise), with the token the operator configured for that origin.
 * A `token_env` an older drsg recorded in the attachment is ignored.
 */
export async function remoteCall(a: Attachment, method: string, params: Record<string, unknown>, timeoutMs = REMOTE_TIMEOUT_MS): Promise<unknown> {
  if (a.kind !== "remote" || !a.url) throw new DrsgError("BAD_INPUT", "not a remote attachment");
  const { outboundRequest, outboundTarget } = await outbound();
  const t = await outboundTarget(`remote ${a.plane}`, a.url);
  let res: { status: number; text: string };
  try {
    res = await outboundRequest(t, "/rpc", { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }), timeoutMs });
  } catch (e) {
    throw new DrsgError("TIMEOUT", `remote ${t.url.origin} did not answer ${method} within ${timeoutMs} ms (${(e as Error).name})`);
  }
  if (res.status !== 200)
    throw new DrsgError(
      "UNAUTHORIZED",
      `remote ${t.url.origin} answered HTTP ${res.status} to ${method}${res.status === 401 ? ` — the operator gives it a token with DRSG_ATTACH_ALLOW=${t.url.origin}=TOKEN_VAR` : ""}`,
    );
  let body: { result?: unknown; error?: { message?: string } };
  try {
    body = JSON.parse(res.text) as typeof body;
  } catch {
    throw new DrsgError("BAD_INPUT", `remote ${t.url.origin}: the answer to ${method} is not JSON`);
  }
  if (body.error) throw new DrsgError("BAD_INPUT", `remote ${t.url.origin}: ${body.error.message ?? "error"}`);
  return body.result;
}

/** Whether a remote answers /health now; URL_NOT_ALLOWED (thrown) before anything is sent to a refused url. */
async function probe(a: Attachment, timeoutMs = REMOTE_TIMEOUT_MS): Promise<string> {
  if (a.kind !== "remote" || !a.url) return "local";
  const { outboundRequest, outboundTarget } = await outbound();
  const t = await outboundTarget("attach", a.url);
  try {
    const r = await outboundRequest(t, "/health", { method: "GET", timeoutMs });
    if (r.status !== 200) return `answers HTTP ${r.status}`;
    const h = JSON.parse(r.text) as { pid?: number };
    return `answers (pid ${h.pid ?? "?"})`;
  } catch {
    return `does not answer within ${timeoutMs} ms`;
  }
}

/** How the token for a remote origin is configured, in words (never the value). */
async function tokenNote(url: string): Promise<string> {
  const allowed = (await outbound()).attachAllowList().get(new URL(url).origin);
  return allowed?.tokenEnv ? ` (token from $${allowed.tokenEnv}, set by the operator)` : " (no token sent)";
}

const PlaneName = z.string().check(z.minLength(1), z.maxLength(200));

export const attach = defineTool({
  name: "attach",
  description:
    "Let a plane ask another: a plane on this instance (`target`), or a plane a drsg serves elsewhere (`url` + `target`). A url is contacted only when it is loopback or an origin the operator lists in DRSG_ATTACH_ALLOW, and only such a listed origin is sent a token (the operator's configuration, never a parameter). `both: true` records the way back (local targets). Used by wire and impact `across`.",
  input: z.strictObject({
    plane: PlaneName,
    target: PlaneName,
    url: z.optional(z.url().check(z.maxLength(2000))),
    /** Refused: kept in the schema so the refusal can say where credentials are configured. */
    token_env: z.optional(z.string().check(z.maxLength(200))),
    both: z.optional(z.boolean()),
  }),
  readOnly: false,
  cli: { positionals: [], summary: "Let a plane ask another (local, or remote by url): wire and impact --across use it." },
  async run(ctx, { plane, target, url, token_env, both }) {
    if (token_env !== undefined)
      throw new DrsgError(
        "FORBIDDEN",
        "attach: token_env is not accepted — which token goes to which server is the operator's configuration: DRSG_ATTACH_ALLOW=<origin>=<TOKEN_VAR> in the server's environment",
      );
    const p = requirePlane(ctx.store, plane);
    let a: Attachment;
    let note = "";
    if (url) {
      const u = new URL(url);
      if (u.protocol !== "http:" && u.protocol !== "https:") throw new DrsgError("BAD_INPUT", `attach: url must be http(s), got ${u.protocol}`);
      // The url as typed (credentials in it included) is judged before anything is recorded or sent.
      await (await outbound()).outboundTarget("attach", u);
      a = { kind: "remote", plane: target, url: u.origin };
      // Refused urls are refused here, before anything is recorded or sent.
      note = ` — ${await probe(a)}${await tokenNote(u.origin)}`;
      if (both) note += "; the way back is not recorded on a remote server (attach there)";
    } else {
      if (target === plane) throw new DrsgError("BAD_INPUT", "attach: a plane cannot attach itself");
      requirePlane(ctx.store, target);
      a = { kind: "local", plane: target };
    }
    const list = attachmentsOf(p);
    if (!list.some((x) => same(x, a))) setAttachments(ctx.store, plane, [...list.map(plain), a]);
    if (both && a.kind === "local") {
      const t = requirePlane(ctx.store, target);
      const back: Attachment = { kind: "local", plane };
      const tl = attachmentsOf(t);
      if (!tl.some((x) => same(x, back))) setAttachments(ctx.store, target, [...tl.map(plain), back]);
    }
    return `plane '${plane}' attaches ${a.kind === "remote" ? `'${target}' at ${a.url}` : `'${target}'`}${both && a.kind === "local" ? " (and the way back)" : ""}${note}`;
  },
});

/** An attachment as recorded now: a `token_env` an older drsg kept is dropped on the next write. */
function plain(a: Attachment): Attachment {
  return { kind: a.kind, plane: a.plane, ...(a.url ? { url: a.url } : {}) };
}

export const detach = defineTool({
  name: "detach",
  description: "Forget an attachment of a plane (and, with `both`, the way back).",
  input: z.strictObject({ plane: PlaneName, target: PlaneName, url: z.optional(z.string().check(z.maxLength(2000))), both: z.optional(z.boolean()) }),
  readOnly: false,
  cli: { positionals: [], summary: "Forget an attachment of a plane." },
  run(ctx, { plane, target, url, both }) {
    const p = requirePlane(ctx.store, plane);
    const list = attachmentsOf(p);
    let origin: string | undefined;
    try {
      origin = url ? new URL(url).origin : undefined;
    } catch {
      throw new DrsgError("BAD_INPUT", `detach: '${url}' is not a URL`);
    }
    const keep = list.filter((x) => !(x.plane === target && (origin ? x.url === origin : x.kind === "local")));
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
  input: z.strictObject({ plane: PlaneName, probe: z.optional(z.boolean()) }),
  readOnly: true,
  cli: { positionals: [], summary: "The planes a plane may ask; --probe asks each remote whether it answers." },
  async run(ctx, { plane, probe: doProbe }) {
    const p = requirePlane(ctx.store, plane);
    const list = attachmentsOf(p);
    if (list.length === 0) return `plane '${plane}' attaches nothing — attach {plane, target} adds one`;
    const lines = [`plane '${plane}' attaches ${list.length}:`];
    for (const a of list) {
      const state =
        a.kind === "local"
          ? ctx.store.getPlane(a.plane)
            ? "here"
            : "here, but missing now"
          : doProbe
            ? await probe(a).catch((e: unknown) => (e instanceof DrsgError ? `${e.code}: ${e.message}` : String(e)))
            : "not probed";
      lines.push(`  ${a.plane}${a.url ? ` at ${a.url}${await tokenNote(a.url)}` : ""}  — ${state}`);
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
