// Every agent verb and graph tool, in the order tools/list shows them.
import { algo } from "./algo.js";
import { attach, attachments, detach } from "./attachments.js";
import { changes } from "./changes.js";
import { context } from "./context.js";
import { cypher } from "./cypher.js";
import { deployed } from "./deployed.js";
import { describe } from "./describe.js";
import { describePlane } from "./describe_plane.js";
import { fathom } from "./fathom.js";
import { foldLog } from "./fold_log.js";
import { getNode } from "./get_node.js";
import { grep } from "./grep.js";
import { history } from "./history.js";
import { impact } from "./impact.js";
import { listPlanes } from "./list_planes.js";
import { neighbourhood } from "./neighbourhood.js";
import { planeMap } from "./plane_map.js";
import { planeOverview } from "./plane_overview.js";
import { rebuild } from "./rebuild.js";
import { recall } from "./recall.js";
import { mount, mounts, unmount } from "./mount.js";
import { query } from "./query.js";
import { search } from "./search.js";
import { snippet } from "./snippet.js";
import type { Tool } from "./tool.js";
import { trace } from "./trace.js";
import { traverse } from "./traverse.js";
import { wire } from "./wire.js";
import { createPlane, dropPlane, writeEdges, writeNodes } from "./write.js";

export const TOOLS: Tool[] = [
  listPlanes,
  describePlane,
  context,
  describe,
  impact,
  trace,
  fathom,
  snippet,
  grep,
  search,
  getNode,
  traverse,
  cypher,
  query,
  algo,
  changes,
  deployed,
  wire,
  history,
  recall,
  writeNodes,
  writeEdges,
  createPlane,
  dropPlane,
  rebuild,
  mount,
  unmount,
  mounts,
  attach,
  detach,
  attachments,
  planeOverview,
  neighbourhood,
  planeMap,
  foldLog,
] as Tool[];
