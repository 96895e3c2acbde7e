// One file's syntax tree + its plugin's query → the per-file partial (model/partial.ts).
// Generic over languages: the capture vocabulary (plugins/README.md) says what each match is;
// containment (which definition a reference or a local falls in) is computed here from ranges.
import type { Node, Parser, Query, QueryCapture, Tree, TreeCursor } from "web-tree-sitter";
import type { Def, DefKind, Export, Import, Local, Partial, Ref, RefKind } from "../model/partial.js";
import { CAP, Matches } from "./matches.js";
import { type CompiledRule, rewrite } from "./recover.js";

const DEF_KINDS: ReadonlySet<string> = new Set<DefKind>([
  "function",
  "method",
  "constructor",
  "getter",
  "setter",
  "class",
  "interface",
  "struct",
  "enum",
  "trait",
  "type",
  "constant",
  "variable",
  "field",
  "module",
  "macro",
  "union",
]);
const REF_KINDS: ReadonlySet<string> = new Set<RefKind>(["call", "new", "value", "type", "macro"]);

export interface DocConfig {
  preceding?: string[];
  prefixes?: string[];
  wrappers?: string[];
  /** Sibling node types passed over between a doc comment and its definition (Rust `#[...]` attributes). */
  skip?: string[];
}

/** Parameter list text kept (`@params`): enough to read each parameter's declared type. */
const PARAMS_CAP = 400;
const SIGNATURE_CAP = 300;
/** A supertype list is read whole: SQLAlchemy's ColumnElement lists twelve bases (a cut list lost its MRO). */
const SUPERTYPES_CAP = 2000;
const DOC_CAP = 2000;
/** An interface's call signature is read whole (its parameters and type parameters type callbacks). */
const SIGNATURE_TEXT_CAP = 4000;

const SPACE = /\s/;

function squash(text: string, cap: number): string {
  // Without whitespace, the replace and the trim change nothing: skip them (most texts).
  const s = SPACE.test(text) ? text.replace(/\s+/g, " ").trim() : text;
  return s.length > cap ? `${s.slice(0, cap - 1)}…` : s;
}

/**
 * A callee as written, with every argument list of the chain it ends (`new App<E>().get('/', (c) =>
 * { … }).post`) cut to placeholders that keep the argument count (`new App<E>().get(0,0).post`):
 * what the resolver reads of it, however long the callbacks before it are.
 */
function compactCallee(node: Node, source: string): string {
  const raw = () => source.slice(node.startIndex, node.endIndex);
  const args = (n: Node | null) => {
    const list = n?.namedChildren.filter((c): c is Node => c !== null && !c.type.includes("comment")) ?? [];
    return list.some((c) => c.type === "spread_element") ? "(...0)" : `(${list.map(() => "0").join(",")})`;
  };
  const typeArgs = (n: Node) => {
    const t = n.childForFieldName("type_arguments");
    return t ? source.slice(t.startIndex, t.endIndex) : "";
  };
  switch (node.type) {
    case "member_expression": {
      const obj = node.childForFieldName("object");
      const prop = node.childForFieldName("property");
      return obj && prop ? `${compactCallee(obj, source)}.${source.slice(prop.startIndex, prop.endIndex)}` : raw();
    }
    case "call_expression": {
      const fn = node.childForFieldName("function");
      return fn ? `${compactCallee(fn, source)}${typeArgs(node)}${args(node.childForFieldName("arguments"))}` : raw();
    }
    case "new_expression": {
      const ctor = node.childForFieldName("constructor");
      return ctor ? `new ${compactCallee(ctor, source)}${typeArgs(node)}${args(node.childForFieldName("arguments"))}` : raw();
    }
    default:
      return raw();
  }
}

/** `text` with its `//` and block comments blanked (strings kept): a squashed line keeps no comment eating the rest. */
function withoutComments(text: string): string {
  if (!text.includes("/")) return text;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === "/" && text[i + 1] === "/") {
      const nl = text.indexOf("\n", i);
      i = nl < 0 ? text.length : nl - 1;
      out += " ";
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 1;
      out += " ";
    } else out += c;
  }
  return out;
}

function unquote(text: string): string {
  const t = text.trim();
  if (t.length >= 2) {
    const q = t[0];
    if ((q === '"' || q === "'" || q === "`") && t[t.length - 1] === q) return t.slice(1, -1);
    if (q === "<" && t[t.length - 1] === ">") return t.slice(1, -1);
  }
  return t;
}

/** One match's captures, in capture order (a handful: scanned, not indexed). */
type Caps = QueryCapture[];

function first(caps: Caps, name: string): Node | undefined {
  for (let i = 0; i < caps.length; i++) if (caps[i]!.name === name) return caps[i]!.node;
  return undefined;
}

/** Named children of `n` that are not comments, counted with a cursor (no node objects made). */
function countNamed(n: Node | undefined, cursor: () => TreeCursor): number | undefined {
  if (!n) return undefined;
  const cur = cursor();
  cur.reset(n);
  let c = 0;
  if (cur.gotoFirstChild()) {
    do if (cur.nodeIsNamed && !cur.nodeType.includes("comment")) c++;
    while (cur.gotoNextSibling());
  }
  return c;
}

/** What a capture name makes of its match, when it is the match's first such capture. */
function isPrimary(name: string): boolean {
  let v = PRIMARY.get(name);
  if (v === undefined) {
    v =
      name.startsWith("definition.") ||
      name.startsWith("reference.") ||
      name === "import" ||
      name.startsWith("import.") ||
      name === "export" ||
      name === "local" ||
      name === "local.param" ||
      name === "impl" ||
      name === "type_only" ||
      name === "yield";
    PRIMARY.set(name, v);
  }
  return v;
}
const PRIMARY = new Map<string, boolean>();

function precedingDoc(node: Node, cfg: DocConfig, source: string): string | undefined {
  const kinds = cfg.preceding ?? [];
  if (kinds.length === 0) return undefined;
  let anchor: Node = node;
  const wrappers = cfg.wrappers ?? [];
  // Up through wrappers the definition opens. Each parent / sibling step is a walk in the tree:
  // asked once per level, and the parent only when there is no sibling before.
  let prev = anchor.previousNamedSibling;
  if (wrappers.length > 0) {
    for (let up = prev === null ? anchor.parent : null; up && wrappers.includes(up.type); ) {
      anchor = up;
      prev = anchor.previousNamedSibling;
      up = prev === null ? anchor.parent : null;
    }
  }
  const parts: string[] = [];
  let expectRow = anchor.startPosition.row;
  const skip = cfg.skip ?? [];
  while (prev && skip.includes(prev.type) && prev.endPosition.row >= expectRow - 1) {
    expectRow = prev.startPosition.row;
    prev = prev.previousNamedSibling;
  }
  while (prev && kinds.includes(prev.type) && prev.endPosition.row >= expectRow - 1) {
    parts.unshift(source.slice(prev.startIndex, prev.endIndex));
    expectRow = prev.startPosition.row;
    prev = prev.previousNamedSibling;
  }
  if (parts.length === 0) return undefined;
  const prefixes = cfg.prefixes ?? [];
  if (prefixes.length > 0) {
    const last = parts[parts.length - 1]!;
    if (!prefixes.some((p) => last.startsWith(p))) return undefined;
  }
  return parts.join("\n");
}

interface Range {
  start: number;
  end: number;
}

/**
 * Set each item's `scope` to the innermost definition containing its `at` (defs sorted by
 * start, then end desc; items sorted by `at`). Depends only on `at`, so lists run separately.
 */
function innermost(defs: Def[], items: { at: number; scope: number }[]): void {
  const stack: Def[] = [];
  let di = 0;
  for (const it of items) {
    while (di < defs.length && defs[di]!.start <= it.at) {
      const d = defs[di]!;
      while (stack.length > 0 && stack[stack.length - 1]!.end <= d.start) stack.pop();
      stack.push(d);
      di++;
    }
    while (stack.length > 0 && stack[stack.length - 1]!.end <= it.at) stack.pop();
    it.scope = stack.length > 0 ? stack[stack.length - 1]!.id : -1;
  }
}

/**
 * A narrowing (`isFoo(c)`, `c instanceof X`: a local named after the expression whose alias is
 * the parenthesised guard) holds only where the binding it narrows is visible: inside the
 * innermost block-scoped declaration of that name around it (an arrow's parameter `c`), never
 * the whole enclosing definition — sibling callbacks' own `c` are other bindings.
 */
function narrowingsInBindings(locals: Local[]): void {
  let ranged: Map<string, Local[]> | undefined;
  for (const l of locals) {
    if (!l.aliasOf?.startsWith("(") || l.end !== undefined || l.name.includes(".")) continue;
    if (ranged === undefined) {
      ranged = new Map();
      for (const x of locals) {
        if (x.end === undefined || x.aliasOf?.startsWith("(")) continue;
        const list = ranged.get(x.name);
        if (list) list.push(x);
        else ranged.set(x.name, [x]);
      }
    }
    let inner: Local | undefined;
    for (const x of ranged.get(l.name) ?? [])
      if ((x.from ?? x.at) <= l.at && l.at < x.end! && (inner === undefined || (x.from ?? x.at) > (inner.from ?? inner.at))) inner = x;
    if (inner === undefined) continue;
    l.from = inner.from ?? inner.at;
    l.end = inner.end!;
  }
}

/**
 * Return-statement locals (named `return`) keep only those their enclosing definition returns:
 * a return inside a nested arrow function with a block body (an `{` local spanning the arrow,
 * which gets no definition of its own) is the arrow's, not the definition's — unless that arrow
 * is the definition's own value (`const build = () => { …; return app }`: its `=>` local spans
 * the block). The `{` locals and those block-bodied `=>` ones go: they only serve this.
 */
function returnsOwn(locals: Local[]): Local[] {
  const own = locals.filter((l) => l.name === "=>" && l.end !== undefined);
  const arrows = locals.filter((l) => l.name === "{" && l.end !== undefined);
  if (arrows.length === 0 && own.length === 0 && !locals.some((l) => l.name === "{")) return locals;
  const isOwn = (a: Local) => own.some((o) => o.end === a.end && o.at <= a.at);
  // The innermost block-bodied arrow around a return decides whose return it is.
  const nested = (r: Local) => {
    let inner: Local | undefined;
    for (const a of arrows) if (a.at < r.at && r.at < a.end! && (inner === undefined || a.at > inner.at)) inner = a;
    return inner !== undefined && !isOwn(inner);
  };
  return locals.filter((l) => l.name !== "{" && !(l.name === "=>" && own.some((o) => o.at === l.at)) && (l.name !== "return" || !nested(l)));
}

function countErrors(tree: Tree): number {
  if (!tree.rootNode.hasError) return 0;
  let n = 0;
  const cursor = tree.walk();
  let done = false;
  while (!done) {
    const node = cursor.currentNode;
    if (node.isError || node.isMissing) n++;
    if (node.hasError && cursor.gotoFirstChild()) continue;
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) {
        done = true;
        break;
      }
    }
  }
  cursor.delete();
  return n;
}

/**
 * A better tree of a file that did not parse cleanly: the plugin's rewrites all together, then each
 * alone, parsed again; the one with the fewest error nodes when it has fewer than `tree` (the
 * caller frees `tree`), else undefined.
 */
export function recoverParse(parser: Parser, tree: Tree, source: string, rules: readonly CompiledRule[]): { tree: Tree; rewrites: number } | undefined {
  if (rules.length === 0) return undefined;
  let best: { tree: Tree; rewrites: number; errors: number } | undefined;
  let errors = countErrors(tree);
  const tries = rules.length === 1 ? [rules] : [rules, ...rules.map((r) => [r])];
  // A rule alone often gives the text all of them gave (the others matched nothing): parsed once.
  const tried = new Set<string>();
  for (const set of tries) {
    const { text, rewrites } = rewrite(source, set);
    if (rewrites === 0 || text === source || tried.has(text)) continue;
    tried.add(text);
    const t = parser.parse(text);
    if (!t) continue;
    const n = countErrors(t);
    if (n < errors) {
      best?.tree.delete();
      best = { tree: t, rewrites, errors: n };
      errors = n;
      if (n === 0) break;
    } else t.delete();
  }
  return best && { tree: best.tree, rewrites: best.rewrites };
}

/** A `(#parent-is? @capture "type" ...)` predicate: the captured node's parent is one of the types. */
interface ParentIs {
  capture: string;
  types: ReadonlySet<string>;
}

const PARENT_PREDICATES = new WeakMap<Query, (ParentIs[] | undefined)[]>();

/**
 * The `#parent-is?` predicates of each pattern (undefined: none), read once per query.
 * A pattern rooted at its subject's parent keeps a query state alive across the whole
 * parent (for `(program ...)`, the whole file); the predicate checks the parent per match instead.
 */
function parentPredicates(query: Query): (ParentIs[] | undefined)[] {
  let out = PARENT_PREDICATES.get(query);
  if (out) return out;
  out = [];
  for (let i = 0; i < query.patternCount(); i++) {
    let list: ParentIs[] | undefined;
    for (const p of query.predicatesForPattern(i)) {
      if (p.operator !== "parent-is?") continue;
      const [cap, ...types] = p.operands;
      if (cap?.type !== "capture" || types.length === 0 || types.some((t) => t.type !== "string")) continue;
      (list ??= []).push({ capture: cap.name, types: new Set(types.map((t) => (t as { value: string }).value)) });
    }
    out.push(list);
  }
  PARENT_PREDICATES.set(query, out);
  return out;
}

function parentIs(caps: Caps, preds: ParentIs[]): boolean {
  for (const p of preds) {
    const n = first(caps, p.capture);
    const parent = n?.parent;
    if (!parent || !p.types.has(parent.type)) return false;
  }
  return true;
}

/** Whether a match passes its pattern's `#parent-is?` predicates (for tools that list matches, like `drsg match`). */
export function keepMatch(query: Query, m: { patternIndex: number; captures: QueryCapture[] }): boolean {
  const pp = parentPredicates(query)[m.patternIndex];
  return !pp || parentIs(m.captures, pp);
}

/** A query's capture ids by name (-1: not in the query), and which ids open a match, read once per query. */
interface QueryInfo {
  names: string[];
  primary: boolean[];
  parentPreds: { capture: number; types: ReadonlySet<string> }[][];
  c: Record<(typeof ROLES)[number], number>;
}

const ROLES = [
  "name",
  "body",
  "doc",
  "visibility",
  "exported",
  "async",
  "static",
  "returns",
  "type",
  "owner",
  "trait",
  "params",
  "extends",
  "implements",
  "decorator",
  "object",
  "value",
  "callee",
  "arguments",
  "receiver",
  "source",
  "alias",
  "default",
  "namespace",
  "wildcard",
  "star",
  "new",
  "call",
  "call_receiver",
  "alias_of",
  "scope",
  "after",
  "const",
  "callback",
  "call_signature",
  "prop",
  "import_of",
  "member_of",
  "spread",
  "iter_of",
  "iter_method",
  "iter_index",
  "variadic",
  "bound",
  "iter_key",
  "iter_value",
  "enter",
] as const;

const QUERY_INFO = new WeakMap<Query, QueryInfo>();

function queryInfo(query: Query): QueryInfo {
  let info = QUERY_INFO.get(query);
  if (info) return info;
  const names = query.captureNames;
  const c = {} as QueryInfo["c"];
  for (const r of ROLES) c[r] = names.indexOf(r);
  info = {
    names,
    primary: names.map(isPrimary),
    parentPreds: parentPredicates(query).map((list) =>
      (list ?? []).map((p) => ({ capture: names.indexOf(p.capture), types: p.types })),
    ),
    c,
  };
  QUERY_INFO.set(query, info);
  return info;
}

/** Turn one parsed file into its partial. Pure: depends only on the tree, the query and the text. */
export function extractTree(
  tree: Tree,
  query: Query,
  source: string,
  path: string,
  grammar: string,
  doc: DocConfig = {},
): Partial {
  const x = new FileExtraction(tree, query, source, doc);
  x.readMatches();
  return x.finish(path, grammar);
}

type ImplRange = Range & { owner?: string; trait?: string };

/**
 * One file's extraction: the matches read in order, each kind (definition, reference, import,
 * export, local, impl) by a method of its own over the current match's captures.
 */
class FileExtraction {
  readonly defsRaw: { def: Def; pattern: number }[] = [];
  readonly seenDef = new Map<number, number>();
  readonly refsRaw: { ref: Ref; hasName: boolean }[] = [];
  /** Reference sites seen, per kind: node id → index in refsRaw. */
  readonly seenRef = new Map<string, Map<number, number>>();
  readonly imports: Import[] = [];
  readonly exports: Export[] = [];
  readonly locals: Local[] = [];
  readonly impls: ImplRange[] = [];
  /** `@type_only` regions: what a type checker reads and the program never runs. */
  readonly typeOnly: Range[] = [];
  /** `@yield` positions: the innermost definition around each is a generator. */
  readonly yields: { at: number; scope: number }[] = [];
  readonly importScopes: { imp: Import; at: number; scope: number }[] = [];
  /** One cursor for every child count of this tree, deleted at the end. */
  private walker: TreeCursor | undefined = undefined;
  readonly info: QueryInfo;
  readonly C: QueryInfo["c"];
  readonly M: Matches;
  readonly d: Int32Array;
  /** The current match: its captures lie at [mFrom, mTo) in steps of CAP. */
  private mFrom = 0;
  private mTo = 0;

  constructor(
    readonly tree: Tree,
    query: Query,
    readonly source: string,
    readonly doc: DocConfig,
  ) {
    this.info = queryInfo(query);
    this.C = this.info.c;
    this.M = new Matches(tree, query, source);
    this.d = this.M.data;
  }

  /** Offset of the current match's first capture with this id; -1 when none. */
  first(id: number): number {
    if (id < 0) return -1;
    const d = this.d;
    for (let o = this.mFrom; o < this.mTo; o += CAP) if (d[o] === id) return o;
    return -1;
  }

  all(id: number): number[] | undefined {
    if (id < 0) return undefined;
    const d = this.d;
    let out: number[] | undefined;
    for (let o = this.mFrom; o < this.mTo; o += CAP) if (d[o] === id) (out ??= []).push(o);
    return out;
  }

  text(id: number): string | undefined {
    const o = this.first(id);
    return o < 0 ? undefined : this.M.text(o);
  }

  /** The capture's text squashed to 200 characters (an annotation's leading `:` dropped with `annotation`); undefined when absent or empty. */
  squashed(id: number, annotation = false): string | undefined {
    const t = this.text(id);
    if (!t) return undefined;
    return squash(annotation ? t.replace(/^:\s*/, "") : t, 200);
  }

  count(o: number): number | undefined {
    if (o < 0) return undefined;
    return this.M.namedNonComment(o) ?? countNamed(this.M.node(o), () => (this.walker ??= this.tree.walk()));
  }

  readMatches(): void {
    const d = this.d;
    for (let mo = 0; mo < d.length; ) {
      const pattern = d[mo]!;
      this.mFrom = mo + 2;
      this.mTo = this.mFrom + d[mo + 1]! * CAP;
      mo = this.mTo;
      this.match(pattern);
    }
  }

  private match(pattern: number): void {
    const pp = this.info.parentPreds[pattern];
    if (pp && pp.length > 0 && !this.parentsPass(pp)) return;
    const d = this.d;
    const primary = this.info.primary;
    let node = -1;
    for (let o = this.mFrom; o < this.mTo; o += CAP) {
      if (primary[d[o]!]) {
        node = o;
        break;
      }
    }
    if (node < 0) return;
    const pname = this.info.names[d[node]!]!;
    if (pname.startsWith("definition.")) this.definition(pname.slice("definition.".length), pattern, node);
    else if (pname.startsWith("reference.")) this.reference(pname.slice("reference.".length), node);
    else if (pname === "import" || pname.startsWith("import.")) this.import(pname, node);
    else if (pname === "export") this.export(node);
    else if (pname === "local" || pname === "local.param") this.local(pname, node);
    else if (pname === "impl") this.impl(node);
    else if (pname === "type_only") this.typeOnly.push({ start: this.M.start(node), end: this.M.end(node) });
    else if (pname === "yield") this.yields.push({ at: this.M.start(node), scope: -1 });
  }

  private parentsPass(pp: QueryInfo["parentPreds"][number]): boolean {
    for (const p of pp) {
      const o = this.first(p.capture);
      const t = o < 0 ? undefined : this.M.parentType(o);
      if (t === undefined || !p.types.has(t)) return false;
    }
    return true;
  }

  private definition(kind: string, pattern: number, node: number): void {
    if (!DEF_KINDS.has(kind)) return;
    const { M, C, source } = this;
    const nodeId = M.id(node);
    if (this.seenDef.has(nodeId)) return;
    const name = this.text(C.name);
    if (!name) return;
    const start = M.start(node);
    const end = M.end(node);
    const body = this.first(C.body);
    let sigText: string;
    if (body >= 0) sigText = source.slice(start, M.start(body));
    else {
      // The node's first line.
      const nl = source.indexOf("\n", start);
      sigText = source.slice(start, nl === -1 || nl > end ? end : nl);
    }
    const docNodes = this.all(C.doc);
    const docText = docNodes ? docNodes.map((o) => M.text(o)).join("\n") : precedingDoc(M.node(node), this.doc, source);
    const def: Def = {
      id: -1,
      kind: kind as DefKind,
      name,
      parent: -1,
      line: M.row(node) + 1,
      endLine: M.endRow(node) + 1,
      start,
      end,
    };
    const sig = squash(sigText, SIGNATURE_CAP);
    if (sig) def.signature = sig;
    // A function or method declared without a body: an overload signature (or an ambient /
    // interface declaration), which callers see; an implementation beside overloads they do not.
    if (body < 0 && (kind === "function" || kind === "method")) def.bodyless = true;
    if (docText) def.doc = docText.length > DOC_CAP ? `${docText.slice(0, DOC_CAP - 1)}…` : docText;
    this.defDetails(def);
    this.seenDef.set(nodeId, this.defsRaw.length);
    this.defsRaw.push({ def, pattern });
  }

  /** What the captures of a definition's match say of it beyond its name and range. */
  private defDetails(def: Def): void {
    const { M, C } = this;
    const vis = this.text(C.visibility);
    if (this.first(C.exported) >= 0) def.visibility = "exported";
    else if (vis) def.visibility = squash(vis, 40);
    if (this.first(C.async) >= 0) def.isAsync = true;
    if (this.first(C.static) >= 0) def.isStatic = true;
    const returns = this.squashed(C.returns, true);
    if (returns !== undefined) def.returns = returns;
    const type = this.squashed(C.type, true);
    if (type !== undefined) def.type = type;
    const owner = this.squashed(C.owner);
    if (owner !== undefined) def.owner = owner;
    const trait = this.squashed(C.trait);
    if (trait !== undefined) def.trait = trait;
    const paramsNode = this.first(C.params);
    const arity = this.count(paramsNode);
    if (arity !== undefined) def.arity = arity;
    if (paramsNode >= 0) def.params = squash(M.text(paramsNode), PARAMS_CAP);
    const ext = this.all(C.extends);
    if (ext) def.extends = ext.map((o) => squash(M.text(o), SUPERTYPES_CAP));
    const impl = this.all(C.implements);
    if (impl) def.implements = impl.map((o) => squash(M.text(o), SUPERTYPES_CAP));
    const decos = this.all(C.decorator);
    if (decos) def.decorators = decos.map((o) => squash(M.text(o), 200));
    const obj = this.squashed(C.object);
    if (obj !== undefined) def.object = obj;
    const value = this.first(C.value);
    if (value >= 0) {
      def.valueKind = M.type(value);
      const callee = M.fieldText(value, "function") ?? M.fieldText(value, "constructor");
      if (callee !== undefined) def.valueCallee = squash(callee, 200);
    }
  }

  private reference(kind: string, node: number): void {
    if (!REF_KINDS.has(kind)) return;
    const { M, C, source } = this;
    const nameNode = this.first(C.name);
    const recv = this.first(C.receiver);
    const at = nameNode >= 0 ? nameNode : node;
    // The reference as written: `@callee`, else the callee field of a call / new, else the text before the arguments.
    const calleeCap = this.first(C.callee);
    let written = calleeCap >= 0 ? M.text(calleeCap) : (M.fieldText(node, "function") ?? M.fieldText(node, "constructor"));
    if (written === undefined) {
      const args = this.first(C.arguments);
      written = args >= 0 && M.start(args) > M.start(node) ? source.slice(M.start(node), M.start(args)) : M.text(node);
    }
    const ref: Ref = {
      kind: kind as RefKind,
      name: nameNode >= 0 ? M.text(nameNode) : "",
      text: squash(written, 200),
      line: M.row(at) + 1,
      col: M.col(at) + 1,
      scope: -1,
      at: M.start(at),
    };
    if (recv >= 0) {
      ref.receiver = squash(M.text(recv), 200);
      ref.receiverKind = M.type(recv);
    }
    const arity = this.count(this.first(C.arguments));
    if (arity !== undefined) ref.arity = arity;
    let seen = this.seenRef.get(kind);
    if (!seen) {
      seen = new Map();
      this.seenRef.set(kind, seen);
    }
    const nodeId = M.id(node);
    const prior = seen.get(nodeId);
    if (prior !== undefined) {
      // The same site matched twice: keep the reading that names its target.
      if (!this.refsRaw[prior]!.hasName && nameNode >= 0) this.refsRaw[prior] = { ref, hasName: true };
      return;
    }
    seen.set(nodeId, this.refsRaw.length);
    this.refsRaw.push({ ref, hasName: nameNode >= 0 });
  }

  private import(pname: string, node: number): void {
    const { M, C } = this;
    const src = this.text(C.source);
    const form = pname === "import" ? "import" : pname.slice("import.".length);
    const base = { source: src === undefined ? "" : unquote(src), form, line: M.row(node) + 1, scope: -1 };
    const named = this.text(C.name);
    const alias = this.text(C.alias);
    const def = this.text(C.default);
    const ns = this.text(C.namespace);
    const out: Import[] = [];
    if (named !== undefined) out.push({ ...base, imported: named, local: alias ?? named });
    if (def !== undefined) out.push({ ...base, imported: "default", local: def });
    if (ns !== undefined) out.push({ ...base, imported: "*", local: ns });
    if (this.first(C.wildcard) >= 0) out.push({ ...base, imported: "*", local: "", wildcard: true });
    if (out.length === 0) out.push({ ...base, imported: "*", local: alias ?? "" });
    const isStatic = this.first(C.static) >= 0;
    for (const imp of out) {
      if (isStatic) imp.isStatic = true;
      this.imports.push(imp);
      this.importScopes.push({ imp, at: M.start(node), scope: -1 });
    }
  }

  private export(node: number): void {
    const C = this.C;
    const line = this.M.row(node) + 1;
    const src = this.text(C.source);
    const name = this.text(C.name);
    const alias = this.text(C.alias);
    const ns = this.text(C.namespace);
    const dflt = this.text(C.default);
    const exports = this.exports;
    if (this.first(C.star) >= 0) exports.push({ name: "*", source: src ? unquote(src) : "", star: true, line });
    else if (ns !== undefined && src !== undefined) exports.push({ name: ns, source: unquote(src), imported: "*", line });
    else if (name !== undefined && src !== undefined) exports.push({ name: alias ?? name, source: unquote(src), imported: name, line });
    else if (name !== undefined) exports.push({ name: alias ?? name, local: name, line });
    else if (dflt !== undefined) exports.push({ name: "default", local: dflt, line });
  }

  private local(pname: string, node: number): void {
    const { M, C } = this;
    let name = this.first(C.spread) >= 0 ? "*" : this.text(C.name);
    if (!name) return;
    // A property of an object held by a const (`const Jwt = { sign }`): named `Jwt.sign` (`Jwt.*` a spread).
    const memberOf = this.text(C.member_of);
    if (memberOf !== undefined) name = `${memberOf}.${name}`;
    const local: Local = { name, scope: -1, line: M.row(node) + 1, at: M.start(node) };
    const type = this.squashed(C.type, true);
    // A variadic parameter (`opts ...Option`) holds a slice of its written type.
    if (type !== undefined) local.type = this.first(C.variadic) >= 0 ? `[]${type}` : type;
    const newOf = this.squashed(C.new);
    if (newOf !== undefined) local.newOf = newOf;
    const callOf = this.squashed(C.call);
    if (callOf !== undefined) local.callOf = callOf;
    const callRecv = this.squashed(C.call_receiver);
    if (callRecv !== undefined) local.callReceiver = callRecv;
    const aliasOf = this.squashed(C.alias_of);
    if (aliasOf !== undefined) local.aliasOf = aliasOf;
    const prop = this.text(C.prop);
    if (prop !== undefined) local.prop = prop;
    const importOf = this.text(C.import_of);
    if (importOf !== undefined) local.importOf = importOf;
    const bound = this.squashed(C.bound);
    if (bound !== undefined) local.bound = bound;
    const iterOf = this.text(C.iter_of);
    if (iterOf !== undefined) {
      local.iterOf = iterOf;
      let method = this.first(C.iter_index) >= 0 ? "[]" : this.text(C.iter_method);
      // The first or second name of a pair target (`for k, v in by.items()`, `for i, x in enumerate(xs)`).
      if (this.first(C.iter_key) >= 0) method = `${method ?? ""}:0`;
      else if (this.first(C.iter_value) >= 0) method = `${method ?? ""}:1`;
      if (method !== undefined) local.iterMethod = method;
    }
    if (this.first(C.enter) >= 0) local.enter = true;
    if (pname === "local.param") local.isParam = true;
    if (this.first(C.const) >= 0) local.isConst = true;
    const scopeNode = this.first(C.scope);
    if (scopeNode >= 0) local.end = M.end(scopeNode);
    const afterNode = this.first(C.after);
    if (afterNode >= 0) local.from = M.end(afterNode);
    // A call or construct signature of an interface, as written (its type parameters too).
    const sigNode = this.first(C.call_signature);
    if (sigNode >= 0) local.aliasOf = squash(withoutComments(M.text(sigNode)), SIGNATURE_TEXT_CAP);
    const cb = this.first(C.callback);
    if (cb >= 0 && pname === "local.param" && type === undefined) this.callbackSite(local, cb, node);
    this.locals.push(local);
  }

  /**
   * An unannotated parameter of a function written as an argument of a call (`app.get('/', (c) =>
   * …)`): the call's callee as written, the argument's position and count, and the parameter's
   * position — what the compiler types it by (contextually, from the callee's signature).
   */
  private callbackSite(local: Local, cb: number, param: number): void {
    const { M } = this;
    const fn = M.node(cb);
    const args = fn.parent;
    if (args?.type !== "arguments") return;
    const call = args.parent;
    if (call?.type !== "call_expression") return;
    const callee = call.childForFieldName("function");
    if (!callee || (callee.type !== "identifier" && callee.type !== "member_expression")) return;
    const list = args.namedChildren.filter((n): n is Node => n !== null && !n.type.includes("comment"));
    if (list.some((n) => n.type === "spread_element")) return;
    const argIndex = list.findIndex((n) => n.startIndex === fn.startIndex && n.endIndex === fn.endIndex);
    if (argIndex < 0) return;
    let paramIndex = 0;
    if (param !== cb) {
      const p = M.node(param);
      const params = p.parent?.namedChildren.filter((n): n is Node => n !== null && !n.type.includes("comment"));
      paramIndex = params?.findIndex((n) => n.startIndex === p.startIndex) ?? -1;
      if (paramIndex < 0 || params?.[0]?.text.startsWith("this")) return;
    }
    local.argOf = squash(compactCallee(callee, this.source), 400);
    local.argIndex = argIndex;
    local.argCount = list.length;
    local.paramIndex = paramIndex;
  }

  private impl(node: number): void {
    const owner = this.squashed(this.C.owner);
    const trait = this.squashed(this.C.trait);
    const r: ImplRange = { start: this.M.start(node), end: this.M.end(node) };
    if (owner !== undefined) r.owner = owner;
    if (trait !== undefined) r.trait = trait;
    this.impls.push(r);
  }

  finish(path: string, grammar: string): Partial {
    const defsRaw = this.defsRaw;
    // Definitions: sorted by position (outer first), ids assigned, parents by containment.
    defsRaw.sort((a, b) => a.def.start - b.def.start || b.def.end - a.def.end || a.pattern - b.pattern);
    // Pushed, not mapped (as `refs` below): V8's optimised code found a mapped array's map other
    // than the one it was optimised for and deoptimised on nearly every file (--trace-deopt).
    const defs: Def[] = [];
    for (const d of defsRaw) {
      d.def.id = defs.length;
      defs.push(d.def);
    }
    const stack: Def[] = [];
    for (const d of defs) {
      while (stack.length > 0 && stack[stack.length - 1]!.end <= d.start) stack.pop();
      d.parent = stack.length > 0 ? stack[stack.length - 1]!.id : -1;
      stack.push(d);
    }
    if (this.impls.length > 0) ownersFromImpls(defs, this.impls);
    for (const r of this.typeOnly) for (const d of defs) if (r.start <= d.start && d.end <= r.end) d.typeOnly = true;
    if (this.yields.length > 0) {
      const ys = [...this.yields].sort((a, b) => a.at - b.at);
      innermost(defs, ys);
      for (const y of ys) if (y.scope >= 0) defs[y.scope]!.generator = true;
    }

    const refs: Ref[] = [];
    for (const r of this.refsRaw) refs.push(r.ref);
    refs.sort((a, b) => a.at - b.at);
    innermost(defs, refs);
    const locals = returnsOwn(this.locals);
    narrowingsInBindings(locals);
    locals.sort((a, b) => a.at - b.at);
    innermost(defs, locals);
    const scoped = [...this.importScopes].sort((a, b) => a.at - b.at);
    innermost(defs, scoped);
    for (const x of scoped) x.imp.scope = x.scope;

    this.walker?.delete();

    const source = this.source;
    let lines = 1;
    for (let i = source.indexOf("\n"); i !== -1; i = source.indexOf("\n", i + 1)) lines++;

    return {
      path,
      grammar,
      defs,
      refs,
      imports: this.imports,
      exports: this.exports,
      locals,
      syntaxErrors: countErrors(this.tree),
      lines,
    };
  }
}

/** A definition inside an `impl` range takes the innermost range's owner (and trait) unless it names its own. */
function ownersFromImpls(defs: Def[], impls: ImplRange[]): void {
  for (const d of defs) {
    if (d.owner) continue;
    let best: ImplRange | undefined;
    for (const r of impls) if (r.start <= d.start && d.end <= r.end && (!best || r.start >= best.start)) best = r;
    if (best?.owner) {
      d.owner = best.owner;
      if (best.trait) d.trait = best.trait;
    }
  }
}
