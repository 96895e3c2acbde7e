// Building an MCP server from the tool list: validate (the SDK, with each tool's strict zod
// schema) → run → text; typed errors become `isError` results tagged with the tool's name.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { DrsgError, type ErrorCode, errorText } from "../model/errors.js";
import { type Tool, type ToolContext, type ToolResult, servedOver } from "../tools/tool.js";
import { log } from "../log.js";

export const INSTRUCTIONS = `drsg answers structural questions about code in one call each, from a graph of symbols and resolved relationships that follows the repository's commits.
Orient first: list_planes (one plane per repository; pick the one whose synced_root is your working directory, and pass it as "plane" on every call), then describe_plane to learn its labels and key prefixes.
Then prefer: context NAME (definition, callers, callees, unresolved callees) before reading files; impact NAME before changing something; trace FROM TO for how one symbol reaches another; snippet NAME for source text; search for a name you do not know; grep as the fallback for text.
Every answer opens with the commit it is true for. Names are matched exactly, by key suffix, then by substring — an ambiguous name returns candidates, never a guess. Listings built on calls are a lower bound: unresolved call sites are counted and listed, not hidden.
The <plane>_git plane holds commit history (history, recall read code as it was).`;

/** Run one tool with the errors every transport reports the same way (`code`: the error's, for /rpc and the CLI). */
export async function runTool(tool: Tool, ctx: ToolContext, input: unknown): Promise<{ text: string; isError: boolean; code?: ErrorCode }> {
  try {
    const r: ToolResult = await tool.run(ctx, input as never);
    return { text: typeof r === "string" ? r : JSON.stringify(r, null, 2), isError: false };
  } catch (e) {
    if (e instanceof DrsgError) return { text: `${tool.name} failed [${e.code}]: ${e.message}`, isError: true, code: e.code };
    log("error", `tool ${tool.name} crashed: ${(e as Error)?.stack ?? String(e)}`);
    return { text: `${tool.name} failed [INTERNAL]: ${errorText(e)}`, isError: true, code: "INTERNAL" };
  }
}

export interface ServerOptions {
  version: string;
  /** Wraps every call (concurrency limits, deadlines); default: run directly. */
  gate?: <T>(tool: string, fn: () => Promise<T>) => Promise<T>;
  /** Answers a validated call instead (a server's cache and gate); overrides `gate`. */
  call?: (tool: Tool, args: unknown) => Promise<{ text: string; isError: boolean }>;
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
        description: tool.description,
        inputSchema: tool.input as never,
        annotations: { readOnlyHint: tool.readOnly },
      },
      (async (args: unknown) => {
        const call = () => runTool(tool, ctx, args);
        const r = opts.call ? await opts.call(tool, args) : opts.gate ? await opts.gate(tool.name, call) : await call();
        return { content: [{ type: "text" as const, text: r.text }], isError: r.isError };
      }) as never,
    );
  }
  return server;
}
