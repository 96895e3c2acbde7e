// The go resolver family. Keys: `<module>/<dir>` per package (Module), `<module>/<dir>/<file>.go`
// per file (File), `<module>/<dir>.Ident`, `<module>/<dir>.Type.Method`, `<module>/<dir>.Type.field`.
// Bindings are proofs: package scope (all files of a directory's package), imports (aliases, dot
// imports when exactly one candidate), declared receiver types (parameters, var declarations,
// composite literals, declared results of resolved constructors, struct field types), promotion
// through embedding, interface method sets. Everything else is an UnresolvedRef with a reason
// (plugins/go/README.md lists them); code outside the tree is `External` `go:<import path>.<Name>`.
import type { Props } from "../../model/facts.js";
import type { Def, Ref } from "../../model/partial.js";
import { FactBuilder, LABEL_OF_KIND, defProps } from "../common.js";
import type { ResolveInput, ResolveOutput } from "../types.js";
import { implementsEdges } from "./implements.js";
import { type FileCtx, GoIndex, isTypeDef } from "./model.js";
import { isExported, isIdent, namedType, receiverTypeName } from "./text.js";
import { GoTypes, type St, type TRef } from "./types.js";

export function resolveGo(input: ResolveInput): ResolveOutput {
  const ix = new GoIndex(input.partials, input.manifests, input.treeName);
  const ty = new GoTypes(ix);
  const fb = new FactBuilder();
  const emitted = new Set<string>();

  for (const pkg of ix.pkgs) {
    const props: Props = { name: pkg.name, path: pkg.dir === "" ? "." : pkg.dir, import_path: pkg.importPath };
    fb.node(pkg.key, ["Module"], props);
  }
  for (const f of ix.files) {
    fb.node(f.key, ["File"], { file: f.p.path, path: f.p.path, line: 1, end_line: f.p.lines, package: f.pkg.key });
    fb.edge("CONTAINS", f.pkg.key, f.key);
    for (const d of f.p.defs) {
      const key = f.keys[d.id];
      if (key === undefined || f.noNode[d.id] || emitted.has(key)) continue;
      emitted.add(key);
      fb.node(key, [LABEL_OF_KIND[d.kind]], defNodeProps(f, d));
      fb.edge("CONTAINS", containerOf(ix, f, d), key);
    }
  }

  for (const f of ix.files) {
    for (const b of f.allImports) {
      const props = { line: b.line, _ref: b.path, _resolved_by: "import", _confidence: "high" };
      if (b.pkg) fb.edge("IMPORTS", f.key, b.pkg.key, props);
      else if (!b.missing) fb.edge("IMPORTS", f.key, fb.external(`go:${b.path}`), props);
    }
  }

  // Embedding: EXTENDS from a struct / interface to each type it embeds.
  for (const t of ix.types.values()) {
    for (const e of t.embeds) {
      if (!namedType(e.text)) continue;
      const r = ty.resolveType({ text: e.text, f: t.file, scope: t.def.id, at: e.def.start });
      const props = { line: e.def.line, _ref: e.text };
      if (r?.k === "tree") fb.edge("EXTENDS", t.key, r.t.key, { ...props, _resolved_by: r.by, _confidence: "high" });
      else if (r?.k === "ext")
        fb.edge("EXTENDS", t.key, fb.external(`go:${r.path}.${r.name}`), { ...props, _resolved_by: "import", _confidence: r.conf });
    }
  }

  for (const f of ix.files) bindFile(f, ty, fb);

  implementsEdges(ix, ty, fb);

  for (const n of ix.notes) fb.notes.push(n);
  return fb.finish();
}

function defNodeProps(f: FileCtx, d: Def): Props {
  const props = defProps(f.p, d);
  props.visibility = isExported(d.name) ? "exported" : "unexported";
  if (d.kind === "field") {
    if (d.extends && d.extends.length > 0) props.embedded = true;
    else if (d.type) props.signature = `${d.name} ${d.type}`;
  }
  if (d.kind === "method" && d.owner) props.receiver = d.owner;
  return props;
}

/** Top-level methods live in their receiver type (when the package declares it); other definitions in their parent or file. */
function containerOf(ix: GoIndex, f: FileCtx, d: Def): string {
  if (d.parent < 0) {
    if (d.kind === "method") {
      const recv = receiverTypeName(d.owner);
      const typeKey = recv ? `${f.pkg.key}.${recv}` : undefined;
      if (typeKey && ix.types.has(typeKey)) return typeKey;
    }
    return f.key;
  }
  let a = d.parent;
  while (a >= 0 && (f.keys[a] === undefined || f.noNode[a])) a = f.p.defs[a]!.parent;
  return a >= 0 ? f.keys[a]! : f.key;
}

function bindFile(f: FileCtx, ty: GoTypes, fb: FactBuilder): void {
  const { p } = f;
  const callAt = new Set<number>();
  const qualTypeAt = new Set<number>();
  for (const r of p.refs) {
    if (r.kind === "call" || r.kind === "new") callAt.add(r.at);
    else if (r.kind === "type" && r.receiver !== undefined) qualTypeAt.add(r.at);
  }
  const typeDefStarts = new Set<number>();
  for (const d of p.defs) if (isTypeDef(d)) typeDefStarts.add(d.start);
  for (const r of p.refs) {
    if ((r.kind === "value" || r.kind === "type") && callAt.has(r.at)) continue;
    if (r.kind === "type" && (typeDefStarts.has(r.at) || (r.receiver === undefined && qualTypeAt.has(r.at)))) continue;
    const src = r.scope >= 0 ? f.owner[r.scope]! : f.key;
    switch (r.kind) {
      case "call":
        bindCall(f, ty, fb, src, r);
        break;
      case "new":
        bindTypeUse(f, ty, fb, src, r, "INSTANTIATES");
        break;
      case "type":
        bindTypeUse(f, ty, fb, src, r, "USES_TYPE");
        break;
      case "value":
        bindValue(f, ty, fb, src, r);
        break;
      default:
        break;
    }
  }
}

function bindCall(f: FileCtx, ty: GoTypes, fb: FactBuilder, src: string, r: Ref): void {
  const path = f.p.path;
  if (!r.name) {
    // `(*T)(x)`, `(T)(x)`: a conversion, not a call.
    const conv = /^\((\*?[\p{L}_][\p{L}\p{Nd}_.]*)\)$/u.exec(r.text);
    const t = conv ? ty.resolveType({ text: conv[1]!, f, scope: r.scope, at: r.at }) : undefined;
    if (t) useType(fb, src, t, r, "USES_TYPE");
    else if (!conv || ty.lookup(f, r.scope, r.at, conv[1]!.replace(/^\*/, "")).k !== "typeparam")
      fb.unresolved(src, path, r, "dynamic call");
    return;
  }
  let st: St;
  if (r.receiver !== undefined) {
    referenceReceiverVar(f, ty, fb, src, r);
    const recv = ty.evalText(r.receiver, f, r.scope, r.at);
    if (recv.k === "none") {
      fb.unresolved(src, path, r, recv.why);
      return;
    }
    st = ty.select(recv, r.name);
  } else {
    const found = ty.lookup(f, r.scope, r.at, r.name);
    switch (found.k) {
      case "local":
        fb.unresolved(src, path, r, "dynamic call");
        return;
      case "typeparam":
      case "builtin":
        return;
      case "def":
        st = ty.memberState(found.m, found.by);
        break;
      case "dot":
        if (found.n !== 1) {
          fb.unresolved(src, path, r, `ambiguous: ${found.n} candidates`);
          return;
        }
        st = found.m
          ? ty.memberState(found.m, "import")
          : { k: "ext", key: `go:${found.ext!.path}.${r.name}`, conf: "medium", via: "import" };
        break;
      case "import":
        fb.unresolved(src, path, r, "not defined in scope");
        return;
      case "none":
        fb.unresolved(src, path, r, ty.undefinedReason(f));
        return;
    }
  }
  switch (st.k) {
    case "fn":
      fb.bound("CALLS", src, st.m.key, r, st.via, st.conf);
      return;
    case "var":
      // `hook()` calls what the variable holds; `hooks[i]()` an element of it: not the variable.
      if (r.text.endsWith("]")) fb.unresolved(src, path, r, "dynamic call");
      else fb.bound("CALLS", src, st.m.key, r, st.via);
      return;
    case "type":
      useType(fb, src, st.r, r, "USES_TYPE");
      return;
    case "ext":
      fb.bound("CALLS", src, fb.external(st.key), r, st.via, st.conf);
      return;
    case "field":
      fb.unresolved(src, path, r, "dynamic call");
      return;
    case "none":
      fb.unresolved(src, path, r, st.why);
      return;
    default:
      fb.unresolved(src, path, r, "receiver type unknown");
  }
}

/** A conversion / composite literal / type use bound to its type. */
function useType(fb: FactBuilder, src: string, t: TRef, r: Ref, type: string): void {
  if (t.k === "tree") {
    if (type === "USES_TYPE" && (src === t.t.key || src.startsWith(`${t.t.key}.`))) return;
    fb.bound(type, src, t.t.key, r, t.by);
  } else if (t.k === "ext") fb.bound(type, src, fb.external(`go:${t.path}.${t.name}`), r, "import", t.conf);
}

function bindTypeUse(f: FileCtx, ty: GoTypes, fb: FactBuilder, src: string, r: Ref, type: "INSTANTIATES" | "USES_TYPE"): void {
  const strict = type === "INSTANTIATES";
  const path = f.p.path;
  if (r.receiver !== undefined) {
    const found = ty.lookup(f, r.scope, r.at, r.receiver);
    if (found.k !== "import") {
      if (strict) fb.unresolved(src, path, r, found.k === "none" ? ty.undefinedReason(f) : "not defined in scope");
      return;
    }
    if (found.imp.missing) {
      if (strict) fb.unresolved(src, path, r, `unresolved import ${found.imp.path}`);
      return;
    }
  }
  const t = ty.resolveType({ text: r.receiver !== undefined ? `${r.receiver}.${r.name}` : r.name, f, scope: r.scope, at: r.at });
  if (t) {
    useType(fb, src, t, r, type);
    return;
  }
  if (!strict) return;
  if (r.receiver === undefined) {
    const found = ty.lookup(f, r.scope, r.at, r.name);
    if (found.k === "local" || found.k === "typeparam" || found.k === "builtin") return;
    if (found.k === "dot" && found.n > 1) {
      fb.unresolved(src, path, r, `ambiguous: ${found.n} candidates`);
      return;
    }
    fb.unresolved(src, path, r, found.k === "none" ? ty.undefinedReason(f) : "not defined in scope");
    return;
  }
  fb.unresolved(src, path, r, "not defined in scope");
}

/** Names used as values: functions passed or stored, package variables and constants read, fields read. */
function bindValue(f: FileCtx, ty: GoTypes, fb: FactBuilder, src: string, r: Ref): void {
  if (!r.name || r.name === "_") return;
  let st: St;
  if (r.receiver !== undefined) {
    referenceReceiverVar(f, ty, fb, src, r);
    const recv = ty.evalText(r.receiver, f, r.scope, r.at);
    if (recv.k === "none") return;
    st = ty.select(recv, r.name);
  } else {
    const found = ty.lookup(f, r.scope, r.at, r.name);
    if (found.k === "def") st = ty.memberState(found.m, found.by);
    else if (found.k === "dot" && found.n === 1 && found.m) st = ty.memberState(found.m, "import");
    else return;
  }
  if (st.k === "fn" || st.k === "var" || st.k === "field") {
    if (st.m.key === src) return;
    const conf = st.k === "fn" ? st.conf : "high";
    fb.bound("REFERENCES", src, st.m.key, r, st.via, conf);
  }
}

/** `cfg.Load()` / `cfg.Name` with `cfg` a package variable (or constant): the variable is read. */
function referenceReceiverVar(f: FileCtx, ty: GoTypes, fb: FactBuilder, src: string, r: Ref): void {
  const name = r.receiver!;
  if (!isIdent(name)) return;
  const found = ty.lookup(f, r.scope, r.at, name);
  const m = found.k === "def" ? found.m : found.k === "dot" && found.n === 1 ? found.m : undefined;
  if (!m || (m.def.kind !== "variable" && m.def.kind !== "constant") || m.key === src) return;
  const at = r.line;
  fb.edge("REFERENCES", src, m.key, {
    line: at,
    col: r.col ?? 0,
    _ref: name,
    _resolved_by: found.k === "def" ? found.by : "import",
    _confidence: "high",
  });
}
