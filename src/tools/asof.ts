// Reading the past, for every verb at once: a tool whose input has `as_of` (AS_OF_INPUT) is run
// by the runner (src/mcp/server.ts runTool) on a context whose store answers as of that database
// commit, and its answer is labelled with the commit and its time. Tools themselves do nothing.
import * as z from "../model/zod.js";
import { GraphViews } from "../graph/view.js";
import { DrsgError } from "../model/errors.js";
import { AsOfStore } from "../store/asof.js";
import type { Store } from "../store/types.js";
import type { ToolContext } from "./tool.js";

/** The `as_of` input field of a verb that can read the past. */
export const AS_OF_INPUT = z
  .optional(z.union([z.int().check(z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER)), z.string().check(z.minLength(1), z.maxLength(64))]))
  .check(
    z.describe(
      "read the state as of a database commit: its sequence number (list_planes shows the current one; changes lists them) or an RFC 3339 time such as 2026-01-31T12:00:00Z (the newest commit at or before it). Only the retained commits are readable (DRSG_RETAIN_COMMITS, default 20).",
    ),
  );

/** The `as_of` field of a structured answer read in the past. */
export const AS_OF_OUTPUT = z.optional(z.object({ seq: z.int(), at: z.nullable(z.string()), asked: z.optional(z.int()) }));

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?([Zz]|[+-]\d{2}:\d{2})$/;

export interface AsOfPoint {
  /** The commit read. */
  seq: number;
  /** Its wall-clock time (ms); undefined for commit 0, the empty database before any write. */
  at?: number;
  /** What the caller asked for, when it was clamped to the latest commit. */
  asked?: number;
}

/** The commit `value` names in `store`: AS_OF_OUT_OF_RANGE below the retained window, BAD_INPUT when unreadable. */
export function resolveAsOf(store: Store, value: number | string): AsOfPoint {
  let seq: number;
  let asked: number | undefined;
  if (typeof value === "number" || /^[0-9]+$/.test(value)) {
    const n = Number(value);
    if (!Number.isSafeInteger(n)) throw new DrsgError("BAD_INPUT", `as_of: ${JSON.stringify(value)} is not a commit sequence`);
    // asOf() checks the floor and clamps a future commit to the latest.
    store.asOf(n);
    const latest = store.currentSeq();
    seq = Math.min(n, latest);
    if (n > latest) asked = n;
  } else {
    if (!RFC3339.test(value.trim())) {
      throw new DrsgError(
        "BAD_INPUT",
        `as_of: ${JSON.stringify(value)} is neither a commit sequence nor an RFC 3339 time (such as 2026-01-31T12:00:00Z)`,
        { as_of: value },
      );
    }
    const ms = Date.parse(value.trim().replace(" ", "T"));
    if (!Number.isFinite(ms)) throw new DrsgError("BAD_INPUT", `as_of: ${JSON.stringify(value)} is not a valid time`, { as_of: value });
    seq = store.seqAt(ms);
  }
  const at = store.commits().find((c) => c.seq === seq)?.at;
  return { seq, ...(at === undefined ? {} : { at }), ...(asked === undefined ? {} : { asked }) };
}

/** The line an answer read in the past opens with. */
export function asOfLabel(p: AsOfPoint): string {
  const when = p.at === undefined ? "the empty database" : new Date(p.at).toISOString();
  const clamp = p.asked === undefined ? "" : ` — the latest; commit ${p.asked} was asked`;
  return `as of commit ${p.seq} (${when})${clamp}`;
}

/**
 * Past commits read lately, a few per base context (an agent tends to ask about one commit):
 * the same store face and graph views again, so the per-commit caches (plane records, key
 * prefixes, the view) answer the next question about that commit.
 */
const pastReads = new WeakMap<GraphViews, Map<string, { store: AsOfStore; views: GraphViews }>>();
const PAST_KEPT = 4;

function pastRead(ctx: ToolContext, base: Store, seq: number): { store: AsOfStore; views: GraphViews } {
  let byPath = pastReads.get(ctx.views);
  if (!byPath) pastReads.set(ctx.views, (byPath = new Map()));
  const id = `${base.path}\u0000${seq}`;
  const hit = byPath.get(id);
  if (hit && hit.store.main === base) {
    byPath.delete(id);
    byPath.set(id, hit);
    return hit;
  }
  const store = new AsOfStore(base, seq);
  const made = { store, views: new GraphViews(store, { lazy: ctx.views.lazy }) };
  byPath.set(id, made);
  while (byPath.size > PAST_KEPT) byPath.delete(byPath.keys().next().value!);
  return made;
}

/**
 * The context a tool runs in to answer `as_of`: the same context over the database holding the
 * plane (a mounted one has its own commits), read as of the commit named.
 */
export function asOfContext(ctx: ToolContext, value: number | string, plane?: string): { ctx: ToolContext; point: AsOfPoint } {
  const routed = ctx.store as Store & { storeOf?: (plane: string) => Store; main?: Store };
  const base = plane !== undefined && typeof routed.storeOf === "function" ? routed.storeOf(plane) : (routed.main ?? ctx.store);
  const point = resolveAsOf(base, value);
  const past = pastRead(ctx, base, point.seq);
  return { ctx: { ...ctx, store: past.store, views: past.views }, point };
}
