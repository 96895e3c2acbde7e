// One file's syntax tree + its plugin's query → the per-file partial (model/partial.ts).
// Generic over languages: the capture vocabulary (plugins/README.md) says what each match is;
// containment (which definition a reference or a local falls in) is computed here from ranges.
import type { Node, Query, QueryCapture, Tree, TreeCursor } from "web-tree-sitter";
import type { Def, DefKind, Export, Import, Local, Partial, Ref, RefKind } from "../model/partial.js";

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

const SIGNATURE_CAP = 300;
const DOC_CAP = 2000;

const SPACE = /\s/;

function squash(text: string, cap: number): string {
  // Without whitespace, the replace and the trim change nothing: skip them (most texts).
  const s = SPACE.test(text) ? text.replace(/\s+/g, " ").trim() : text;
  return s.length > cap ? `${s.slice(0, cap - 1)}…` : s;
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

function has(caps: Caps, name: string): boolean {
  for (let i = 0; i < caps.length; i++) if (caps[i]!.name === name) return true;
  return false;
}

/** Every node captured as `name`, in capture order; undefined when none. */
function all(caps: Caps, name: string): Node[] | undefined {
  let out: Node[] | undefined;
  for (let i = 0; i < caps.length; i++) if (caps[i]!.name === name) (out ??= []).push(caps[i]!.node);
  return out;
}

function text(caps: Caps, name: string): string | undefined {
  const n = first(caps, name);
  return n ? n.text : undefined;
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
      name === "impl";
    PRIMARY.set(name, v);
  }
  return v;
}
const PRIMARY = new Map<string, boolean>();

function precedingDoc(node: Node, cfg: DocConfig): string | undefined {
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
    parts.unshift(prev.text);
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

/** The reference as written: `@callee`, else the callee field of a call / new, else the text before the arguments. */
function refText(caps: Caps, node: Node, source: string): string {
  const callee = first(caps, "callee") ?? node.childForFieldName("function") ?? node.childForFieldName("constructor");
  if (callee) return callee.text;
  const args = first(caps, "arguments");
  if (args && args.startIndex > node.startIndex) return source.slice(node.startIndex, args.startIndex);
  return node.text;
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

/** Turn one parsed file into its partial. Pure: depends only on the tree, the query and the text. */
export function extractTree(
  tree: Tree,
  query: Query,
  source: string,
  path: string,
  grammar: string,
  doc: DocConfig = {},
): Partial {
  const defsRaw: { def: Def; node: Node; pattern: number }[] = [];
  const seenDef = new Map<number, number>();
  const refsRaw: { ref: Ref; hasName: boolean }[] = [];
  // Reference sites seen, per kind: node id → index in refsRaw.
  const seenRef = new Map<string, Map<number, number>>();
  const imports: Import[] = [];
  const exports: Export[] = [];
  const locals: Local[] = [];
  const impls: (Range & { owner?: string; trait?: string })[] = [];
  const importScopes: { imp: Import; at: number; scope: number }[] = [];
  // One cursor for every child count of this tree, deleted at the end.
  let walker: TreeCursor | undefined;
  const cursor = (): TreeCursor => (walker ??= tree.walk());

  const parentPreds = parentPredicates(query);

  for (const m of query.matches(tree.rootNode)) {
    const caps: Caps = m.captures;
    const pp = parentPreds[m.patternIndex];
    if (pp && !parentIs(caps, pp)) continue;
    let primary: QueryCapture | undefined;
    for (const c of caps) {
      if (isPrimary(c.name)) {
        primary = c;
        break;
      }
    }
    if (!primary) continue;
    const node = primary.node;
    const pname = primary.name;

    if (pname.startsWith("definition.")) {
      const kind = pname.slice("definition.".length);
      if (!DEF_KINDS.has(kind)) continue;
      if (seenDef.has(node.id)) continue;
      const name = text(caps, "name");
      if (!name) continue;
      const start = node.startIndex;
      const end = node.endIndex;
      const body = first(caps, "body");
      let sigText: string;
      if (body) sigText = source.slice(start, body.startIndex);
      else {
        // The node's first line.
        const nl = source.indexOf("\n", start);
        sigText = source.slice(start, nl === -1 || nl > end ? end : nl);
      }
      const docNodes = all(caps, "doc");
      const docText = docNodes ? docNodes.map((d) => d.text).join("\n") : precedingDoc(node, doc);
      const def: Def = {
        id: -1,
        kind: kind as DefKind,
        name,
        parent: -1,
        line: node.startPosition.row + 1,
        endLine: node.endPosition.row + 1,
        start,
        end,
      };
      const sig = squash(sigText, SIGNATURE_CAP);
      if (sig) def.signature = sig;
      if (docText) def.doc = docText.length > DOC_CAP ? `${docText.slice(0, DOC_CAP - 1)}…` : docText;
      const vis = text(caps, "visibility");
      if (has(caps, "exported")) def.visibility = "exported";
      else if (vis) def.visibility = squash(vis, 40);
      if (has(caps, "async")) def.isAsync = true;
      if (has(caps, "static")) def.isStatic = true;
      const returns = text(caps, "returns");
      if (returns) def.returns = squash(returns.replace(/^:\s*/, ""), 200);
      const type = text(caps, "type");
      if (type) def.type = squash(type.replace(/^:\s*/, ""), 200);
      const owner = text(caps, "owner");
      if (owner) def.owner = squash(owner, 200);
      const trait = text(caps, "trait");
      if (trait) def.trait = squash(trait, 200);
      const arity = countNamed(first(caps, "params"), cursor);
      if (arity !== undefined) def.arity = arity;
      const ext = all(caps, "extends");
      if (ext) def.extends = ext.map((n) => squash(n.text, 200));
      const impl = all(caps, "implements");
      if (impl) def.implements = impl.map((n) => squash(n.text, 200));
      const decos = all(caps, "decorator");
      if (decos) def.decorators = decos.map((n) => squash(n.text, 200));
      const obj = text(caps, "object");
      if (obj) def.object = squash(obj, 200);
      const value = first(caps, "value");
      if (value) {
        def.valueKind = value.type;
        const callee = value.childForFieldName("function") ?? value.childForFieldName("constructor");
        if (callee) def.valueCallee = squash(callee.text, 200);
      }
      seenDef.set(node.id, defsRaw.length);
      defsRaw.push({ def, node, pattern: m.patternIndex });
      continue;
    }

    if (pname.startsWith("reference.")) {
      const kind = pname.slice("reference.".length);
      if (!REF_KINDS.has(kind)) continue;
      const nameNode = first(caps, "name");
      const recv = first(caps, "receiver");
      const ref: Ref = {
        kind: kind as RefKind,
        name: nameNode ? nameNode.text : "",
        text: squash(refText(caps, node, source), 200),
        line: (nameNode ?? node).startPosition.row + 1,
        scope: -1,
        at: (nameNode ?? node).startIndex,
      };
      if (recv) {
        ref.receiver = squash(recv.text, 200);
        ref.receiverKind = recv.type;
      }
      const arity = countNamed(first(caps, "arguments"), cursor);
      if (arity !== undefined) ref.arity = arity;
      let seen = seenRef.get(kind);
      if (!seen) {
        seen = new Map();
        seenRef.set(kind, seen);
      }
      const prior = seen.get(node.id);
      if (prior !== undefined) {
        // The same site matched twice: keep the reading that names its target.
        if (!refsRaw[prior]!.hasName && nameNode) refsRaw[prior] = { ref, hasName: true };
        continue;
      }
      seen.set(node.id, refsRaw.length);
      refsRaw.push({ ref, hasName: nameNode !== undefined });
      continue;
    }

    if (pname === "import" || pname.startsWith("import.")) {
      const src = text(caps, "source");
      const form = pname === "import" ? "import" : pname.slice("import.".length);
      const base = { source: src === undefined ? "" : unquote(src), form, line: node.startPosition.row + 1, scope: -1 };
      const named = text(caps, "name");
      const alias = text(caps, "alias");
      const def = text(caps, "default");
      const ns = text(caps, "namespace");
      const out: Import[] = [];
      if (named !== undefined) out.push({ ...base, imported: named, local: alias ?? named });
      if (def !== undefined) out.push({ ...base, imported: "default", local: def });
      if (ns !== undefined) out.push({ ...base, imported: "*", local: ns });
      if (has(caps, "wildcard")) out.push({ ...base, imported: "*", local: "", wildcard: true });
      if (out.length === 0) out.push({ ...base, imported: "*", local: alias ?? "" });
      for (const imp of out) {
        if (has(caps, "static")) imp.isStatic = true;
        imports.push(imp);
        importScopes.push({ imp, at: node.startIndex, scope: -1 });
      }
      continue;
    }

    if (pname === "export") {
      const line = node.startPosition.row + 1;
      const src = text(caps, "source");
      const name = text(caps, "name");
      const alias = text(caps, "alias");
      const ns = text(caps, "namespace");
      const dflt = text(caps, "default");
      if (has(caps, "star")) exports.push({ name: "*", source: src ? unquote(src) : "", star: true, line });
      else if (ns !== undefined && src !== undefined)
        exports.push({ name: ns, source: unquote(src), imported: "*", line });
      else if (name !== undefined && src !== undefined)
        exports.push({ name: alias ?? name, source: unquote(src), imported: name, line });
      else if (name !== undefined) exports.push({ name: alias ?? name, local: name, line });
      else if (dflt !== undefined) exports.push({ name: "default", local: dflt, line });
      continue;
    }

    if (pname === "local" || pname === "local.param") {
      const name = text(caps, "name");
      if (!name) continue;
      const local: Local = { name, scope: -1, line: node.startPosition.row + 1, at: node.startIndex };
      const type = text(caps, "type");
      if (type) local.type = squash(type.replace(/^:\s*/, ""), 200);
      const newOf = text(caps, "new");
      if (newOf) local.newOf = squash(newOf, 200);
      const callOf = text(caps, "call");
      if (callOf) local.callOf = squash(callOf, 200);
      const callRecv = text(caps, "call_receiver");
      if (callRecv) local.callReceiver = squash(callRecv, 200);
      const aliasOf = text(caps, "alias_of");
      if (aliasOf) local.aliasOf = squash(aliasOf, 200);
      if (pname === "local.param") local.isParam = true;
      const scopeNode = first(caps, "scope");
      if (scopeNode) local.end = scopeNode.endIndex;
      const afterNode = first(caps, "after");
      if (afterNode) local.from = afterNode.endIndex;
      locals.push(local);
      continue;
    }

    if (pname === "impl") {
      const owner = text(caps, "owner");
      const trait = text(caps, "trait");
      const r: Range & { owner?: string; trait?: string } = { start: node.startIndex, end: node.endIndex };
      if (owner) r.owner = squash(owner, 200);
      if (trait) r.trait = squash(trait, 200);
      impls.push(r);
    }
  }

  // Definitions: sorted by position (outer first), ids assigned, parents by containment.
  defsRaw.sort((a, b) => a.def.start - b.def.start || b.def.end - a.def.end || a.pattern - b.pattern);
  const defs = defsRaw.map((d, i) => {
    d.def.id = i;
    return d.def;
  });
  const stack: Def[] = [];
  for (const d of defs) {
    while (stack.length > 0 && stack[stack.length - 1]!.end <= d.start) stack.pop();
    d.parent = stack.length > 0 ? stack[stack.length - 1]!.id : -1;
    stack.push(d);
  }
  if (impls.length > 0) {
    for (const d of defs) {
      if (d.owner) continue;
      let best: (typeof impls)[number] | undefined;
      for (const r of impls)
        if (r.start <= d.start && d.end <= r.end && (!best || r.start >= best.start)) best = r;
      if (best?.owner) {
        d.owner = best.owner;
        if (best.trait) d.trait = best.trait;
      }
    }
  }

  const refs = refsRaw.map((r) => r.ref).sort((a, b) => a.at - b.at);
  innermost(defs, refs);
  locals.sort((a, b) => a.at - b.at);
  innermost(defs, locals);
  const scoped = [...importScopes].sort((a, b) => a.at - b.at);
  innermost(defs, scoped);
  for (const x of scoped) x.imp.scope = x.scope;

  walker?.delete();

  let lines = 1;
  for (let i = source.indexOf("\n"); i !== -1; i = source.indexOf("\n", i + 1)) lines++;

  return {
    path,
    grammar,
    defs,
    refs,
    imports,
    exports,
    locals,
    syntaxErrors: countErrors(tree),
    lines,
  };
}
