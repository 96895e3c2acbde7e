// The agent configs drsg init writes, against the real `drsg init`: each host's file checked
// against the shape that host documents; JSONC with comments and TOML edited in place (the text
// before is the text after with only drsg's insertions taken out); a tracked file not modified;
// a re-run "unchanged"; `--http` entries with the literal token in 0600 files only; `--global`
// user-level files; `--remove` restoring every byte.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { parse as parseJsonc } from "jsonc-parser";
import { parse as tomlParse } from "smol-toml";
import { PACKAGE_ROOT } from "../../src/paths.js";
import { makeRepo } from "../git/fixture.js";
import { drsg, killServers, mode, record, remember, sandboxEnv } from "./init-helpers.js";

after(killServers);

/** TOML as plain objects (smol-toml's tables have no prototype). */
const parseToml = (t: string): unknown => JSON.parse(JSON.stringify(tomlParse(t)));
const COMMAND = join(PACKAGE_ROOT, "bin", "drsg-mcp.js");
const SRC = { "src/a.ts": "export function a() { return 1; }\n" };

/** What `after` added to `before`: at most two insertions (a comma, then the entry), nothing else changed. */
function insertions(before: string, after: string): string[] {
  let p = 0;
  while (p < before.length && before[p] === after[p]) p++;
  let s = 0;
  while (s < before.length - p && before[before.length - 1 - s] === after[after.length - 1 - s]) s++;
  if (p + s === before.length) return [after.slice(p, after.length - s)];
  const mid = before.slice(p, before.length - s);
  const i = after.indexOf(mid, p);
  assert.ok(i >= 0, `the untouched text changed:\n--- before\n${before}\n--- after\n${after}`);
  const out = [after.slice(p, i), after.slice(i + mid.length, after.length - s)];
  assert.equal(before, after.slice(0, p) + mid + after.slice(after.length - s), "only insertions");
  return out;
}

const CURSOR = `{
  // team servers — keep this comment
  "mcpServers": {
    "github": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"] } // inline note
  }
}
`;
const VSCODE = `{
  "inputs": [
    { "type": "promptString", "id": "key", "password": true }
  ],
  /* servers */
  "servers": {
    "memory": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-memory"],
    },
  },
}
`;
const GEMINI = `{
\t"theme": "Dracula",
\t"mcpServers": {}
}
`;
const OPENCODE = `// opencode config
{
  "$schema": "https://opencode.ai/config.json",
  "model": "anthropic/claude-sonnet-4" // default model
}
`;
const CODEX = `# Codex project config
model = "o3"

[mcp_servers.other]
command = "other-mcp" # keep me
args = ["--x"]

[profiles.fast]
model = "o4-mini"
`;
const ZED = `// tracked team settings
{
  "tab_size": 2
}
`;

test("project configs: host shapes, edits in place, tracked left alone, unchanged on re-run, --remove byte for byte", { timeout: 240_000 }, () => {
  const env = sandboxEnv();
  const repo = join(env.base, "hosts");
  makeRepo(repo, [{ files: { ...SRC, ".zed/settings.json": ZED }, message: "hosts" }]);
  const root = realpathSync(repo);
  const originals: Record<string, string> = {
    ".cursor/mcp.json": CURSOR,
    ".vscode/mcp.json": VSCODE,
    ".gemini/settings.json": GEMINI,
    "opencode.jsonc": OPENCODE,
    ".codex/config.toml": CODEX,
  };
  for (const [f, t] of Object.entries(originals)) {
    mkdirSync(join(repo, f, ".."), { recursive: true });
    writeFileSync(join(repo, f), t);
  }
  const r = drsg(repo, ["init"], env);
  assert.equal(r.status, 0, r.stderr + r.stdout);
  remember(record(repo).pid);
  const read = (f: string) => readFileSync(join(repo, f), "utf8");
  const args = ["--repo", root];

  // Claude Code (code.claude.com/docs/en/mcp): mcpServers.<name> {type: "stdio", command, args}.
  assert.deepEqual(JSON.parse(read(".mcp.json")).mcpServers.drsg, { type: "stdio", command: COMMAND, args, alwaysLoad: true });
  // Cursor (cursor.com/docs/mcp): mcpServers.<name> {command, args}; comments and the other server kept.
  const cursorIns = insertions(CURSOR, read(".cursor/mcp.json"));
  assert.equal(cursorIns[0], ",");
  const cursor = parseJsonc(read(".cursor/mcp.json"));
  assert.deepEqual(cursor.mcpServers.drsg, { command: COMMAND, args });
  assert.ok(cursor.mcpServers.github);
  // VS Code (code.visualstudio.com/docs/copilot/reference/mcp-configuration): servers.<name> {type: "stdio", ...}.
  assert.equal(insertions(VSCODE, read(".vscode/mcp.json")).length, 1);
  const vscode = parseJsonc(read(".vscode/mcp.json"), [], { allowTrailingComma: true });
  assert.deepEqual(vscode.servers.drsg, { type: "stdio", command: COMMAND, args });
  assert.equal(vscode.inputs.length, 1);
  // Gemini CLI (geminicli.com/docs/tools/mcp-server): mcpServers.<name> {command, args}; tabs kept.
  insertions(GEMINI, read(".gemini/settings.json"));
  assert.match(read(".gemini/settings.json"), /\n\t\t"drsg": \{\n\t\t\t"command"/);
  assert.deepEqual(JSON.parse(read(".gemini/settings.json")).mcpServers.drsg, { command: COMMAND, args });
  // OpenCode (opencode.ai/docs/mcp-servers): mcp.<name> {type: "local", command: [...], enabled}.
  insertions(OPENCODE, read("opencode.jsonc"));
  assert.deepEqual(parseJsonc(read("opencode.jsonc")).mcp.drsg, { type: "local", command: [COMMAND, ...args], enabled: true });
  // Codex CLI (developers.openai.com/codex/mcp): [mcp_servers.<name>] command, args; the rest byte for byte.
  const codexText = read(".codex/config.toml");
  assert.ok(codexText.startsWith(CODEX), "the TOML before the drsg table is untouched");
  const codex = parseToml(codexText) as { mcp_servers: Record<string, unknown>; profiles: unknown };
  assert.deepEqual(codex.mcp_servers.drsg, { command: COMMAND, args });
  assert.ok(codex.mcp_servers.other && codex.profiles);
  // Zed's settings are tracked: not modified, and init says what to add.
  assert.equal(read(".zed/settings.json"), ZED);
  assert.match(r.stdout, /! \.zed\/settings\.json — Zed: not modified \(tracked by git, not modified — add under "context_servers": "drsg"/);
  // No literal token anywhere in a stdio config; the user's files keep their modes.
  for (const f of [...Object.keys(originals), ".mcp.json"]) assert.doesNotMatch(read(f), /Bearer/, f);

  const again = drsg(repo, ["init"], env);
  assert.equal(again.status, 0, again.stderr);
  for (const f of [".mcp.json", ".cursor/mcp.json", ".vscode/mcp.json", ".gemini/settings.json", "opencode.jsonc", ".codex/config.toml"])
    assert.match(again.stdout, new RegExp(`= ${f.replace(/\./g, "\\.")} — .*: unchanged`), f);

  const rm = drsg(repo, ["init", "--remove"], env);
  assert.equal(rm.status, 0, rm.stderr);
  for (const [f, t] of Object.entries(originals)) assert.equal(read(f), t, `${f} restored byte for byte`);
  assert.equal(read(".zed/settings.json"), ZED);
  assert.equal(existsSync(join(repo, ".mcp.json")), false);
});

test("--http writes the literal token only into untracked 0600 files; --global edits user-level files and --remove restores them", { timeout: 240_000 }, () => {
  const env = sandboxEnv();
  const repo = join(env.base, "http");
  makeRepo(repo, [{ files: SRC, message: "http" }]);
  mkdirSync(join(repo, ".cursor"));
  const homeFiles: Record<string, string> = {
    ".codeium/windsurf/mcp_config.json": '{\n  "mcpServers": {}\n}\n',
    ".cursor/mcp.json": '{\n  // mine\n  "mcpServers": { "x": { "command": "x" } }\n}\n',
    ".codex/config.toml": 'model = "o3"\n',
    ".config/zed/settings.json": "{\n  // zed\n  \"theme\": \"One Dark\"\n}\n",
  };
  for (const [f, t] of Object.entries(homeFiles)) {
    mkdirSync(join(env.home, f, ".."), { recursive: true });
    writeFileSync(join(env.home, f), t, { mode: 0o644 });
  }
  const r = drsg(repo, ["init", "--http", "--global"], env);
  assert.equal(r.status, 0, r.stderr + r.stdout);
  const rec = record(repo);
  remember(rec.pid);
  const url = `http://${rec.addr}/mcp`;
  const auth = { Authorization: `Bearer ${rec.token}` };
  assert.deepEqual(JSON.parse(readFileSync(join(repo, ".mcp.json"), "utf8")).mcpServers.drsg, { type: "http", url, headers: auth, alwaysLoad: true });
  assert.deepEqual(parseJsonc(readFileSync(join(repo, ".cursor/mcp.json"), "utf8")).mcpServers.drsg, { url, headers: auth });
  for (const f of [".mcp.json", ".cursor/mcp.json"]) assert.equal(mode(statSync(join(repo, f)).mode), "600", f);
  // User-level: Windsurf serverUrl + headers (docs.windsurf.com/windsurf/cascade/mcp), Zed url + headers,
  // Codex url + http_headers; each 0600 now that it holds a token.
  const h = (f: string) => readFileSync(join(env.home, f), "utf8");
  assert.deepEqual(JSON.parse(h(".codeium/windsurf/mcp_config.json")).mcpServers.drsg, { serverUrl: url, headers: auth });
  assert.deepEqual(parseJsonc(h(".config/zed/settings.json")).context_servers.drsg, { url, headers: auth });
  assert.deepEqual((parseToml(h(".codex/config.toml")) as { mcp_servers: Record<string, unknown> }).mcp_servers.drsg, { url, http_headers: auth });
  assert.ok(parseJsonc(h(".cursor/mcp.json")).mcpServers.x);
  for (const f of Object.keys(homeFiles)) assert.equal(mode(statSync(join(env.home, f)).mode), "600", f);
  assert.ok(h(".codex/config.toml").startsWith(homeFiles[".codex/config.toml"]!));

  const rm = drsg(repo, ["init", "--remove"], env);
  assert.equal(rm.status, 0, rm.stderr);
  for (const [f, t] of Object.entries(homeFiles)) assert.equal(h(f), t, `~/${f} restored byte for byte`);
  assert.equal(existsSync(join(repo, ".cursor", "mcp.json")), false);
});
