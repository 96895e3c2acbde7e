// A plugin's recovery rewrites (src/extract/recover.ts): same length, same line breaks, kept only
// when the second parse has fewer error nodes; a rule that cannot work is PLUGIN_INVALID.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import type { Node, Tree } from "web-tree-sitter";
import { extractTree, recoverParse } from "../../src/extract/extract.js";
import { loadGrammar } from "../../src/extract/parser.js";
import { type RecoverRule, compileRules, rewrite } from "../../src/extract/recover.js";
import { PACKAGE_ROOT, PLUGINS_DIR } from "../../src/paths.js";
import { readPluginFolder } from "../../src/plugin/manifest.js";
import { activePlugins } from "../../src/plugin/registry.js";

async function grammar(file: string) {
  const set = activePlugins();
  const route = set.route(file);
  assert.ok(route, file);
  const job = set.jobs().find((j) => j.id === route.job)!;
  return { g: await loadGrammar(job), rules: compileRules(job.recover ?? [], job.id), job };
}

function errors(t: Tree): number {
  let n = 0;
  const visit = (x: Node) => {
    if (x.isError || x.isMissing) n++;
    else if (x.hasError) for (const c of x.children) if (c) visit(c);
  };
  visit(t.rootNode);
  return n;
}

const SIGNATURES = `export interface Make {
  <I>(h: I): [I]

  // two
  <
    I,
    I2,
  >(h: I, h2: I2): [I, I2]

  // three
  <
    I,
    I2,
    I3,
  >(h: I, h2: I2, h3: I3): [I, I2, I3]
}

export class Registry {
  add(name: string): Registry {
    return this
  }
}
`;

test("rewrite fills one group with one character: the text keeps its length and its line breaks", () => {
  const rules = compileRules([{ why: "t", pattern: "(?:^|,)[ \\t]*(out|in)[ \\t]+\\w", group: 1, fill: " " }], "test");
  const src = "out A, in B,\nout\u{1F600}C, inx";
  const { text, rewrites } = rewrite(src, rules);
  assert.equal(rewrites, 2);
  assert.equal(text, "    A,    B,\nout\u{1F600}C, inx");
  assert.equal(text.length, src.length);
  const multi = compileRules([{ why: "t", pattern: "a(b\\s+c)d", group: 1, fill: "#" }], "test");
  const r = rewrite("ab\n c d", multi);
  assert.equal(r.text, "ab\n c d", "no match across the unmatched d");
  assert.equal(rewrite("ab\n cd", multi).text, "a#\n##d", "a line break in the group stays");
});

test("the ts plugin's rules: the rest of a file after generic call signatures, variance annotations and export type * parse; positions are the file's", async () => {
  const { g, rules } = await grammar("x.ts");
  for (const src of [
    SIGNATURES,
    "export interface Box<\n  /** c */\n  out T,\n  in U = unknown,\n> {\n  get(): T\n}\nexport class Crate {}\n",
    "export type * from './a'\nexport class After {}\n",
  ]) {
    const raw = g.parser.parse(src)!;
    assert.ok(errors(raw) > 0, `the grammar still fails on:\n${src}`);
    const better = recoverParse(g.parser, raw, src, rules);
    assert.ok(better, src);
    assert.equal(errors(better.tree), 0, src);
    assert.ok(better.rewrites > 0);
    // Extraction slices text from the file: every name is the file's at the node's position.
    const p = extractTree(better.tree, g.query, src, "x.ts", "typescript", {});
    assert.ok(p.defs.length > 0);
    const lines = src.split("\n");
    for (const d of p.defs) {
      assert.ok(lines[d.line - 1]!.includes(d.name), `${d.name} on line ${d.line}`);
      if (d.signature) assert.ok(src.slice(d.start).startsWith(d.signature.slice(0, 10)), `${d.name}'s signature is the file's text`);
    }
    raw.delete();
    better.tree.delete();
  }
  const raw = g.parser.parse(SIGNATURES)!;
  const lost = extractTree(raw, g.query, SIGNATURES, "x.ts", "typescript", {});
  const better = recoverParse(g.parser, raw, SIGNATURES, rules)!;
  const kept = extractTree(better.tree, g.query, SIGNATURES, "x.ts", "typescript", {});
  assert.ok(!lost.defs.some((d) => d.name === "Registry"), "without recovery the class is lost (else this test proves nothing)");
  const reg = kept.defs.find((d) => d.name === "Registry");
  assert.ok(reg, "the class after the interface");
  assert.equal(reg.line, SIGNATURES.slice(0, SIGNATURES.indexOf("export class")).split("\n").length);
  raw.delete();
  better.tree.delete();
});

test("a rewrite that makes more errors is not kept (JSX lines open with <)", async () => {
  const { g, rules } = await grammar("x.tsx");
  const src = "export function View() {\n  return (\n    <div>\n      <p>hi</p>\n    </div>\n  )\n}\nconst broken = (\n";
  const raw = g.parser.parse(src)!;
  const before = errors(raw);
  assert.ok(before > 0);
  const better = recoverParse(g.parser, raw, src, rules);
  if (better) {
    assert.ok(errors(better.tree) < before);
    better.tree.delete();
  }
  // The line rule alone would put a `;` in front of every JSX line: more errors, so never kept alone.
  const lineRule = rules.slice(0, 1);
  const alone = g.parser.parse(rewrite(src, lineRule).text)!;
  assert.ok(errors(alone) >= before);
  alone.delete();
  assert.equal(recoverParse(g.parser, raw, src, lineRule), undefined);
  raw.delete();
});

test("a recover rule that cannot work is PLUGIN_INVALID, naming it", () => {
  const bad: [RecoverRule, RegExp][] = [
    [{ why: "w", pattern: "(unclosed", group: 1, fill: " " }, /recover\[0\] pattern does not compile/],
    [{ why: "w", pattern: "(a)", group: 2, fill: " " }, /group 2 is not one of the pattern's 1 group/],
    [{ why: "w", pattern: "(a)", group: 1, fill: "\n" }, /one character, not a line break/],
    [{ why: "w", pattern: "(?=a)(a)", group: 1, fill: " " }, /does not compile/],
  ];
  for (const [rule, why] of bad) assert.throws(() => compileRules([rule], "p"), (e: Error & { code?: string }) => e.code === "PLUGIN_INVALID" && why.test(e.message));
  // Through the manifest: a grammar it does not declare, and a bad pattern.
  const dir = mkdtempSync(join(tmpdir(), "drsg-recover-"));
  cpSync(join(PLUGINS_DIR, "ts"), dir, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(dir, "plugin.json"), "utf8"));
  assert.ok(manifest.recover.typescript.length > 0);
  manifest.recover.ruby = manifest.recover.typescript;
  writeFileSync(join(dir, "plugin.json"), JSON.stringify(manifest));
  assert.throws(() => readPluginFolder(dir), /recover names grammar ruby, which it does not declare/);
  delete manifest.recover.ruby;
  manifest.recover.typescript = [{ why: "w", pattern: "a**(", group: 1, fill: " " }];
  writeFileSync(join(dir, "plugin.json"), JSON.stringify(manifest));
  assert.throws(() => readPluginFolder(dir), /recover\.typescript: recover\[0\] pattern does not compile/);
});

test("drsg digest lists the files read after the recovery rewrites; drsg parse --recovered shows that tree", () => {
  const dir = mkdtempSync(join(tmpdir(), "drsg-recover-cli-"));
  writeFileSync(join(dir, "handlers.ts"), SIGNATURES);
  writeFileSync(join(dir, "clean.ts"), "export const a = 1;\n");
  const drsg = (args: string[]) => spawnSync(process.execPath, [join(PACKAGE_ROOT, "bin", "drsg.js"), ...args], { cwd: dir, encoding: "utf8", env: { ...process.env, DRSG_HOME: join(dir, ".home") } });
  const d = drsg(["digest", "."]);
  assert.equal(d.status, 0, d.stderr);
  assert.match(d.stdout, /parsed after the plugin's recovery rewrites: 1 file\(s\) the grammar alone reads with errors/);
  assert.match(d.stdout, /^ {4}handlers\.ts$/m);
  assert.doesNotMatch(d.stdout, /syntax errors in/);
  const raw = drsg(["parse", "handlers.ts", "--depth", "1"]);
  assert.match(raw.stdout, /ERROR \[/);
  assert.match(raw.stdout, /--recovered shows it/);
  const rec = drsg(["parse", "handlers.ts", "--depth", "1", "--recovered"]);
  assert.equal(rec.status, 0, rec.stderr);
  assert.doesNotMatch(rec.stdout, /ERROR/);
  assert.match(rec.stdout, /after \d+ recovery rewrite\(s\) of ts/);
});
