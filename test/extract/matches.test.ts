// Extraction reads query matches straight out of web-tree-sitter's wasm memory (matches.ts);
// without the module at hand it builds the same matches from Query.matches. The two must give
// the same partial for every source file of every official plugin's annotated tests.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join } from "node:path";
import { test } from "node:test";
import { extractTree } from "../../src/extract/extract.js";
import { unbindWasmForTest, wasmBound } from "../../src/extract/matches.js";
import { loadGrammar } from "../../src/extract/parser.js";
import { PLUGINS_DIR } from "../../src/paths.js";
import { activePlugins } from "../../src/plugin/registry.js";

function files(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else out.push(p);
  }
  return out;
}

test("matches read from the wasm memory give the partials Query.matches gives", async () => {
  const plugins = activePlugins();
  const jobs = new Map(plugins.jobs().map((j) => [j.id, j]));
  let compared = 0;
  for (const lang of readdirSync(PLUGINS_DIR)) {
    let tests: string[];
    try {
      tests = files(join(PLUGINS_DIR, lang, "tests"));
    } catch {
      continue;
    }
    for (const f of tests) {
      const route = plugins.route(`x${extname(f)}`);
      if (!route) continue;
      const job = jobs.get(`${route.plugin.manifest.name}/${route.grammar}`)!;
      const g = await loadGrammar(job);
      assert.ok(wasmBound(), "the extraction reads matches from the wasm memory");
      const source = readFileSync(f, "utf8");
      const tree = g.parser.parse(source)!;
      try {
        const fast = extractTree(tree, g.query, source, f, job.grammar, job.doc ?? {});
        const rebind = unbindWasmForTest();
        let slow: ReturnType<typeof extractTree>;
        try {
          slow = extractTree(tree, g.query, source, f, job.grammar, job.doc ?? {});
        } finally {
          rebind();
        }
        assert.deepEqual(fast, slow, f);
        compared++;
      } finally {
        tree.delete();
      }
    }
  }
  assert.ok(compared > 50, `compared ${compared} files`);
});
