// Running a tool the same way on every transport (MCP over stdio and HTTP, /rpc, the CLI): its
// errors reported alike, an `as_of` read answered from the past. No MCP SDK here, nor the tools
// a server offers (offered.ts): a cold CLI verb loads none of it.
import { DrsgError, type ErrorCode, errorText } from "../model/errors.js";
import { asOfContext, asOfLabel, type AsOfPoint } from "./asof.js";
import { type Tool, type ToolContext, type ToolResult, readsAsOf, Structured } from "./tool.js";
import { log } from "../log.js";

/** One tool's answer on every transport: its text, and for a data tool the same answer as an object. */
export interface ToolAnswer {
  text: string;
  isError: boolean;
  /** The structured answer (MCP structuredContent), for tools that declare `output`. */
  data?: Record<string, unknown>;
  /** The error's code, for /rpc and the CLI's exit codes. */
  code?: ErrorCode;
}

/** Text and data of a tool's result; an answer read in the past opens with its commit. */
function shape(tool: Tool, r: ToolResult, past: AsOfPoint | undefined): ToolAnswer {
  const label = past ? asOfLabel(past) : undefined;
  const asOf = past
    ? { as_of: { seq: past.seq, at: past.at === undefined ? null : new Date(past.at).toISOString(), ...(past.asked === undefined ? {} : { asked: past.asked }) } }
    : {};
  if (r instanceof Structured) {
    return { text: label ? `${label}\n${r.text}` : r.text, isError: false, data: { ...asOf, ...r.data } };
  }
  if (typeof r === "string") return { text: label ? `${label}\n${r}` : r, isError: false };
  const obj = !Array.isArray(r) ? { ...asOf, ...r } : r;
  const out: ToolAnswer = { text: JSON.stringify(obj, null, 2), isError: false };
  if (tool.output && !Array.isArray(obj)) out.data = obj;
  return out;
}

/**
 * Run one tool with the errors every transport reports the same way. A tool whose input has
 * `as_of` and a call that sets it runs over the database as of that commit (src/tools/asof.ts).
 */
export async function runTool(tool: Tool, ctx: ToolContext, input: unknown): Promise<ToolAnswer> {
  try {
    const args = input as Record<string, unknown> | undefined;
    if (readsAsOf(tool) && args && args.as_of !== undefined) {
      const plane = typeof args.plane === "string" ? args.plane : undefined;
      const past = asOfContext(ctx, args.as_of as number | string, plane);
      const { as_of: _asOf, ...rest } = args;
      return shape(tool, await tool.run(past.ctx, rest as never), past.point);
    }
    return shape(tool, await tool.run(ctx, input as never), undefined);
  } catch (e) {
    if (e instanceof DrsgError) return { text: `${tool.name} failed [${e.code}]: ${e.message}`, isError: true, code: e.code };
    log("error", `tool ${tool.name} crashed: ${(e as Error)?.stack ?? String(e)}`);
    return { text: `${tool.name} failed [INTERNAL]: ${errorText(e)}`, isError: true, code: "INTERNAL" };
  }
}

