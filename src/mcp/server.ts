// Building an MCP server from the tool list: validate (the SDK, with each tool's strict zod
// schema) → run → text; typed errors become `isError` results tagged with the tool's name.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { type Tool, type ToolContext, type ToolHints, servedOver } from "../tools/tool.js";
import { runTool, type ToolAnswer } from "../tools/run.js";
import { AjvJsonSchemaValidator } from "./ajv-lazy.js";

export const INSTRUCTIONS = `drsg answers structural questions about code in one call each, from a graph of symbols and resolved relationships that follows the repository's commits.
Orient first: list_planes (one plane per repository; pick the one whose synced_root is your working directory, and pass it as "plane" on every call), then describe_plane to learn its labels and key prefixes.
Then prefer: context NAME (definition, callers, callees, unresolved callees) before reading files; impact NAME before changing something; trace FROM TO for how one symbol reaches another; snippet NAME for source text; search for a name you do not know; grep as the fallback for text.
For whole-graph questions use algo (pagerank, communities, components, shortest paths; restrict with edge_types such as ["CALLS"]); changes lists what changed since a database commit; as_of on the read verbs answers as of a past commit.
Every answer opens with the commit it is true for. Names are matched exactly, by key suffix, then by substring — an ambiguous name returns candidates, never a guess. Listings built on calls are a lower bound: unresolved call sites are counted and listed, not hidden.
The <plane>_git plane holds commit history (history, recall read code as it was).`;

/**
 * Hints of tools defined elsewhere, kept here so the annotations are one table: what destroys
 * (drop_plane deletes facts; unmount and detach drop what a session relied on) and what talks to
 * another server (remote attachments). A tool's own `hints` win.
 */
const HINTS: Record<string, ToolHints> = {
  drop_plane: { destructive: true },
  unmount: { destructive: true },
  detach: { destructive: true },
  attach: { openWorld: true },
  attachments: { openWorld: true },
  list_planes: { title: "List planes" },
  get_node: { title: "Get node" },
};

/** "list_planes" → "List planes". */
function titleOf(tool: Tool): string {
  const title = tool.hints?.title ?? HINTS[tool.name]?.title;
  if (title) return title;
  const words = tool.name.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The MCP annotations of a tool: hints for hosts (confirmation prompts, auto-approval), never a guard. */
export function annotationsOf(tool: Tool): {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
} {
  const h = { ...HINTS[tool.name], ...tool.hints };
  return {
    title: titleOf(tool),
    readOnlyHint: tool.readOnly,
    destructiveHint: !tool.readOnly && h.destructive === true,
    idempotentHint: h.idempotent ?? tool.readOnly,
    openWorldHint: h.openWorld === true,
  };
}

export interface ServerOptions {
  version: string;
  /** Wraps every call (concurrency limits, deadlines); default: run directly. */
  gate?: <T>(tool: string, fn: () => Promise<T>) => Promise<T>;
  /** Answers a validated call instead (a server's cache and gate); overrides `gate`. */
  call?: (tool: Tool, args: unknown) => Promise<ToolAnswer>;
}

/**
 * One JSON-schema validator for every session of the process (it compiles and keeps schemas;
 * the SDK would build a fresh Ajv per session otherwise, a millisecond or two each).
 */
let validator: AjvJsonSchemaValidator | undefined;

export function buildMcpServer(ctx: ToolContext, tools: Tool[], opts: ServerOptions): McpServer {
  validator ??= new AjvJsonSchemaValidator();
  const server = new McpServer({ name: "drsg", version: opts.version }, { instructions: INSTRUCTIONS, jsonSchemaValidator: validator });
  for (const tool of tools) {
    if (!servedOver(tool, ctx.transport)) continue;
    server.registerTool(
      tool.name,
      {
        title: titleOf(tool),
        description: tool.description,
        inputSchema: tool.input as never,
        ...(tool.output ? { outputSchema: tool.output as never } : {}),
        annotations: annotationsOf(tool),
      },
      (async (args: unknown) => {
        const call = () => runTool(tool, ctx, args);
        const r = opts.call ? await opts.call(tool, args) : opts.gate ? await opts.gate(tool.name, call) : await call();
        return callResult(r);
      }) as never,
    );
  }
  return server;
}

/** The MCP CallToolResult of an answer: its text, and its data as structuredContent when it has some. */
export function callResult(r: ToolAnswer): { content: { type: "text"; text: string }[]; structuredContent?: Record<string, unknown>; isError: boolean } {
  // Keys in the order the SDK's transport writes them (the HTTP fast path must send the same bytes).
  if (r.data && !r.isError) return { content: [{ type: "text", text: r.text }], structuredContent: r.data, isError: false };
  return { content: [{ type: "text", text: r.text }], isError: r.isError };
}

export { type ServeMode, serveMode } from "./mode.js";
export { runTool, type ToolAnswer } from "../tools/run.js";
export { readTools, toolsFor } from "../tools/offered.js";
