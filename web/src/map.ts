// Map: the plane at a glance from plane_map — clusters (directories, files, louvain
// communities; a file's symbols at the bottom) sized by the symbols they define, the heaviest
// call links between them. The server aggregates; the page draws at most max_clusters nodes,
// so a 50k-node plane draws as fast as a small one. Clicking a cluster descends into it.
import { rpcJson } from "./api.js";
import { clear, fmt, h, labelColour, showError, status } from "./dom.js";
import { GraphView, newGraph } from "./graphview.js";
import { state } from "./state.js";

interface Cluster {
  id: string;
  name: string;
  kind: "dir" | "file" | "community" | "symbol" | "rest";
  symbols: number;
  files: number;
  under?: string;
  community?: number;
  node_id?: number;
  label?: string;
}
interface MapAnswer {
  under: string;
  group: string;
  community: number | null;
  total_symbols: number;
  total_files: number;
  total_clusters: number;
  clusters: Cluster[];
  total_links: number;
  links: { src: string; dst: string; calls: number }[];
  calls_crossing_boundary: number;
  synced: string | null;
}
interface Where {
  under: string;
  community?: number;
}

const KIND_COLOURS: Record<string, string> = { dir: "#1f6feb", file: "#0b7a75", community: "#8250df", rest: "#8c959f" };

export class MapView {
  private view: GraphView;
  private trail: Where[] = [{ under: "" }];
  private readonly crumbs: HTMLElement;
  private readonly info: HTMLElement;
  private readonly list: HTMLElement;
  private readonly group: HTMLSelectElement;
  private clusters = new Map<string, Cluster>();
  loaded = "";

  constructor(el: HTMLElement) {
    this.group = h("select", { id: "map-group", onchange: () => ((this.trail = [{ under: "" }]), void this.load()) }, h("option", { value: "dir" }, "directory tree"), h("option", { value: "louvain" }, "louvain communities"));
    this.crumbs = h("nav", { class: "crumbs", "aria-label": "map position" });
    this.info = h("p", { class: "info", "aria-live": "polite" });
    this.list = h("div", { class: "node-list" });
    const canvas = h("div", { class: "graph", id: "map-graph", role: "img", "aria-label": "module map (the list below holds the same clusters)" });
    clear(el, h("h2", {}, "Map"), h("div", { class: "search" }, h("label", { for: "map-group" }, "clusters"), this.group), this.crumbs, this.info, canvas, this.list);
    this.view = new GraphView(canvas);
    this.view.onClick = (id) => void this.descend(id);
  }

  private descend(id: string): Promise<number> {
    const c = this.clusters.get(id);
    if (!c || c.kind === "rest") return Promise.resolve(0);
    if (c.kind === "symbol") {
      if (c.node_id !== undefined) state.explore(c.node_id);
      return Promise.resolve(0);
    }
    this.trail.push(c.kind === "community" ? { under: this.trail.at(-1)!.under, community: c.community } : { under: c.under ?? "" });
    return this.load();
  }

  /** The plane's root grouped by `group` ("dir" or "louvain"), drawn; resolves to the clusters drawn. */
  root(group: "dir" | "louvain"): Promise<number> {
    this.group.value = group;
    this.trail = [{ under: "" }];
    return this.load();
  }

  /** Descend into the heaviest cluster drawn (what a person exploring a big plane clicks first). */
  descendLargest(): Promise<number> {
    const heaviest = [...this.clusters.values()].filter((c) => c.kind !== "rest" && c.kind !== "symbol").sort((a, b) => b.symbols - a.symbols)[0];
    return heaviest ? this.descend(heaviest.id) : Promise.resolve(0);
  }

  /** Fetch the current level and draw it; resolves once drawn. Returns the clusters drawn. */
  async load(): Promise<number> {
    const at = this.trail.at(-1)!;
    status("aggregating…");
    let r: MapAnswer;
    try {
      r = await rpcJson<MapAnswer>("plane_map", { plane: state.plane, under: at.under, group: this.group.value, ...(at.community !== undefined ? { community: at.community } : {}) });
    } catch (e) {
      status("");
      showError(this.info, e);
      return 0;
    }
    status("");
    at.under = r.under;
    this.loaded = state.plane;
    const g = newGraph();
    this.clusters = new Map(r.clusters.map((c) => [c.id, c]));
    const max = Math.max(1, ...r.clusters.map((c) => c.symbols));
    const golden = Math.PI * (3 - Math.sqrt(5));
    r.clusters.forEach((c, i) => {
      const rad = Math.sqrt(i) * 1.2;
      g.addNode(c.id, {
        x: rad * Math.cos(i * golden),
        y: rad * Math.sin(i * golden),
        size: 4 + 22 * Math.sqrt(c.symbols / max),
        color: c.kind === "symbol" ? labelColour(c.label ?? "") : (KIND_COLOURS[c.kind] ?? "#444c56"),
        label: c.kind === "symbol" ? c.name.replace(/^.*[./:#]/, "") : `${c.name} (${fmt(c.symbols)})`,
      });
    });
    const maxCalls = Math.max(2, ...r.links.map((l) => l.calls));
    r.links.forEach((l, i) => {
      if (g.hasNode(l.src) && g.hasNode(l.dst)) g.addDirectedEdgeWithKey(`l${i}`, l.src, l.dst, { size: 0.5 + (5 * Math.log(1 + l.calls)) / Math.log(1 + maxCalls), color: "#9bb7e0", calls: l.calls });
    });
    this.view.replace(g);
    await this.view.draw();
    this.view.reset();
    this.renderCrumbs();
    const where = at.community !== undefined ? `community ${at.community}` : at.under || "the root";
    this.info.textContent = `${where}: ${fmt(r.total_symbols)} symbol(s) in ${fmt(r.total_files)} file(s), ${fmt(r.total_clusters)} cluster(s)${r.clusters.length < r.total_clusters ? ` (the lightest merged)` : ""}, ${fmt(r.total_links)} call link(s)${r.links.length < r.total_links ? `, heaviest ${r.links.length} drawn` : ""}; ${fmt(r.calls_crossing_boundary)} call site(s) cross its boundary. Click a cluster to descend.`;
    const rows = [...r.clusters].sort((a, b) => b.symbols - a.symbols);
    clear(
      this.list,
      h(
        "table",
        { class: "nodes" },
        h("caption", {}, `Clusters (${rows.length})`),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "cluster"), h("th", { scope: "col" }, "symbols"), h("th", { scope: "col" }, "files"), h("th", { scope: "col" }, "actions"))),
        h(
          "tbody",
          {},
          ...rows.map((c) =>
            h(
              "tr",
              {},
              h("td", {}, c.name),
              h("td", {}, fmt(c.symbols)),
              h("td", {}, fmt(c.files)),
              h("td", {}, c.kind === "rest" ? "" : h("button", { type: "button", "aria-label": `${c.kind === "symbol" ? "explore" : "open"} ${c.name}`, onclick: () => void this.descend(c.id) }, c.kind === "symbol" ? "Explore" : "Open")),
            ),
          ),
        ),
      ),
    );
    return r.clusters.length;
  }

  private renderCrumbs(): void {
    const items = this.trail.map((w, i) => {
      const name = i === 0 ? `${state.plane}${w.under ? ` / ${w.under}` : ""}` : w.community !== undefined ? `community ${w.community}` : (w.under.split("/").pop() ?? w.under);
      if (i === this.trail.length - 1) return h("span", { "aria-current": "location" }, name);
      return h("button", { type: "button", class: "link", onclick: () => ((this.trail = this.trail.slice(0, i + 1)), void this.load()) }, name);
    });
    clear(this.crumbs, ...items.flatMap((x, i) => (i > 0 ? [" / ", x] : [x])));
  }

  reset(): void {
    this.trail = [{ under: "" }];
    this.loaded = "";
  }
}
