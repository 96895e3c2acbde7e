// Agent verbs as CLI subcommands: `drsg context NAME --plane P` runs the same `run` as the MCP
// tool. Positionals fill the fields the tool names; --flag value fills a field by name
// (dashes become underscores); whole numbers and true/false are read as such.
import { DrsgError } from "../model/errors.js";
import { runTool } from "../mcp/server.js";
import { GraphViews } from "../graph/view.js";
import { activePlugins } from "../plugin/registry.js";
import { TOOLS } from "../tools/index.js";
import type { Tool, ToolContext } from "../tools/tool.js";
import type { Command, CliIO } from "./command.js";
import { openDb } from "./db.js";

function coerce(v: string): unknown {
  if (/^-?\d+$/.test(v) && v.length < 16) return Number(v);
  if (v === "true") return true;
  if (v === "false") return false;
  return v;
}

/** Positionals that are always text, even when they look like a number (`drsg search 404`). */
const TEXT_POSITIONALS = new Set(["plane", "name", "pattern", "query", "from", "to"]);

/** Parse `argv` loosely into the tool's input; the tool's strict schema then judges it. */
export function toolInput(tool: Tool, argv: string[]): { input: Record<string, unknown>; db?: string; json: boolean } {
  const input: Record<string, unknown> = {};
  const pos: string[] = [];
  let db: string | undefined;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") {
      pos.push(...argv.slice(i + 1));
      break;
    }
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const name = (eq > 0 ? a.slice(2, eq) : a.slice(2)).replace(/-/g, "_");
      let value: string | undefined = eq > 0 ? a.slice(eq + 1) : undefined;
      if (value === undefined && i + 1 < argv.length && !argv[i + 1]!.startsWith("--")) value = argv[++i];
      if (name === "db") db = value;
      else if (name === "json") json = true;
      else if (value === undefined) input[name] = true;
      else if (name in input) input[name] = [...(Array.isArray(input[name]) ? (input[name] as unknown[]) : [input[name]]), coerce(value)];
      else input[name] = coerce(value);
      continue;
    }
    pos.push(a);
  }
  const fields = tool.cli?.positionals ?? [];
  if (pos.length > fields.length)
    throw new DrsgError("BAD_INPUT", `drsg ${tool.name}: too many arguments (${pos.join(" ")}); takes ${fields.map((f) => f.toUpperCase()).join(" ") || "none"}`);
  pos.forEach((v, i) => {
    input[fields[i]!] = TEXT_POSITIONALS.has(fields[i]!) ? v : coerce(v);
  });
  return { input, db, json };
}

export function toolCommands(): (Command & { tool: Tool })[] {
  return TOOLS.filter((t) => t.cli).map((tool) => ({
    name: tool.name,
    summary: tool.cli?.summary ?? tool.description.split(/(?<=\.)\s/)[0]!,
    usage: `drsg ${tool.name} ${(tool.cli?.positionals ?? []).map((f) => f.toUpperCase()).join(" ")} [--plane P] [--db PATH] [--field value ...]`,
    options: {},
    async run(): Promise<number> {
      throw new Error("tool commands run through runToolCommand");
    },
    tool,
  }));
}

export async function runToolCommand(tool: Tool, argv: string[], io: CliIO): Promise<number> {
  const { input, db } = toolInput(tool, argv);
  if (input.plane === undefined && process.env.DRSG_PLANE) input.plane = process.env.DRSG_PLANE;
  const parsed = tool.input.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(input)"}: ${i.message}`).join("; ");
    throw new DrsgError("BAD_INPUT", `drsg ${tool.name}: ${issues}`);
  }
  const store = openDb(db);
  try {
    const ctx: ToolContext = {
      store,
      transport: "cli",
      plugins: activePlugins,
      views: new GraphViews(store),
    };
    const r = await runTool(tool, ctx, parsed.data);
    if (r.isError) {
      io.err(r.text);
      return 1;
    }
    io.out(r.text);
    return 0;
  } finally {
    store.close();
  }
}
