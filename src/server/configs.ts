// The agent hosts' configs `drsg init` adds its entry to — edited in place, never rewritten:
// JSON/JSONC is located with jsonc-parser and spliced (a new member is inserted as text, so the
// neighbours keep their formatting and comments; an existing drsg value is replaced with
// jsonc-parser's modify), TOML is validated with smol-toml and only the drsg table's text is
// spliced. A file git tracks is never modified (init says what to add, or writes the host's
// untracked local variant), no write follows a symbolic link, and every change is recorded so
// `drsg init --remove` takes out exactly what init put in.
import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, rmdirSync, statSync, unlinkSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { type JSONPath, type Node as JsonNode, type ParseError, applyEdits, findNodeAtLocation, getNodeValue, modify, parseTree, printParseErrorCode } from "jsonc-parser";
import { parse as parseToml, stringify as stringifyToml } from "smol-toml";
import type { GitRepo } from "../git/repo.js";
import { DrsgError } from "../model/errors.js";
import { writeFileAtomic } from "./state.js";

/** The server name every entry is added under. */
export const ENTRY_NAME = "drsg";

/** What an entry starts: drsg-mcp over stdio (the default), or the repository's server over HTTP (`init --http`). */
export type EntryTarget = { kind: "stdio"; command: string; args: string[] } | { kind: "http"; url: string; token: string };

/** One splice init made, in the file's text right after it was made. */
interface Inserted {
  offset: number;
  text: string;
}

/** One change init made to a file, as recorded in `.drsg/init.json`. */
export type EditRecord =
  | { kind: "member"; path: JSONPath; createdFrom: number; inserted?: Inserted[] }
  | { kind: "element"; path: JSONPath; value: string; createdFrom: number; inserted?: Inserted[] }
  | { kind: "toml"; table: string[]; inserted?: Inserted[] };

/** Everything init changed in one file. */
export interface FileRecord {
  /** Absolute path. */
  file: string;
  host: string;
  createdFile: boolean;
  /** Directories init created for the file (absolute, outermost first). */
  createdDirs: string[];
  edits: EditRecord[];
}

/** What init did (or would not do) to one file, for the report. */
export interface ConfigOutcome {
  host: string;
  display: string;
  status: "created" | "added" | "updated" | "unchanged" | "skipped";
  /** Why it was skipped, or what it now does. */
  note?: string;
  record?: FileRecord;
}

type Desired = { kind: "member"; path: JSONPath; value: unknown } | { kind: "element"; path: JSONPath; value: string };

/** One file to edit for one host. */
interface Plan {
  host: string;
  file: string;
  /** Where writes are checked from (the repository root, or the home directory for user-level files). */
  base: string;
  scope: "project" | "global";
  format: "json" | "toml";
  edits: Desired[];
  /** For TOML: the table path and its value. */
  table?: { path: string[]; value: Record<string, unknown> };
  /** Created here may mean a new directory (only where the host's own convention has it). */
  mayCreateDir: boolean;
  /** The docs this shape was checked against. */
  docs: string;
  /** What to tell the user when the file is tracked (and so not modified). */
  trackedHint: string;
  /** The host's untracked local variant, used when the file is tracked. */
  localVariant?: () => Plan | undefined;
}

function entryFor(host: string, t: EntryTarget): Record<string, unknown> {
  const bearer = t.kind === "http" ? `Bearer ${t.token}` : "";
  switch (host) {
    // code.claude.com/docs/en/mcp (project scope .mcp.json: type stdio|http); `alwaysLoad: true`
    // exempts the server's tools from tool-search deferral (Claude Code 2.1.121 changelog).
    case "Claude Code":
      return t.kind === "stdio"
        ? { type: "stdio", command: t.command, args: t.args, alwaysLoad: true }
        : { type: "http", url: t.url, headers: { Authorization: bearer }, alwaysLoad: true };
    // code.visualstudio.com/docs/copilot/reference/mcp-configuration: "servers", type stdio|http.
    case "VS Code":
      return t.kind === "stdio" ? { type: "stdio", command: t.command, args: t.args } : { type: "http", url: t.url, headers: { Authorization: bearer } };
    // geminicli.com/docs/tools/mcp-server: command/args for stdio, httpUrl + headers for streamable HTTP.
    case "Gemini CLI":
      return t.kind === "stdio" ? { command: t.command, args: t.args } : { httpUrl: t.url, headers: { Authorization: bearer } };
    // opencode.ai/docs/mcp-servers: type local with command as one array; type remote with url + headers.
    case "OpenCode":
      return t.kind === "stdio"
        ? { type: "local", command: [t.command, ...t.args], enabled: true }
        : { type: "remote", url: t.url, headers: { Authorization: bearer }, enabled: true };
    // docs.windsurf.com/windsurf/cascade/mcp: command/args, or serverUrl + headers.
    case "Windsurf":
      return t.kind === "stdio" ? { command: t.command, args: t.args } : { serverUrl: t.url, headers: { Authorization: bearer } };
    // cursor.com/docs/mcp (command/args/env, or url + headers); zed.dev/docs/ai/mcp
    // (context_servers: command/args/env, or url + headers).
    default:
      return t.kind === "stdio" ? { command: t.command, args: t.args } : { url: t.url, headers: { Authorization: bearer } };
  }
}

/** The Codex CLI table (developers.openai.com/codex/mcp: [mcp_servers.<name>] command/args, or url + http_headers). */
function codexTable(t: EntryTarget): Record<string, unknown> {
  return t.kind === "stdio" ? { command: t.command, args: t.args } : { url: t.url, http_headers: { Authorization: `Bearer ${t.token}` } };
}

function snippet(v: unknown): string {
  return JSON.stringify(v, null, 2).split("\n").join("\n      ");
}

export interface PlanOptions {
  root: string;
  target: EntryTarget;
  /** Also the user-level configs of the hosts installed here (`init --global`). */
  global: boolean;
  home?: string;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The files to edit: Claude Code always (.mcp.json), every other host where its marker exists. */
function plans(o: PlanOptions): Plan[] {
  const { root, target } = o;
  const home = o.home ?? homedir();
  const out: Plan[] = [];
  const project = (host: string, rel: string, path: JSONPath, docs: string, extra: Partial<Plan> = {}): Plan => {
    const entry = entryFor(host, target);
    return {
      host,
      file: join(root, rel),
      base: root,
      scope: "project",
      format: "json",
      edits: [{ kind: "member", path, value: entry }],
      mayCreateDir: false,
      docs,
      trackedHint: `add under ${path.slice(0, -1).map((p) => JSON.stringify(p)).join(" → ")}: "${ENTRY_NAME}": ${snippet(entry)}`,
      ...extra,
    };
  };
  const claudeEntry = entryFor("Claude Code", target);
  const claudeJson = join(home, ".claude.json");
  out.push(
    project("Claude Code", ".mcp.json", ["mcpServers", ENTRY_NAME], "code.claude.com/docs/en/mcp", {
      trackedHint: `it names this machine's paths, so a local entry is better: claude mcp add --scope local ${ENTRY_NAME} -- ${target.kind === "stdio" ? [target.command, ...target.args].join(" ") : `(HTTP: --transport http ${target.url})`}`,
      // Claude Code's local scope: ~/.claude.json projects.<root>.mcpServers (untracked, this user's).
      localVariant: () =>
        existsSync(claudeJson)
          ? {
              host: "Claude Code",
              file: claudeJson,
              base: home,
              scope: "global",
              format: "json",
              edits: [{ kind: "member", path: ["projects", root, "mcpServers", ENTRY_NAME], value: claudeEntry }],
              mayCreateDir: false,
              docs: "code.claude.com/docs/en/mcp (local scope)",
              trackedHint: "",
            }
          : undefined,
    }),
  );
  // Approve the project server and let its tools run without a prompt (code.claude.com/docs/en/settings:
  // enabledMcpjsonServers; permission rule "mcp__<server>" matches every tool of that server).
  out.push({
    host: "Claude Code",
    file: join(root, ".claude", "settings.local.json"),
    base: root,
    scope: "project",
    format: "json",
    edits: [
      { kind: "element", path: ["enabledMcpjsonServers"], value: ENTRY_NAME },
      { kind: "element", path: ["permissions", "allow"], value: `mcp__${ENTRY_NAME}` },
    ],
    mayCreateDir: true,
    docs: "code.claude.com/docs/en/settings",
    trackedHint: `add "${ENTRY_NAME}" to "enabledMcpjsonServers" and "mcp__${ENTRY_NAME}" to "permissions" → "allow"`,
  });
  if (isDir(join(root, ".cursor"))) out.push(project("Cursor", ".cursor/mcp.json", ["mcpServers", ENTRY_NAME], "cursor.com/docs/mcp"));
  if (isDir(join(root, ".vscode"))) out.push(project("VS Code", ".vscode/mcp.json", ["servers", ENTRY_NAME], "code.visualstudio.com/docs/copilot/reference/mcp-configuration"));
  if (isDir(join(root, ".gemini"))) out.push(project("Gemini CLI", ".gemini/settings.json", ["mcpServers", ENTRY_NAME], "geminicli.com/docs/tools/mcp-server"));
  if (isDir(join(root, ".zed"))) out.push(project("Zed", ".zed/settings.json", ["context_servers", ENTRY_NAME], "zed.dev/docs/ai/mcp"));
  const opencode = ["opencode.jsonc", "opencode.json"].find((f) => existsSync(join(root, f)));
  if (opencode) out.push(project("OpenCode", opencode, ["mcp", ENTRY_NAME], "opencode.ai/docs/mcp-servers"));
  if (isDir(join(root, ".codex"))) {
    const table = codexTable(target);
    out.push({
      host: "Codex CLI",
      file: join(root, ".codex", "config.toml"),
      base: root,
      scope: "project",
      format: "toml",
      edits: [],
      table: { path: ["mcp_servers", ENTRY_NAME], value: table },
      mayCreateDir: false,
      docs: "developers.openai.com/codex/mcp (project .codex/config.toml, trusted projects)",
      trackedHint: `add:\n      ${stringifyToml({ mcp_servers: { [ENTRY_NAME]: table } }).trimEnd().split("\n").join("\n      ")}`,
    });
  }
  if (o.global) {
    const g = (host: string, file: string, marker: string, path: JSONPath, docs: string) => {
      if (!existsSync(join(home, marker))) return;
      out.push({
        host,
        file: join(home, file),
        base: home,
        scope: "global",
        format: "json",
        edits: [{ kind: "member", path, value: entryFor(host, target) }],
        mayCreateDir: false,
        docs,
        trackedHint: "",
      });
    };
    g("Claude Code", ".claude.json", ".claude.json", ["mcpServers", ENTRY_NAME], "code.claude.com/docs/en/mcp (user scope)");
    g("Cursor", ".cursor/mcp.json", ".cursor", ["mcpServers", ENTRY_NAME], "cursor.com/docs/mcp");
    g("VS Code", ".config/Code/User/mcp.json", ".config/Code/User", ["servers", ENTRY_NAME], "code.visualstudio.com/docs/copilot/reference/mcp-configuration");
    g("Gemini CLI", ".gemini/settings.json", ".gemini", ["mcpServers", ENTRY_NAME], "geminicli.com/docs/tools/mcp-server");
    g("Zed", ".config/zed/settings.json", ".config/zed", ["context_servers", ENTRY_NAME], "zed.dev/docs/ai/mcp");
    g("Windsurf", ".codeium/windsurf/mcp_config.json", ".codeium/windsurf", ["mcpServers", ENTRY_NAME], "docs.windsurf.com/windsurf/cascade/mcp");
    const oc = ["opencode.jsonc", "opencode.json"].find((f) => existsSync(join(home, ".config", "opencode", f))) ?? "opencode.json";
    g("OpenCode", `.config/opencode/${oc}`, ".config/opencode", ["mcp", ENTRY_NAME], "opencode.ai/docs/mcp-servers");
    if (existsSync(join(home, ".codex"))) {
      const table = codexTable(target);
      out.push({
        host: "Codex CLI",
        file: join(home, ".codex", "config.toml"),
        base: home,
        scope: "global",
        format: "toml",
        edits: [],
        table: { path: ["mcp_servers", ENTRY_NAME], value: table },
        mayCreateDir: false,
        docs: "developers.openai.com/codex/mcp",
        trackedHint: "",
      });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Safe paths

/**
 * Check `file` before a write: every component from `base` down must exist as a real directory
 * (or be absent, for the parts init may create) and the file itself a regular file or absent —
 * a symbolic link anywhere on the way is refused, never followed. User-level files (under the
 * home directory, which is the user's own) may be links: the link's target is written instead.
 * Returns the path to write, or why not.
 */
function checkPath(plan: Plan): { path: string } | { why: string } {
  if (plan.scope === "global") {
    try {
      const real = realpathSync(plan.file);
      const st = statSync(real);
      if (!st.isFile()) return { why: `${plan.file} is not a regular file` };
      if (typeof process.getuid === "function" && st.uid !== process.getuid()) return { why: `${plan.file} is owned by uid ${st.uid}, not you` };
      return { path: real };
    } catch {
      return isDir(dirname(plan.file)) ? { path: plan.file } : { why: `${dirname(plan.file)} does not exist` };
    }
  }
  const rel = relative(plan.base, plan.file);
  if (rel.startsWith("..") || rel === "") return { why: `${plan.file} is outside ${plan.base}` };
  const parts = rel.split(sep);
  let p = plan.base;
  for (let i = 0; i < parts.length; i++) {
    p = join(p, parts[i]!);
    let st: ReturnType<typeof lstatSync>;
    try {
      st = lstatSync(p);
    } catch {
      return { path: plan.file }; // absent from here down: created by init, no link to follow
    }
    const shown = relative(plan.base, p);
    if (st.isSymbolicLink()) return { why: `${shown} is a symbolic link — not followed (a repository may point it anywhere); make it a regular file for init to edit it` };
    if (i < parts.length - 1 && !st.isDirectory()) return { why: `${shown} is not a directory` };
    if (i === parts.length - 1 && !st.isFile()) return { why: `${shown} is not a regular file` };
  }
  return { path: plan.file };
}

function display(plan: Plan, home: string): string {
  if (plan.scope === "project") return relative(plan.base, plan.file);
  const rel = relative(home, plan.file);
  return rel.startsWith("..") ? plan.file : `~/${rel}`;
}

// ---------------------------------------------------------------------------------------------
// JSON splicing

interface Style {
  unit: string;
  eol: string;
}

function styleOf(text: string): Style {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const m = /\n([ \t]+)\S/.exec(text);
  let unit = "  ";
  if (m) unit = m[1]!.startsWith("\t") ? "\t" : m[1]!;
  return { unit, eol };
}

function lineStart(text: string, offset: number): number {
  const i = text.lastIndexOf("\n", offset - 1);
  return i + 1;
}

function indentAt(text: string, offset: number): string {
  const s = lineStart(text, offset);
  return /^[ \t]*/.exec(text.slice(s))![0];
}

function pretty(v: unknown, base: string, st: Style): string {
  return JSON.stringify(v, null, st.unit).split("\n").join(`${st.eol}${base}`);
}

function nest(path: JSONPath, value: unknown): unknown {
  let v = value;
  for (let i = path.length - 1; i >= 0; i--) v = { [String(path[i])]: v };
  return v;
}

/** The end of the line holding `offset` when the rest of it is only a comma, blanks and a comment; else undefined. */
function restOfLine(text: string, offset: number): { end: number; comma: boolean } | undefined {
  let i = offset;
  while (i < text.length && (text[i] === " " || text[i] === "\t")) i++;
  let comma = false;
  if (text[i] === ",") {
    comma = true;
    i++;
  }
  while (i < text.length && (text[i] === " " || text[i] === "\t")) i++;
  if (text.startsWith("//", i)) {
    const nl = text.indexOf("\n", i);
    i = nl < 0 ? text.length : nl;
  } else if (text.startsWith("/*", i)) {
    const close = text.indexOf("*/", i + 2);
    if (close < 0) return undefined;
    i = close + 2;
    while (i < text.length && (text[i] === " " || text[i] === "\t")) i++;
  }
  if (i < text.length && text[i] !== "\n" && text[i] !== "\r") return undefined;
  return { end: i, comma };
}

/** Splices that add `key: value` (key undefined: an array element) as the last child of `node`. */
function appendChild(text: string, node: JsonNode, key: string | undefined, value: unknown): Inserted[] {
  const st = styleOf(text);
  const kids = node.children ?? [];
  const head = key === undefined ? "" : `${JSON.stringify(key)}: `;
  const closeAt = node.offset + node.length - 1;
  const oneLine = !text.slice(node.offset, node.offset + node.length).includes("\n");
  if (kids.length === 0) {
    // An empty container opens up: the new child on a line of its own, the close on the next.
    const outer = indentAt(text, node.offset);
    const ind = outer + st.unit;
    return [{ offset: node.offset + 1, text: `${st.eol}${ind}${head}${pretty(value, ind, st)}${oneLine ? `${st.eol}${outer}` : ""}` }];
  }
  if (oneLine) {
    const last = kids[kids.length - 1]!;
    return [{ offset: last.offset + last.length, text: `, ${head}${JSON.stringify(value)}` }];
  }
  const last = kids[kids.length - 1]!;
  const ind = indentAt(text, kids[0]!.offset);
  const member = `${st.eol}${ind}${head}${pretty(value, ind, st)}`;
  const rest = restOfLine(text, last.offset + last.length);
  if (!rest || rest.end > closeAt) {
    // Something else follows on the line (or the container closes there): insert right after it.
    return [{ offset: last.offset + last.length, text: `,${member}` }];
  }
  if (rest.comma) return [{ offset: rest.end, text: `${member},` }];
  // The comma right after the last child, the new child on a line of its own after any comment.
  return [
    { offset: last.offset + last.length, text: "," },
    { offset: rest.end, text: member },
  ];
}

function applyInserts(text: string, ins: Inserted[]): { text: string; recorded: Inserted[] } {
  // Applied left to right, each offset shifted by what came before it; recorded in final coordinates.
  let out = text;
  let shift = 0;
  const recorded: Inserted[] = [];
  for (const i of [...ins].sort((a, b) => a.offset - b.offset)) {
    const at = i.offset + shift;
    out = out.slice(0, at) + i.text + out.slice(at);
    recorded.push({ offset: at, text: i.text });
    shift += i.text.length;
  }
  return { text: out, recorded };
}

function parseJson(text: string, what: string): JsonNode | undefined {
  if (text.trim() === "") return undefined;
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0 || !tree)
    throw new DrsgError("BAD_INPUT", `${what} does not parse as JSON (${errors[0] ? printParseErrorCode(errors[0].error) : "not JSON"} at offset ${errors[0]?.offset}) — fix it, then run drsg init again`);
  if (tree.type !== "object") throw new DrsgError("BAD_INPUT", `${what} is not a JSON object`);
  return tree;
}

function childOf(node: JsonNode, key: string | number): JsonNode | undefined {
  return findNodeAtLocation(node, [key]);
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Apply one desired edit to JSON text: the new text and its record, or "unchanged". */
function applyJsonEdit(text: string, d: Desired, what: string): { text: string; record: EditRecord; status: "added" | "updated" } | "unchanged" {
  const tree = parseJson(text, what);
  const st = styleOf(text);
  const leaf = d.kind === "element" ? [d.value] : d.value;
  if (!tree) {
    const full = `${pretty(nest(d.path, leaf), "", st)}${st.eol}`;
    const rec = { offset: 0, text: full };
    return {
      text: full,
      record: d.kind === "member" ? { kind: "member", path: d.path, createdFrom: 0, inserted: [rec] } : { kind: "element", path: d.path, value: d.value, createdFrom: 0, inserted: [rec] },
      status: "added",
    };
  }
  let node: JsonNode = tree;
  for (let i = 0; i < d.path.length; i++) {
    if (node.type !== "object") throw new DrsgError("BAD_INPUT", `${what}: ${d.path.slice(0, i).join(".")} is not an object — init leaves it alone`);
    const key = d.path[i]!;
    const child = childOf(node, key);
    if (!child) {
      const { text: out, recorded } = applyInserts(text, appendChild(text, node, String(key), nest(d.path.slice(i + 1), leaf)));
      return {
        text: out,
        record: d.kind === "member" ? { kind: "member", path: d.path, createdFrom: i, inserted: recorded } : { kind: "element", path: d.path, value: d.value, createdFrom: i, inserted: recorded },
        status: "added",
      };
    }
    node = child;
  }
  if (d.kind === "element") {
    if (node.type !== "array") throw new DrsgError("BAD_INPUT", `${what}: ${d.path.join(".")} is not a list — init leaves it alone`);
    if ((getNodeValue(node) as unknown[]).includes(d.value)) return "unchanged";
    const { text: out, recorded } = applyInserts(text, appendChild(text, node, undefined, d.value));
    return { text: out, record: { kind: "element", path: d.path, value: d.value, createdFrom: d.path.length, inserted: recorded }, status: "added" };
  }
  if (deepEqual(getNodeValue(node), d.value)) return "unchanged";
  // An existing drsg entry (an older init's, or HTTP ↔ stdio): its value is replaced in place.
  const edits = modify(text, d.path, d.value, { formattingOptions: { insertSpaces: st.unit !== "\t", tabSize: st.unit === "\t" ? 1 : st.unit.length, eol: st.eol } });
  return { text: applyEdits(text, edits), record: { kind: "member", path: d.path, createdFrom: d.path.length }, status: "updated" };
}

// ---------------------------------------------------------------------------------------------
// TOML splicing

function tomlHeader(table: string[]): RegExp {
  const key = (k: string) => `(?:${k.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}|"${k}"|'${k}')`;
  return new RegExp(`^[ \\t]*\\[[ \\t]*${table.map(key).join("[ \\t]*\\.[ \\t]*")}[ \\t]*\\][ \\t]*(?:#.*)?$`, "m");
}

/** The span of `[table]` and its sub-tables, or undefined when the table is not written as a header. */
function tomlSpan(text: string, table: string[]): { start: number; end: number } | undefined {
  const m = tomlHeader(table).exec(text);
  if (!m) return undefined;
  const start = m.index;
  const after = start + m[0].length;
  const prefix = new RegExp(`^[ \\t]*\\[[ \\t]*${table.map((k) => `(?:${k}|"${k}"|'${k}')`).join("[ \\t]*\\.[ \\t]*")}[ \\t]*\\.`);
  const re = /^[ \t]*\[/gm;
  re.lastIndex = after;
  for (let h = re.exec(text); h; h = re.exec(text)) {
    const line = text.slice(h.index, text.indexOf("\n", h.index) < 0 ? text.length : text.indexOf("\n", h.index));
    if (!prefix.test(line)) return { start, end: h.index };
  }
  return { start, end: text.length };
}

function tomlGet(doc: Record<string, unknown>, path: string[]): unknown {
  let v: unknown = doc;
  for (const k of path) v = v && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}

/** The document without `path` (and without the parents that held only it). */
function withoutTable(doc: Record<string, unknown>, path: string[]): unknown {
  const copy = JSON.parse(JSON.stringify(doc)) as Record<string, unknown>;
  for (let depth = path.length; depth > 0; depth--) {
    const parent = tomlGet(copy, path.slice(0, depth - 1));
    if (!parent || typeof parent !== "object") break;
    const key = path[depth - 1]!;
    const child = (parent as Record<string, unknown>)[key];
    if (depth === path.length || (child && typeof child === "object" && Object.keys(child).length === 0)) delete (parent as Record<string, unknown>)[key];
    else break;
  }
  return copy;
}

function parseTomlText(text: string, what: string): Record<string, unknown> {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (e) {
    throw new DrsgError("BAD_INPUT", `${what} does not parse as TOML (${(e as Error).message.split("\n")[0]}) — fix it, then run drsg init again`);
  }
}

function applyTomlEdit(text: string, t: { path: string[]; value: Record<string, unknown> }, what: string): { text: string; record: EditRecord; status: "added" | "updated" } | "unchanged" {
  const doc = parseTomlText(text, what);
  const have = tomlGet(doc, t.path);
  if (deepEqual(have, t.value)) return "unchanged";
  const nested: Record<string, unknown> = {};
  let cur = nested;
  for (let i = 0; i < t.path.length - 1; i++) cur = cur[t.path[i]!] = {} as Record<string, unknown>;
  cur[t.path[t.path.length - 1]!] = t.value;
  const block = stringifyToml(nested).replace(/^\n+/, "");
  let out: string;
  let record: EditRecord;
  if (have === undefined) {
    const sepText = text === "" ? "" : text.endsWith("\n\n") ? "" : text.endsWith("\n") ? "\n" : "\n\n";
    const ins = { offset: text.length, text: `${sepText}${block}` };
    out = text + ins.text;
    record = { kind: "toml", table: t.path, inserted: [ins] };
  } else {
    const span = tomlSpan(text, t.path);
    if (!span) throw new DrsgError("BAD_INPUT", `${what}: ${t.path.join(".")} is not written as a [${t.path.join(".")}] table — init leaves it alone; change it yourself`);
    const tailBlank = /\n\s*\n$/.test(text.slice(span.start, span.end)) ? "\n" : "";
    out = text.slice(0, span.start) + block + tailBlank + text.slice(span.end);
    record = { kind: "toml", table: t.path };
  }
  const check = parseTomlText(out, what);
  if (!deepEqual(tomlGet(check, t.path), t.value) || !deepEqual(withoutTable(check, t.path), withoutTable(doc, t.path)))
    throw new DrsgError("BAD_INPUT", `${what}: the ${t.path.join(".")} table could not be replaced cleanly — init leaves the file alone; change it yourself`);
  return { text: out, record, status: have === undefined ? "added" : "updated" };
}

// ---------------------------------------------------------------------------------------------
// Applying and undoing

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

function modeOf(file: string): number | undefined {
  try {
    return statSync(file).mode & 0o777;
  } catch {
    return undefined;
  }
}

async function isTracked(repo: GitRepo | undefined, file: string): Promise<boolean> {
  if (!repo) return false;
  const rel = relative(repo.root, file).split(sep).join("/");
  if (rel.startsWith("..")) return false;
  return (await repo.trackedFiles().catch(() => [] as readonly string[])).includes(rel);
}

function applyPlan(plan: Plan, path: string, shown: string): ConfigOutcome {
  const before = readText(path);
  const existed = before !== undefined;
  let text = before ?? "";
  const edits: EditRecord[] = [];
  let updated = false;
  if (plan.format === "toml" && plan.table) {
    const r = applyTomlEdit(text, plan.table, shown);
    if (r !== "unchanged") {
      text = r.text;
      edits.push(r.record);
      updated ||= r.status === "updated";
    }
  }
  for (const d of plan.edits) {
    const r = applyJsonEdit(text, d, shown);
    if (r === "unchanged") continue;
    text = r.text;
    edits.push(r.record);
    updated ||= r.status === "updated";
  }
  if (edits.length === 0) return { host: plan.host, display: shown, status: "unchanged" };
  const createdDirs: string[] = [];
  if (!existed) {
    const dir = dirname(path);
    if (!isDir(dir)) {
      if (!plan.mayCreateDir) return { host: plan.host, display: shown, status: "skipped", note: `${dirname(shown)} does not exist` };
      mkdirSync(dir, { mode: 0o755 });
      createdDirs.push(dir);
    }
  }
  // A literal token is readable by this user alone; otherwise the file keeps the mode it had.
  const secret = JSON.stringify([plan.edits, plan.table ?? null]).includes("Bearer ");
  const mode = secret ? 0o600 : (modeOf(path) ?? 0o644);
  writeFileAtomic(path, text, mode);
  return {
    host: plan.host,
    display: shown,
    status: existed ? (updated ? "updated" : "added") : "created",
    record: { file: path, host: plan.host, createdFile: !existed, createdDirs, edits },
  };
}

export interface ApplyOptions extends PlanOptions {
  repo?: GitRepo;
}

/** Add the drsg entry to every host config that applies; one outcome per file. */
export async function writeConfigs(o: ApplyOptions): Promise<ConfigOutcome[]> {
  const home = o.home ?? homedir();
  const out: ConfigOutcome[] = [];
  for (const plan of plans(o)) {
    const shown = display(plan, home);
    if (plan.scope === "project" && (await isTracked(o.repo, plan.file))) {
      const local = plan.localVariant?.();
      if (local) {
        const r = await applyOne(local, home);
        out.push({ ...r, note: `${shown} is tracked by git, so the entry went to Claude Code's local scope instead${r.note ? ` (${r.note})` : ""}` });
      } else out.push({ host: plan.host, display: shown, status: "skipped", note: `tracked by git, not modified — ${plan.trackedHint}` });
      continue;
    }
    out.push(await applyOne(plan, home));
  }
  return out;
}

async function applyOne(plan: Plan, home: string): Promise<ConfigOutcome> {
  const shown = display(plan, home);
  const where = checkPath(plan);
  if ("why" in where) return { host: plan.host, display: shown, status: "skipped", note: where.why };
  try {
    return applyPlan(plan, where.path, shown);
  } catch (e) {
    if (e instanceof DrsgError) return { host: plan.host, display: shown, status: "skipped", note: e.message };
    throw e;
  }
}

/** Merge this run's records into the ones kept from earlier runs (one per file, edits once each). */
export function mergeRecords(old: FileRecord[], now: FileRecord[]): FileRecord[] {
  const byFile = new Map(old.map((r) => [r.file, { ...r, edits: [...r.edits] }]));
  const same = (a: EditRecord, b: EditRecord) => a.kind === b.kind && deepEqual(a.kind === "toml" ? a.table : a.path, b.kind === "toml" ? b.table : b.path) && (a.kind !== "element" || (b.kind === "element" && a.value === b.value));
  for (const r of now) {
    const have = byFile.get(r.file);
    if (!have) {
      byFile.set(r.file, r);
      continue;
    }
    for (const e of r.edits) if (!have.edits.some((x) => same(x, e))) have.edits.push(e);
  }
  return [...byFile.values()];
}

function spliceOut(text: string, ins: Inserted[] | undefined): string | undefined {
  if (!ins || ins.length === 0) return undefined;
  let out = text;
  for (const i of [...ins].sort((a, b) => b.offset - a.offset)) {
    if (out.slice(i.offset, i.offset + i.text.length) !== i.text) return undefined;
    out = out.slice(0, i.offset) + out.slice(i.offset + i.text.length);
  }
  return out;
}

function removeJsonPath(text: string, path: JSONPath): string {
  return applyEdits(text, modify(text, path, undefined, {}));
}

/** Undo one edit: the exact splice when the text around it is as init left it, else by meaning. */
function undoEdit(text: string, e: EditRecord, what: string): string {
  const exact = spliceOut(text, e.inserted);
  if (exact !== undefined) return exact;
  if (e.kind === "toml") {
    const span = tomlSpan(text, e.table);
    return span ? text.slice(0, span.start) + text.slice(span.end) : text;
  }
  const tree = parseJson(text, what);
  if (!tree) return text;
  let out = text;
  if (e.kind === "member") {
    if (!findNodeAtLocation(tree, e.path)) return text;
    out = removeJsonPath(out, e.path);
  } else {
    const arr = findNodeAtLocation(tree, e.path);
    const at = arr?.type === "array" ? (getNodeValue(arr) as unknown[]).indexOf(e.value) : -1;
    if (at < 0) return text;
    out = removeJsonPath(out, [...e.path, at]);
  }
  // Containers init created for the entry go too, once nothing else is in them.
  const last = e.kind === "member" ? e.path.length - 1 : e.path.length;
  for (let depth = last; depth > e.createdFrom; depth--) {
    const p = e.path.slice(0, depth);
    const n = findNodeAtLocation(parseJson(out, what)!, p);
    if (n && (n.type === "object" || n.type === "array") && (n.children ?? []).length === 0) out = removeJsonPath(out, p);
    else break;
  }
  return out;
}

/** Whether what is left of a file init created holds nothing (no members, or only empty ones). */
function holdsNothing(text: string, format: "json" | "toml"): boolean {
  if (text.trim() === "") return true;
  try {
    const v = format === "toml" ? parseToml(text) : (getNodeValue(parseTree(text)!) as unknown);
    const empty = (x: unknown): boolean => x !== null && typeof x === "object" && Object.values(x as object).every(empty);
    return empty(v) && !/\/\/|\/\*|#/.test(text);
  } catch {
    return false;
  }
}

/** Undo what init recorded for one file; a line for the report. */
export function undoFile(rec: FileRecord, base: string): string {
  const shown = rec.file.startsWith(base + sep) ? relative(base, rec.file) : rec.file.replace(homedir(), "~");
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(rec.file);
  } catch {
    return `  = ${shown}: already gone`;
  }
  const inRepo = rec.file.startsWith(base + sep);
  if (inRepo) {
    const where = checkPath({ file: rec.file, base, scope: "project" } as Plan);
    if ("why" in where) return `  ! ${shown}: ${where.why} — left as it is`;
  } else if (!st.isFile() && !st.isSymbolicLink()) return `  ! ${shown}: not a regular file — left as it is`;
  const path = inRepo ? rec.file : realpathSync(rec.file);
  const format = rec.file.endsWith(".toml") ? "toml" : "json";
  const before = readFileSync(path, "utf8");
  let text = before;
  try {
    for (const e of [...rec.edits].reverse()) text = undoEdit(text, e, shown);
  } catch (e) {
    return `  ! ${shown}: ${(e as Error).message} — left as it is`;
  }
  if (rec.createdFile && holdsNothing(text, format)) {
    unlinkSync(path);
    for (const d of [...rec.createdDirs].reverse()) {
      try {
        rmdirSync(d);
      } catch {
        // not empty: something else lives there now
      }
    }
    return `  - ${shown} (deleted: init created it and it holds nothing else)`;
  }
  if (text === before) return `  = ${shown}: no drsg entry left to remove`;
  writeFileAtomic(path, text, modeOf(path) ?? 0o644);
  return `  - ${shown} (drsg entry removed)`;
}

/** The project files among `outcomes` that init created (to keep out of `git status`). */
export function createdProjectFiles(outcomes: ConfigOutcome[], root: string): string[] {
  return outcomes.filter((o) => o.status === "created" && o.record && o.record.file.startsWith(root + sep)).map((o) => relative(root, o.record!.file).split(sep).join("/"));
}
