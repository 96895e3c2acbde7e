// Precision of the ts resolver family against the TypeScript compiler. For every fixture project
// fixtures/ts-*, drsg's pipeline builds facts; the compiler (Program + TypeChecker) is asked, for
// every CALLS / INSTANTIATES edge drsg bound to a definition in the tree, which declaration the
// call site resolves to. Any disagreement fails the test: a wrong edge is worse than a missing one.
// Recall (the share of the compiler's in-tree call edges that drsg found, grouped by enclosing
// definition) is printed and held to a modest floor.
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { test } from "node:test";
import ts from "typescript";
import type { Facts, NodeFact } from "../../src/model/facts.js";
import { keyName } from "../../src/model/facts.js";
import { PACKAGE_ROOT } from "../../src/paths.js";
import { factsOfDir, listTree } from "../support/facts.js";

const FIXTURES = join(PACKAGE_ROOT, "fixtures");
const CODE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const RECALL_FLOOR = 0.6;

interface Decl {
  file: string;
  /** 1-based line of the declaration's name (or of the declaration when it has none). */
  line: number;
  name: string;
}

interface Site {
  node: ts.CallExpression | ts.NewExpression;
  file: string;
  /** Line drsg records for the site: the callee's name. */
  line: number;
  /** Callee text as written, whitespace collapsed. */
  callee: string;
}

function squash(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/** The compiler program for a fixture: its tsconfig.json (or jsconfig.json), plus `oracle.json` overrides. */
function programOf(dir: string): ts.Program {
  const cfgFile = ["tsconfig.json", "jsconfig.json"].map((f) => join(dir, f)).find((f) => existsSync(f));
  let options: ts.CompilerOptions = { allowJs: true, noEmit: true, target: ts.ScriptTarget.ES2022, jsx: ts.JsxEmit.Preserve };
  if (cfgFile) {
    const raw = ts.readConfigFile(cfgFile, ts.sys.readFile);
    const parsed = ts.parseJsonConfigFileContent(raw.config, ts.sys, dir);
    options = { ...options, ...parsed.options };
  }
  const extra = join(dir, "oracle.json");
  if (existsSync(extra)) {
    const raw = JSON.parse(readFileSync(extra, "utf8")) as { compilerOptions?: object };
    const conv = ts.convertCompilerOptionsFromJson(raw.compilerOptions ?? {}, dir);
    options = { ...options, ...conv.options };
  }
  options.noEmit = true;
  options.allowJs = true;
  const files = listTree(dir)
    .filter((f) => CODE.test(f))
    .map((f) => join(dir, f));
  return ts.createProgram(files, options);
}

function lineOf(sf: ts.SourceFile, pos: number): number {
  return sf.getLineAndCharacterOfPosition(pos).line + 1;
}

/** Every call and `new` site of a source file, with the line and callee text drsg would record. */
function sitesOf(sf: ts.SourceFile, file: string): Site[] {
  const out: Site[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) || ts.isNewExpression(n)) {
      const e = n.expression;
      let nameNode: ts.Node = e;
      if (ts.isPropertyAccessExpression(e)) nameNode = e.name;
      out.push({ node: n, file, line: lineOf(sf, nameNode.getStart(sf)), callee: squash(e.getText(sf)) });
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

/** The declarations a call site resolves to, by the compiler. */
function declsOf(checker: ts.TypeChecker, site: Site, root: string): Decl[] {
  const n = site.node;
  const e = n.expression;
  const decls: ts.Declaration[] = [];
  if (e.kind === ts.SyntaxKind.SuperKeyword) {
    const sig = checker.getResolvedSignature(n as ts.CallExpression);
    if (sig?.declaration && !ts.isJSDocSignature(sig.declaration)) decls.push(sig.declaration);
  } else {
    const nameNode = ts.isPropertyAccessExpression(e) ? e.name : e;
    let sym = checker.getSymbolAtLocation(nameNode);
    if (sym && sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
    if (sym?.declarations) decls.push(...sym.declarations);
  }
  const out: Decl[] = [];
  for (const d of decls) {
    const sf = d.getSourceFile();
    const file = relative(root, sf.fileName).split(sep).join("/");
    if (file.startsWith("..") || file.includes("node_modules")) continue;
    const named = (d as { name?: ts.Node }).name;
    let name = named && (ts.isIdentifier(named) || ts.isPrivateIdentifier(named) || ts.isStringLiteral(named)) ? named.text : "";
    if (ts.isConstructorDeclaration(d)) name = "constructor";
    if (ts.isBinaryExpression(d) && ts.isPropertyAccessExpression(d.left)) name = d.left.name.text;
    if (ts.isPropertyAccessExpression(d)) name = d.name.text;
    out.push({ file, line: lineOf(sf, (named ?? d).getStart(sf)), name });
  }
  return out;
}

/** Declarations drsg models as definitions (the recall denominator). */
function isDefinitionLike(checker: ts.TypeChecker, site: Site): boolean {
  const n = site.node;
  const e = n.expression;
  if (e.kind === ts.SyntaxKind.SuperKeyword) return true;
  const nameNode = ts.isPropertyAccessExpression(e) ? e.name : e;
  let sym = checker.getSymbolAtLocation(nameNode);
  if (sym && sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
  const d = sym?.declarations?.[0];
  if (!d) return false;
  if (
    ts.isFunctionDeclaration(d) ||
    ts.isMethodDeclaration(d) ||
    ts.isMethodSignature(d) ||
    ts.isClassDeclaration(d) ||
    ts.isConstructorDeclaration(d) ||
    ts.isGetAccessor(d)
  )
    return true;
  // JS property assignments (`a.b = function () {}`); `this.x = value` declares no definition.
  const assign = ts.isBinaryExpression(d) ? d : ts.isPropertyAccessExpression(d) && ts.isBinaryExpression(d.parent) ? d.parent : undefined;
  if (assign) return ts.isFunctionExpression(assign.right) || ts.isArrowFunction(assign.right) || ts.isClassExpression(assign.right);
  if ((ts.isVariableDeclaration(d) || ts.isPropertyAssignment(d) || ts.isPropertyDeclaration(d)) && d.initializer)
    return ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer) || ts.isClassExpression(d.initializer);
  return false;
}

function matches(decl: Decl, target: NodeFact): boolean {
  const line = target.props.line;
  const end = target.props.end_line;
  return (
    decl.file === target.props.file &&
    typeof line === "number" &&
    typeof end === "number" &&
    decl.line >= line &&
    decl.line <= end &&
    decl.name === keyName(target.key)
  );
}

interface Report {
  checked: number;
  disagreements: string[];
  compilerEdges: number;
  found: number;
  missed: string[];
}

function compare(dir: string, facts: Facts): Report {
  const program = programOf(dir);
  const checker = program.getTypeChecker();
  const byKey = new Map(facts.nodes.map((n) => [n.key, n]));
  const sites = new Map<string, Site[]>();
  for (const sf of program.getSourceFiles()) {
    const file = relative(dir, sf.fileName).split(sep).join("/");
    if (file.startsWith("..") || file.includes("node_modules") || sf.isDeclarationFile) continue;
    sites.set(file, sitesOf(sf, file));
  }
  const report: Report = { checked: 0, disagreements: [], compilerEdges: 0, found: 0, missed: [] };

  // Precision: every edge drsg bound inside the tree.
  const bound = facts.edges.filter((e) => {
    if (e.type !== "CALLS" && e.type !== "INSTANTIATES") return false;
    const dst = byKey.get(e.dst);
    return dst !== undefined && !dst.labels.includes("External") && !dst.labels.includes("UnresolvedRef");
  });
  for (const e of bound) {
    const src = byKey.get(e.src)!;
    const dst = byKey.get(e.dst)!;
    const file = String(src.props.file);
    const candidates = (sites.get(file) ?? []).filter((s) => s.line === e.props.line && s.callee === e.props._ref);
    report.checked++;
    const where = `${file}:${e.props.line} ${e.props._ref} → ${e.dst}`;
    if (candidates.length === 0) {
      report.disagreements.push(`${where}: no call site with that callee on that line`);
      continue;
    }
    const ok = candidates.some((s) => declsOf(checker, s, dir).some((d) => matches(d, dst)));
    if (!ok) {
      const got = candidates.flatMap((s) => declsOf(checker, s, dir)).map((d) => `${d.file}:${d.line} ${d.name}`);
      report.disagreements.push(`${where}: the compiler says ${got.length ? got.join(" | ") : "nothing in the tree"}`);
    }
  }

  // Recall: the compiler's in-tree call edges, grouped by the drsg definition enclosing the site.
  const defsByFile = new Map<string, NodeFact[]>();
  for (const n of facts.nodes) {
    if (n.labels.includes("UnresolvedRef") || n.labels.includes("External") || n.labels.includes("Module")) continue;
    const f = String(n.props.file);
    const list = defsByFile.get(f);
    if (list) list.push(n);
    else defsByFile.set(f, [n]);
  }
  const moduleOf = new Map(facts.nodes.filter((n) => n.labels.includes("Module")).map((n) => [String(n.props.file), n.key]));
  const enclosing = (file: string, line: number): string | undefined => {
    let best: NodeFact | undefined;
    for (const n of defsByFile.get(file) ?? []) {
      const l = n.props.line as number;
      const end = n.props.end_line as number;
      if (l <= line && line <= end && (!best || l > (best.props.line as number) || (l === best.props.line && end < (best.props.end_line as number))))
        best = n;
    }
    return best?.key ?? moduleOf.get(file);
  };
  const drsgEdges = new Map<string, NodeFact[]>();
  for (const e of bound) {
    const list = drsgEdges.get(e.src);
    const dst = byKey.get(e.dst)!;
    if (list) list.push(dst);
    else drsgEdges.set(e.src, [dst]);
  }
  const seen = new Set<string>();
  for (const [file, list] of sites) {
    for (const s of list) {
      if (!isDefinitionLike(checker, s)) continue;
      const decl = declsOf(checker, s, dir)[0];
      if (!decl) continue;
      const src = enclosing(file, s.line);
      if (!src) continue;
      const id = `${src}\u0000${decl.file}:${decl.line}:${decl.name}`;
      if (seen.has(id)) continue;
      seen.add(id);
      report.compilerEdges++;
      if ((drsgEdges.get(src) ?? []).some((t) => matches(decl, t))) report.found++;
      else report.missed.push(`${file}:${s.line} ${s.callee} (in ${src}) → ${decl.file}:${decl.line} ${decl.name}`);
    }
  }
  return report;
}

const fixtures = existsSync(FIXTURES)
  ? readdirSync(FIXTURES)
      .filter((d) => d.startsWith("ts-"))
      .sort()
  : [];

test("ts fixture projects exist for the compiler oracle", () => {
  assert.ok(fixtures.length >= 2, "expected fixtures/ts-* projects");
});

let totalEdges = 0;
let totalFound = 0;
for (const name of fixtures) {
  const dir = join(FIXTURES, name);
  test(`ts oracle: ${name} — every bound call agrees with the TypeScript compiler`, async (t) => {
    const { facts } = await factsOfDir(dir);
    const r = compare(dir, facts);
    totalEdges += r.compilerEdges;
    totalFound += r.found;
    const recall = r.compilerEdges === 0 ? 1 : r.found / r.compilerEdges;
    t.diagnostic(`${name}: ${r.checked} bound edges checked, ${r.disagreements.length} disagreements; recall ${r.found}/${r.compilerEdges} = ${recall.toFixed(3)}`);
    if (process.env.DRSG_ORACLE_VERBOSE) for (const m of r.missed) t.diagnostic(`missed: ${m}`);
    assert.ok(r.checked > 0, "no bound edges to check");
    assert.deepEqual(r.disagreements, [], `drsg bound edges the compiler disagrees with:\n${r.disagreements.join("\n")}`);
  });
}

test("ts oracle: recall over all fixture projects", (t) => {
  const recall = totalEdges === 0 ? 0 : totalFound / totalEdges;
  t.diagnostic(`recall ${totalFound}/${totalEdges} = ${recall.toFixed(3)} (floor ${RECALL_FLOOR})`);
  assert.ok(recall >= RECALL_FLOOR, `recall ${recall.toFixed(3)} fell below ${RECALL_FLOOR}`);
});
