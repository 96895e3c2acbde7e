// Every agent verb and graph tool, in the order tools/list shows them.
import { context } from "./context.js";
import { deployed } from "./deployed.js";
import { describe } from "./describe.js";
import { describePlane } from "./describe_plane.js";
import { fathom } from "./fathom.js";
import { getNode } from "./get_node.js";
import { impact } from "./impact.js";
import { listPlanes } from "./list_planes.js";
import { search } from "./search.js";
import type { Tool } from "./tool.js";
import { trace } from "./trace.js";
import { traverse } from "./traverse.js";
import { createPlane, dropPlane, writeEdges, writeNodes } from "./write.js";

export const TOOLS: Tool[] = [
  listPlanes,
  describePlane,
  context,
  describe,
  impact,
  trace,
  fathom,
  search,
  getNode,
  traverse,
  deployed,
  writeNodes,
  writeEdges,
  createPlane,
  dropPlane,
] as Tool[];
