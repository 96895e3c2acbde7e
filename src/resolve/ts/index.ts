// The ts resolver family (TypeScript and JavaScript): partials → Module and definition nodes,
// CONTAINS, IMPORTS, EXTENDS / IMPLEMENTS, USES_TYPE, REFERENCES, and CALLS / INSTANTIATES bound
// only by proof (binder.ts); every other call site is a CALLS edge to an UnresolvedRef with a reason.
// The result depends only on the set of partials: modules are built in path order and every
// table is keyed, never ordered by arrival.
import type { Ref } from "../../model/partial.js";
import { FactBuilder, LABEL_OF_KIND, defProps } from "../common.js";
import type { ResolveInput, ResolveOutput } from "../types.js";
import { Binder, REASON, type Val } from "./binder.js";
import { GLOBAL_VALUES } from "./globals.js";
import { type DefInfo, type Mod, TYPE_KINDS, buildModule } from "./module.js";
import { Project } from "./project.js";

const CALL_TARGET: ReadonlySet<string> = new Set(["function", "method", "constructor", "getter", "setter", "field", "class", "constant", "variable"]);
const VALUE_TARGET: ReadonlySet<string> = new Set(["function", "method", "class"]);
const LITERAL_RECEIVERS: ReadonlySet<string> = new Set([
  "string",
  "template_string",
  "number",
  "array",
  "regex",
  "true",
  "false",
]);

export function resolveTs(input: ResolveInput): ResolveOutput {
  const partials = [...input.partials].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const project = new Project(
    partials.map((p) => p.path),
    input.manifests,
    input.treeName,
  );
  const taken = new Map<string, DefInfo>();
  const members = new Map<string, Map<string, DefInfo[]>>();
  const mods: Mod[] = [];
  const byPath = new Map<string, Mod>();
  partials.forEach((p, i) => {
    const mod = buildModule(i, p, project.moduleKey(p.path), taken, members);
    mods.push(mod);
    byPath.set(p.path, mod);
  });
  const binder = new Binder(project, mods, byPath, taken, members);
  const fb = new FactBuilder();
  for (const n of project.notes) fb.notes.push(n);
  for (const mod of mods) {
    // A fold keeps the facts of files it did not change (ResolveInput.emit): their keys still count.
    if (input.emit && !input.emit.has(mod.path)) {
      fb.assume(mod.key);
      for (const info of mod.defs) if (info.key !== undefined && !fb.has(info.key)) fb.assume(info.key);
    } else emitModule(fb, binder, mod);
  }
  return fb.finish();
}

function emitModule(fb: FactBuilder, binder: Binder, mod: Mod): void {
  const p = mod.p;
  fb.node(mod.key, ["Module"], { file: p.path, path: p.path, line: 1, end_line: p.lines });
  // What the module exports is read with no position (not where the last module's refs left it:
  // that made a fold's answer depend on which modules it resolved before).
  binder.at(-1);
  const exported = exportedLocals(binder, mod);
  // Definitions sharing a key (accessor pairs, overloads and their implementation) are one node
  // spanning all of them.
  // A merged interface + class (or function) is labelled by the value; a function keeps its own
  // lines (a class spans the interface too: its members merge into the class's instances).
  const span = new Map<string, [number, number]>();
  const primary = new Map<string, DefInfo>();
  const typeOnly = (x: DefInfo) => x.d.kind === "interface" || x.d.kind === "type";
  for (const info of mod.defs) {
    if (info.key === undefined) continue;
    const p0 = primary.get(info.key);
    if (!p0 || (typeOnly(p0) && !typeOnly(info))) primary.set(info.key, info);
  }
  for (const info of mod.defs) {
    if (info.key === undefined) continue;
    const p0 = primary.get(info.key)!;
    if (p0.d.kind === "function" && typeOnly(info)) continue;
    const prior = span.get(info.key);
    span.set(info.key, prior ? [Math.min(prior[0], info.d.line), Math.max(prior[1], info.d.endLine)] : [info.d.line, info.d.endLine]);
  }
  for (const info of mod.defs) {
    if (info.key === undefined || fb.has(info.key) || primary.get(info.key) !== info) continue;
    const props = defProps(p, info.d);
    const [line, end] = span.get(info.key)!;
    props.line = line;
    props.end_line = end;
    if (info.d.object !== undefined && info.objectPath === "") props.visibility = "exported";
    else if (info.binding && info.d.parent === -1 && exported.has(info)) props.visibility = "exported";
    else if (info.container !== undefined && props.visibility === undefined && info.d.kind !== "constructor") {
      const owner = info.owner >= 0 ? mod.defs[info.owner]!.d.kind : "";
      if (owner === "class") props.visibility = info.d.name.startsWith("#") ? "private" : "public";
    }
    fb.node(info.key, [LABEL_OF_KIND[info.d.kind]], props);
    fb.edge("CONTAINS", containerOf(binder, mod, info), info.key);
  }
  binder.at(-1);
  emitImports(fb, binder, mod);
  emitHeritage(fb, binder, mod);
  for (const ref of p.refs) {
    const src = mod.srcKeys[ref.scope] ?? mod.key;
    binder.at(ref.at);
    switch (ref.kind) {
      case "call":
      case "new":
        bindCall(fb, binder, mod, ref, src);
        break;
      case "value":
        bindValue(fb, binder, mod, ref, src);
        break;
      case "type":
        bindType(fb, binder, mod, ref, src);
        break;
      default:
        break;
    }
  }
}

/** The node a definition hangs from: its keyed container, else the module. */
function containerOf(binder: Binder, mod: Mod, info: DefInfo): string {
  if (info.container !== undefined && binder.byKey.has(info.container)) return info.container;
  if (info.d.object !== undefined) return mod.key;
  const ks = info.owner >= 0 ? mod.keyedScope(info.owner) : -1;
  return ks >= 0 ? mod.defs[ks]!.key! : mod.key;
}

/** Module-level bindings the module exports (ESM `export`, CommonJS `module.exports = x`). */
function exportedLocals(binder: Binder, mod: Mod): Set<DefInfo> {
  const out = new Set<DefInfo>();
  for (const local of mod.exportLocal.values()) {
    const b = binder.lookup(mod, -1, local, false);
    if (b.k === "def") out.add(b.d);
  }
  const dflt = mod.bindings.get(-1)?.get("default");
  if (dflt) for (const d of dflt) out.add(d);
  return out;
}

function emitImports(fb: FactBuilder, binder: Binder, mod: Mod): void {
  const seen = new Set<string>();
  const edge = (source: string, line: number) => {
    if (seen.has(source)) return;
    seen.add(source);
    const t = binder.project.resolve(mod.path, source);
    if (t.kind === "file") {
      const target = binder.byPath.get(t.path);
      if (target && target !== mod) fb.edge("IMPORTS", mod.key, target.key, { line, _ref: source });
    } else if (t.kind === "external") fb.edge("IMPORTS", mod.key, fb.external(t.key), { line, _ref: source });
  };
  const sites = [
    ...mod.p.imports.map((i) => ({ source: i.source, line: i.line })),
    ...mod.p.exports.filter((e) => e.source).map((e) => ({ source: e.source!, line: e.line })),
  ].sort((a, b) => a.line - b.line);
  for (const s of sites) edge(s.source, s.line);
}

function emitHeritage(fb: FactBuilder, binder: Binder, mod: Mod): void {
  for (const info of mod.defs) {
    const d = info.d;
    if (info.key === undefined || (d.kind !== "class" && d.kind !== "interface")) continue;
    const clauses: [string, string, boolean][] = [
      ...(d.extends ?? []).map((t): [string, string, boolean] => ["EXTENDS", t, d.kind === "interface"]),
      ...(d.implements ?? []).map((t): [string, string, boolean] => ["IMPLEMENTS", t, true]),
    ];
    for (const [type, text, typeSpace] of clauses) {
      const s = binder.heritage(mod, d.parent, text, typeSpace);
      const ref: Ref = { kind: "type", name: text, text, line: d.line, scope: d.parent, at: d.start };
      if (s.k === "def" && s.d.key !== undefined) fb.bound(type, info.key, s.d.key, ref, viaImport(binder, mod, d.parent, text) ? "import" : "scope");
      else if (s.k === "ext") fb.bound(type, info.key, fb.external(s.key), ref, "import");
    }
  }
}

/** Whether the head name of `text` reaches its definition through an import. */
function viaImport(binder: Binder, mod: Mod, scope: number, text: string): boolean {
  const head = /^[A-Za-z_$][\w$]*/.exec(text)?.[0];
  if (!head) return false;
  return binder.lookup(mod, scope, head).k === "import";
}

/** What a call / `new` site binds to. */
type Outcome =
  | { k: "bound"; dst: DefInfo; by: string; medium: boolean }
  | { k: "ext"; key: string; by: string }
  | { k: "unresolved"; reason: string };

const unresolved = (reason: string): Outcome => ({ k: "unresolved", reason });

function bindCall(fb: FactBuilder, binder: Binder, mod: Mod, ref: Ref, src: string): void {
  const o = callOutcome(binder, mod, ref);
  const type = ref.kind === "new" ? "INSTANTIATES" : "CALLS";
  if (o.k === "bound") {
    const d = o.dst;
    const kind = d.d.kind;
    let reason: string | undefined;
    if (d.key === undefined) reason = REASON.ambiguous(2);
    else if (ref.kind === "new" ? kind !== "class" && kind !== "function" : !CALL_TARGET.has(kind)) reason = REASON.dynamic;
    if (reason !== undefined || d.key === undefined) fb.unresolved(src, mod.path, ref, reason ?? REASON.dynamic);
    else {
      const by = ref.kind === "new" && (o.by === "import" || o.by === "scope") ? "class" : o.by;
      fb.bound(type, src, d.key, ref, by, o.medium ? "medium" : "high");
    }
  } else if (o.k === "ext") fb.bound(type, src, fb.external(o.key), ref, o.by);
  else fb.unresolved(src, mod.path, ref, o.reason);
}

function callOutcome(binder: Binder, mod: Mod, ref: Ref): Outcome {
  if (!ref.name) return unresolved(REASON.dynamic);
  if (ref.name === "super" && ref.receiver === undefined) return superOutcome(binder, mod, ref);
  if (ref.name === "this" && ref.receiver === undefined) {
    // `new this()` in a static member: the class itself.
    const t = binder.thisVal(mod, ref.scope);
    return t.k === "def" && t.d.d.kind === "class" ? { k: "bound", dst: t.d, by: "this", medium: false } : unresolved(REASON.receiver);
  }
  if (ref.receiver === undefined) {
    const b = binder.lookup(mod, ref.scope, ref.name);
    switch (b.k) {
      case "def":
        return { k: "bound", dst: b.d, by: "scope", medium: false };
      case "import": {
        const r = binder.resolveImport(mod, b.imp);
        if (r.k === "def") return { k: "bound", dst: r.d, by: "import", medium: false };
        if (r.k === "ext") return { k: "ext", key: r.key, by: "import" };
        if (r.k === "local") return aliasOutcome(binder.constAlias(r.mod, r.locals, -1), "import");
        if (r.k === "mod") {
          // `const f = require("./f"); f()`: the module's `module.exports = ...` value.
          const dflt = binder.exportOf(r.mod, "default");
          if (dflt.k === "def") return { k: "bound", dst: dflt.d, by: "import", medium: false };
          return unresolved(dflt.k === "fail" ? dflt.reason : REASON.dynamic);
        }
        return unresolved(r.k === "fail" ? r.reason : REASON.dynamic);
      }
      case "local":
        return aliasOutcome(binder.constAlias(mod, b.locals, b.scope), "alias");
      case "ambiguous":
        return unresolved(REASON.ambiguous(b.n));
      case "none":
        return unresolved(GLOBAL_VALUES.has(ref.name) ? REASON.builtin : REASON.notInScope);
    }
  }
  if (ref.receiverKind !== undefined && LITERAL_RECEIVERS.has(ref.receiverKind)) return unresolved(REASON.builtin);
  const recv = binder.evalText(mod, ref.scope, ref.receiver);
  const m = binder.member(recv, ref.name);
  const by = ruleOf(ref, recv);
  switch (m.k) {
    case "found":
      return { k: "bound", dst: m.d, by, medium: m.medium };
    case "ext":
      return { k: "ext", key: m.key, by: by === "this" || by === "super" ? by : "import" };
    case "builtin":
      return unresolved(REASON.builtin);
    case "fail":
      return unresolved(m.reason);
  }
}

/** A call through a const alias of a function (`const create = ZodObject.create; create()`). */
function aliasOutcome(v: Val | undefined, by: string): Outcome {
  if (v?.k === "def") return { k: "bound", dst: v.d, by, medium: false };
  if (v?.k === "ext") return { k: "ext", key: v.key, by };
  return unresolved(REASON.dynamic);
}

/** The rule that proved a member call: `this`, `super`, a class's static member, a module namespace, a typed receiver. */
function ruleOf(ref: Ref, recv: Val): string {
  if (ref.receiverKind === "this") return "this";
  if (ref.receiverKind === "super") return "super";
  if (recv.k === "def" && recv.d.d.kind === "class") return "class";
  if (recv.k === "mod") return "import";
  return "receiver";
}

/** `super(...)`: the nearest constructor declared up the in-tree `extends` chain. */
function superOutcome(binder: Binder, mod: Mod, ref: Ref): Outcome {
  const c = binder.enclosingClass(mod, ref.scope);
  if (!c) return unresolved(REASON.receiver);
  const sup = binder.supertypes(c.cls)[0];
  if (!sup || sup.k === "unknown") return unresolved(REASON.receiver);
  if (sup.k === "ext") return { k: "ext", key: `${sup.key}.constructor`, by: "super" };
  const m = binder.typeMember(sup.d, "constructor", false);
  if (m.k === "found") return { k: "bound", dst: m.d, by: "super", medium: false };
  if (m.k === "ext") return { k: "ext", key: m.key, by: "super" };
  return unresolved(m.k === "fail" ? m.reason : REASON.receiver);
}

/** A function passed as a value: REFERENCES when the name or member provably denotes a function, method or class. */
function bindValue(fb: FactBuilder, binder: Binder, mod: Mod, ref: Ref, src: string): void {
  if (!ref.name) return;
  let d: DefInfo | undefined;
  let by = "scope";
  if (ref.receiver === undefined) {
    const b = binder.lookup(mod, ref.scope, ref.name);
    if (b.k === "def") d = b.d;
    else if (b.k === "import") {
      const r = binder.resolveImport(mod, b.imp);
      if (r.k === "def") {
        d = r.d;
        by = "import";
      }
    }
  } else {
    const recv = binder.evalText(mod, ref.scope, ref.receiver);
    const m = binder.member(recv, ref.name);
    if (m.k === "found") {
      d = m.d;
      by = ruleOf(ref, recv);
    }
  }
  if (d?.key === undefined || !VALUE_TARGET.has(d.d.kind) || d.key === src) return;
  fb.bound("REFERENCES", src, d.key, ref, by);
}

/** A type named in an annotation: USES_TYPE to the class, interface, alias or enum in the tree. */
function bindType(fb: FactBuilder, binder: Binder, mod: Mod, ref: Ref, src: string): void {
  if (!ref.name) return;
  let d: DefInfo | undefined;
  let by = "scope";
  if (ref.receiver !== undefined) {
    const ns = binder.evalText(mod, ref.scope, ref.receiver);
    if (ns.k === "mod") {
      const r = binder.exportOf(ns.mod, ref.name);
      if (r.k === "def") d = r.d;
      by = "import";
    }
  } else {
    const b = binder.lookupType(mod, ref.scope, ref.name);
    if (b.k === "def") d = b.d;
    else if (b.k === "import") {
      const r = binder.resolveImport(mod, b.imp);
      if (r.k === "def") d = r.d;
      by = "import";
    }
  }
  if (d?.key === undefined || !TYPE_KINDS.has(d.d.kind) || d.d.kind === "module" || d.key === src) return;
  fb.bound("USES_TYPE", src, d.key, ref, by);
}
