// Facts from the rust model: Module nodes, definitions, CONTAINS, IMPORTS, IMPLEMENTS, EXTENDS,
// and every reference bound by a rule the source proves (or left as an UnresolvedRef with a
// reason). The rules and reasons are listed in plugins/rust/README.md.
import type { Props } from "../../model/facts.js";
import type { Ref } from "../../model/partial.js";
import { type Confidence, type FactBuilder, LABEL_OF_KIND, defProps } from "../common.js";
import { type Ctx, type DefRef, FN_KINDS, type FileInfo, type Mod, type Res, type Target, TYPE_KINDS, def } from "./model.js";
import { PRELUDE_CONSTRUCTORS, STD_MACROS } from "./prelude.js";
import { type RustResolver, extTypeKey, lastSeg } from "./resolver.js";
import { parseType, pathSegments } from "./text.js";

const stripRaw = (s: string) => s.replace(/^r#/, "");

export function emitFacts(r: RustResolver, fb: FactBuilder): void {
  emitModules(r, fb);
  for (const f of r.files) emitDefs(r, fb, f);
  for (const f of r.files) emitImpls(r, fb, f);
  emitImports(r, fb);
  for (const f of r.files) for (const ref of f.p.refs) bindRef(r, fb, f, ref);
}

/** Line doc comments come with their line ends: one line per comment line, none blank. */
function cleanDoc(doc: string): string {
  return doc
    .split("\n")
    .map((l) => l.trimEnd())
    .filter((l) => l !== "")
    .join("\n");
}

function emitModules(r: RustResolver, fb: FactBuilder): void {
  for (const m of r.mods) {
    if (!m.file) continue;
    const p = m.file.p;
    if (m.defId < 0) {
      const props: Props = { file: p.path, line: 1, end_line: p.lines, path: p.path, crate: m.crate.name };
      fb.node(m.key, ["Module"], props);
    } else {
      const d = p.defs[m.defId]!;
      const props: Props = { ...defProps(p, d), crate: m.crate.name };
      if (d.doc) props.doc_comment = cleanDoc(d.doc);
      fb.node(m.key, ["Module"], props);
    }
    if (m.parent?.file) fb.edge("CONTAINS", m.parent.key, m.key);
  }
}

function emitDefs(r: RustResolver, fb: FactBuilder, f: FileInfo): void {
  const defs = f.p.defs;
  for (const d of defs) {
    if (d.kind === "module" || d.name === "_") continue;
    const key = r.keyOf({ f, id: d.id });
    const label = LABEL_OF_KIND[d.kind] ?? "Function";
    const props = defProps(f.p, d);
    if (d.doc) props.doc_comment = cleanDoc(d.doc);
    if (f.implMember[d.id]) {
      const info = r.implInfo(f, d);
      if (info.traitKey !== undefined) props.trait = info.traitKey;
      props.owner = info.ownerDef ? r.keyOf(info.ownerDef) : info.ownerKey;
    }
    if (d.kind === "macro") props.kind = "macro";
    if (d.kind === "field" && d.parent >= 0 && defs[d.parent]!.kind === "enum") props.kind = "variant";
    fb.node(key, [label], props);
    let container: string;
    if (f.implMember[d.id]) {
      const info = r.implInfo(f, d);
      container = info.ownerDef ? r.keyOf(info.ownerDef) : r.modAt(f, d.parent).key;
    } else if (d.parent < 0 || defs[d.parent]!.kind === "module") container = r.modAt(f, d.parent).key;
    else container = srcOf(r, f, d.parent);
    fb.edge("CONTAINS", container, key);
  }
}

/** IMPLEMENTS (a type → each trait it implements) and EXTENDS (a trait → its supertraits). */
function emitImpls(r: RustResolver, fb: FactBuilder, f: FileInfo): void {
  for (const h of f.impls) {
    const trait = h.trait ?? "";
    const info = r.computeImplCached(f, h.scope, h.owner, trait);
    let src: string | undefined;
    if (info.ownerDef) src = r.keyOf(info.ownerDef);
    else if (info.ownerT?.t.t === "ext" && !info.ownerT.traitObject) src = fb.external(`rust:${info.ownerT.t.path}`);
    if (!src) continue;
    const shape = parseType(trait);
    const res = shape ? r.resolvePath(shape.path, "type", r.ctxAt(f, h.scope)) : undefined;
    let dst: string | undefined;
    if (info.traitDef) dst = r.keyOf(info.traitDef);
    else if (info.traitExt) dst = fb.external(`rust:${info.traitExt}`);
    if (!dst) continue;
    fb.edge("IMPLEMENTS", src, dst, {
      line: h.line,
      _ref: trait,
      _resolved_by: res?.by || "scope",
      _confidence: res?.medium ? "medium" : "high",
    });
  }
  for (const dv of f.derives) {
    const src = r.keyOf({ f, id: dv.typeId });
    for (const d of r.derived.get(src) ?? []) {
      if (d.f !== f || d.line !== dv.line) continue;
      fb.edge("IMPLEMENTS", src, fb.external(`rust:${d.path}`), {
        line: d.line,
        _ref: `derive(${d.written})`,
        _resolved_by: "derive",
        _confidence: "high",
      });
    }
  }
  for (const d of f.p.defs) {
    if (d.kind !== "trait" || !d.extends) continue;
    const src = r.keyOf({ f, id: d.id });
    const ctx = r.ctxAt(f, d.parent);
    for (const ext of d.extends) {
      for (const bound of ext.replace(/^:\s*/, "").split("+")) {
        const b = bound.trim();
        if (!b || b.startsWith("'") || b.startsWith("?")) continue;
        const shape = parseType(b);
        if (!shape) continue;
        const res = r.resolvePath(shape.path, "type", ctx);
        if (res.targets.length !== 1) continue;
        const t = res.targets[0]!;
        let dst: string | undefined;
        if (t.t === "def" && def(t.d).kind === "trait") dst = r.keyOf(t.d);
        else if (t.t === "ext") dst = fb.external(`rust:${t.path}`);
        if (!dst) continue;
        fb.edge("EXTENDS", src, dst, { line: d.line, _ref: b, _resolved_by: res.by, _confidence: res.medium ? "medium" : "high" });
      }
    }
  }
}

function emitImports(r: RustResolver, fb: FactBuilder): void {
  for (const b of r.bindings) {
    const { f, scope } = b.ctx;
    const fn = r.fnOf(f, scope);
    const src = fn >= 0 ? r.keyOf({ f, id: fn }) : b.ctx.mod.key;
    const written = b.leaf.path.join("::").replace(/^::/, "::") + (b.leaf.glob ? "::*" : "");
    const seen = new Set<string>();
    for (const ns of ["type", "value", "macro"] as const) {
      for (const t of r.resolveBinding(b, ns)) {
        if (t.t === "ext" && ns !== "type" && r.resolveBinding(b, "type").length > 0) continue;
        const dst = dstOf(r, fb, t, ns === "macro");
        if (seen.has(dst)) continue;
        seen.add(dst);
        fb.edge("IMPORTS", src, dst, {
          line: b.line,
          _ref: written,
          _resolved_by: "import",
          _confidence: t.t === "ext" && t.unverified ? "medium" : "high",
        });
      }
    }
  }
}

/** The node a target stands for (an External stand-in is created on demand). */
function dstOf(r: RustResolver, fb: FactBuilder, t: Target, macro = false): string {
  if (t.t === "ext") return fb.external(`rust:${t.path}${macro ? "!" : ""}`);
  return r.targetKey(t);
}

/** The node a reference comes from: its innermost definition (an anonymous `const _` gives way to its container). */
function srcOf(r: RustResolver, f: FileInfo, scope: number): string {
  let s = scope;
  while (s >= 0 && f.p.defs[s]!.name === "_") s = f.p.defs[s]!.parent;
  if (s < 0) return f.mod.key;
  return f.p.defs[s]!.kind === "module" ? r.modAt(f, s).key : r.keyOf({ f, id: s });
}

function bindRef(r: RustResolver, fb: FactBuilder, f: FileInfo, ref: Ref) {
  const src = srcOf(r, f, ref.scope);
  const ctx = r.ctxAt(f, ref.scope);
  switch (ref.kind) {
    case "call":
      return bindCall(r, fb, f, ctx, src, ref);
    case "new":
      return bindNew(r, fb, f, ctx, src, ref);
    case "macro":
      return bindMacro(r, fb, f, ctx, src, ref);
    case "value":
      return bindValue(r, fb, f, ctx, src, ref);
    case "type":
      return bindType(r, fb, f, ctx, src, ref);
  }
}

type Shape = "bare" | "path" | "method" | "unknown";

function shapeOf(ref: Ref): Shape {
  if (ref.receiver === undefined) return "bare";
  if (ref.text.startsWith(ref.receiver)) {
    const rest = ref.text.slice(ref.receiver.length).trimStart();
    if (rest.startsWith("::")) return "path";
    if (rest.startsWith(".")) return "method";
  }
  return "unknown";
}

function confidenceOf(res: { medium?: boolean }, t: Target): Confidence {
  return res.medium || (t.t === "ext" && t.unverified) ? "medium" : "high";
}

/**
 * A call's text is its callee as written: `f`, `a::f`, `x.m`, perhaps with a turbofish. A call read
 * from a macro's token tree whose text shows anything else between the name and its `(`
 * (`a + (b)`, `m!(..)`, `x = (..)`) was not a call.
 */
function wellFormed(ref: Ref): boolean {
  const text = ref.text.replace(/\s+/g, "");
  const tail = (rest: string) => rest === ref.name || rest.startsWith(`${ref.name}::<`);
  if (ref.receiver === undefined) return tail(text);
  const recv = ref.receiver.replace(/\s+/g, "");
  if (!text.startsWith(recv)) return true; // capped texts: nothing to check
  const rest = text.slice(recv.length);
  return (rest.startsWith(".") && tail(rest.slice(1))) || (rest.startsWith("::") && tail(rest.slice(2)));
}

function bindCall(r: RustResolver, fb: FactBuilder, f: FileInfo, ctx: Ctx, src: string, ref: Ref) {
  const name = stripRaw(ref.name);
  if (!name) return fb.unresolved(src, f.p.path, ref, "dynamic call");
  if (!wellFormed(ref)) return;
  const shape = shapeOf(ref);
  if (shape === "bare") {
    if (r.isLocal(f, ref.scope, name, ref.at)) return fb.unresolved(src, f.p.path, ref, "dynamic call");
    const res = r.lookupName(name, "value", ctx);
    return emitCall(r, fb, f, src, ref, res, res.by);
  }
  if (shape === "path") {
    const recv = ref.receiver!;
    if (recv.startsWith("<")) return bindQualified(r, fb, f, ctx, src, ref, recv, name);
    const segs = pathSegments(recv);
    if (!segs) return fb.unresolved(src, f.p.path, ref, "not defined in scope");
    if (segs.length === 1) {
      // `T::f()` on a generic parameter: a method of its bounds.
      const g = r.genericType(segs[0]!, ctx);
      if (g !== "none") {
        if (!g) return fb.unresolved(src, f.p.path, ref, "receiver type unknown");
        const m = r.methodOf(g, name);
        return emitCall(r, fb, f, src, ref, { targets: m.targets, by: "class", medium: true, ...(m.reason ? { reason: m.reason } : {}) }, "class");
      }
    }
    const res = r.resolvePath([...segs, name], "value", ctx);
    let by = res.by;
    if (res.targets.length === 1) {
      const prefix = segs[0] === "Self" && segs.length === 1 ? undefined : r.resolvePath(segs, "type", ctx);
      const pt = prefix && prefix.targets.length === 1 ? prefix.targets[0]! : undefined;
      if (segs[0] === "Self") by = "self";
      else if (pt?.t === "def" && TYPE_KINDS.has(def(pt.d).kind)) by = "class";
      else if (pt?.t === "mod" && by === "scope") by = "package";
    }
    return emitCall(r, fb, f, src, ref, res, by);
  }
  if (shape === "method") {
    const recvT = r.typeOfExpr(ref.receiver!, ctx, ref.at);
    if (!recvT) return fb.unresolved(src, f.p.path, ref, "receiver type unknown");
    const m = r.methodOf(recvT, name);
    const by = ref.receiver === "self" ? "self" : "receiver";
    const medium = m.medium || recvT.traitObject;
    return emitCall(r, fb, f, src, ref, { targets: m.targets, by, ...(medium ? { medium: true } : {}), ...(m.reason ? { reason: m.reason } : {}) }, by);
  }
  return fb.unresolved(src, f.p.path, ref, "receiver type unknown");
}

/** `<T as Trait>::m(..)` and `<T>::m(..)`. */
function bindQualified(r: RustResolver, fb: FactBuilder, f: FileInfo, ctx: Ctx, src: string, ref: Ref, recv: string, name: string) {
  const m = /^<\s*(.+?)(?:\s+as\s+(.+))?\s*>$/.exec(recv);
  if (!m) return fb.unresolved(src, f.p.path, ref, "not defined in scope");
  const selfT = r.typeFromText(m[1]!, ctx, r.selfType(ctx));
  if (!m[2]) {
    if (!selfT) return fb.unresolved(src, f.p.path, ref, "not defined in scope");
    const found = r.methodOf(selfT, name);
    return emitCall(r, fb, f, src, ref, { targets: found.targets, by: "class", ...(found.medium ? { medium: true } : {}), ...(found.reason ? { reason: found.reason } : {}) }, "class");
  }
  const shape = parseType(m[2]);
  const tr = shape ? r.resolvePath(shape.path, "type", ctx) : undefined;
  const trait = tr && tr.targets.length === 1 ? tr.targets[0]! : undefined;
  if (trait?.t === "def" && def(trait.d).kind === "trait") {
    if (selfT) {
      const typeKey = selfT.t.t === "def" ? r.keyOf(selfT.t.d) : selfT.t.t === "ext" ? extTypeKey(selfT.t.path) : undefined;
      const traitKey = r.keyOf(trait.d);
      const rec = typeKey ? r.implsOf(typeKey).find((x) => x.trait && r.keyOf(x.trait) === traitKey) : undefined;
      const own = rec?.members.get(name);
      if (own) return emitCall(r, fb, f, src, ref, { targets: [{ t: "def", d: own }], by: "class" }, "class");
    }
    const ms = r.traitMethod(trait.d, name);
    if (ms.length === 1) return emitCall(r, fb, f, src, ref, { targets: [{ t: "def", d: ms[0]! }], by: "class", medium: true }, "class");
    return fb.unresolved(src, f.p.path, ref, ms.length > 1 ? `ambiguous: ${ms.length} candidates` : "method not found on type");
  }
  if (trait?.t === "ext") {
    const written = `<${m[1]!.trim()} as ${trait.path}>::${name}`;
    return emitCall(r, fb, f, src, ref, { targets: [{ t: "ext", path: written }], by: "class" }, "class");
  }
  return fb.unresolved(src, f.p.path, ref, tr?.reason ?? "not defined in scope");
}

function emitCall(r: RustResolver, fb: FactBuilder, f: FileInfo, src: string, ref: Ref, res: Res, by: string) {
  const targets = res.targets;
  if (targets.length === 0) return fb.unresolved(src, f.p.path, ref, res.reason ?? "not defined in scope");
  if (targets.length > 1) return fb.unresolved(src, f.p.path, ref, `ambiguous: ${targets.length} candidates`);
  const t = targets[0]!;
  const conf = confidenceOf(res, t);
  if (t.t === "ext") {
    const ctor = t.prelude && PRELUDE_CONSTRUCTORS.has(lastSeg(t.path));
    return fb.bound(ctor ? "INSTANTIATES" : "CALLS", src, fb.external(`rust:${t.path}`), ref, by, conf);
  }
  if (t.t === "mod") return fb.unresolved(src, f.p.path, ref, "not defined in scope");
  const d = def(t.d);
  if (FN_KINDS.has(d.kind)) return fb.bound("CALLS", src, r.keyOf(t.d), ref, by, conf);
  const made = r.typeOfTarget(t);
  if (made && made.t.t === "def" && (d.kind === "struct" || d.kind === "field" || d.kind === "type"))
    return fb.bound("INSTANTIATES", src, r.keyOf(made.t.d), ref, by, conf);
  return fb.unresolved(src, f.p.path, ref, "dynamic call");
}

function bindNew(r: RustResolver, fb: FactBuilder, f: FileInfo, ctx: Ctx, src: string, ref: Ref) {
  const name = stripRaw(ref.name);
  const prefix = ref.receiver !== undefined ? pathSegments(ref.receiver) : [];
  if (!prefix) return fb.unresolved(src, f.p.path, ref, "not defined in scope");
  const segs = [...prefix, name];
  if (segs.length === 1 && segs[0] === "Self") {
    const st = r.selfType(ctx);
    if (st?.t.t === "def" && !st.traitObject) return fb.bound("INSTANTIATES", src, r.keyOf(st.t.d), ref, "self");
    return fb.unresolved(src, f.p.path, ref, "not defined in scope");
  }
  const res = r.resolvePath(segs, "type", ctx);
  if (res.targets.length === 0) return fb.unresolved(src, f.p.path, ref, res.reason ?? "not defined in scope");
  if (res.targets.length > 1) return fb.unresolved(src, f.p.path, ref, `ambiguous: ${res.targets.length} candidates`);
  const t = res.targets[0]!;
  const by = segs[0] === "Self" ? "self" : res.by;
  if (t.t === "ext") return fb.bound("INSTANTIATES", src, fb.external(`rust:${t.path}`), ref, by, confidenceOf(res, t));
  const made = r.typeOfTarget(t);
  if (made?.t.t === "def") return fb.bound("INSTANTIATES", src, r.keyOf(made.t.d), ref, by, confidenceOf(res, t));
  return fb.unresolved(src, f.p.path, ref, "not defined in scope");
}

/** Whether module `inner` is `outer` or nested in it. */
function within(inner: Mod, outer: Mod): boolean {
  for (let m: Mod | undefined = inner; m; m = m.parent) if (m === outer) return true;
  return false;
}

/** macro_rules! textual scope: defined earlier in this file (in this module or an enclosing one), or in an ancestor module's file before its `mod` declaration. */
function textualMacro(r: RustResolver, f: FileInfo, ref: Ref, name: string): DefRef | undefined {
  const mod = r.modAt(f, ref.scope);
  let best: DefRef | undefined;
  for (const d of f.p.defs) {
    if (d.kind !== "macro" || stripRaw(d.name) !== name || d.start >= ref.at) continue;
    if (!within(mod, f.defMod[d.id]!)) continue;
    if (d.parent >= 0 && FN_KINDS.has(f.p.defs[d.parent]!.kind)) {
      const fn = f.p.defs[d.parent]!;
      if (ref.at < fn.start || ref.at >= fn.end) continue;
    }
    if (!best || d.start > def(best).start) best = { f, id: d.id };
  }
  if (best) return best;
  // Up the module tree across files: macros defined before the `mod child;` line.
  let m: Mod | undefined = f.mod;
  while (m?.parent?.file && m.declLine !== undefined) {
    const pf: FileInfo = m.parent.file;
    const parentMod: Mod = m.parent;
    const line: number = m.declLine;
    for (const d of pf.p.defs) {
      if (d.kind !== "macro" || stripRaw(d.name) !== name || d.line >= line) continue;
      if (!within(parentMod, pf.defMod[d.id]!)) continue;
      if (d.parent >= 0 && FN_KINDS.has(pf.p.defs[d.parent]!.kind)) continue;
      if (!best || d.start > def(best).start) best = { f: pf, id: d.id };
    }
    if (best) return best;
    m = parentMod.defId >= 0 ? pf.mod : parentMod;
  }
  return undefined;
}

function bindMacro(r: RustResolver, fb: FactBuilder, f: FileInfo, ctx: Ctx, src: string, ref: Ref) {
  const name = stripRaw(ref.name);
  if (!name) return;
  if (ref.receiver !== undefined) {
    const segs = pathSegments(ref.receiver);
    const res = segs ? r.resolvePath([...segs, name], "macro", ctx) : undefined;
    const t = res && res.targets.length === 1 ? res.targets[0]! : undefined;
    if (t?.t === "def") return fb.bound("INVOKES_MACRO", src, r.keyOf(t.d), ref, res!.by === "scope" ? "package" : res!.by, confidenceOf(res!, t));
    if (t?.t === "ext") return fb.bound("INVOKES_MACRO", src, fb.external(`rust:${t.path}!`), ref, res!.by, confidenceOf(res!, t));
    return fb.bound("INVOKES_MACRO", src, fb.external(`rust:${ref.text.replace(/\s+/g, "")}!`), ref, "extern", "medium");
  }
  const textual = textualMacro(r, f, ref, name);
  if (textual) return fb.bound("INVOKES_MACRO", src, r.keyOf(textual), ref, "scope");
  const res = r.lookupName(name, "macro", ctx);
  if (res.targets.length === 1 && res.by !== "prelude") {
    const t = res.targets[0]!;
    if (t.t === "def") return fb.bound("INVOKES_MACRO", src, r.keyOf(t.d), ref, res.by, confidenceOf(res, t));
    if (t.t === "ext") return fb.bound("INVOKES_MACRO", src, fb.external(`rust:${t.path}!`), ref, res.by, confidenceOf(res, t));
  }
  if (!STD_MACROS.has(name)) {
    const inCrate = ctx.mod.crate.macros.get(name);
    if (inCrate && inCrate.length === 1) return fb.bound("INVOKES_MACRO", src, r.keyOf(inCrate[0]!), ref, "macro_use", "medium");
    return fb.bound("INVOKES_MACRO", src, fb.external(`rust:${name}!`), ref, "extern", "medium");
  }
  return fb.bound("INVOKES_MACRO", src, fb.external(`rust:${name}!`), ref, "prelude");
}

/** A function (or const / static) named as a value: REFERENCES when the source proves which. */
function bindValue(r: RustResolver, fb: FactBuilder, f: FileInfo, ctx: Ctx, src: string, ref: Ref) {
  const name = stripRaw(ref.name);
  if (!name) return;
  if (ref.receiver === undefined && r.isLocal(f, ref.scope, name, ref.at)) return;
  const prefix = ref.receiver !== undefined ? pathSegments(ref.receiver) : [];
  if (!prefix) return;
  const res = r.resolvePath([...prefix, name], "value", ctx);
  if (res.targets.length !== 1) return;
  const t = res.targets[0]!;
  if (t.t !== "def") return;
  const d = def(t.d);
  if (!FN_KINDS.has(d.kind) && d.kind !== "constant" && d.kind !== "variable") return;
  const pt = prefix.length > 0 ? r.resolvePath(prefix, "type", ctx).targets : [];
  const by = prefix[0] === "Self" ? "self" : pt.length === 1 && pt[0]!.t === "def" && TYPE_KINDS.has(def(pt[0]!.d).kind) ? "class" : res.by;
  fb.bound("REFERENCES", src, r.keyOf(t.d), ref, by, confidenceOf(res, t));
}

/** A type named in a signature, field, let, cast or type argument: USES_TYPE to an in-tree type or an imported external one. */
function bindType(r: RustResolver, fb: FactBuilder, f: FileInfo, ctx: Ctx, src: string, ref: Ref) {
  if (ref.scope < 0 || f.p.defs[ref.scope]!.kind === "module") return; // impl headers: IMPLEMENTS says it
  const name = stripRaw(ref.name);
  const prefix = ref.receiver !== undefined ? pathSegments(ref.receiver) : [];
  if (!prefix || (prefix.length === 0 && name === "Self")) return;
  const res = r.resolvePath([...prefix, name], "type", ctx);
  if (res.targets.length !== 1) return;
  const t = res.targets[0]!;
  let dst: string | undefined;
  if (t.t === "def" && TYPE_KINDS.has(def(t.d).kind)) dst = r.keyOf(t.d);
  else if (t.t === "ext" && !t.prelude) dst = fb.external(`rust:${t.path}`);
  if (!dst || dst === src) return;
  fb.bound("USES_TYPE", src, dst, ref, prefix[0] === "Self" ? "self" : res.by, confidenceOf(res, t));
}
