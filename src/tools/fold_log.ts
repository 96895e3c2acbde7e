// fold_log: what the watcher of this server has folded lately — commit, files changed, facts
// changed, milliseconds — newest last, from a bounded in-memory ring the server keeps (the
// watcher reports each fold to it), with the server's health (sessions, tool calls in flight).
// An agent asks "has my commit landed yet?"; the dashboard's Live view follows it.
import * as z from "../model/zod.js";
import type { FoldResult } from "../sync/fold.js";
import { defineTool } from "./tool.js";

/** One fold as the log keeps it. */
export interface FoldEntry {
  /** Position in the log (1, 2, …), for `since`. */
  seq: number;
  /** Wall-clock time it finished (ISO). */
  at: string;
  plane: string;
  kind: string;
  from: string | null;
  to: string;
  files: number;
  parsed: number;
  facts: number;
  ms: number;
  nodes?: { created: number; patched: number; deleted: number };
  edges?: { created: number; patched: number; deleted: number };
  history?: { commits: number; facts: number };
  reason?: string;
}

type Listener = (e: FoldEntry) => void;

/** A bounded ring of the latest folds, with listeners (the dashboard's event stream). */
export class FoldLog {
  private readonly ring: FoldEntry[] = [];
  private next = 1;
  private readonly listeners = new Set<Listener>();
  constructor(readonly capacity = 200) {}

  record(r: FoldResult): FoldEntry {
    const e: FoldEntry = {
      seq: this.next++,
      at: new Date().toISOString(),
      plane: r.plane,
      kind: r.kind,
      from: r.from ?? null,
      to: r.to,
      files: r.filesChanged,
      parsed: r.parsed,
      facts: r.factsChanged,
      ms: Math.round(r.ms * 10) / 10,
    };
    if (r.stats) {
      e.nodes = { created: r.stats.nodesCreated, patched: r.stats.nodesPatched, deleted: r.stats.nodesDeleted };
      e.edges = { created: r.stats.edgesCreated, patched: r.stats.edgesPatched, deleted: r.stats.edgesDeleted };
    }
    if (r.history) e.history = r.history;
    if (r.reason) e.reason = r.reason;
    this.ring.push(e);
    if (this.ring.length > this.capacity) this.ring.shift();
    for (const l of this.listeners) {
      try {
        l(e);
      } catch {
        // a listener's failure (a closed stream) is its own
      }
    }
    return e;
  }

  /** Entries after `since`, oldest first, at most `limit` (the newest of them). */
  entries(since = 0, limit = this.capacity): FoldEntry[] {
    const xs = this.ring.filter((e) => e.seq > since);
    return xs.slice(Math.max(0, xs.length - limit));
  }

  get last(): number {
    return this.next - 1;
  }

  subscribe(l: Listener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
}

/** What a server reports of itself (set in extras.health by the HTTP server). */
export interface ServerHealth {
  sessions: number;
  inflight: number;
  queued: number;
}

export const foldLog = defineTool({
  name: "fold_log",
  description:
    "The folds this server's watcher made lately (newest last): commit from → to, files changed, files parsed, facts changed (nodes/edges created, patched, deleted), milliseconds, and history-plane updates — kept in memory, the last 200; `since` (a seq from an earlier answer) returns only newer ones. Also the server's health: MCP sessions open, tool calls in flight and queued, uptime. Empty on a server that follows no repository.",
  input: z.strictObject({
    since: z._default(z.int().check(z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER)), 0),
    limit: z._default(z.int().check(z.minimum(1), z.maximum(200)), 50),
  }),
  readOnly: true,
  run(ctx, { since, limit }) {
    const log = ctx.extras?.foldLog instanceof FoldLog ? ctx.extras.foldLog : undefined;
    const health = typeof ctx.extras?.health === "function" ? (ctx.extras.health as () => ServerHealth)() : undefined;
    const sync = ctx.extras?.sync as { plane?: string } | undefined;
    return {
      watching: sync?.plane ?? null,
      last: log?.last ?? 0,
      entries: log?.entries(since, limit) ?? [],
      health: { pid: process.pid, uptime_s: Math.round(process.uptime()), rss_mb: Math.round(process.memoryUsage.rss() / 2 ** 20), ...(health ?? {}) },
      note: log ? undefined : "this process keeps no fold log (it follows no repository: drsg serve watch does)",
    };
  },
});
