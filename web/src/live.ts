// Live: the fold log (commit, files, facts changed, milliseconds) as the server's watcher folds,
// pushed over /events as it happens (no reload), and the server's health.
import { follow, rpcJson } from "./api.js";
import { clear, fmt, h } from "./dom.js";
import { state } from "./state.js";

export interface FoldEntry {
  seq: number;
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
interface Health {
  sessions?: number;
  inflight?: number;
  queued?: number;
  pid?: number;
  uptime_s?: number;
  rss_mb?: number;
}

export class LiveView {
  private readonly body: HTMLTableSectionElement;
  private readonly health: HTMLElement;
  private readonly conn: HTMLElement;
  private last = 0;
  private readonly seen = new Set<number>();
  private watching: string | null = null;
  private readonly note: HTMLElement;

  constructor(el: HTMLElement) {
    this.body = h("tbody", { id: "fold-rows" });
    this.health = h("dl", { class: "facts health", id: "health" });
    this.conn = h("span", { class: "muted", id: "live-conn" }, "connecting…");
    this.note = h("p", { class: "muted" });
    clear(
      el,
      h("h2", {}, "Live"),
      h("h3", {}, "Server"),
      this.health,
      h("h3", {}, "Fold log ", this.conn),
      this.note,
      h(
        "table",
        { class: "nodes folds", "aria-live": "polite" },
        h("caption", {}, "folds, newest first"),
        h("thead", {}, h("tr", {}, ...["#", "time", "plane", "kind", "commit", "files", "facts", "ms"].map((t) => h("th", { scope: "col" }, t)))),
        this.body,
      ),
    );
  }

  async start(): Promise<void> {
    try {
      const r = await rpcJson<{ watching: string | null; entries: FoldEntry[]; health: Health; note?: string }>("fold_log", { limit: 200 });
      this.watching = r.watching;
      this.note.textContent = r.watching ? `following plane ${r.watching}` : (r.note ?? "");
      for (const e of r.entries) this.add(e);
      this.showHealth(r.health);
    } catch (e) {
      this.note.textContent = e instanceof Error ? e.message : String(e);
    }
    follow(
      (event, data) => {
        if (event === "fold") {
          this.add(data as FoldEntry);
          for (const f of state.onFold) f();
        } else if (event === "health") this.showHealth({ ...this.lastHealth, ...(data as Health) });
        else if (event === "open") this.conn.textContent = "(live)";
        else if (event === "closed") this.conn.textContent = "(reconnecting…)";
      },
      () => this.last,
    );
  }

  private lastHealth: Health = {};

  private showHealth(hl: Health): void {
    this.lastHealth = hl;
    const rows: [string, string][] = [
      ["MCP sessions", fmt(hl.sessions ?? 0)],
      ["tool calls in flight", fmt(hl.inflight ?? 0)],
      ["queued", fmt(hl.queued ?? 0)],
    ];
    if (hl.pid !== undefined) rows.push(["pid", String(hl.pid)]);
    if (hl.uptime_s !== undefined) rows.push(["up", `${fmt(hl.uptime_s)} s`]);
    if (hl.rss_mb !== undefined) rows.push(["RSS", `${fmt(hl.rss_mb)} MB`]);
    if (this.watching) rows.push(["following", this.watching]);
    clear(this.health, ...rows.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
  }

  private add(e: FoldEntry): void {
    if (this.seen.has(e.seq)) return;
    this.seen.add(e.seq);
    this.last = Math.max(this.last, e.seq);
    const commit = `${e.from ? `${e.from.slice(0, 7)} → ` : ""}${e.to.slice(0, 12)}`;
    const facts = e.nodes ? `${fmt(e.facts)} (+${e.nodes.created} ~${e.nodes.patched} −${e.nodes.deleted} symbols)` : fmt(e.facts);
    const row = h(
      "tr",
      { "data-seq": String(e.seq), "data-commit": e.to },
      h("td", {}, String(e.seq)),
      h("td", {}, e.at.slice(11, 19)),
      h("td", {}, e.plane),
      h("td", {}, e.kind + (e.reason ? ` (${e.reason})` : "")),
      h("td", { class: "mono" }, commit),
      h("td", {}, fmt(e.files)),
      h("td", {}, facts + (e.history ? `; history +${e.history.commits} commit(s)` : "")),
      h("td", {}, String(e.ms)),
    );
    this.body.prepend(row);
  }
}
