// The dashboard page: tabs over six views, a plane picker, and hooks for the browser tests and
// benchmarks (window.drsg). Every read goes through /rpc — the tools an MCP client calls.
import { toolNames } from "./api.js";
import { clear, h, showError } from "./dom.js";
import { Explorer } from "./explorer.js";
import { HistoryView } from "./history.js";
import { LiveView } from "./live.js";
import { MapView } from "./map.js";
import { type PlaneRow, renderPlanes } from "./planes.js";
import { QueryView } from "./query.js";
import { state } from "./state.js";

const VIEWS = ["planes", "explorer", "map", "history", "query", "live"] as const;
type View = (typeof VIEWS)[number];

const panel = (v: View) => document.getElementById(`view-${v}`)!;
const tab = (v: View) => document.getElementById(`tab-${v}`) as HTMLButtonElement;

let explorer: Explorer;
let map: MapView;
let history: HistoryView;
let planes: PlaneRow[] = [];

function show(v: string): void {
  if (!(VIEWS as readonly string[]).includes(v)) return;
  for (const x of VIEWS) {
    const on = x === v;
    tab(x).setAttribute("aria-selected", String(on));
    tab(x).tabIndex = on ? 0 : -1;
    panel(x).hidden = !on;
  }
  if (location.hash !== `#${v}`) history_replace(v);
  if (v === "map" && map.loaded !== state.plane) void map.load();
  if (v === "history" && history.loaded !== state.plane) void history.load();
}

function history_replace(v: string): void {
  window.history.replaceState(null, "", `#${v}`);
}

function choosePlane(name: string): void {
  if (!name || name === state.plane) return;
  state.plane = name;
  const sel = document.getElementById("plane") as HTMLSelectElement;
  sel.value = name;
  const p = planes.find((x) => x.name === name);
  document.getElementById("synced")!.textContent = p?.synced ? `synced ${p.synced}` : "";
  map.reset();
  history.loaded = "";
}

async function refreshPlanes(): Promise<void> {
  planes = await renderPlanes(panel("planes"), choosePlane);
  const sel = document.getElementById("plane") as HTMLSelectElement;
  const code = planes.filter((p) => p.kind === "code");
  const keep = state.plane;
  clear(sel, ...code.map((p) => h("option", { value: p.name }, p.name)));
  if (keep && code.some((p) => p.name === keep)) sel.value = keep;
  const p = planes.find((x) => x.name === (keep || code[0]?.name));
  if (!keep && code[0]) choosePlane(code[0].name);
  else if (p) document.getElementById("synced")!.textContent = p.synced ? `synced ${p.synced}` : "";
}

async function main(): Promise<void> {
  state.show = show;
  for (const v of VIEWS) tab(v).addEventListener("click", () => show(v));
  // Arrow keys move between tabs (the WAI-ARIA tabs pattern).
  document.querySelector(".tabs")!.addEventListener("keydown", (e) => {
    const k = (e as KeyboardEvent).key;
    if (k !== "ArrowRight" && k !== "ArrowLeft") return;
    const cur = VIEWS.findIndex((v) => tab(v).getAttribute("aria-selected") === "true");
    const next = VIEWS[(cur + (k === "ArrowRight" ? 1 : VIEWS.length - 1)) % VIEWS.length]!;
    show(next);
    tab(next).focus();
  });
  (document.getElementById("plane") as HTMLSelectElement).addEventListener("change", (e) => choosePlane((e.target as HTMLSelectElement).value));
  try {
    state.tools = await toolNames();
  } catch (e) {
    showError(panel("planes"), e);
    return;
  }
  explorer = new Explorer(panel("explorer"));
  map = new MapView(panel("map"));
  history = new HistoryView(panel("history"));
  new QueryView(panel("query"));
  const live = new LiveView(panel("live"));
  await refreshPlanes();
  // A fold landed: counts and the chosen plane's synced commit move; the map and history are re-read when next shown.
  let pending: ReturnType<typeof setTimeout> | undefined;
  state.onFold.push(() => {
    clearTimeout(pending);
    pending = setTimeout(() => {
      void refreshPlanes();
      map.loaded = "";
      history.loaded = "";
    }, 300);
  });
  void live.start();
  const first = location.hash.slice(1);
  show((VIEWS as readonly string[]).includes(first) ? first : "planes");
  document.body.dataset.ready = "1";
}

// For the browser tests and the benchmarks: drive the views and time their drawing.
(window as unknown as { drsg: unknown }).drsg = {
  explore: (name: string, opts: { hops?: number; max_nodes?: number } = {}) => explorer.load({ name }, opts),
  map: () => map.load(),
  placement: () => explorer.placement(),
  mapRoot: (group: "dir" | "louvain") => map.root(group),
  mapDescend: () => map.descendLargest(),
  show,
};

void main();
