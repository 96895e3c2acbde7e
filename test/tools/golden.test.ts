// Golden answers for every verb: each test/golden/<tool>/<case>.json — {"fixture": "<name>",
// "args": {...}} (`plane` defaults to the fixture's name) — is asked of a spawned drsg-mcp
// through the MCP SDK's real Client, and the text must equal <case>.txt exactly. An error
// answer is written as `[isError]` then its text. Temp paths, plugin build hashes and the
// plugin-drift line are normalised. The walking verbs are asked again in process as the CLI asks
// them — walking the store (a lazy GraphViews), never building the plane's whole view — and
// must give the same text. UPDATE_GOLDEN=1 rewrites the files; a failure prints a diff naming the command.
import assert from "node:assert/strict";
import { copyFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { GraphViews } from "../../src/graph/view.js";
import { PACKAGE_ROOT } from "../../src/paths.js";
import { PluginSet, officialPlugins } from "../../src/plugin/host.js";
import { openStore } from "../../src/store/store.js";
import type { Store } from "../../src/store/types.js";
import { TOOLS } from "../../src/tools/index.js";
import { runTool } from "../../src/tools/run.js";
import type { ToolContext } from "../../src/tools/tool.js";
import { type FixtureDb, type Served, buildFixtureDb, serve } from "./graph-fixture.js";

const GOLDEN_DIR = join(PACKAGE_ROOT, "test", "golden");
const UPDATE = process.env.UPDATE_GOLDEN === "1";

interface Case {
  tool: string;
  name: string;
  fixture: string;
  args: Record<string, unknown>;
  json: string;
  txt: string;
}

function loadCases(): Case[] {
  if (!existsSync(GOLDEN_DIR)) return [];
  const cases: Case[] = [];
  for (const tool of readdirSync(GOLDEN_DIR).sort()) {
    const dir = join(GOLDEN_DIR, tool);
    let names: string[];
    try {
      names = readdirSync(dir).filter((f) => f.endsWith(".json"));
    } catch {
      continue;
    }
    for (const f of names.sort()) {
      const json = join(dir, f);
      const spec = JSON.parse(readFileSync(json, "utf8")) as { fixture: string; args?: Record<string, unknown> };
      const args = { plane: spec.fixture, ...(spec.args ?? {}) };
      cases.push({ tool, name: f.slice(0, -5), fixture: spec.fixture, args, json, txt: json.replace(/\.json$/, ".txt") });
    }
  }
  return cases;
}

/** The CLI spelling of a case, for failure messages. */
export function commandOf(c: Case): string {
  const tool = TOOLS.find((t) => t.name === c.tool);
  const pos = tool?.cli?.positionals ?? [];
  const q = (v: unknown) => {
    const s = typeof v === "string" ? v : JSON.stringify(v);
    return /^[\w./:@-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`;
  };
  const parts = tool?.cli ? ["drsg", c.tool] : [`(MCP tool ${c.tool})`];
  for (const f of pos) if (c.args[f] !== undefined) parts.push(q(c.args[f]));
  for (const [k, v] of Object.entries(c.args)) if (!pos.includes(k)) parts.push(`--${k.replace(/_/g, "-")}`, q(v));
  return parts.join(" ");
}

/**
 * Replace what differs from machine to machine: temp paths, plugin build hashes, and the
 * plugin-drift line (plugin files edited between the digest and the server's start make one;
 * the drift line is tested where it is made, not here).
 */
export function normalise(text: string, fx: FixtureDb): string {
  return text
    .split(fx.tmp)
    .join("<tmp>")
    .split("\n")
    .filter((l) => !/^(plugins changed since this plane was built|plugins could not be loaded)|^\s*"plugin_drift": /.test(l))
    .join("\n")
    .replace(/\b([a-z][\w-]*)@\d+\.\d+\.\d+\+[0-9a-f]{6,}\b/g, "$1@<build>");
}

/** A line diff (LCS), `-` expected, `+` actual, with two lines of context. */
export function lineDiff(expected: string, actual: string): string {
  const a = expected.split("\n");
  const b = actual.split("\n");
  const n = a.length;
  const m = b.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const rows: { op: " " | "-" | "+"; text: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      rows.push({ op: " ", text: a[i++]! });
      j++;
    } else if (i < n && (j >= m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) rows.push({ op: "-", text: a[i++]! });
    else rows.push({ op: "+", text: b[j++]! });
  }
  const keep = rows.map((r, k) => r.op !== " " || rows.slice(Math.max(0, k - 2), k + 3).some((x) => x.op !== " "));
  const out: string[] = [];
  rows.forEach((r, k) => {
    if (keep[k]) out.push(`${r.op} ${r.text}`);
    else if (keep[k - 1]) out.push("  …");
  });
  return out.join("\n");
}

const cases = loadCases();
/** Verbs whose answer is a walk of the plane's graph: a lazy view must answer them alike. */
const WALKS = new Set(["impact", "trace", "fathom", "traverse"]);
const fixtures = [...new Set(cases.map((c) => c.fixture))].sort();

test("golden cases exist for every graph verb", () => {
  for (const tool of ["impact", "trace", "fathom", "search", "traverse", "get_node"])
    assert.ok(
      cases.some((c) => c.tool === tool),
      `no golden case under test/golden/${tool}/`,
    );
});

for (const name of fixtures) {
  describe(`golden answers on fixture ${name}`, () => {
    let fx: FixtureDb;
    let served: Served;
    let store: Store;
    let lazy: ToolContext;
    before(async () => {
      fx = await buildFixtureDb(name);
      // A copy for the in-process asks: the server holds its database's lock.
      const copy = join(fx.tmp, "cli.drsg");
      copyFileSync(fx.db, copy);
      served = await serve(fx);
      store = openStore(copy, { readonly: true });
      const plugins = new PluginSet(officialPlugins());
      lazy = { store, transport: "stdio", plugins: () => plugins, views: new GraphViews(store, { lazy: true }) };
    });
    after(async () => {
      await served?.close();
      store?.close();
      fx?.cleanup();
    });
    for (const c of cases.filter((x) => x.fixture === name)) {
      test(`${c.tool}/${c.name}`, async () => {
        const r = await served.call(c.tool, c.args);
        const actual = `${r.isError ? "[isError]\n" : ""}${normalise(r.text, fx)}\n`;
        if (UPDATE || !existsSync(c.txt)) {
          if (!UPDATE) assert.fail(`${c.txt} is missing — run UPDATE_GOLDEN=1 node scripts/run-tests.mjs golden, then read it`);
          writeFileSync(c.txt, actual);
          return;
        }
        const expected = readFileSync(c.txt, "utf8");
        if (expected !== actual)
          assert.fail(
            `golden ${c.txt.slice(PACKAGE_ROOT.length + 1)} differs for: ${commandOf(c)}  (fixture ${c.fixture})\n` +
              `rewrite with UPDATE_GOLDEN=1 node scripts/run-tests.mjs golden after checking the diff:\n${lineDiff(expected, actual)}`,
          );
      });
      const tool = TOOLS.find((t) => t.name === c.tool);
      if (!WALKS.has(c.tool) || !tool || UPDATE) continue;
      test(`${c.tool}/${c.name}, walking the store`, async () => {
        const parsed = tool.input.safeParse(c.args);
        if (!parsed.success) return; // a schema refusal is the transport's answer, asked above
        const r = await runTool(tool, lazy, parsed.data);
        const actual = `${r.isError ? "[isError]\n" : ""}${normalise(r.text, fx)}\n`;
        const expected = readFileSync(c.txt, "utf8");
        if (expected !== actual) assert.fail(`walking the store, ${commandOf(c)} differs from ${c.txt.slice(PACKAGE_ROOT.length + 1)}:\n${lineDiff(expected, actual)}`);
      });
    }
  });
}
