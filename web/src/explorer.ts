// Explorer: find a symbol (the verbs' own name matching — one match, or the candidates, never a
// guess) and draw its neighbourhood with sigma: nodes coloured by label, edges styled by type,
// unresolved call sites as red UnresolvedRef nodes with their reason. A node can be expanded
// (its own neighbourhood joins the drawing), pinned (kept across searches) or inspected
// (properties, source at the synced commit, callers/callees, impact radius as rings).
import { RpcError, rpc, rpcJson } from "./api.js";
import { EDGE_STYLES, type EdgeStyle, LABEL_COLOURS, UNRESOLVED_STYLE, clear, edgeStyle, fmt, h, labelColour, showError, status } from "./dom.js";
import { GraphView, newGraph } from "./graphview.js";
import { state } from "./state.js";

interface NNode {
  id: number;
  key: string;
  label: string;
  file: string | null;
  line: number | null;
  hop: number;
  reason?: string | null;
}
interface NEdge {
  id: number;
  src: number;
  dst: number;
  type: string;
  line: number | null;
  reason: string | null;
  count: number;
}
interface Hood {
  found: "one" | "many" | "none";
  synced: string | null;
  note?: string;
  total?: number;
  capped?: boolean;
  center?: { id: number; key: string; label: string; file: string | null; line: number | null };
  candidates?: { id: number; key: string; label: string; file: string | null; line: number | null }[];
  nodes?: NNode[];
  edges?: NEdge[];
}

const IMPACT_TYPES = ["CALLS", "INSTANTIATES", "REFERENCES", "EXTENDS", "IMPLEMENTS", "USES_TYPE", "IMPORTS"];
const EDGE_SETS: Record<string, string[] | undefined> = {
  all: undefined,
  calls: ["CALLS"],
  structure: ["CONTAINS", "EXTENDS", "IMPLEMENTS", "IMPORTS"],
};
const LIST_CAP = 200;

function shortName(key: string): string {
  const m = /([^./:#]+(?:\([^()]*\))?)$/.exec(key);
  return m ? m[1]! : key;
}

export class Explorer {
  private readonly view: GraphView;
  private readonly pinned = new Set<string>();
  private nodes = new Map<string, NNode>();
  private center: string | undefined;
  private readonly list: HTMLElement;
  private readonly info: HTMLElement;
  private readonly inspector: HTMLElement;
  private readonly input: HTMLInputElement;
  private readonly hops: HTMLSelectElement;
  private readonly edges: HTMLSelectElement;

  constructor(private readonly el: HTMLElement) {
    this.input = h("input", { type: "search", id: "explore-name", name: "name", placeholder: "a key, key suffix or substring", autocomplete: "off", required: true });
    this.hops = h("select", { id: "explore-hops", name: "hops" }, ...[1, 2, 3].map((n) => h("option", { value: String(n) }, String(n))));
    this.edges = h("select", { id: "explore-edges", name: "edges" }, h("option", { value: "all" }, "every edge type"), h("option", { value: "calls" }, "calls only"), h("option", { value: "structure" }, "containment, inheritance, imports"));
    const form = h(
      "form",
      { class: "search", role: "search", onsubmit: (e: Event) => (e.preventDefault(), void this.search(this.input.value.trim())) },
      h("label", { for: "explore-name" }, "Symbol"),
      this.input,
      h("label", { for: "explore-hops" }, "hops"),
      this.hops,
      h("label", { for: "explore-edges" }, "edges"),
      this.edges,
      h("button", { type: "submit" }, "Find"),
    );
    const canvas = h("div", { class: "graph", id: "explorer-graph", role: "img", "aria-label": "neighbourhood graph (the list below holds the same nodes)" });
    this.info = h("div", { class: "info", "aria-live": "polite" });
    this.list = h("div", { class: "node-list" });
    this.inspector = h("aside", { class: "inspector", id: "inspector", "aria-label": "inspector", hidden: true });
    clear(el, h("h2", {}, "Explorer"), form, this.info, h("div", { class: "split" }, h("div", { class: "left" }, canvas, legend(), this.list), this.inspector));
    this.view = new GraphView(canvas);
    this.view.onClick = (n) => void this.expand(n);
    state.explore = (x) => {
      state.show("explorer");
      if (typeof x === "number") void this.load({ id: x });
      else {
        this.input.value = x;
        void this.search(x);
      }
    };
  }

  private params(): { hops: number; edge_types?: string[] } {
    const types = EDGE_SETS[this.edges.value];
    return { hops: Number(this.hops.value), ...(types ? { edge_types: types } : {}) };
  }

  async search(name: string): Promise<void> {
    if (!name) return;
    await this.load({ name });
  }

  /** Fetch a neighbourhood and draw it fresh (pinned nodes stay). Returns the node count drawn. */
  async load(target: { name?: string; id?: number }, opts: { hops?: number; max_nodes?: number } = {}): Promise<number> {
    status("looking up…");
    let r: Hood;
    const tr = performance.now();
    try {
      r = await rpcJson<Hood>("neighbourhood", { plane: state.plane, ...target, ...this.params(), ...opts, max_nodes: opts.max_nodes ?? 300 });
    } catch (e) {
      showError(this.info, e);
      status("");
      return 0;
    }
    status("");
    this.el.dataset.rpcMs = (performance.now() - tr).toFixed(1);
    if (r.found === "none") {
      clear(this.info, h("p", { role: "alert" }, r.note ?? "nothing matches"));
      return 0;
    }
    if (r.found === "many") {
      clear(
        this.info,
        h("p", {}, `${fmt(r.total ?? 0)} symbols match — choose one (never a guess):`),
        h(
          "ul",
          { class: "candidates" },
          ...(r.candidates ?? []).map((c) =>
            h("li", {}, h("button", { type: "button", class: "link", onclick: () => void this.load({ id: c.id }) }, c.key), h("span", { class: "muted" }, `  ${c.label}${c.file ? `  ${c.file}:${c.line ?? ""}` : ""}`)),
          ),
        ),
        (r.total ?? 0) > (r.candidates?.length ?? 0) ? h("p", { class: "muted" }, `… and ${fmt((r.total ?? 0) - (r.candidates?.length ?? 0))} more: type more of the key`) : null,
      );
      return 0;
    }
    // A new graph: the pinned nodes (and edges among them) carried over, the neighbourhood placed.
    const t0 = performance.now();
    const old = this.view.graph;
    const g = newGraph();
    for (const n of this.pinned) if (old.hasNode(n)) g.addNode(n, old.getNodeAttributes(n));
    old.forEachEdge((e, a, s, d) => {
      if (g.hasNode(s) && g.hasNode(d)) g.addDirectedEdgeWithKey(e, s, d, a);
    });
    for (const n of [...this.nodes.keys()]) if (!this.pinned.has(n)) this.nodes.delete(n);
    this.center = String(r.center!.id);
    this.place(r, this.center, undefined, g);
    this.view.replace(g);
    const t1 = performance.now();
    await this.view.draw();
    const drawMs = performance.now() - t1;
    this.el.dataset.placeMs = (t1 - t0).toFixed(1);
    this.view.reset();
    clear(
      this.info,
      h("p", {}, `${r.center!.key} — ${fmt(r.nodes!.length)} node(s), ${fmt(r.edges!.length)} edge(s)${r.capped ? ` (capped: ${fmt(r.total ?? 0)} reached)` : ""}; synced ${r.synced ?? "?"}. Click a node to expand it.`),
    );
    const t2 = performance.now();
    this.renderList();
    this.el.dataset.drawMs = drawMs.toFixed(1);
    this.el.dataset.listMs = (performance.now() - t2).toFixed(1);
    return r.nodes!.length;
  }

  /** Add a neighbourhood's nodes and edges around `around` (the center: rings by hop, callers left, callees right). */
  private place(r: Hood, around: string, origin: { x: number; y: number } | undefined, g = this.view.graph): number {
    const side = new Map<string, number>();
    for (const e of r.edges ?? []) {
      if (String(e.src) === around) side.set(String(e.dst), 1);
      else if (String(e.dst) === around && !side.has(String(e.src))) side.set(String(e.src), -1);
    }
    const fresh = (r.nodes ?? []).filter((n) => !g.hasNode(String(n.id)));
    const byHop = new Map<number, NNode[]>();
    for (const n of fresh) {
      const list = byHop.get(n.hop);
      if (list) list.push(n);
      else byHop.set(n.hop, [n]);
    }
    const base = origin ?? { x: 0, y: 0 };
    // A big drawing labels only the nearest ring: sigma lays out every label it is given, which
    // costs more than the nodes themselves (the node table below names every node anyway).
    const quiet = fresh.length > 500;
    const outward = origin ? Math.atan2(origin.y, origin.x) : 0;
    for (const [hop, ns] of byHop) {
      ns.sort((a, b) => (side.get(String(a.id)) ?? 0) - (side.get(String(b.id)) ?? 0) || (a.key < b.key ? -1 : 1));
      const radius = origin ? 0.6 * hop : hop;
      ns.forEach((n, i) => {
        let angle: number;
        if (hop === 0) angle = 0;
        else if (origin) angle = outward + ((i + 0.5) / ns.length - 0.5) * Math.PI * 1.2;
        else angle = Math.PI / 2 - ((i + 0.5) / ns.length) * Math.PI * 2;
        const x = hop === 0 ? base.x : base.x + radius * Math.cos(angle);
        const y = hop === 0 ? base.y : base.y + radius * Math.sin(angle);
        const unresolved = n.label === "UnresolvedRef";
        g.addNode(String(n.id), {
          x,
          y,
          size: hop === 0 ? 14 : hop === 1 ? 8 : 5,
          color: labelColour(n.label),
          label: quiet && hop > 1 ? "" : unresolved ? `? ${shortName(n.key)}${n.reason ? ` — ${n.reason}` : ""}` : shortName(n.key),
          key: n.key,
          kind: n.label,
        });
        this.nodes.set(String(n.id), n);
      });
    }
    for (const e of r.edges ?? []) {
      const s = String(e.src);
      const d = String(e.dst);
      const id = String(e.id);
      if (!g.hasNode(s) || !g.hasNode(d) || g.hasEdge(id)) continue;
      const unresolved = this.nodes.get(d)?.label === "UnresolvedRef";
      g.addDirectedEdgeWithKey(id, s, d, { ...edgeStyle(e.type, unresolved), type: e.type, reason: e.reason ?? "" });
    }
    return fresh.length;
  }

  /** Expand a node: its own 1-hop neighbourhood joins the drawing around it. */
  async expand(node: string): Promise<void> {
    const g = this.view.graph;
    if (!g.hasNode(node)) return;
    const a = g.getNodeAttributes(node);
    let r: Hood;
    try {
      r = await rpcJson<Hood>("neighbourhood", { plane: state.plane, id: Number(node), hops: 1, ...(EDGE_SETS[this.edges.value] ? { edge_types: EDGE_SETS[this.edges.value] } : {}), max_nodes: 150 });
    } catch (e) {
      showError(this.info, e);
      return;
    }
    for (const n of r.nodes ?? []) if (n.id !== Number(node)) n.hop = 1;
    const added = this.place({ ...r, nodes: (r.nodes ?? []).filter((n) => n.id !== Number(node)) }, node, { x: a.x, y: a.y });
    await this.view.draw();
    clear(this.info, h("p", {}, `expanded ${String(a.key)}: ${added} new node(s); ${fmt(g.order)} in view`));
    this.renderList();
  }

  togglePin(node: string): void {
    const g = this.view.graph;
    if (this.pinned.has(node)) this.pinned.delete(node);
    else this.pinned.add(node);
    if (g.hasNode(node)) {
      const n = this.nodes.get(node)!;
      g.setNodeAttribute(node, "label", `${this.pinned.has(node) ? "📌 " : ""}${shortName(n.key)}`);
      void this.view.draw();
    }
    this.renderList();
  }

  private renderList(): void {
    const rows = [...this.nodes.values()].sort((a, b) => a.hop - b.hop || (a.key < b.key ? -1 : 1));
    const table = h(
      "table",
      { class: "nodes" },
      h("caption", {}, `Nodes in view (${fmt(rows.length)})`),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "key"), h("th", { scope: "col" }, "label"), h("th", { scope: "col" }, "where"), h("th", { scope: "col" }, "actions"))),
      h(
        "tbody",
        {},
        ...rows.slice(0, LIST_CAP).map((n) => {
          const id = String(n.id);
          return h(
            "tr",
            { "data-node": id },
            h("td", {}, n.label === "UnresolvedRef" ? h("span", { class: "unresolved" }, `${n.key} (unresolved${n.reason ? `: ${n.reason}` : ""})`) : n.key),
            h("td", {}, h("span", { class: "dot", style: `background:${labelColour(n.label)}` }), n.label),
            h("td", {}, n.file ? `${n.file}:${n.line ?? ""}` : ""),
            h(
              "td",
              { class: "actions" },
              h("button", { type: "button", "aria-label": `expand ${n.key}`, onclick: () => void this.expand(id) }, "Expand"),
              h("button", { type: "button", "aria-label": `${this.pinned.has(id) ? "unpin" : "pin"} ${n.key}`, "aria-pressed": this.pinned.has(id) ? "true" : "false", onclick: () => this.togglePin(id) }, this.pinned.has(id) ? "Unpin" : "Pin"),
              h("button", { type: "button", "aria-label": `inspect ${n.key}`, onclick: () => void this.inspect(id) }, "Inspect"),
            ),
          );
        }),
      ),
    );
    clear(this.list, table, rows.length > LIST_CAP ? h("p", { class: "muted" }, `… and ${fmt(rows.length - LIST_CAP)} more in the drawing`) : null);
  }

  /** Where the drawing puts each node, beside the canvas's size (for the browser tests). */
  placement(): ReturnType<GraphView["placement"]> {
    return this.view.placement();
  }

  /** The inspector: properties, source at the synced commit, callers/callees, impact rings. */
  async inspect(node: string): Promise<void> {
    const n = this.nodes.get(node);
    if (!n) return;
    const ins = this.inspector;
    ins.hidden = false;
    const props = h("div", {}, "…");
    const snippet = h("pre", { class: "snippet", tabindex: "0", "aria-label": "source" }, "…");
    const calls = h("div", {}, "…");
    const rings = h("div", { class: "rings" }, "…");
    clear(
      ins,
      h("div", { class: "ins-head" }, h("h3", { id: "inspector-title" }, n.key), h("button", { type: "button", "aria-label": "close the inspector", onclick: () => (ins.hidden = true) }, "Close")),
      h("h4", {}, "Properties"),
      props,
      h("h4", {}, "Source at the synced commit"),
      snippet,
      h("h4", {}, "Callers and callees"),
      calls,
      h("h4", {}, "Impact radius"),
      rings,
    );
    const id = Number(node);
    const [gn, sn, cc, im] = await Promise.allSettled([
      rpcJson<{ node?: { labels: string[]; properties: Record<string, unknown> } }>("get_node", { plane: state.plane, id }),
      n.label === "UnresolvedRef" ? Promise.resolve("an unresolved call site has no source of its own: its callers hold it") : rpc("snippet", { plane: state.plane, name: n.key }),
      rpcJson<Hood>("neighbourhood", { plane: state.plane, id, hops: 1, edge_types: ["CALLS"], max_nodes: 400 }),
      rpcJson<Hood>("neighbourhood", { plane: state.plane, id, hops: 3, direction: "in", edge_types: IMPACT_TYPES, max_nodes: 2000 }),
    ]);
    if (gn.status === "fulfilled" && gn.value.node) {
      const dl = h("dl", { class: "facts" });
      dl.append(h("dt", {}, "labels"), h("dd", {}, gn.value.node.labels.join(", ")));
      for (const [k, v] of Object.entries(gn.value.node.properties)) dl.append(h("dt", {}, k), h("dd", {}, typeof v === "string" ? v : JSON.stringify(v)));
      clear(props, dl);
    } else showError(props, gn.status === "rejected" ? gn.reason : "no node");
    if (sn.status === "fulfilled") snippet.textContent = sn.value;
    else snippet.textContent = sn.reason instanceof RpcError ? sn.reason.message : String(sn.reason);
    if (cc.status === "fulfilled") {
      const r = cc.value;
      const byId = new Map((r.nodes ?? []).map((x) => [x.id, x]));
      const callers = (r.edges ?? []).filter((e) => e.dst === id && e.type === "CALLS").map((e) => ({ n: byId.get(e.src)!, e }));
      const callees = (r.edges ?? []).filter((e) => e.src === id && e.type === "CALLS").map((e) => ({ n: byId.get(e.dst)!, e }));
      const item = ({ n: x, e }: { n: NNode; e: NEdge }) =>
        h("li", {}, h("button", { type: "button", class: "link", onclick: () => void this.load({ id: x.id }) }, x.key), h("span", { class: x.label === "UnresolvedRef" ? "unresolved" : "muted" }, `${e.line !== null ? `  @${e.line}` : ""}${x.label === "UnresolvedRef" ? `  unresolved${e.reason ? `: ${e.reason}` : ""}` : ""}`));
      clear(
        calls,
        h("p", {}, `callers (${callers.length})`),
        h("ul", { class: "plain", id: "callers" }, ...callers.map(item)),
        h("p", {}, `callees (${callees.length})`),
        h("ul", { class: "plain", id: "callees" }, ...callees.map(item)),
        h("p", { class: "muted" }, "recorded calls only: a lower bound — unresolved sites are listed as such"),
      );
    } else showError(calls, cc.reason);
    if (im.status === "fulfilled") clear(rings, impactRings(im.value, (x) => void this.load({ id: x })));
    else showError(rings, im.reason);
  }
}

/** The impact radius as concentric rings: ring d holds what reaches the symbol at distance d. */
function impactRings(r: Hood, open: (id: number) => void): Node {
  const levels = new Map<number, NNode[]>();
  for (const n of r.nodes ?? []) if (n.hop > 0) levels.set(n.hop, [...(levels.get(n.hop) ?? []), n]);
  const total = (r.nodes?.length ?? 1) - 1;
  const NS = "http://www.w3.org/2000/svg";
  const size = 260;
  const c = size / 2;
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  svg.setAttribute("width", String(size));
  svg.setAttribute("height", String(size));
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `impact radius: ${total} symbol(s) within 3 hops`);
  const depth = Math.max(1, ...levels.keys());
  for (let d = depth; d >= 1; d--) {
    const ring = document.createElementNS(NS, "circle");
    ring.setAttribute("cx", String(c));
    ring.setAttribute("cy", String(c));
    ring.setAttribute("r", String((d / depth) * (c - 8)));
    ring.setAttribute("class", `ring ring-${d}`);
    svg.append(ring);
  }
  for (const [d, ns] of levels) {
    const rad = ((d - 0.5) / depth) * (c - 8);
    ns.forEach((n, i) => {
      const a = (i / ns.length) * Math.PI * 2;
      const dot = document.createElementNS(NS, "circle");
      dot.setAttribute("cx", (c + rad * Math.cos(a)).toFixed(1));
      dot.setAttribute("cy", (c + rad * Math.sin(a)).toFixed(1));
      dot.setAttribute("r", ns.length > 200 ? "1.5" : "3");
      dot.setAttribute("fill", labelColour(n.label));
      const t = document.createElementNS(NS, "title");
      t.textContent = `${n.key} (distance ${d})`;
      dot.append(t);
      svg.append(dot);
    });
  }
  const centre = document.createElementNS(NS, "circle");
  centre.setAttribute("cx", String(c));
  centre.setAttribute("cy", String(c));
  centre.setAttribute("r", "5");
  centre.setAttribute("fill", "#24292f");
  svg.append(centre);
  const rows = [...levels.entries()].sort((a, b) => a[0] - b[0]);
  return h(
    "div",
    {},
    svg as unknown as Node,
    h("p", {}, total === 0 ? "nothing reaches it through recorded edges" : `${fmt(total)} symbol(s) reach it${r.capped ? " (capped)" : ""}:`),
    h(
      "ul",
      { class: "plain" },
      ...rows.map(([d, ns]) =>
        h(
          "li",
          {},
          `distance ${d}: ${ns.length} — `,
          ...ns.slice(0, 8).flatMap((n, i) => [i > 0 ? ", " : "", h("button", { type: "button", class: "link", onclick: () => open(n.id) }, shortName(n.key))]),
          ns.length > 8 ? ` … and ${ns.length - 8} more` : "",
        ),
      ),
    ),
  );
}

function legend(): HTMLElement {
  const labels = ["Function", "Method", "Class", "Interface", "Module", "File", "UnresolvedRef", "External"];
  return h(
    "div",
    { class: "legend", "aria-label": "legend" },
    h("span", { class: "muted" }, "nodes: "),
    ...labels.map((l) => h("span", { class: "chip" }, h("span", { class: "dot", style: `background:${LABEL_COLOURS[l]}` }), l)),
    h("span", { class: "muted" }, "  edges: "),
    ...Object.entries(EDGE_STYLES).map(([t, s]) => h("span", { class: "chip" }, h("span", { class: "bar", style: barStyle(s) }), t)),
    h("span", { class: "chip" }, h("span", { class: "bar", style: barStyle(UNRESOLVED_STYLE) }), "unresolved call"),
  );
}

/** A legend swatch drawn as the edge is: its colour, thickness and dash pattern. */
function barStyle(s: EdgeStyle): string {
  const height = `height:${Math.max(2, Math.round(s.size * 1.5))}px`;
  if (s.gapSize === 0) return `background:${s.color};${height}`;
  const period = s.dashSize + s.gapSize;
  return `background:repeating-linear-gradient(90deg,${s.color} 0 ${s.dashSize}px,transparent ${s.dashSize}px ${period}px);${height}`;
}
