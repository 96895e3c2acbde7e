// Planes: every plane with its counts, commit and distance behind HEAD, plugin builds and drift,
// its _git / _ops siblings and the last full build's report — from the plane_overview tool.
import { rpcJson } from "./api.js";
import { clear, fmt, h, showError } from "./dom.js";
import { state } from "./state.js";

export interface PlaneRow {
  name: string;
  kind: "code" | "git" | "ops";
  nodes: number;
  edges: number;
  synced: string | null;
  synced_commit: string | null;
  synced_root: string | null;
  built_by: unknown;
  drift: string | null;
  ledger: Record<string, unknown> | null;
  siblings?: { git: string | null; ops: string | null };
  resolution?: { calls: number; unresolved: number; share: number | null };
  head?: string;
  behind?: number;
  note?: string;
  rebuilding_since?: unknown;
}

function list(v: unknown): string[] {
  return Array.isArray(v) ? v.map(String) : typeof v === "string" ? [v] : [];
}

function card(p: PlaneRow): HTMLElement {
  const dl = h("dl", { class: "facts" });
  const add = (k: string, v: Node | string) => dl.append(h("dt", {}, k), h("dd", {}, v));
  add("nodes / edges", `${fmt(p.nodes)} / ${fmt(p.edges)}`);
  add("synced", p.synced ?? "—");
  if (p.head !== undefined) {
    const behind = p.behind === 0 ? "at HEAD" : p.behind !== undefined ? `${p.behind} commit(s) behind HEAD ${p.head.slice(0, 12)}` : `HEAD ${p.head.slice(0, 12)}${p.note ? ` — ${p.note}` : ""}`;
    add("HEAD", behind);
  }
  if (p.synced_root) add("tree", p.synced_root);
  const builds = list(p.built_by);
  if (builds.length) add("plugins", h("ul", { class: "plain" }, ...builds.map((b) => h("li", {}, b))));
  if (p.drift) add("drift", h("span", { class: "warn" }, p.drift));
  if (p.siblings) add("siblings", [p.siblings.git, p.siblings.ops].filter(Boolean).join(", ") || "none");
  if (p.resolution && p.resolution.share !== null)
    add("calls resolved", `${(p.resolution.share * 100).toFixed(1)}% (${fmt(p.resolution.calls - p.resolution.unresolved)} of ${fmt(p.resolution.calls)}; ${fmt(p.resolution.unresolved)} unresolved)`);
  if (p.rebuilding_since) add("state", h("span", { class: "warn" }, "being rebuilt"));
  const l = p.ledger;
  if (l && p.kind === "code") {
    const rep = h("div", { class: "ledger" });
    const when = typeof l.at === "number" ? new Date(l.at * 1000).toISOString().replace("T", " ").slice(0, 16) + " UTC" : "";
    rep.append(h("h4", {}, `last full build ${when}`));
    const plugins = list(l.plugins);
    if (plugins.length) rep.append(h("ul", { class: "plain" }, ...plugins.map((x) => h("li", {}, x))));
    const unclaimed = list(l.unclaimed);
    rep.append(h("p", {}, `unclaimed extensions: ${unclaimed.length ? unclaimed.join(", ") : "none"}`));
    rep.append(h("p", {}, `skipped files: ${String(l.skipped ?? 0)}; syntax errors: ${String(l.syntax_errors ?? 0)}`));
    for (const n of list(l.notes)) rep.append(h("p", { class: "muted" }, n));
    add("report", rep);
  } else if (l && p.kind === "git" && l.note) add("note", String(l.note));
  const title = h("h3", {}, p.name, h("span", { class: `badge ${p.kind}` }, p.kind === "code" ? "code" : p.kind === "git" ? "history" : "deployments"));
  const actions = p.kind === "code" ? h("button", { type: "button", onclick: () => choose(p.name, true) }, `Explore ${p.name}`) : null;
  return h("article", { class: `plane-card ${p.kind}`, "aria-label": `plane ${p.name}` }, title, dl, actions);
}

let onChoose: (name: string) => void = () => {};

function choose(name: string, go: boolean): void {
  onChoose(name);
  if (go) state.show("explorer");
}

export async function renderPlanes(el: HTMLElement, chosen: (name: string) => void): Promise<PlaneRow[]> {
  onChoose = chosen;
  try {
    const r = await rpcJson<{ planes: PlaneRow[] }>("plane_overview");
    const code = r.planes.filter((p) => p.kind === "code");
    const others = r.planes.filter((p) => p.kind !== "code");
    clear(
      el,
      h("h2", {}, "Planes"),
      r.planes.length === 0 ? h("p", {}, "No planes yet — drsg init (or drsg digest <dir> --apply) builds one.") : null,
      h("div", { class: "cards" }, ...code.map(card)),
      others.length ? h("h3", { class: "sub" }, "History and deployment planes") : null,
      h("div", { class: "cards" }, ...others.map(card)),
    );
    return r.planes;
  } catch (e) {
    showError(el, e);
    return [];
  }
}
