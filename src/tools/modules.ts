// Where each tool is defined, so a process that runs one tool (a cold CLI verb) loads that tool's
// module and what it imports, not every tool's (the graph algorithms, the cypher parser, git,
// the regex engine: ~180 ms a start). The list in index.ts stays the one every server serves;
// a test checks the two agree.
import type { Tool } from "./tool.js";

const MODULES: Record<string, () => Promise<Record<string, unknown>>> = {
  list_planes: () => import("./list_planes.js"),
  describe_plane: () => import("./describe_plane.js"),
  context: () => import("./context.js"),
  describe: () => import("./describe.js"),
  impact: () => import("./impact.js"),
  trace: () => import("./trace.js"),
  fathom: () => import("./fathom.js"),
  snippet: () => import("./snippet.js"),
  grep: () => import("./grep.js"),
  search: () => import("./search.js"),
  get_node: () => import("./get_node.js"),
  traverse: () => import("./traverse.js"),
  cypher: () => import("./cypher.js"),
  query: () => import("./query.js"),
  algo: () => import("./algo.js"),
  changes: () => import("./changes.js"),
  deployed: () => import("./deployed.js"),
  wire: () => import("./wire.js"),
  history: () => import("./history.js"),
  recall: () => import("./recall.js"),
  write_nodes: () => import("./write.js"),
  write_edges: () => import("./write.js"),
  create_plane: () => import("./write.js"),
  drop_plane: () => import("./write.js"),
  rebuild: () => import("./rebuild.js"),
  mount: () => import("./mount.js"),
  unmount: () => import("./mount.js"),
  mounts: () => import("./mount.js"),
  attach: () => import("./attachments.js"),
  detach: () => import("./attachments.js"),
  attachments: () => import("./attachments.js"),
  plane_overview: () => import("./plane_overview.js"),
  neighbourhood: () => import("./neighbourhood.js"),
  plane_map: () => import("./plane_map.js"),
  fold_log: () => import("./fold_log.js"),
};

/** The names of every tool, in no particular order (index.ts has the served order). */
export const TOOL_NAMES: readonly string[] = Object.keys(MODULES);

function isTool(v: unknown, name: string): v is Tool {
  return typeof v === "object" && v !== null && (v as Tool).name === name && typeof (v as Tool).run === "function";
}

/** Tool `name`, loading only its own module; undefined for a name that is no tool's. */
export async function loadTool(name: string): Promise<Tool | undefined> {
  const load = Object.hasOwn(MODULES, name) ? MODULES[name] : undefined;
  if (!load) return undefined;
  return Object.values(await load()).find((v): v is Tool => isTool(v, name));
}
