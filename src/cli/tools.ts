// Agent verbs as CLI subcommands: `drsg context NAME [--plane P]` runs the same tool as MCP, in
// this process or — when the repository's live server holds the database — on that server over
// /rpc, printing the same answer either way. The options are node's util.parseArgs over a table
// generated from the tool's zod schema (booleans are flags that take no value, arrays repeat,
// numbers are parsed and the schema judges them), and `--help` lists the same fields.
import { type ParseArgsConfig, parseArgs } from "node:util";
import * as z from "../model/zod.js";
import { GraphViews } from "../graph/view.js";
import { runTool } from "../tools/run.js";
import { DrsgError, type ErrorCode } from "../model/errors.js";
import { activeBuilds, activePlugins } from "../plugin/registry.js";
import type { Store } from "../store/types.js";
import { loadTool } from "../tools/modules.js";
import type { Tool, ToolContext } from "../tools/tool.js";
import { type CliIO, type Command, EXIT, exitCodeOf, printError } from "./command.js";
import { type DbTarget, findTarget, openChosen } from "./db.js";
import { type RemoteAnswer, Unreachable, rpcCall, stripFailed } from "./remote.js";

// ---------------------------------------------------------------------------------------------
// The option table, from the schema.

type Kind = "string" | "number" | "boolean" | "json";

export interface Field {
  /** The input field's name. */
  name: string;
  /** `--ignore-case`; `--ignore_case` is accepted too. */
  flag: string;
  kind: Kind;
  /** An array: the option repeats, each value one item of `kind`. */
  multiple: boolean;
  required: boolean;
  /** For help: the type as a user reads it (`integer 1..6`, `none|attached|all`). */
  type: string;
  default?: unknown;
  description?: string;
}

/** Options every verb takes besides its fields. */
const COMMON = new Set(["db", "json", "help"]);

interface JsonSchema {
  type?: string | string[];
  anyOf?: JsonSchema[];
  enum?: unknown[];
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

function kindOf(s: JsonSchema): { kind: Kind; type: string } {
  const types = s.anyOf ? s.anyOf.map((x) => x.type) : [s.type];
  const t = (x: string) => types.includes(x);
  const range = s.minimum !== undefined || s.maximum !== undefined ? ` ${s.minimum ?? ""}..${s.maximum ?? ""}` : "";
  if (s.enum) return { kind: "string", type: s.enum.map(String).join("|") };
  // A string wins over a number in a union (recall's `at`: a sha, a branch or a date): the schema decides.
  if (t("string")) return { kind: "string", type: s.anyOf ? types.join("|") : "string" };
  if (t("integer")) return { kind: "number", type: `integer${range}` };
  if (t("number")) return { kind: "number", type: `number${range}` };
  if (t("boolean")) return { kind: "boolean", type: "boolean" };
  return { kind: "json", type: "JSON" };
}

const fieldCache = new WeakMap<Tool, Field[]>();

/** The tool's input fields as CLI options, in schema order (from z.toJSONSchema). */
export function fieldsOf(tool: Tool): Field[] {
  const hit = fieldCache.get(tool);
  if (hit) return hit;
  const js = z.toJSONSchema(tool.input, { io: "input", unrepresentable: "any" }) as JsonSchema;
  const required = new Set(js.required ?? []);
  const fields: Field[] = [];
  for (const [name, s] of Object.entries(js.properties ?? {})) {
    const multiple = s.type === "array";
    const { kind, type } = kindOf(multiple ? (s.items ?? {}) : s);
    fields.push({
      name,
      flag: name.replace(/_/g, "-"),
      kind,
      multiple,
      required: required.has(name),
      type: multiple ? `${type}, repeatable` : type,
      ...(s.default !== undefined ? { default: s.default } : {}),
      ...(s.description ? { description: s.description } : {}),
    });
  }
  fieldCache.set(tool, fields);
  return fields;
}

function convert(tool: Tool, f: Field, v: string | boolean): unknown {
  if (typeof v === "boolean" || f.kind === "string") return v;
  if (f.kind === "number") {
    const n = Number(v);
    if (v.trim() === "" || !Number.isFinite(n)) throw new DrsgError("BAD_INPUT", `drsg ${tool.name}: --${f.flag} takes a number (${f.type}), got '${v}'`);
    return n;
  }
  try {
    return JSON.parse(v);
  } catch {
    throw new DrsgError("BAD_INPUT", `drsg ${tool.name}: --${f.flag} takes JSON, got '${v.slice(0, 80)}'`);
  }
}

function usageLine(tool: Tool): string {
  const pos = tool.cli?.positionals ?? [];
  const fields = fieldsOf(tool).filter((f) => !pos.includes(f.name));
  const opt = fields.map((f) => (f.kind === "boolean" ? `[--${f.flag}]` : `[--${f.flag} ${f.name === "plane" ? "P" : f.type.includes("|") && !f.type.includes(" ") ? f.type : f.kind === "number" ? "N" : "X"}]`));
  return `drsg ${tool.name} ${[...pos.map((p) => p.toUpperCase()), ...opt, "[--db PATH]", "[--json]"].join(" ")}`.replace(/\s+/g, " ");
}

export interface ToolArgs {
  input: Record<string, unknown>;
  db?: string;
  json: boolean;
  help: boolean;
}

/** Parse `argv` into the tool's input (util.parseArgs, options from the schema); the schema then judges it. */
export function toolInput(tool: Tool, argv: string[]): ToolArgs {
  const fields = fieldsOf(tool).filter((f) => !COMMON.has(f.name));
  const options: NonNullable<ParseArgsConfig["options"]> = {
    db: { type: "string" },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  };
  const byFlag = new Map<string, Field>();
  for (const f of fields) {
    for (const flag of new Set([f.flag, f.name])) {
      options[flag] = { type: f.kind === "boolean" && !f.multiple ? "boolean" : "string", ...(f.multiple ? { multiple: true } : {}) };
      byFlag.set(flag, f);
    }
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new DrsgError("BAD_INPUT", `drsg ${tool.name}: ${(e as Error).message}\nusage: ${usageLine(tool)}  (drsg ${tool.name} --help lists the fields)`);
  }
  const values = parsed.values as Record<string, string | boolean | (string | boolean)[] | undefined>;
  const input: Record<string, unknown> = {};
  for (const [flag, v] of Object.entries(values)) {
    const f = byFlag.get(flag);
    if (!f || v === undefined) continue;
    if (f.multiple) {
      const items = (Array.isArray(v) ? v : [v]).map((x) => convert(tool, f, x));
      input[f.name] = [...((input[f.name] as unknown[] | undefined) ?? []), ...items];
    } else {
      if (f.name in input) throw new DrsgError("BAD_INPUT", `drsg ${tool.name}: --${f.flag} given twice`);
      input[f.name] = convert(tool, f, v as string | boolean);
    }
  }
  const pos = tool.cli?.positionals ?? [];
  if (parsed.positionals.length > pos.length)
    throw new DrsgError(
      "BAD_INPUT",
      `drsg ${tool.name}: too many arguments (${parsed.positionals.join(" ")}); takes ${pos.map((f) => f.toUpperCase()).join(" ") || "none"}\nusage: ${usageLine(tool)}`,
    );
  parsed.positionals.forEach((v, i) => {
    const name = pos[i]!;
    if (name in input) throw new DrsgError("BAD_INPUT", `drsg ${tool.name}: ${name.toUpperCase()} given both as an argument and as --${name.replace(/_/g, "-")}`);
    const f = fields.find((x) => x.name === name);
    input[name] = f ? convert(tool, f, v) : v;
  });
  const db = values.db;
  return { input, ...(typeof db === "string" ? { db } : {}), json: values.json === true, help: values.help === true };
}

/** `drsg VERB --help`: the usage, the description and every field, generated from the schema. */
export function toolHelp(tool: Tool): string {
  const pos = tool.cli?.positionals ?? [];
  const fields = fieldsOf(tool).filter((f) => !COMMON.has(f.name));
  const rows = fields.map((f) => {
    const head = `${pos.includes(f.name) ? `${f.name.toUpperCase()}, ` : ""}--${f.flag}${f.kind === "boolean" && !f.multiple ? "" : ` <${f.type}>`}`;
    const notes: string[] = [];
    if (f.required && !(f.name === "plane")) notes.push("required");
    if (f.default !== undefined && f.kind !== "boolean") notes.push(`default ${JSON.stringify(f.default)}`);
    if (f.name === "plane") notes.push(`default: $DRSG_PLANE, else the database's only code plane`);
    if (f.kind === "boolean") notes.push("a flag (takes no value)");
    const text = [notes.join(", "), f.description].filter(Boolean).join(" — ");
    return { head, text };
  });
  const w = Math.max(12, ...rows.map((r) => r.head.length));
  return [
    `usage: ${usageLine(tool)}`,
    "",
    tool.description,
    "",
    "fields (the tool's input schema; --a-b and --a_b both work):",
    ...(rows.length ? rows.map((r) => `  ${r.head.padEnd(w)}  ${r.text}`.trimEnd()) : ["  (none)"]),
    "",
    "options:",
    `  ${"--db PATH".padEnd(w)}  the database (default: $DRSG_DB, else the repository's .drsg/graph.drsg, else ./graph.drsg)`,
    `  ${"--json".padEnd(w)}  print the structured answer: ${JSON_SHAPE}`,
    `  ${"-h, --help".padEnd(w)}  this help`,
    "",
    EXIT_LINE,
  ].join("\n");
}

export const JSON_SHAPE = '{"tool", "plane", "synced", "outcome": "ok"|"not_found"|"ambiguous", "text"[, "data"]}, or {"tool", "plane", "error": {"code", "message"}}';
export const EXIT_LINE = `exit codes: ${EXIT.ok} ok, ${EXIT.error} error, ${EXIT.usage} usage (bad arguments), ${EXIT.notFound} not found (no such symbol or node), ${EXIT.ambiguous} ambiguous name`;

// ---------------------------------------------------------------------------------------------
// Where a tool call runs: the repository's live server, or this process.

/** Planes that hold code: not the `_git` / `_ops` siblings of another plane. */
export function codePlanes(names: string[]): string[] {
  const all = new Set(names);
  return names.filter((n) => !(/_(git|ops)$/.test(n) && all.has(n.slice(0, -4))));
}

/** The plane a command runs on when none is named: the database's only code plane. */
export function soleCodePlane(names: string[], what: string): string {
  const code = codePlanes(names);
  if (code.length === 1) return code[0]!;
  if (code.length === 0)
    throw new DrsgError("PLANE_NOT_FOUND", `${what}: this database has no planes — drsg init (in a git repository) or drsg digest <dir> --apply builds one`, {
      planes: names,
    });
  throw new DrsgError("BAD_INPUT", `${what}: this database has ${code.length} code planes (${code.join(", ")}) — pass --plane NAME (or set DRSG_PLANE)`, {
    planes: code,
  });
}

export interface PlaneRow {
  name: string;
  nodes: number;
  edges: number;
  /** The commit it reflects (12 hex) as list_planes shows it; null for a working tree or while being rebuilt. */
  synced: string | null;
}

/** The planes in list_planes' answer (the same text locally and from a server). */
export function planeRows(text: string): PlaneRow[] {
  const rows: PlaneRow[] = [];
  for (const line of text.split("\n")) {
    const m = /^(\S+) {2}(\d+) node\(s\), (\d+) edge\(s\)$/.exec(line);
    if (m) {
      rows.push({ name: m[1]!, nodes: Number(m[2]), edges: Number(m[3]), synced: null });
      continue;
    }
    const c = /^ {2}synced: commit ([0-9a-f]+)$/.exec(line);
    const last = rows[rows.length - 1];
    if (c && last) last.synced = c[1]!;
  }
  return rows;
}

export class ToolRunner {
  private store?: Store;
  private ctx?: ToolContext;

  private constructor(
    readonly target: DbTarget,
    private readonly create: boolean,
  ) {}

  /** Find the database and its holder; opens nothing yet. */
  static async find(db: string | undefined, opts: { create?: boolean } = {}): Promise<ToolRunner> {
    return new ToolRunner(await findTarget(db), opts.create === true);
  }

  /** "server" when calls go to the repository's live server. */
  get via(): "server" | "local" {
    return this.target.server ? "server" : "local";
  }

  private async local(): Promise<ToolContext> {
    if (!this.ctx) {
      // Mapped: a verb reads once and exits (OpenOptions.mapped).
      this.store = await openChosen(this.target, { create: this.create, mapped: true });
      this.ctx = { store: this.store, transport: "cli", plugins: activePlugins, pluginBuilds: activeBuilds, views: new GraphViews(this.store, { lazy: true }) };
    }
    return this.ctx;
  }

  /** Run `tool` (its schema judges the input first); a tool error is an answer with isError and code. */
  async call(tool: Tool, raw: unknown): Promise<RemoteAnswer> {
    const parsed = tool.input.safeParse(raw);
    if (!parsed.success) throw badInput(tool, parsed.error);
    const input = parsed.data;
    const server = this.target.server;
    if (server) {
      try {
        return await rpcCall(server, tool.name, input);
      } catch (e) {
        if (!(e instanceof Unreachable)) throw e;
        // The server went away between the probe and the call: the file may be free now.
        delete this.target.server;
      }
    }
    return runTool(tool, await this.local(), input);
  }

  /** The planes of the database, through list_planes wherever it runs. */
  async planes(): Promise<PlaneRow[]> {
    // Loaded here: a verb given its plane reads no list_planes code (its schemas cost a cold start).
    const { listPlanes } = await import("../tools/list_planes.js");
    const r = await this.call(listPlanes as Tool, {});
    if (r.isError) throw answerError(listPlanes as Tool, r);
    return planeRows(r.text);
  }

  /** The names of the database's planes: the live server's list, else the store's own (its counts unread). */
  private async planeNames(): Promise<string[]> {
    if (!this.target.server) return (await this.local()).store.listPlanes().map((p) => p.name);
    return (await this.planes()).map((p) => p.name);
  }

  /** `input.plane`, else $DRSG_PLANE, else the database's only code plane. */
  async defaultPlane(input: Record<string, unknown>, what: string): Promise<void> {
    if (input.plane !== undefined) return;
    const env = process.env.DRSG_PLANE?.trim();
    if (env) {
      input.plane = env;
      return;
    }
    input.plane = soleCodePlane(await this.planeNames(), what);
  }

  close(): void {
    this.store?.close();
    this.store = undefined;
    this.ctx = undefined;
  }
}

/** A tool error answer as the typed error an in-process run threw (message without the `TOOL failed [CODE]:` prefix). */
export function answerError(tool: Tool, r: RemoteAnswer): DrsgError {
  const code: ErrorCode = r.code ?? "INTERNAL";
  return new DrsgError(code, stripFailed(tool.name, code, r.text));
}

// ---------------------------------------------------------------------------------------------
// Verbs.

export type Outcome = "ok" | "not_found" | "ambiguous";

/**
 * What an answer says about the name it was asked: the verbs answer a miss or an ambiguous name
 * with text (closest keys, candidates) rather than an error, always as the whole answer, its
 * first line after the opening lines (src/tools/common.ts: missText, candidatesText).
 */
export function outcomeOf(text: string): Outcome {
  for (const line of text.split("\n", 6)) {
    if (/^no symbol matches `/.test(line) || /^no node #\d+ in plane '/.test(line)) return "not_found";
    if (/^`.*` is ambiguous — \d+ matches/.test(line)) return "ambiguous";
  }
  return "ok";
}

/** The commit an answer says it is true for (its `synced: commit` line), or null. */
export function syncedOf(text: string): string | null {
  return /^synced: commit ([0-9a-f]+)$/m.exec(text)?.[1] ?? null;
}

/** Every verb, in the order the tools are served (loads every tool: for the help text). */
export async function toolCommands(): Promise<ToolCommand[]> {
  const { TOOLS } = await import("../tools/index.js");
  return TOOLS.filter((t) => t.cli).map(commandOf);
}

/** Verb `name`, loading only its tool's module; undefined when no tool of that name has a verb. */
export async function toolCommand(name: string): Promise<ToolCommand | undefined> {
  const tool = await loadTool(name);
  return tool?.cli ? commandOf(tool) : undefined;
}

type ToolCommand = Command & { tool: Tool };

function commandOf(tool: Tool): ToolCommand {
  return {
    name: tool.name,
    summary: tool.cli?.summary ?? tool.description.split(/(?<=\.)\s/)[0]!,
    // Generated on demand: building every tool's JSON schema costs ~70 ms a start.
    get usage() {
      return usageLine(tool);
    },
    options: {},
    async run(): Promise<number> {
      throw new Error("tool commands run through runToolCommand");
    },
    tool,
  };
}

export async function runToolCommand(tool: Tool, argv: string[], io: CliIO): Promise<number> {
  let json = argv.includes("--json");
  let plane: string | null = null;
  try {
    const args = toolInput(tool, argv);
    json = args.json;
    if (args.help) {
      io.out(toolHelp(tool));
      return EXIT.ok;
    }
    const input = args.input;
    const pos = tool.cli?.positionals ?? [];
    const missing = fieldsOf(tool).filter((f) => f.required && f.name !== "plane" && input[f.name] === undefined);
    if (missing.length > 0)
      throw new DrsgError(
        "BAD_INPUT",
        `drsg ${tool.name}: ${missing.map((f) => (pos.includes(f.name) ? f.name.toUpperCase() : `--${f.flag}`)).join(", ")} required\nusage: ${usageLine(tool)}`,
      );
    const hasPlane = fieldsOf(tool).some((f) => f.name === "plane");
    // Judge the rest of the input before finding a plane: a usage error needs no database.
    const early = tool.input.safeParse(hasPlane && input.plane === undefined ? { ...input, plane: "-" } : input);
    if (!early.success) throw badInput(tool, early.error);
    const runner = await ToolRunner.find(args.db);
    try {
      if (hasPlane) await runner.defaultPlane(input, `drsg ${tool.name}`);
      plane = typeof input.plane === "string" ? input.plane : null;
      const r = await runner.call(tool, input);
      if (r.isError) throw answerError(tool, r);
      const outcome = outcomeOf(r.text);
      if (json) {
        const data = /^[[{]/.test(r.text) ? tryJson(r.text) : undefined;
        io.out(JSON.stringify({ tool: tool.name, plane, synced: syncedOf(r.text), outcome, text: r.text, ...(data !== undefined ? { data } : {}) }, null, 2));
      } else io.out(r.text);
      return outcome === "not_found" ? EXIT.notFound : outcome === "ambiguous" ? EXIT.ambiguous : EXIT.ok;
    } finally {
      runner.close();
    }
  } catch (e) {
    if (json && e instanceof DrsgError) io.out(JSON.stringify({ tool: tool.name, plane, error: { code: e.code, message: e.message } }, null, 2));
    printError(e, io);
    return e instanceof DrsgError ? exitCodeOf(e.code) : EXIT.error;
  }
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function badInput(tool: Tool, error: z.core.$ZodError): DrsgError {
  const issues = error.issues.map((i) => `${i.path.join(".") || "(input)"}: ${i.message}`).join("; ");
  return new DrsgError("BAD_INPUT", `drsg ${tool.name}: ${issues}\nusage: ${usageLine(tool)}`);
}
