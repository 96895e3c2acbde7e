// Shared by the graph verbs: the plane's record, cached per database commit, and a node of the
// plane's graph view as the common one-liner (`key  Label  file:line`), read from the store so
// it matches every other verb exactly.
import { isStoreId, type PlaneRead, perView, prefetchKeys, storeFirstByKey } from "../graph/view.js";
import type { Props } from "../model/facts.js";
import type { PlaneInfo, Store } from "../store/types.js";
import { oneLine, requirePlane } from "./common.js";
import type { ToolContext } from "./tool.js";

const planes = new WeakMap<Store, Map<string, { seq: number; info: PlaneInfo }>>();

/**
 * The plane's record (PLANE_NOT_FOUND when missing), reused while the database commit stays
 * put: the store counts a plane's nodes and edges on every read, a scan a verb must not pay.
 */
export function planeOf(ctx: ToolContext, name: string): PlaneInfo {
  const seq = ctx.store.currentSeq();
  let byName = planes.get(ctx.store);
  if (!byName) planes.set(ctx.store, (byName = new Map()));
  const hit = byName.get(name);
  if (hit && hit.seq === seq) return hit.info;
  const info = requirePlane(ctx.store, name);
  byName.set(name, { seq, info });
  return info;
}

/** The mark of a fact an agent wrote, on every line that lists one. */
export const AGENT_MARK = "  [agent-written]";

/**
 * True for a fact an agent wrote (write_nodes / write_edges stamp `_written_by: "agent"`, a
 * `_` property no agent can set or remove) on a plane the parser keeps (mirrored): never to be
 * read — or counted — as something the parser proved.
 */
export function agentFact(p: PlaneInfo, props: Props): boolean {
  return typeof p.props.synced_commit === "string" && props._written_by === "agent" && typeof props._generated_by !== "string";
}

/** One-liners already read, per state of the view (a view is one commit's state of one plane). */
function linesOf(g: PlaneRead): Map<string, string> {
  return perView(g, "lines", () => new Map<string, string>());
}

/** Read the one-liners of `ids` a listing is about to show in one query where the store can, not one per line. */
export function prefetchLines(ctx: ToolContext, plane: string, g: PlaneRead, ids: readonly string[]): void {
  const byId = linesOf(g);
  const want = ids.filter((id) => !byId.has(id) && isStoreId(id)).map(Number);
  if (want.length < 2 || !ctx.store.nodesById) return;
  for (const n of ctx.store.nodesById(plane, want)) byId.set(String(n.id), oneLine(n));
}

/** The one-liner of graph node `id` (a store id as a string), read once per view. */
export function nodeLine(ctx: ToolContext, plane: string, g: PlaneRead, id: string): string {
  const byId = linesOf(g);
  const hit = byId.get(id);
  if (hit !== undefined) return hit;
  const n = ctx.store.getNode(plane, Number(id));
  const a = n || !g.hasNode(id) ? undefined : g.getNodeAttributes(id);
  const line = n ? oneLine(n) : a ? `${a.key || "<keyless>"}  ${a.label}${a.file ? `  ${a.file}` : ""}` : `#${id}  (missing node)`;
  byId.set(id, line);
  return line;
}

/** Lines shown of one edge's call sites before the rest are counted. */
const SITES_SHOWN = 8;

/**
 * An edge's call sites as one token: `call@237,241,260`; `call@3,4 ×3` when two sites share a
 * line; `call@1,2,3,4,5,6,7,8 (+4 more)` past the cap. `lines` are the distinct site lines
 * (absent: the first line only), `count` the number of sites.
 */
export function callSites(line: number | undefined, count: number | undefined, lines?: readonly number[]): string {
  const all = lines && lines.length > 0 ? lines : line !== undefined ? [line] : [];
  if (all.length === 0) return "";
  const shown = all.slice(0, SITES_SHOWN).join(",");
  const more = all.length > SITES_SHOWN ? ` (+${all.length - SITES_SHOWN} more)` : "";
  const n = count ?? 1;
  return `call@${shown}${more}${n > all.length ? ` ×${n}` : ""}`;
}

/** Sort graph node ids by key (then id), for stable listings. */
export function byKeyOf(g: PlaneRead): (a: string, b: string) => number {
  return (a, b) => {
    const ka = g.getNodeAttribute(a, "key");
    const kb = g.getNodeAttribute(b, "key");
    return ka < kb ? -1 : ka > kb ? 1 : Number(a) - Number(b);
  };
}

/**
 * The first `k` of `ids` in byKeyOf's order: chosen by the store where it can (a cold process
 * walking the store reads 21 keys of a 5,000-node level, not 5,000), else every key read and sorted.
 */
export function firstByKey(g: PlaneRead, ids: readonly string[], k: number): string[] {
  const chosen = ids.length > k ? storeFirstByKey(g, ids, k) : undefined;
  if (chosen !== undefined) return chosen;
  prefetchKeys(g, ids);
  return [...ids].sort(byKeyOf(g)).slice(0, k);
}

/**
 * How many lines to hand `renderSections` for a group of `total`: one past the largest cap,
 * so the elision line is always written when the group is longer than the cap in force.
 */
export const SECTION_LINES = 21;
