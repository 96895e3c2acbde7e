// Every agent verb and graph tool, in the order tools/list shows them.
import { context } from "./context.js";
import { describe } from "./describe.js";
import { describePlane } from "./describe_plane.js";
import { listPlanes } from "./list_planes.js";
import type { Tool } from "./tool.js";

export const TOOLS: Tool[] = [listPlanes, describePlane, context, describe] as Tool[];
