// The shape of one agent verb / MCP tool: a name, a description, a strict zod input schema and
// a `run` that returns text (or JSON-able data) and never touches a transport. The MCP
// registrar and the CLI both call the same `run`, so they cannot drift.
import type * as z from "../model/zod.js";
import type { PluginSet } from "../plugin/host.js";
import type { Store } from "../store/types.js";
import type { GraphViews } from "../graph/view.js";

export type Transport = "stdio" | "http" | "cli";

export interface ToolContext {
  store: Store;
  transport: Transport;
  /** The tree the operator attached (`serve watch --dir`), canonical; undefined when none. */
  attached?: string;
  /** The installed plugin set, for drift lines (loaded lazily; may throw a plugin error). */
  plugins(): PluginSet;
  /** Its builds alone (`plugins().builtBy`), where the context can tell them without loading the set (a cold CLI verb: registry.ts activeBuilds). */
  pluginBuilds?(): string[];
  views: GraphViews;
  /** Extra context a server supplies (rebuild hooks, watchers, mounts). */
  extras?: Record<string, unknown>;
}

export type ToolResult = string | { [k: string]: unknown } | unknown[] | Structured;

/**
 * An answer that is data: the text agents read and the same answer as a JSON object, sent as
 * MCP `structuredContent` (validated against the tool's `output` schema) beside the text.
 */
export class Structured {
  constructor(
    readonly text: string,
    readonly data: Record<string, unknown>,
  ) {}
}

/** `text` for people and models, `data` for programs (a tool declaring `output` returns this). */
export function structured(text: string, data: Record<string, unknown>): Structured {
  return new Structured(text, data);
}

/** MCP tool annotations (hints a host may show or act on; never a security boundary). */
export interface ToolHints {
  /** A human title; default: the name with its underscores as spaces, capitalised. */
  title?: string;
  /** Deletes or overwrites what an agent cannot get back (default false; meaningful for writes only). */
  destructive?: boolean;
  /** Calling again with the same input changes nothing more (default: true for reads). */
  idempotent?: boolean;
  /** Talks to something outside this server's database and tree (another server). */
  openWorld?: boolean;
}

export interface Tool<S extends z.ZodMiniType = z.ZodMiniType> {
  name: string;
  description: string;
  input: S;
  /** True for tools that never write. */
  readOnly: boolean;
  /**
   * A tool that writes only on some inputs (cypher) may name the read-only tool of the same name
   * a read-only server serves in its place, so reads stay available where writes are not.
   */
  readVariant?: Tool;
  /** Annotation hints beyond readOnly (src/mcp/server.ts turns them into MCP annotations). */
  hints?: ToolHints;
  /**
   * The shape of the answer's data (an object schema): the tool returns `structured(text, data)`
   * or a plain object, and MCP hosts get it as validated `structuredContent`.
   */
  output?: z.ZodMiniObject;
  /**
   * The answer is a function of the database's current state, the installed plugins and the
   * input alone (no files, git, clock or remote servers read), so a server may answer the same
   * question again from its per-commit answer cache. A function decides per input.
   */
  pure?: boolean | ((input: z.infer<S>) => boolean);
  /** Only served over these transports (default all). */
  transports?: Transport[];
  run(ctx: ToolContext, input: z.infer<S>): Promise<ToolResult> | ToolResult;
  /** As a CLI subcommand: which input fields the positional arguments fill, in order. */
  cli?: { positionals: string[]; summary?: string };
}

/** Whether `tool` is served over `transport` (every transport unless it names some). */
export function servedOver(tool: Tool, transport: Transport): boolean {
  return !tool.transports || tool.transports.includes(transport);
}

/**
 * Whether the tool reads the past: its input has an `as_of` field (AS_OF_INPUT in
 * src/tools/asof.ts), which the runner answers for every such tool in one place.
 */
export function readsAsOf(tool: Tool): boolean {
  const shape = (tool.input as { shape?: Record<string, unknown> }).shape;
  return shape !== undefined && "as_of" in shape;
}

/** Define a tool with its input type inferred from the schema. */
export function defineTool<S extends z.ZodMiniType>(t: Tool<S>): Tool<S> {
  return t;
}
