// The TypeScript compiler as an oracle for the ts resolver family: for every CALLS / INSTANTIATES
// edge drsg bound to a definition in the tree, the compiler (Program + TypeChecker) says which
// declaration the call site resolves to; drsg keys and compiler declarations are matched by file,
// line and name. Also the compiler's own in-tree call edges, for recall. Used by oracle.test.ts
// (fixtures/ts-*) and usable on any tree.
import { edgeSites, inTree } from "../support/facts.js";
import { existsSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import ts from "typescript";
import type { Facts, NodeFact } from "../../src/model/facts.js";
import { keyName } from "../../src/model/facts.js";
import { listTree } from "../support/facts.js";

const CODE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

interface Decl {
  file: string;
  /** 1-based line of the declaration's name (or of the declaration when it has none). */
  line: number;
  name: string;
}

interface Site {
  /** A call, `new`, or tagged template (a call of its tag). */
  node: ts.CallExpression | ts.NewExpression | ts.TaggedTemplateExpression;
  file: string;
  /** Line drsg records for the site: the callee's name. */
  line: number;
  /** Callee text as written, whitespace collapsed. */
  callee: string;
}

function calleeOf(n: Site["node"]): ts.Expression {
  return ts.isTaggedTemplateExpression(n) ? n.tag : n.expression;
}

function squash(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/** The compiler program for a fixture: its tsconfig.json (or jsconfig.json), plus `oracle.json` overrides. */
export function programOf(dir: string): ts.Program {
  const cfgFile = ["tsconfig.json", "jsconfig.json"].map((f) => join(dir, f)).find((f) => existsSync(f));
  let options: ts.CompilerOptions = {
    allowJs: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    jsx: ts.JsxEmit.Preserve,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
  };
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
    if (ts.isCallExpression(n) || ts.isNewExpression(n) || ts.isTaggedTemplateExpression(n)) {
      const e = calleeOf(n);
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
  const e = calleeOf(n);
  const decls: ts.Declaration[] = [];
  if (e.kind === ts.SyntaxKind.SuperKeyword) {
    const sig = checker.getResolvedSignature(n as ts.CallExpression);
    if (sig?.declaration && !ts.isJSDocSignature(sig.declaration)) decls.push(sig.declaration);
  } else {
    const nameNode = ts.isPropertyAccessExpression(e) ? e.name : e;
    let sym = checker.getSymbolAtLocation(nameNode);
    if (sym && sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
    if (sym?.declarations) decls.push(...sym.declarations);
    // The function the call invokes, when the symbol is a value that holds it (`module.exports = require(...)`).
    const sig = checker.getResolvedSignature(n);
    const d = sig?.declaration;
    if (d && !ts.isJSDocSignature(d) && (ts.isFunctionLike(d) || ts.isClassLike(d))) decls.push(nameOwner(d));
  }
  const out: Decl[] = [];
  for (const d of decls) {
    const sf = d.getSourceFile();
    const file = relative(root, sf.fileName).split(sep).join("/");
    if (file.startsWith("..") || file.includes("node_modules")) continue;
    const named = (d as { name?: ts.Node }).name;
    let name = named && (ts.isIdentifier(named) || ts.isPrivateIdentifier(named) || ts.isStringLiteral(named)) ? named.text : "";
    if (ts.isConstructorDeclaration(d)) name = "constructor";
    if (name === "" && ts.canHaveModifiers(d) && ts.getCombinedModifierFlags(d) & ts.ModifierFlags.Default) name = "default";
    if (ts.isBinaryExpression(d) && ts.isPropertyAccessExpression(d.left)) name = d.left.name.text;
    if (ts.isPropertyAccessExpression(d)) name = d.name.text;
    out.push({ file, line: lineOf(sf, (named ?? d).getStart(sf)), name });
  }
  return out;
}

/** A function expression's declaring assignment or variable (`res.send = function send () {}`), else itself. */
function nameOwner(d: ts.Declaration): ts.Declaration {
  const p = d.parent;
  if ((ts.isFunctionExpression(d) || ts.isArrowFunction(d) || ts.isClassExpression(d)) && p) {
    if (ts.isBinaryExpression(p) && p.right === d) return p;
    if ((ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && p.initializer === d) return p;
  }
  return d;
}

/** Declarations drsg models as definitions (the recall denominator). */
function isDefinitionLike(checker: ts.TypeChecker, site: Site): boolean {
  const n = site.node;
  const e = calleeOf(n);
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
    // keyName treats `#` as a separator: a private name `#x` is compared without it.
    decl.name.replace(/^#/, "") === keyName(target.key)
  );
}

/** What the comparison found. */
export interface Report {
  checked: number;
  /** The compiler resolves the site to another declaration, or drsg's site does not exist. */
  disagreements: string[];
  /** The compiler resolves the site to nothing in the tree (an `any` receiver): drsg's edge is unconfirmed. */
  unconfirmed: string[];
  compilerEdges: number;
  found: number;
  missed: string[];
}

/** Compare drsg facts of a tree with the compiler's view of the same tree. */
export function compare(dir: string, facts: Facts): Report {
  const program = programOf(dir);
  const checker = program.getTypeChecker();
  const byKey = new Map(facts.nodes.map((n) => [n.key, n]));
  const sites = new Map<string, Site[]>();
  for (const sf of program.getSourceFiles()) {
    const file = relative(dir, sf.fileName).split(sep).join("/");
    if (file.startsWith("..") || file.includes("node_modules") || sf.isDeclarationFile) continue;
    sites.set(file, sitesOf(sf, file));
  }
  const report: Report = { checked: 0, disagreements: [], unconfirmed: [], compilerEdges: 0, found: 0, missed: [] };

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
    // tree-sitter-typescript reads `await a.b<T>(x).c()` with the `await` inside the callee text.
    const ref = String(e.props._ref).replace(/^await\s+/, "");
    // The extractor caps `_ref` at 200 characters (ending "…").
    const sameCallee = (callee: string) => callee === ref || (ref.endsWith("…") && callee.startsWith(ref.slice(0, -1)));
    const candidates = (sites.get(file) ?? []).filter((s) => s.line === e.props.line && sameCallee(s.callee));
    report.checked++;
    const where = `${file}:${e.props.line} ${e.props._ref} → ${e.dst}`;
    if (candidates.length === 0) {
      report.disagreements.push(`${where}: no call site with that callee on that line`);
      continue;
    }
    const ok = candidates.some((s) => declsOf(checker, s, dir).some((d) => matches(d, dst)));
    if (!ok) {
      const got = candidates.flatMap((s) => declsOf(checker, s, dir)).map((d) => `${d.file}:${d.line} ${d.name}`);
      if (got.length === 0) report.unconfirmed.push(`${where}: the compiler resolves nothing in the tree`);
      else report.disagreements.push(`${where}: the compiler says ${got.join(" | ")}`);
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


/** Site-level figures (issue 16 §4): each call site judged on its own, matched by file, line and column. */
export interface SiteReport {
  /** drsg's bound sites the compiler binds to a declaration in the tree. */
  judged: number;
  /** ... whose target the compiler agrees with. */
  agreed: number;
  /** drsg's bound sites the compiler binds to nothing in the tree (an `any` receiver, a dependency). */
  unjudged: number;
  /** Where those are (file:line:col, the reference, drsg's target). */
  unjudgedAt: string[];
  /** The compiler's sites whose target is a function, method or class in the tree. */
  compilerSites: number;
  /** ... that drsg bound to that target. */
  found: number;
  wrong: string[];
  missed: string[];
}

/** The compiler's in-tree target of a call site when it is a function, method or class (the recall denominator). */
function targetIsDefinition(checker: ts.TypeChecker, site: Site, root: string): boolean {
  if (isDefinitionLike(checker, site)) return true;
  // Through a const alias (`const objectType = ZodObject.create; objectType()`): the signature's declaration.
  const d = checker.getResolvedSignature(site.node)?.declaration;
  if (!d || ts.isJSDocSignature(d) || !(ts.isFunctionLike(d) || ts.isClassLike(d))) return false;
  // An anonymous function called where it is written (`(() => {...})()`) is no definition.
  const owner = nameOwner(d);
  if (owner === d && (d as { name?: ts.Node }).name === undefined) return false;
  const file = relative(root, d.getSourceFile().fileName);
  return !file.startsWith("..") && !file.includes("node_modules");
}

/**
 * Compare every call / new site: drsg's `sites` on its bound CALLS / INSTANTIATES edges (an edge
 * without `sites` counts its first line) against the compiler's resolved declaration of the same
 * site, found by (file, line, column of the callee's name), else by (file, line, called name).
 */
export function compareSites(dir: string, facts: Facts, program: ts.Program = programOf(dir)): SiteReport {
  const checker = program.getTypeChecker();
  const byKey = new Map(facts.nodes.map((n) => [n.key, n]));
  const r: SiteReport = { judged: 0, agreed: 0, unjudged: 0, unjudgedAt: [], compilerSites: 0, found: 0, wrong: [], missed: [] };
  // Compiler sites by file → line → sites, with their column.
  const sites = new Map<string, Map<number, { s: Site; col: number; name: string }[]>>();
  for (const sf of program.getSourceFiles()) {
    const file = relative(dir, sf.fileName).split(sep).join("/");
    if (file.startsWith("..") || file.includes("node_modules") || sf.isDeclarationFile) continue;
    const byLine = new Map<number, { s: Site; col: number; name: string }[]>();
    for (const s of sitesOf(sf, file)) {
      const e = calleeOf(s.node);
      const nameNode = ts.isPropertyAccessExpression(e) ? e.name : e;
      const col = sf.getLineAndCharacterOfPosition(nameNode.getStart(sf)).character + 1;
      const name = ts.isIdentifier(nameNode) || ts.isPrivateIdentifier(nameNode) ? nameNode.text : nameNode.getText(sf);
      const list = byLine.get(s.line);
      const x = { s, col, name };
      if (list) list.push(x);
      else byLine.set(s.line, [x]);
    }
    sites.set(file, byLine);
  }
  const declMemo = new Map<Site, Decl[]>();
  const decls = (s: Site) => {
    let d = declMemo.get(s);
    if (!d) declMemo.set(s, (d = declsOf(checker, s, dir)));
    return d;
  };
  // drsg's bound sites: file → "line:col" → targets.
  const drsg = new Map<string, Map<string, NodeFact[]>>();
  for (const e of facts.edges) {
    if (e.type !== "CALLS" && e.type !== "INSTANTIATES") continue;
    const dst = byKey.get(e.dst);
    const src = byKey.get(e.src);
    if (!src || !inTree(dst)) continue;
    const file = String(src.props.file);
    const list = edgeSites(e);
    let byPos = drsg.get(file);
    if (!byPos) drsg.set(file, (byPos = new Map()));
    for (const [line, col] of list) {
      const cands = sites.get(file)?.get(line!) ?? [];
      const exact = cands.filter((c) => c.col === col);
      const hit = exact.length > 0 ? exact : cands.filter((c) => c.name.replace(/^#/, "") === keyName(dst.key) || sameCalleeText(c.s, e));
      const key = `${line}:${hit.length === 1 ? hit[0]!.col : col}`;
      const t = byPos.get(key);
      if (t) t.push(dst);
      else byPos.set(key, [dst]);
      const ds = hit.flatMap((h) => decls(h.s));
      const where = `${file}:${line}:${col} ${e.props._ref} → ${e.dst}`;
      if (ds.length === 0) {
        r.unjudged++;
        r.unjudgedAt.push(where);
        continue;
      }
      r.judged++;
      if (ds.some((d) => matches(d, dst))) r.agreed++;
      else r.wrong.push(`${where}: the compiler says ${ds.map((d) => `${d.file}:${d.line} ${d.name}`).join(" | ")}`);
    }
  }
  for (const [file, byLine] of sites)
    for (const list of byLine.values())
      for (const c of list) {
        if (!targetIsDefinition(checker, c.s, dir)) continue;
        const ds = decls(c.s);
        if (ds.length === 0) continue;
        r.compilerSites++;
        const got = drsg.get(file)?.get(`${c.s.line}:${c.col}`) ?? [];
        if (got.some((t) => ds.some((d) => matches(d, t)))) r.found++;
        else r.missed.push(`${file}:${c.s.line}:${c.col} ${c.s.callee} → ${ds.map((d) => `${d.file}:${d.line} ${d.name}`).join(" | ")}`);
      }
  return r;
}

function sameCalleeText(s: Site, e: { props: Record<string, unknown> }): boolean {
  return s.callee === String(e.props._ref).replace(/^await\s+/, "");
}
