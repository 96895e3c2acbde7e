// The rust resolver's model of a tree: packages and crates from Cargo.toml, the module tree
// (crate roots, `mod a;` → a.rs / a/mod.rs, inline `mod a { }`), item and `use` tables per
// module, impl tables per type, and name / path / type resolution over them. Everything is
// indexed by name and memoised, so resolution is linear in the number of references.
import { posix } from "node:path";
import type { Def, Partial } from "../../model/partial.js";
import type { ResolveInput } from "../types.js";
import { type CrateRoot, type Package, crateRoots, parseCargo } from "./cargo.js";
import {
  type Crate,
  type Ctx,
  type DefRef,
  type FileInfo,
  FN_KINDS,
  type ImplHeader,
  type Item,
  type LocalB,
  type Mod,
  type Ns,
  type Res,
  type Target,
  type UseBinding,
  def,
  defInNs,
  targetInNs,
} from "./model.js";
import {
  BUILTIN_CRATES,
  COLLECTIONS,
  ITER_METHODS,
  MAPS,
  MARKER_TRAITS,
  DERIVE_METHODS,
  DEREF_WRAPPERS,
  POINTER_METHODS,
  PRELUDE_TYPES,
  PRELUDE_VALUES,
  PRIMITIVES,
  STD_MACROS,
  UNWRAP_METHODS,
  UNWRAPPABLE,
} from "./prelude.js";
import { type Chain, type TypeShape, aliasParams, parseChain, parseGenerics, parseType, parseUse, pathSegments, splitTop } from "./text.js";

/** A type a value is known to have, with its generic arguments as written (each read where it was written). */
export interface GenericParam {
  bounds: string[];
  /** Where the bounds are written. */
  ctx: Ctx;
}

export interface TypeT {
  t: Target;
  /** A generic parameter with several trait bounds: each bound (all trait objects). */
  bounds?: TypeT[];
  args: { text: string; ctx: Ctx; selfT?: TypeT }[];
  /** `dyn Trait`, `impl Trait`, or `Self` inside a trait: some implementor of the trait. */
  traitObject?: boolean;
}

export interface ImplRec {
  /** The trait as keyed in method keys: in-tree trait key (+ generic arguments as written), else as written. */
  traitKey: string;
  trait?: DefRef;
  /** External path of the trait when it resolved outside the tree. */
  traitExt?: string;
  members: Map<string, DefRef>;
}

export interface Found {
  targets: Target[];
  medium?: boolean;
  reason?: string;
}

const stripRaw = (s: string) => s.replace(/^r#/, "");
const ident = (s: string) => s.replace(/-/g, "_");

export class RustResolver {
  readonly files: FileInfo[] = [];
  private readonly fileByPath = new Map<string, FileInfo>();
  private readonly partialByPath = new Map<string, Partial>();
  readonly mods: Mod[] = [];
  readonly crates: Crate[] = [];
  private readonly libs = new Map<string, Crate>();
  private readonly packages: Package[] = [];
  readonly bindings: UseBinding[] = [];
  readonly notes: string[] = [];
  /** Inherent impl members: type key → name → members. */
  private readonly inherent = new Map<string, Map<string, DefRef[]>>();
  /** Trait impls: type key (in-tree key, or `ext:<last segment>` for external types) → impls. */
  private readonly traitImpls = new Map<string, ImplRec[]>();
  private implsReady = false;
  /** `#[derive(..)]`d traits by type key: the External trait path. */
  readonly derived = new Map<string, { path: string; written: string; line: number; f: FileInfo }[]>();

  private readonly memoMod = new Map<string, LookupOut>();
  private readonly memoBinding = new Map<string, Target[]>();
  private readonly bindingReason = new Map<number, string>();
  private readonly inProgress = new Set<string>();
  private guardHits = 0;
  private readonly memoBindingType = new Map<string, TypeT | null>();
  private readonly memoOwner = new Map<string, TypeT | null>();
  private readonly memoImpl = new Map<string, ImplInfo>();
  private readonly memoGenerics = new Map<string, Map<string, GenericParam>>();

  constructor(input: ResolveInput) {
    const partials = [...input.partials].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    for (const p of partials) this.partialByPath.set(p.path, p);
    for (const [path, text] of [...input.manifests].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      if (posix.basename(path) !== "Cargo.toml") continue;
      const pkg = parseCargo(path, text);
      if (pkg) this.packages.push(pkg);
    }
    this.buildModules(input.treeName);
    for (const f of this.files) this.registerFile(f);
    this.buildImpls();
  }

  // ---------------------------------------------------------------- module tree

  private packageOf(path: string): Package | undefined {
    let best: Package | undefined;
    for (const pkg of this.packages)
      if ((pkg.dir === "" || path.startsWith(`${pkg.dir}/`)) && (!best || pkg.dir.length > best.dir.length)) best = pkg;
    return best;
  }

  private newMod(key: string, crate: Crate | undefined, dir: string, parent?: Mod): Mod {
    const m: Mod = {
      id: this.mods.length,
      key,
      crate: crate as Crate,
      defId: -1,
      dir,
      items: new Map(),
      uses: new Map(),
      globs: [],
    };
    if (parent) m.parent = parent;
    this.mods.push(m);
    return m;
  }

  private buildModules(treeName: string): void {
    const paths = new Set(this.partialByPath.keys());
    if (![...paths].every((p) => this.packageOf(p))) {
      // No manifest covers some files: a package named after the tree, rooted at the top.
      const name = treeName || "crate";
      const pseudo: Package = { dir: "", name, libName: ident(name), targets: [], noAuto: new Set() };
      if (!paths.has("src/lib.rs") && paths.has("lib.rs")) pseudo.libPath = "lib.rs";
      if (!paths.has("src/main.rs") && paths.has("main.rs")) pseudo.targets.push({ kind: "bin", path: "main.rs" });
      this.packages.push(pseudo);
    }
    this.packages.sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
    const roots: CrateRoot[] = [];
    for (const pkg of this.packages) roots.push(...crateRoots(pkg, paths).filter((r) => this.packageOf(r.file) === pkg));
    // Libraries first, then targets Cargo.toml names, then discovered ones: a file some root's
    // `mod` reaches first is that module.
    const rank = (r: CrateRoot) => (r.kind === "lib" ? 0 : r.auto ? 2 : 1);
    roots.sort((a, b) => rank(a) - rank(b) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    const queue: FileInfo[] = [];
    for (const r of roots) {
      if (this.fileByPath.has(r.file)) continue;
      const crate: Crate = {
        name: r.name,
        kind: r.kind,
        pkg: r.pkg,
        root: undefined as unknown as Mod,
        macros: new Map(),
        externAliases: new Map(),
      };
      const m = this.newMod(r.name, crate, posix.dirname(r.file) === "." ? "" : posix.dirname(r.file));
      crate.root = m;
      this.crates.push(crate);
      if (r.kind === "lib" && !this.libs.has(r.name)) this.libs.set(r.name, crate);
      queue.push(this.claim(r.file, m));
      while (queue.length > 0) this.expand(queue.shift()!, queue);
    }
    // Files no crate's mod tree reaches: keyed by their path under the package.
    for (const path of this.partialByPath.keys()) {
      if (this.fileByPath.has(path)) continue;
      const pkg = this.packageOf(path)!;
      let crate = this.libs.get(pkg.libName);
      if (!crate || crate.pkg !== pkg) {
        crate = this.crates.find((c) => c.pkg === pkg && c.name === pkg.libName);
        if (!crate) {
          crate = { name: pkg.libName, kind: "lib", pkg, root: undefined as unknown as Mod, macros: new Map(), externAliases: new Map() };
          crate.root = this.newMod(pkg.libName, crate, pkg.dir ? `${pkg.dir}/src` : "src");
          this.crates.push(crate);
        }
      }
      let rel = pkg.dir ? path.slice(pkg.dir.length + 1) : path;
      if (rel.startsWith("src/")) rel = rel.slice(4);
      const segs = rel.replace(/\.rs$/, "").split("/").map(ident);
      if (segs.length > 0 && (segs[segs.length - 1] === "mod" || (segs.length === 1 && (segs[0] === "lib" || segs[0] === "main"))))
        segs.pop();
      const key = [crate.name, ...segs].join("::");
      const m = this.newMod(key, crate, this.fileDir(path));
      queue.push(this.claim(path, m));
      while (queue.length > 0) this.expand(queue.shift()!, queue);
    }
  }

  /** Directory a file module's `mod x;` declarations look in. */
  private fileDir(path: string): string {
    const dir = posix.dirname(path) === "." ? "" : posix.dirname(path);
    const base = posix.basename(path);
    if (base === "mod.rs" || base === "lib.rs" || base === "main.rs") return dir;
    const stem = base.replace(/\.rs$/, "");
    return dir ? `${dir}/${stem}` : stem;
  }

  private claim(path: string, m: Mod): FileInfo {
    const p = this.partialByPath.get(path)!;
    const n = p.defs.length;
    const f: FileInfo = {
      idx: this.files.length,
      p,
      mod: m,
      defMod: new Array<Mod>(n),
      inlineMods: new Map(),
      implMember: new Array<boolean>(n).fill(false),
      children: new Map(),
      fnUses: new Map(),
      fnGlobs: new Map(),
      locals: new Map(),
      impls: [],
      implHeaders: [],
      derives: [],
      keys: new Array<string | undefined>(n),
    };
    m.file = f;
    this.files.push(f);
    this.fileByPath.set(path, f);
    return f;
  }

  /** Inline modules of a file and the files its `mod x;` declarations bring in. */
  private expand(f: FileInfo, queue: FileInfo[]): void {
    const defs = f.p.defs;
    for (const d of defs) {
      const parentMod = this.modAt(f, d.parent);
      f.defMod[d.id] = parentMod;
      if (d.kind === "module") {
        const m = this.newMod(`${parentMod.key}::${stripRaw(d.name)}`, parentMod.crate, `${parentMod.dir ? `${parentMod.dir}/` : ""}${d.name}`, parentMod);
        m.file = f;
        m.defId = d.id;
        f.inlineMods.set(d.id, m);
      }
    }
    // `mod x;` declarations: one per (scope, name); a `#[path]` reading wins.
    const decls = new Map<string, { name: string; scope: number; line: number; path?: string }>();
    for (const imp of f.p.imports) {
      if (imp.form !== "mod" && imp.form !== "mod_path") continue;
      const k = `${imp.scope}:${imp.source}:${imp.line}`;
      const prior = decls.get(k);
      const entry = { name: imp.source, scope: imp.scope, line: imp.line, ...(imp.form === "mod_path" ? { path: imp.imported.replace(/^"|"$/g, "") } : {}) };
      if (!prior || entry.path) decls.set(k, entry);
    }
    for (const decl of [...decls.values()].sort((a, b) => a.line - b.line || (a.name < b.name ? -1 : 1))) {
      const parent = this.modAt(f, decl.scope);
      let found: string | undefined;
      if (decl.path) {
        const base = parent.defId < 0 ? posix.dirname(f.p.path) : parent.dir;
        const cand = posix.normalize(posix.join(base === "." ? "" : base, decl.path));
        if (this.partialByPath.has(cand)) found = cand;
      } else {
        const pre = parent.dir ? `${parent.dir}/` : "";
        for (const cand of [`${pre}${decl.name}.rs`, `${pre}${decl.name}/mod.rs`])
          if (this.partialByPath.has(cand)) {
            found = cand;
            break;
          }
      }
      const name = stripRaw(decl.name);
      let child: Mod;
      const claimed = found ? this.fileByPath.get(found) : undefined;
      if (claimed) child = claimed.mod;
      else {
        const dir = found
          ? decl.path && posix.basename(found) !== "mod.rs"
            ? found.replace(/\.rs$/, "")
            : this.fileDir(found)
          : `${parent.dir ? `${parent.dir}/` : ""}${name}`;
        child = this.newMod(`${parent.key}::${name}`, parent.crate, dir, parent);
        child.declLine = decl.line;
        if (found) queue.push(this.claim(found, child));
      }
      addTo(parent.items, name, { mod: child });
    }
  }

  /** The module a position with innermost definition `scope` is in. */
  modAt(f: FileInfo, scope: number): Mod {
    if (scope < 0) return f.mod;
    const d = f.p.defs[scope]!;
    if (d.kind === "module") return f.inlineMods.get(scope) ?? f.mod;
    return f.defMod[scope] ?? f.mod;
  }

  ctxAt(f: FileInfo, scope: number): Ctx {
    return { f, scope, mod: this.modAt(f, scope) };
  }

  // ---------------------------------------------------------------- tables

  private registerFile(f: FileInfo): void {
    const defs = f.p.defs;
    for (const d of defs) {
      const parent = d.parent >= 0 ? defs[d.parent]! : undefined;
      // A member of an impl block (the extractor gives every definition inside an impl its owner;
      // a const in a method body shares its method's impl, an impl nested in a fn does not).
      const member =
        d.owner !== undefined &&
        (d.kind === "method" ||
          !parent ||
          parent.kind === "module" ||
          !FN_KINDS.has(parent.kind) ||
          parent.owner !== d.owner ||
          parent.trait !== d.trait);
      f.implMember[d.id] = member;
      if (member) continue;
      const name = stripRaw(d.name);
      if (!parent || parent.kind === "module") {
        const m = f.defMod[d.id]!;
        if (d.kind === "module") addTo(m.items, name, { mod: f.inlineMods.get(d.id)! });
        else addTo(m.items, name, { def: { f, id: d.id } });
        if (d.kind === "macro") addTo(m.crate.macros, name, { f, id: d.id });
      } else {
        let kids = f.children.get(parent.id);
        if (!kids) f.children.set(parent.id, (kids = new Map()));
        addTo(kids, name, d.id);
      }
    }
    for (const imp of f.p.imports) {
      if (imp.form !== "use" && imp.form !== "extern") continue;
      const ctx = this.ctxAt(f, imp.scope);
      const fnScope = imp.scope >= 0 && FN_KINDS.has(defs[imp.scope]!.kind) ? imp.scope : -1;
      const add = (b: UseBinding) => {
        this.bindings.push(b);
        if (fnScope >= 0) {
          if (b.leaf.glob) {
            const list = f.fnGlobs.get(fnScope) ?? [];
            list.push(b);
            f.fnGlobs.set(fnScope, list);
          } else if (b.name) {
            let m = f.fnUses.get(fnScope);
            if (!m) f.fnUses.set(fnScope, (m = new Map()));
            addTo(m, b.name, b);
          }
        } else if (b.leaf.glob) ctx.mod.globs.push(b);
        else if (b.name) addTo(ctx.mod.uses, b.name, b);
      };
      if (imp.form === "extern") {
        const name = stripRaw(imp.imported);
        const local = stripRaw(imp.local || name);
        const leaf = name === "self" ? { path: ["crate"], alias: local, glob: false } : { path: ["", name], alias: local, glob: false };
        add({ id: this.bindings.length, name: local === "_" ? "" : local, leaf, externCrate: true, line: imp.line, ctx });
        if (ctx.mod === ctx.mod.crate.root && name !== "self") ctx.mod.crate.externAliases.set(local, name);
        continue;
      }
      const decl = parseUse(imp.source);
      if (!decl) continue;
      for (const leaf of decl.leaves) {
        const last = leaf.path[leaf.path.length - 1] ?? "";
        const name = leaf.glob ? "" : (leaf.alias ?? last);
        const b: UseBinding = { id: this.bindings.length, name: name === "_" ? "" : name, leaf, line: imp.line, ctx };
        if (decl.visibility) b.visibility = decl.visibility;
        add(b);
      }
    }
    f.p.locals.forEach((l, idx) => {
      if (l.name === "impl") {
        if (!l.aliasOf) return;
        const h: ImplHeader = { scope: l.scope, owner: l.aliasOf, line: l.line, at: l.at };
        if (l.type) h.trait = l.type;
        if (l.newOf) h.generics = l.newOf;
        if (l.callReceiver) h.where = l.callReceiver;
        if (h.trait) f.impls.push(h);
        if (h.generics || h.where) f.implHeaders.push(h);
        return;
      }
      const on = l.scope >= 0 ? defs[l.scope]! : undefined;
      if (l.name === "derive" && l.type?.startsWith("(") && on && on.name === l.aliasOf && ["struct", "enum", "union"].includes(on.kind)) {
        const traits = l.type
          .slice(1, -1)
          .split(",")
          .map((t) => t.trim())
          .filter((t) => t !== "");
        f.derives.push({ typeId: on.id, traits, line: l.line });
        return;
      }
      const pattern = !l.isParam && l.type === undefined && l.aliasOf === undefined;
      const name = stripRaw(l.name);
      if (pattern && /^[A-Z]/.test(name)) return; // a constant or variant in a pattern, not a binding
      const fn = this.fnOf(f, l.scope);
      let byName = f.locals.get(fn);
      if (!byName) f.locals.set(fn, (byName = new Map()));
      addTo(byName, name, { ...l, name, pattern, idx });
    });
    for (const byName of f.locals.values())
      for (const [name, list] of byName) {
        list.sort((a, b) => a.at - b.at || Number(a.pattern) - Number(b.pattern));
        // Two readings of one binding (a typed pattern and the generic one): keep the typed.
        byName.set(
          name,
          list.filter((l, i) => i === 0 || l.at !== list[i - 1]!.at),
        );
      }
  }

  /** Innermost function definition enclosing `scope` (closures are not definitions), -1 for none. */
  fnOf(f: FileInfo, scope: number): number {
    let s = scope;
    while (s >= 0) {
      const d = f.p.defs[s]!;
      if (FN_KINDS.has(d.kind)) return s;
      if (d.kind === "module") return -1;
      s = d.parent;
    }
    return -1;
  }

  // ---------------------------------------------------------------- keys

  keyOf(r: DefRef): string {
    const { f, id } = r;
    const cached = f.keys[id];
    if (cached !== undefined) return cached;
    const d = f.p.defs[id]!;
    const name = stripRaw(d.name);
    let key: string;
    if (f.implMember[id]) key = this.implInfo(f, d).memberKey(name);
    else if (d.kind === "module") key = f.inlineMods.get(id)!.key;
    else if (d.parent < 0 || f.p.defs[d.parent]!.kind === "module") key = `${f.defMod[id]!.key}::${name}${d.kind === "macro" ? "!" : ""}`;
    else {
      const parent = f.p.defs[d.parent]!;
      const pk = this.keyOf({ f, id: d.parent });
      if (d.kind === "field" && (parent.kind === "struct" || parent.kind === "union" || parent.kind === "field")) key = `${pk}.${name}`;
      else key = `${pk}::${name}${d.kind === "macro" ? "!" : ""}`;
    }
    f.keys[id] = key;
    return key;
  }

  targetKey(t: Target): string {
    if (t.t === "def") return this.keyOf(t.d);
    if (t.t === "mod") return t.m.key;
    return `rust:${t.path}`;
  }

  // ---------------------------------------------------------------- impls

  /** How an impl block's members are keyed: its Self type and trait, resolved where the impl is written. */
  implInfo(f: FileInfo, d: Def): ImplInfo {
    const owner = d.owner ?? "";
    const trait = d.trait;
    const memo = `${f.idx}:${d.parent}:${owner}:${trait ?? ""}`;
    const cached = this.memoImpl.get(memo);
    if (cached) return cached;
    const info = this.computeImpl(f, d.parent, owner, trait);
    this.memoImpl.set(memo, info);
    return info;
  }

  private computeImpl(f: FileInfo, scope: number, owner: string, trait: string | undefined): ImplInfo {
    const ctx = this.ctxAt(f, scope);
    const ownerT = this.typeFromText(owner, ctx);
    const ownerDef = ownerT && ownerT.t.t === "def" && !ownerT.traitObject ? ownerT.t.d : undefined;
    const ownerWritten = owner.replace(/\s+/g, " ");
    let typeKey: string | undefined;
    let ownerKey: string;
    if (ownerDef) {
      ownerKey = this.keyOf(ownerDef);
      typeKey = ownerKey;
    } else if (ownerT && ownerT.t.t === "ext") {
      ownerKey = ownerWritten;
      typeKey = extTypeKey(ownerT.t.path);
    } else ownerKey = trait ? ownerWritten : `${ctx.mod.key}::${ownerWritten}`;
    let traitKey: string | undefined;
    let traitDef: DefRef | undefined;
    let traitExt: string | undefined;
    if (trait) {
      const shape = parseType(trait);
      const r = shape ? this.resolvePath(shape.path, "type", ctx) : undefined;
      const t = r && r.targets.length === 1 ? r.targets[0]! : undefined;
      const written = trait.replace(/\s+/g, " ");
      if (t?.t === "def" && def(t.d).kind === "trait") {
        traitDef = t.d;
        const lt = written.indexOf("<");
        traitKey = this.keyOf(t.d) + (lt >= 0 ? written.slice(lt) : "");
      } else {
        traitKey = written;
        if (t?.t === "ext") traitExt = t.path;
      }
    }
    const info: ImplInfo = {
      ownerT,
      ownerDef,
      ownerKey,
      typeKey,
      traitKey,
      traitDef,
      traitExt,
      memberKey: (name: string) => (traitKey !== undefined ? `<${ownerKey} as ${traitKey}>::${name}` : `${ownerKey}::${name}`),
    };
    return info;
  }

  private implRec(typeKey: string, info: ImplInfo): ImplRec {
    let list = this.traitImpls.get(typeKey);
    if (!list) this.traitImpls.set(typeKey, (list = []));
    let rec = list.find((r) => r.traitKey === info.traitKey);
    if (!rec) {
      rec = { traitKey: info.traitKey!, members: new Map() };
      if (info.traitDef) rec.trait = info.traitDef;
      if (info.traitExt) rec.traitExt = info.traitExt;
      list.push(rec);
    }
    return rec;
  }

  private buildImpls(): void {
    for (const f of this.files) {
      for (const d of f.p.defs) {
        if (!f.implMember[d.id]) continue;
        const info = this.implInfo(f, d);
        if (!info.typeKey) continue;
        const name = stripRaw(d.name);
        if (info.traitKey === undefined) {
          let byName = this.inherent.get(info.typeKey);
          if (!byName) this.inherent.set(info.typeKey, (byName = new Map()));
          addTo(byName, name, { f, id: d.id });
        } else this.implRec(info.typeKey, info).members.set(name, { f, id: d.id });
      }
      for (const h of f.impls) {
        const info = this.computeImplCached(f, h.scope, h.owner, h.trait ?? "");
        if (info.typeKey && info.traitKey !== undefined) this.implRec(info.typeKey, info);
      }
    }
    for (const f of this.files) {
      for (const dv of f.derives) {
        const typeKey = this.keyOf({ f, id: dv.typeId });
        const ctx = this.ctxAt(f, f.p.defs[dv.typeId]!.parent);
        for (const written of dv.traits) {
          const path = this.derivedTrait(written, ctx);
          if (!path) continue;
          let list = this.derived.get(typeKey);
          if (!list) this.derived.set(typeKey, (list = []));
          if (!list.some((x) => x.path === path)) list.push({ path, written, line: dv.line, f });
        }
      }
    }
    for (const list of this.traitImpls.values()) list.sort((a, b) => (a.traitKey < b.traitKey ? -1 : a.traitKey > b.traitKey ? 1 : 0));
    this.implsReady = true;
  }

  computeImplCached(f: FileInfo, scope: number, owner: string, trait: string): ImplInfo {
    const memo = `${f.idx}:${scope}:${owner}:${trait}`;
    let info = this.memoImpl.get(memo);
    if (!info) this.memoImpl.set(memo, (info = this.computeImpl(f, scope, owner, trait)));
    return info;
  }

  /** A derive list entry → the trait's External path (std derives by their bare name). */
  private derivedTrait(written: string, ctx: Ctx): string | undefined {
    const segs = pathSegments(written);
    if (!segs) return undefined;
    if (segs.length === 1 && DERIVE_METHODS.has(segs[0]!)) {
      const r = this.lookupInMod(ctx.mod, segs[0]!, "type");
      if (r.targets.length === 0) return segs[0];
    }
    const r = this.resolvePath(segs, "type", ctx);
    const t = r.targets.length === 1 ? r.targets[0]! : undefined;
    return t?.t === "ext" ? t.path : undefined;
  }

  /** Methods a derive provides for a type: External `<Trait>::<method>` paths. */
  derivedMethods(typeKey: string, name: string): string[] {
    const out: string[] = [];
    for (const d of this.derived.get(typeKey) ?? []) if (DERIVE_METHODS.get(lastSeg(d.path))?.has(name)) out.push(`${d.path}::${name}`);
    return out;
  }

  /** The impls of a type (in-tree key or external path), sorted by trait key. */
  implsOf(typeKey: string): ImplRec[] {
    return this.traitImpls.get(typeKey) ?? [];
  }

  // ---------------------------------------------------------------- names

  /** Resolve one name written at `ctx` in a namespace: fn-local items and uses, the module, extern crates, the prelude. */
  lookupName(name: string, ns: Ns, ctx: Ctx): Res {
    const { f } = ctx;
    const defs = f.p.defs;
    let s = ctx.scope;
    while (s >= 0) {
      const d = defs[s]!;
      if (d.kind === "module") break;
      if (FN_KINDS.has(d.kind)) {
        const targets: Target[] = [];
        for (const id of f.children.get(s)?.get(name) ?? [])
          if (!f.implMember[id] && defInNs(defs[id]!, ns, d.kind)) targets.push({ t: "def", d: { f, id } });
        if (targets.length > 0) return { targets: dedupe(targets, this), by: "scope" };
        const uses = f.fnUses.get(s)?.get(name);
        if (uses) {
          const out = this.fromBindings(uses, ns);
          if (out.targets.length > 0 || out.reason) return { ...out, by: "import" };
        }
        const globs = f.fnGlobs.get(s);
        if (globs) {
          const g = this.fromGlobs(globs, name, ns);
          if (g.targets.length > 0) return { targets: dedupe(g.targets, this), by: "import" };
        }
      }
      s = d.parent;
    }
    const r = this.lookupInMod(ctx.mod, name, ns);
    if (r.targets.length > 0) return { targets: r.targets, by: r.by, ...(r.medium ? { medium: true } : {}) };
    if (r.reason) return { targets: [], by: "", reason: r.reason };
    const fallback = this.outerName(name, ns, ctx.mod.crate);
    if (fallback) return fallback;
    if (r.uncertain.length > 0) return this.fromUncertain(r.uncertain, name);
    return { targets: [], by: "", reason: "not defined in scope" };
  }

  /** Names outside the module: extern crates (type namespace) and the prelude. */
  private outerName(name: string, ns: Ns, crate: Crate): Res | undefined {
    if (ns === "type") {
      const e = this.externCrate(name, crate);
      if (e) return e;
      const pt = PRELUDE_TYPES.get(name);
      if (pt !== undefined || PRIMITIVES.has(name)) return { targets: [{ t: "ext", path: pt ?? name, prelude: true }], by: "prelude" };
    } else if (ns === "value") {
      const pv = PRELUDE_VALUES.get(name);
      if (pv !== undefined) return { targets: [{ t: "ext", path: pv, prelude: true }], by: "prelude" };
    } else if (STD_MACROS.has(name)) return { targets: [{ t: "ext", path: `${name}!`, prelude: true }], by: "prelude" };
    return undefined;
  }

  /** A name only an external glob import could provide: bound to it when there is exactly one such glob. */
  private fromUncertain(uncertain: Uncertain[], name: string): Res {
    const ext = uncertain.filter((u) => u.ext !== undefined);
    if (uncertain.length === 1 && ext.length === 1)
      return { targets: [{ t: "ext", path: `${ext[0]!.ext}::${name}` }], by: "import", medium: true };
    const first = [...uncertain].sort((a, b) => (a.written < b.written ? -1 : 1))[0]!;
    return { targets: [], by: "", reason: `unresolved import ${first.written}::*` };
  }

  externCrate(name: string, crate: Crate): Res | undefined {
    if (BUILTIN_CRATES.has(name)) return { targets: [{ t: "ext", path: name }], by: "extern" };
    const alias = crate.externAliases.get(name);
    const real = alias ?? name;
    const lib = this.libs.get(real);
    if (lib && lib !== crate && !(crate.kind === "lib" && crate.pkg === lib.pkg)) return { targets: [{ t: "mod", m: lib.root }], by: "package" };
    const deps = crate.pkg.deps;
    if (alias !== undefined || !deps || deps.has(real)) {
      const pkgName = deps?.get(real);
      const wsLib = pkgName ? this.libByPackage(pkgName) : undefined;
      if (wsLib && wsLib !== crate) return { targets: [{ t: "mod", m: wsLib.root }], by: "package" };
      return { targets: [{ t: "ext", path: real, ...(deps ? {} : { unverified: true }) }], by: "extern" };
    }
    return undefined;
  }

  private libByPackage(pkgName: string): Crate | undefined {
    for (const c of this.libs.values()) if (c.pkg.name === pkgName) return c;
    return undefined;
  }

  private fromBindings(bindings: UseBinding[], ns: Ns): Found {
    const targets: Target[] = [];
    let reason: string | undefined;
    for (const b of bindings) {
      const ts = this.resolveBinding(b, ns);
      if (ts.length > 0) targets.push(...ts);
      else if (!reason && this.bindingReason.has(b.id) && this.bindingFailsInAllNs(b)) reason = this.bindingReason.get(b.id);
    }
    return { targets: dedupe(targets, this), ...(targets.length === 0 && reason ? { reason } : {}) };
  }

  /** A binding names nothing at all (in no namespace): its import is unresolved. */
  private bindingFailsInAllNs(b: UseBinding): boolean {
    return (["type", "value", "macro"] as Ns[]).every((ns) => this.resolveBinding(b, ns).length === 0);
  }

  /** What a use binding imports in one namespace (memoised; a binding being resolved yields nothing). */
  resolveBinding(b: UseBinding, ns: Ns): Target[] {
    const memo = `${b.id}:${ns}`;
    const cached = this.memoBinding.get(memo);
    if (cached) return cached;
    if (this.inProgress.has(`b:${memo}`)) {
      this.guardHits++;
      return [];
    }
    this.inProgress.add(`b:${memo}`);
    const before = this.guardHits;
    const r = this.resolvePath(b.leaf.path, b.leaf.glob ? "type" : ns, b.ctx);
    this.inProgress.delete(`b:${memo}`);
    const out = r.targets;
    if (out.length === 0 && r.reason && !r.reason.startsWith("unresolved import"))
      this.bindingReason.set(b.id, `unresolved import ${b.leaf.path.join("::")}`);
    else if (out.length === 0 && r.reason) this.bindingReason.set(b.id, r.reason);
    if (this.guardHits === before) this.memoBinding.set(memo, out);
    return out;
  }

  /** Targets of a glob import's path (a module, an enum, or an external path). */
  private globTargets(g: UseBinding): Target[] {
    return this.resolveBinding(g, "type");
  }

  private fromGlobs(globs: UseBinding[], name: string, ns: Ns): { targets: Target[]; uncertain: Uncertain[] } {
    // A glob from a module that is not an ancestor imports its public items only.
    const importer = globs[0]?.ctx.mod;
    const targets: Target[] = [];
    const uncertain: Uncertain[] = [];
    for (const g of globs) {
      const written = g.leaf.path.join("::");
      const gts = this.globTargets(g);
      if (gts.length === 0) {
        uncertain.push({ written });
        continue;
      }
      for (const gt of gts) {
        if (gt.t === "ext") uncertain.push({ written, ext: gt.path });
        else if (gt.t === "mod") {
          const sub = this.lookupInMod(gt.m, name, ns, importer !== undefined && !isWithin(importer, gt.m));
          targets.push(...sub.targets);
          uncertain.push(...sub.uncertain);
        } else if (def(gt.d).kind === "enum") {
          for (const id of gt.d.f.children.get(gt.d.id)?.get(name) ?? []) {
            const t: Target = { t: "def", d: { f: gt.d.f, id } };
            if (targetInNs(t, ns)) targets.push(t);
          }
        }
      }
    }
    return { targets, uncertain };
  }

  /** A name in a module's own namespace: its items, its explicit uses, then its glob imports. */
  lookupInMod(m: Mod, name: string, ns: Ns, pubOnly = false): LookupOut {
    const memo = `${m.id}\u0000${name}\u0000${ns}${pubOnly ? "\u0000pub" : ""}`;
    const cached = this.memoMod.get(memo);
    if (cached) return cached;
    if (this.inProgress.has(`m:${memo}`)) {
      this.guardHits++;
      return { targets: [], by: "", uncertain: [] };
    }
    this.inProgress.add(`m:${memo}`);
    const before = this.guardHits;
    const out = this.computeLookupInMod(m, name, ns, pubOnly);
    this.inProgress.delete(`m:${memo}`);
    if (this.guardHits === before) this.memoMod.set(memo, out);
    return out;
  }

  private computeLookupInMod(m: Mod, name: string, ns: Ns, pubOnly: boolean): LookupOut {
    const targets: Target[] = [];
    for (const it of m.items.get(name) ?? []) {
      if (pubOnly && "def" in it && !def(it.def).visibility?.startsWith("pub")) continue;
      const t: Target = "mod" in it ? { t: "mod", m: it.mod } : { t: "def", d: it.def };
      // macro_rules! are scoped by text, not by path (bind.ts); the crate root holds the exported ones.
      if (targetInNs(t, ns) && ns !== "macro") targets.push(t);
    }
    // cfg'd variants of one item share its key: one target.
    if (targets.length > 0) return { targets: dedupe(targets, this), by: "scope", uncertain: [] };
    const uses = pubOnly ? m.uses.get(name)?.filter((b) => b.visibility) : m.uses.get(name);
    if (uses && uses.length > 0) {
      const r = this.fromBindings(uses, ns);
      if (r.targets.length > 0) return { targets: r.targets, by: "import", uncertain: [] };
      if (r.reason) return { targets: [], by: "", uncertain: [], reason: r.reason };
    }
    const globs = pubOnly ? m.globs.filter((b) => b.visibility) : m.globs;
    if (globs.length === 0) return { targets: [], by: "", uncertain: [] };
    const g = this.fromGlobs(globs, name, ns);
    return { targets: dedupe(g.targets, this), by: "import", uncertain: g.uncertain };
  }

  /** The type `Self` names at `ctx`: the impl's Self type, the trait, or the type being defined. */
  selfType(ctx: Ctx): TypeT | undefined {
    const { f } = ctx;
    let s = ctx.scope;
    while (s >= 0) {
      const d = f.p.defs[s]!;
      if (FN_KINDS.has(d.kind)) {
        if (f.implMember[s]) return this.ownerType(f, d);
        const parent = d.parent >= 0 ? f.p.defs[d.parent]! : undefined;
        if (parent?.kind === "trait") return { t: { t: "def", d: { f, id: parent.id } }, args: [], traitObject: true };
        return undefined;
      }
      if (f.implMember[s]) return this.ownerType(f, d);
      if (d.kind === "struct" || d.kind === "enum" || d.kind === "union") return { t: { t: "def", d: { f, id: s } }, args: [] };
      if (d.kind === "trait") return { t: { t: "def", d: { f, id: s } }, args: [], traitObject: true };
      if (d.kind === "module") return undefined;
      s = d.parent;
    }
    return undefined;
  }

  private ownerType(f: FileInfo, d: Def): TypeT | undefined {
    const memo = `${f.idx}:${d.parent}:${d.owner ?? ""}`;
    const cached = this.memoOwner.get(memo);
    if (cached !== undefined) return cached ?? undefined;
    this.memoOwner.set(memo, null);
    const t = d.owner ? this.typeFromText(d.owner, { ...this.ctxAt(f, d.parent), gscope: d.id }) : undefined;
    this.memoOwner.set(memo, t ?? null);
    return t;
  }

  /** Resolve a path (`a::b::c`, `crate::x`, `super::y`, `Self::z`); the last segment in `ns`, the others as types / modules. */
  resolvePath(segs: string[], ns: Ns, ctx: Ctx): Res {
    if (segs.length === 0) return { targets: [], by: "", reason: "not defined in scope" };
    let i: number;
    let cur: Target[];
    let by: string;
    let medium = false;
    const s0 = segs[0]!;
    if (s0 === "") {
      const e = segs[1] ? this.externCrate(segs[1], ctx.mod.crate) : undefined;
      if (!e) return { targets: [], by: "", reason: `unresolved import ::${segs[1] ?? ""}` };
      cur = e.targets;
      by = e.by;
      i = 2;
    } else if (s0 === "crate") {
      cur = [{ t: "mod", m: ctx.mod.crate.root }];
      by = "package";
      i = 1;
    } else if (s0 === "self" && segs.length > 1) {
      cur = [{ t: "mod", m: ctx.mod }];
      by = "package";
      i = 1;
    } else if (s0 === "super") {
      let m: Mod | undefined = ctx.mod;
      i = 0;
      while (segs[i] === "super") {
        m = m?.parent;
        i++;
      }
      if (!m) return { targets: [], by: "", reason: "not defined in scope" };
      cur = [{ t: "mod", m }];
      by = "super";
    } else if (s0 === "Self") {
      const st = this.selfType(ctx);
      if (!st) return { targets: [], by: "", reason: "not defined in scope" };
      cur = [st.t];
      by = "self";
      i = 1;
    } else {
      const r = this.lookupName(s0, segs.length === 1 ? ns : "type", ctx);
      if (r.targets.length === 0) return r;
      cur = r.targets;
      by = r.by;
      medium = r.medium === true;
      i = 1;
    }
    for (; i < segs.length; i++) {
      if (cur.length !== 1) return { targets: [], by, reason: `ambiguous: ${cur.length} candidates` };
      const nsi: Ns = i === segs.length - 1 ? ns : "type";
      const next = this.lookupMember(cur[0]!, segs[i]!, nsi);
      if (next.targets.length === 0) return { targets: [], by, reason: next.reason ?? "not defined in module" };
      cur = next.targets;
      if (next.medium) medium = true;
    }
    const out = cur.filter((t) => targetInNs(t, ns));
    return { targets: out, by, ...(medium ? { medium: true } : {}), ...(out.length === 0 ? { reason: "not defined in scope" } : {}) };
  }

  /** A member of a resolved module, type, trait or external path. */
  lookupMember(t: Target, name: string, ns: Ns): Found {
    if (t.t === "ext") {
      const out: Target = { t: "ext", path: `${t.path}::${name}` };
      if (t.prelude) out.prelude = true;
      if (t.unverified) out.unverified = true;
      return { targets: [out] };
    }
    if (t.t === "mod") {
      if (ns === "macro" && t.m === t.m.crate.root) {
        // #[macro_export] macros live at the crate root (`crate::m!`, `dep::m!`, `use dep::m;`).
        const macros = t.m.crate.macros.get(name);
        if (macros && macros.length === 1) return { targets: [{ t: "def", d: macros[0]! }] };
      }
      const r = this.lookupInMod(t.m, name, ns);
      if (r.targets.length > 0) return { targets: r.targets };
      if (r.reason) return { targets: [], reason: r.reason };
      if (r.uncertain.length > 0) {
        const u = this.fromUncertain(r.uncertain, name);
        return u.targets.length > 0 ? { targets: u.targets, medium: true } : { targets: [], reason: u.reason ?? "not defined in module" };
      }
      return { targets: [], reason: "not defined in module" };
    }
    const d = def(t.d);
    if (d.kind === "type") {
      const a = this.aliasTarget(t.d);
      return a ? this.lookupMember(a, name, ns) : { targets: [], reason: "not defined in module" };
    }
    if (d.kind === "enum" || d.kind === "trait") {
      const targets: Target[] = [];
      for (const id of t.d.f.children.get(t.d.id)?.get(name) ?? []) {
        const c: Target = { t: "def", d: { f: t.d.f, id } };
        if (d.kind === "trait" || targetInNs(c, ns)) targets.push(c);
      }
      if (targets.length > 0) return { targets: dedupe(targets, this) };
    }
    if (d.kind === "struct" || d.kind === "enum" || d.kind === "union") return this.assoc(t.d, name, ns);
    if (d.kind === "trait") return { targets: [], reason: "method not found on type" };
    return { targets: [], reason: "not defined in module" };
  }

  /** An associated item of an in-tree type: inherent first, then exactly one trait impl. */
  assoc(typeDef: DefRef, name: string, ns: Ns): Found {
    if (!this.implsReady) return { targets: [], reason: "not defined in module" };
    const key = this.keyOf(typeDef);
    const own = (this.inherent.get(key)?.get(name) ?? []).filter((d) => defInNs(def(d), ns));
    if (own.length > 0) return { targets: dedupe(own.map((d) => ({ t: "def", d }) as Target), this) };
    const cands: Target[] = this.traitCandidates(key, name).map((d) => ({ t: "def", d }));
    if (ns === "value") for (const path of this.derivedMethods(key, name)) cands.push({ t: "ext", path });
    if (cands.length === 1) return { targets: cands, medium: true };
    if (cands.length > 1) return { targets: [], reason: `ambiguous: ${cands.length} candidates` };
    return { targets: [], reason: "method not found on type" };
  }

  /** `impl Deref for T { type Target = X; }` in the tree: X, read where the impl is written. */
  derefTarget(t: TypeT): TypeT | undefined {
    if (t.t.t !== "def") return undefined;
    const key = this.keyOf(t.t.d);
    const rec = this.implsOf(key).find((r) => lastSeg(r.traitExt ?? r.traitKey) === "Deref");
    const target = rec?.members.get("Target");
    if (!target) return undefined;
    const td = def(target);
    if (td.kind !== "type" || !td.type) return undefined;
    return this.typeFromText(td.type, this.ctxAt(target.f, td.parent), t);
  }

  /** Members named `name` of the in-tree trait impls of a type: the impl's own, or the trait's provided one. */
  traitCandidates(typeKey: string, name: string): DefRef[] {
    const out: DefRef[] = [];
    const seen = new Set<string>();
    for (const rec of this.implsOf(typeKey)) {
      let m = rec.members.get(name);
      if (!m && rec.trait) {
        const ids = rec.trait.f.children.get(rec.trait.id)?.get(name);
        if (ids && ids.length === 1) m = { f: rec.trait.f, id: ids[0]! };
      }
      if (!m) continue;
      const k = this.keyOf(m);
      if (seen.has(k)) continue;
      seen.add(k);
      out.push(m);
    }
    return out;
  }

  /** A method of a trait or of its in-tree supertraits. */
  traitMethod(trait: DefRef, name: string): DefRef[] {
    const out: DefRef[] = [];
    const seen = new Set<string>();
    const queue: DefRef[] = [trait];
    while (queue.length > 0 && seen.size < 32) {
      const t = queue.shift()!;
      const k = this.keyOf(t);
      if (seen.has(k)) continue;
      seen.add(k);
      for (const id of t.f.children.get(t.id)?.get(name) ?? []) out.push({ f: t.f, id });
      if (out.length > 0) break;
      for (const sup of this.supertraits(t)) if (sup.t === "def") queue.push(sup.d);
    }
    return out;
  }

  /** The supertraits of an in-tree trait, resolved where it is written. */
  supertraits(trait: DefRef): Target[] {
    const d = def(trait);
    const out: Target[] = [];
    for (const ext of d.extends ?? []) {
      for (const bound of ext.replace(/^:\s*/, "").split("+")) {
        const b = bound.trim();
        if (!b || b.startsWith("'") || b.startsWith("?")) continue;
        const shape = parseType(b);
        if (!shape) continue;
        const r = this.resolvePath(shape.path, "type", this.ctxAt(trait.f, d.parent));
        if (r.targets.length === 1) out.push(r.targets[0]!);
      }
    }
    return out;
  }

  /** What a type alias stands for (one level after another, cycles refused). */
  aliasTarget(alias: DefRef, depth = 0): Target | undefined {
    const d = def(alias);
    if (!d.type || depth > 8) return undefined;
    const shape = parseType(d.type);
    if (!shape) return undefined;
    const key = `alias:${alias.f.idx}:${alias.id}`;
    if (this.inProgress.has(key)) return undefined;
    this.inProgress.add(key);
    const r = this.resolvePath(shape.path, "type", this.ctxAt(alias.f, d.parent));
    this.inProgress.delete(key);
    if (r.targets.length !== 1) return undefined;
    const t = r.targets[0]!;
    if (t.t === "def" && def(t.d).kind === "type") return this.aliasTarget(t.d, depth + 1);
    return t;
  }

  // ---------------------------------------------------------------- types

  /** A type as written at `ctx`, resolved (aliases expanded, `Self` = selfT). */
  typeFromText(text: string, ctx: Ctx, selfT?: TypeT, depth = 0): TypeT | undefined {
    const shape = parseType(text);
    if (!shape) return undefined;
    return this.typeFromShape(shape, ctx, selfT, depth);
  }

  private typeFromShape(shape: TypeShape, ctx: Ctx, selfT: TypeT | undefined, depth: number): TypeT | undefined {
    if (depth > 8) return undefined;
    const args = shape.args.map((text) => (selfT ? { text, ctx, selfT } : { text, ctx }));
    if (shape.path.length === 1 && shape.path[0] === "Self") {
      const st = selfT ?? this.selfType(ctx);
      return st && shape.traitObject ? { ...st, traitObject: true } : st;
    }
    if (shape.path[0] === "Self") return undefined;
    if (shape.path.length === 1) {
      // A generic parameter: some type with its bounds (never an outer type of the same name).
      const g = this.genericsAt(ctx).get(shape.path[0]!);
      if (g) return this.boundedType(g, depth);
    }
    const r = this.resolvePath(shape.path, "type", ctx);
    if (r.targets.length !== 1) return undefined;
    const t = r.targets[0]!;
    if (t.t === "mod") return undefined;
    if (t.t === "def") {
      const d = def(t.d);
      if (d.kind === "type") {
        // Expand the alias; its own parameters stand for the arguments written here.
        const inner = d.type ? parseType(d.type) : undefined;
        if (!inner) return undefined;
        const params = aliasParams(d.signature ?? "", d.name);
        const aliasCtx = this.ctxAt(t.d.f, d.parent);
        const out = this.typeFromShape({ ...inner, args: [] }, aliasCtx, undefined, depth + 1);
        if (!out) return undefined;
        out.args = inner.args.map((a) => {
          const pi = params.indexOf(a);
          return pi >= 0 && args[pi] ? args[pi]! : { text: a, ctx: aliasCtx };
        });
        return out;
      }
      if (d.kind === "field") {
        // An enum variant used as a type is not a type.
        return undefined;
      }
      if (!["struct", "enum", "union", "trait"].includes(d.kind)) return undefined;
      const traitObject = d.kind === "trait";
      return traitObject ? { t, args, traitObject } : { t, args };
    }
    return shape.traitObject ? { t, args, traitObject: true } : { t, args };
  }

  /** The generic parameters in scope at `ctx` (fn, impl, type), innermost first, with their bounds as written. */
  genericsAt(ctx: Ctx): Map<string, GenericParam> {
    const { f } = ctx;
    const start = ctx.gscope ?? ctx.scope;
    const memo = `${f.idx}:${start}`;
    const cached = this.memoGenerics.get(memo);
    if (cached) return cached;
    const out = new Map<string, GenericParam>();
    const add = (params: Map<string, string[]>, where: Ctx) => {
      for (const [name, bounds] of params) if (!out.has(name)) out.set(name, { bounds, ctx: where });
    };
    let s = start;
    while (s >= 0) {
      const d = f.p.defs[s]!;
      if (d.kind === "module") break;
      const where = this.ctxAt(f, d.parent);
      if (FN_KINDS.has(d.kind) || ["struct", "enum", "union", "trait", "type"].includes(d.kind)) add(parseGenerics(d.signature ?? "", d.name), where);
      if (f.implMember[s]) {
        const h = this.implHeaderOf(f, d);
        if (h) add(parseGenerics(`impl${h.generics ?? ""} ${h.where ?? ""}`, ""), this.ctxAt(f, h.scope));
      }
      s = d.parent;
    }
    this.memoGenerics.set(memo, out);
    return out;
  }

  /** The type a generic parameter in scope at `ctx` stands for (by its bounds); undefined when `name` is not one or has no usable bound. */
  genericType(name: string, ctx: Ctx): TypeT | undefined | "none" {
    const g = this.genericsAt(ctx).get(name);
    return g ? this.boundedType(g, 0) : "none";
  }

  /** The impl header a member belongs to: the last one before it, in its scope, with its Self type and trait. */
  private implHeaderOf(f: FileInfo, d: Def): ImplHeader | undefined {
    let best: ImplHeader | undefined;
    for (const h of f.implHeaders)
      if (h.scope === d.parent && h.at < d.start && h.owner === d.owner && h.trait === d.trait && (!best || h.at > best.at)) best = h;
    return best;
  }

  /** A value of a generic parameter's type: known by its trait bounds (markers and lifetimes aside). */
  private boundedType(g: GenericParam, depth: number): TypeT | undefined {
    const bounds: TypeT[] = [];
    for (const b of g.bounds) {
      if (MARKER_TRAITS.has(lastSeg(b.replace(/<.*$/, "")))) continue;
      const t = this.typeFromText(`dyn ${b}`, g.ctx, undefined, depth + 1);
      if (!t) return undefined;
      bounds.push(t);
    }
    if (bounds.length === 0) return undefined;
    if (bounds.length === 1) return bounds[0];
    return { ...bounds[0]!, bounds };
  }

  typeArg(t: TypeT, i: number): TypeT | undefined {
    const a = t.args[i];
    return a ? this.typeFromText(a.text, a.ctx, a.selfT) : undefined;
  }

  /** A comparable signature of a type (its key and arguments as written). */
  typeSig(t: TypeT): string {
    return `${this.targetKey(t.t)}<${t.args.map((a) => a.text).join(",")}>${t.traitObject ? "dyn" : ""}`;
  }

  /** The declared type of a local binding (memoised); undefined when the source does not say. */
  private bindingType(f: FileInfo, b: LocalB, depth: number): TypeT | undefined {
    const memo = `${f.idx}:${b.idx}`;
    const cached = this.memoBindingType.get(memo);
    if (cached !== undefined) return cached ?? undefined;
    if (this.inProgress.has(`l:${memo}`) || depth > 6) return undefined;
    this.inProgress.add(`l:${memo}`);
    const ctx = this.ctxAt(f, b.scope);
    const selfT = this.selfType(ctx);
    let t: TypeT | undefined;
    if (b.type) t = this.typeFromText(b.type, ctx, selfT);
    else if (b.callOf === "for" && b.aliasOf) t = this.elementOfExpr(b.aliasOf, ctx, b.at, depth + 1);
    else if (b.callOf && b.aliasOf) {
      // `if let Some(x) = e`, `E::V(x) =>`: what the variant holds.
      const of = this.typeOfExpr(b.aliasOf, ctx, b.at, depth + 1);
      const kind = of?.t.t === "ext" ? lastSeg(of.t.path) : "";
      if (kind === "Option" || kind === "Result") {
        const i = (b.callOf === "Some" && kind === "Option") || (b.callOf === "Ok" && kind === "Result") ? 0 : b.callOf === "Err" && kind === "Result" ? 1 : -1;
        t = of && i >= 0 ? this.typeArg(of, i) : undefined;
      } else t = this.variantField(b.callOf, ctx, of);
    } else if (b.aliasOf) t = this.typeOfExpr(b.aliasOf, ctx, b.at, depth + 1);
    this.inProgress.delete(`l:${memo}`);
    this.memoBindingType.set(memo, t ?? null);
    return t;
  }

  /**
   * The type of a local name at a position: every binding of that name in the function before
   * the position must declare the same type ("none" when the function binds no such name).
   */
  localType(f: FileInfo, scope: number, name: string, at: number, depth = 0): TypeT | undefined | "none" {
    const visible = this.visibleBindings(f, scope, name, at);
    if (visible.length === 0) return "none";
    // A pattern binding whose extent is not known (a match arm, a nested pattern) might be the one in effect.
    if (visible.some((b) => b.pattern && b.end === undefined)) return undefined;
    // The latest binding in effect shadows the others.
    return this.bindingType(f, visible[visible.length - 1]!, depth);
  }

  /** Bindings of a name in the function that are in effect at a position, in source order. */
  private visibleBindings(f: FileInfo, scope: number, name: string, at: number): LocalB[] {
    const list = f.locals.get(this.fnOf(f, scope))?.get(name);
    if (!list) return [];
    return list.filter((l) => l.at < at && (l.from === undefined || l.from <= at) && (l.end === undefined || at < l.end));
  }

  /** Whether a name is bound locally (let, parameter, pattern) in the function before `at`. */
  isLocal(f: FileInfo, scope: number, name: string, at: number): boolean {
    return this.visibleBindings(f, scope, name, at).length > 0;
  }

  /** Return type of a function reached through a value of type `selfT` (for `Self`). */
  returnType(fn: DefRef, selfT: TypeT | undefined): TypeT | undefined {
    const d = def(fn);
    if (!d.returns) return undefined;
    const ctx = this.ctxAt(fn.f, d.parent);
    const st = selfT ?? this.selfType({ ...ctx, scope: fn.id });
    return this.typeFromText(d.returns, ctx, st);
  }

  /** The single field of a tuple variant / tuple struct named by a pattern (`E::V(x)`), its enum's parameters read from the scrutinee. */
  private variantField(path: string, ctx: Ctx, scrutinee: TypeT | undefined): TypeT | undefined {
    const segs = pathSegments(path);
    if (!segs) return undefined;
    const r = this.resolvePath(segs, "value", ctx);
    if (r.targets.length !== 1 || r.targets[0]!.t !== "def") return undefined;
    const v = r.targets[0]!.d;
    const vd = def(v);
    if (vd.kind !== "field" || !vd.type || vd.parent < 0) return undefined;
    const inner = vd.type.trim().replace(/^\(|,?\s*\)$/g, "");
    if (splitTop(inner, ",").length !== 1) return undefined;
    const ed = v.f.p.defs[vd.parent]!;
    const order = [...parseGenerics(ed.signature ?? "", ed.name).keys()];
    const shape = parseType(inner);
    if (shape && shape.path.length === 1 && order.includes(shape.path[0]!)) {
      const own = scrutinee?.t.t === "def" && scrutinee.t.d.f === v.f && scrutinee.t.d.id === vd.parent ? scrutinee : undefined;
      return own ? this.typeArg(own, order.indexOf(shape.path[0]!)) : undefined;
    }
    return this.typeFromText(inner, this.ctxAt(v.f, ed.parent));
  }

  /** The type of a field of an in-tree struct / union. */
  fieldType(t: TypeT, name: string, depth = 0): TypeT | undefined {
    if (depth > 4) return undefined;
    if (t.t.t === "ext" && DEREF_WRAPPERS.has(lastSeg(t.t.path))) {
      // Field access looks through Box / Rc / Arc.
      const inner = this.typeArg(t, 0);
      return inner ? this.fieldType(inner, name, depth + 1) : undefined;
    }
    if (t.t.t !== "def" || t.traitObject) return undefined;
    const sd = def(t.t.d);
    if (sd.kind !== "struct" && sd.kind !== "union") return undefined;
    const ids = t.t.d.f.children.get(t.t.d.id)?.get(name);
    if (!ids) {
      const inner = this.derefTarget(t);
      return inner ? this.fieldType(inner, name, depth + 1) : undefined;
    }
    if (ids.length !== 1) return undefined;
    const fd = t.t.d.f.p.defs[ids[0]!]!;
    if (fd.kind !== "field" || !fd.type) return undefined;
    // The struct's own parameters stand for the arguments of the value's type.
    const params = parseGenerics(sd.signature ?? "", sd.name).keys();
    const order = [...params];
    const shape = parseType(fd.type);
    if (shape && shape.path.length === 1) {
      const i = order.indexOf(shape.path[0]!);
      if (i >= 0) return this.typeArg(t, i);
    }
    const out = this.typeFromText(fd.type, this.ctxAt(t.t.d.f, ids[0]!), t);
    if (out && shape) {
      out.args = out.args.map((a) => {
        const i = order.indexOf(a.text.trim());
        return i >= 0 && t.args[i] ? t.args[i]! : a;
      });
    }
    return out;
  }

  /** Methods named `name` callable on a value of type `t`. */
  methodOf(t: TypeT, name: string, depth = 0): Found {
    if (t.bounds) {
      // `T: A + B`: the method of the in-tree bound that has it; a bound outside the tree only when it is the sole candidate.
      const inTree: DefRef[] = [];
      let external = 0;
      let ext: Target | undefined;
      for (const b of t.bounds) {
        if (b.t.t === "def") inTree.push(...this.traitMethod(b.t.d, name));
        else if (b.t.t === "ext") {
          const methods = DERIVE_METHODS.get(lastSeg(b.t.path));
          if (methods && !methods.has(name)) continue;
          external++;
          ext = { t: "ext", path: `${b.t.path}::${name}` };
        }
      }
      if (inTree.length === 1) return { targets: [{ t: "def", d: inTree[0]! }], medium: true };
      if (inTree.length > 1) return { targets: [], reason: `ambiguous: ${inTree.length} candidates` };
      if (external === 1 && ext) return { targets: [ext], medium: true };
      return { targets: [], reason: external > 1 ? `ambiguous: ${external} candidates` : "method not found on type" };
    }
    if (t.t.t === "ext") {
      // In-tree impls for an external type (never for a trait object: its Self type is not known).
      const cands = t.traitObject ? [] : this.traitCandidates(extTypeKey(t.t.path), name);
      if (cands.length === 1) return { targets: [{ t: "def", d: cands[0]! }], medium: true };
      if (cands.length > 1) return { targets: [], reason: `ambiguous: ${cands.length} candidates` };
      const last = lastSeg(t.t.path);
      if (DEREF_WRAPPERS.has(last) && !POINTER_METHODS.has(name) && depth < 4) {
        const inner = this.typeArg(t, 0);
        if (inner) {
          const r = this.methodOf(inner, name, depth + 1);
          if (r.targets.some((x) => x.t === "def")) return { ...r, medium: true };
        }
      }
      if (t.traitObject) return { targets: [{ t: "ext", path: `${t.t.path}::${name}` }], medium: true };
      return { targets: [{ t: "ext", path: `${t.t.path}::${name}` }], medium: true };
    }
    if (t.t.t !== "def") return { targets: [], reason: "receiver type unknown" };
    const d = def(t.t.d);
    if (d.kind === "trait") {
      const ms = this.traitMethod(t.t.d, name);
      if (ms.length === 1) return { targets: [{ t: "def", d: ms[0]! }], medium: true };
      if (ms.length > 1) return { targets: [], reason: `ambiguous: ${ms.length} candidates` };
      return { targets: [], reason: "method not found on type" };
    }
    const r = this.assoc(t.t.d, name, "value");
    if (r.targets.length === 0 && r.reason === "method not found on type" && depth < 4) {
      // Auto-deref through an in-tree `impl Deref`.
      const inner = this.derefTarget(t);
      if (inner) {
        const d2 = this.methodOf(inner, name, depth + 1);
        if (d2.targets.length > 0) return { ...d2, medium: true };
      }
    }
    return r;
  }

  /** The type of an expression as written (a receiver or an initialiser), when the source declares it. */
  typeOfExpr(text: string, ctx: Ctx, at: number, depth = 0): TypeT | undefined {
    if (depth > 6) return undefined;
    const chain = parseChain(text);
    if (!chain) return undefined;
    return this.typeOfChain(chain, ctx, at, depth);
  }

  /** What `for x in <expr>` binds `x` to: the element type of a collection, or an in-tree iterator's `Item`. */
  elementOfExpr(text: string, ctx: Ctx, at: number, depth = 0): TypeT | undefined {
    const chain = parseChain(text);
    if (!chain) return undefined;
    const last = chain.ops[chain.ops.length - 1];
    if (last?.op === "method" && ITER_METHODS.has(last.name)) {
      const base = this.typeOfChain({ head: chain.head, ops: chain.ops.slice(0, -1) }, ctx, at, depth);
      if (!base || base.t.t !== "ext") return undefined;
      const kind = lastSeg(base.t.path);
      if (last.name === "keys" || last.name === "values") return MAPS.has(kind) ? this.typeArg(base, last.name === "keys" ? 0 : 1) : undefined;
      return COLLECTIONS.has(kind) ? this.typeArg(base, 0) : undefined;
    }
    const t = this.typeOfChain(chain, ctx, at, depth);
    return t ? this.elementOf(t) : undefined;
  }

  private elementOf(t: TypeT): TypeT | undefined {
    if (t.t.t === "ext") return COLLECTIONS.has(lastSeg(t.t.path)) ? this.typeArg(t, 0) : undefined;
    if (t.t.t !== "def" || t.traitObject) return undefined;
    // An in-tree `impl Iterator` / `impl IntoIterator` says its `Item`.
    const key = this.keyOf(t.t.d);
    for (const rec of this.implsOf(key)) {
      const tr = lastSeg(rec.traitExt ?? rec.traitKey);
      if (tr !== "Iterator" && tr !== "IntoIterator") continue;
      const item = rec.members.get("Item");
      const d = item ? def(item) : undefined;
      if (item && d?.kind === "type" && d.type) return this.typeFromText(d.type, this.ctxAt(item.f, d.parent), t);
    }
    return undefined;
  }

  private typeOfChain(chain: Chain, ctx: Ctx, at: number, depth: number): TypeT | undefined {
    const segs = pathSegments(chain.head.text);
    if (!segs) return undefined;
    const selfT = this.selfType(ctx);
    let cur: TypeT | undefined;
    let k = 0;
    const ops = chain.ops;
    if (chain.head.head === "struct") cur = this.structType(segs, ctx, selfT);
    else if (segs.length === 1 && segs[0] === "self") cur = selfT && { ...selfT };
    else if (ops[0]?.op === "call") {
      cur = this.callResultType(segs, ctx, at, selfT);
      k = 1;
    } else if (segs.length === 1) {
      const lt = this.localType(ctx.f, ctx.scope, segs[0]!, at, depth);
      cur = lt === "none" ? this.valueType(segs, ctx) : lt;
    } else cur = this.valueType(segs, ctx);
    for (; k < ops.length && cur; k++) {
      const op = ops[k]!;
      if (op.op === "field") cur = this.fieldType(cur, op.name);
      else if (op.op === "method") {
        const last = cur.t.t === "ext" ? lastSeg(cur.t.path) : "";
        if (UNWRAPPABLE.has(last) && UNWRAP_METHODS.has(op.name)) cur = this.typeArg(cur, 0);
        else {
          const r = this.methodOf(cur, op.name);
          const fn = r.targets.length === 1 && r.targets[0]!.t === "def" ? r.targets[0]!.d : undefined;
          if (fn) cur = this.returnType(fn, cur.traitObject ? undefined : cur);
          else if (op.name === "clone" || op.name === "to_owned") cur = { ...cur };
          else cur = undefined;
        }
      } else if (op.op === "try") {
        const last = cur.t.t === "ext" ? lastSeg(cur.t.path) : "";
        cur = UNWRAPPABLE.has(last) ? this.typeArg(cur, 0) : undefined;
      } else if (op.op === "cast") cur = this.typeFromText(op.type, ctx, selfT);
      else cur = undefined;
    }
    return cur;
  }

  private structType(segs: string[], ctx: Ctx, selfT: TypeT | undefined): TypeT | undefined {
    if (segs.length === 1 && segs[0] === "Self") return selfT;
    const r = this.resolvePath(segs, "type", ctx);
    if (r.targets.length !== 1) return undefined;
    return this.typeOfTarget(r.targets[0]!);
  }

  /** The type a constructor-like target makes: a struct, the enum of a variant, an alias expanded. */
  typeOfTarget(t: Target): TypeT | undefined {
    if (t.t !== "def") return undefined;
    const d = def(t.d);
    if (d.kind === "struct" || d.kind === "union" || d.kind === "enum") return { t, args: [] };
    if (d.kind === "field" && d.parent >= 0 && t.d.f.p.defs[d.parent]!.kind === "enum")
      return { t: { t: "def", d: { f: t.d.f, id: d.parent } }, args: [] };
    if (d.kind === "type") {
      const a = this.aliasTarget(t.d);
      return a ? this.typeOfTarget(a) : undefined;
    }
    return undefined;
  }

  /** The type of a path used as a value: a typed const / static, a unit struct or variant. */
  private valueType(segs: string[], ctx: Ctx): TypeT | undefined {
    const r = this.resolvePath(segs, "value", ctx);
    if (r.targets.length !== 1) return undefined;
    const t = r.targets[0]!;
    if (t.t !== "def") return undefined;
    const d = def(t.d);
    if ((d.kind === "constant" || d.kind === "variable") && d.type)
      return this.typeFromText(d.type, this.ctxAt(t.d.f, d.parent), t.d.f.implMember[t.d.id] ? this.ownerType(t.d.f, d) : undefined);
    return this.typeOfTarget(t);
  }

  /** The type a call `path(..)` yields: a declared return type, a tuple struct or an enum variant. */
  private callResultType(segs: string[], ctx: Ctx, at: number, selfT: TypeT | undefined): TypeT | undefined {
    if (segs.length === 1 && this.isLocal(ctx.f, ctx.scope, segs[0]!, at)) return undefined;
    let prefixT: TypeT | undefined;
    if (segs.length > 1) {
      const prefix = segs.slice(0, -1);
      if (prefix.length === 1 && prefix[0] === "Self") prefixT = selfT;
      else {
        const pr = this.resolvePath(prefix, "type", ctx);
        if (pr.targets.length === 1) {
          const pt = pr.targets[0]!;
          prefixT = pt.t === "def" ? this.typeOfTarget(pt) : undefined;
        }
      }
    }
    const r = this.resolvePath(segs, "value", ctx);
    if (r.targets.length !== 1) return undefined;
    const t = r.targets[0]!;
    if (t.t !== "def") return undefined;
    const d = def(t.d);
    if (FN_KINDS.has(d.kind)) return this.returnType(t.d, prefixT && !prefixT.traitObject ? prefixT : undefined);
    return this.typeOfTarget(t);
  }
}

export interface ImplInfo {
  ownerT: TypeT | undefined;
  ownerDef: DefRef | undefined;
  ownerKey: string;
  /** Key of the Self type in the impl tables, when it resolved. */
  typeKey: string | undefined;
  traitKey: string | undefined;
  traitDef: DefRef | undefined;
  traitExt: string | undefined;
  memberKey(name: string): string;
}

interface Uncertain {
  written: string;
  /** The external path the glob imports from (absent: the glob did not resolve). */
  ext?: string;
}

export interface LookupOut {
  targets: Target[];
  by: string;
  medium?: boolean;
  reason?: string;
  uncertain: Uncertain[];
}

export function extTypeKey(path: string): string {
  return `ext:${path}`;
}

export function lastSeg(path: string): string {
  const i = path.lastIndexOf("::");
  return i >= 0 ? path.slice(i + 2) : path;
}

/** Whether module `inner` is `outer` or nested in it. */
export function isWithin(inner: Mod, outer: Mod): boolean {
  for (let m: Mod | undefined = inner; m; m = m.parent) if (m === outer) return true;
  return false;
}

function addTo<V>(m: Map<string, V[]>, k: string, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

function dedupe(ts: Target[], r: RustResolver): Target[] {
  if (ts.length < 2) return ts;
  const seen = new Set<string>();
  const out: Target[] = [];
  for (const t of ts) {
    const k = r.targetKey(t);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(t);
  }
  return out;
}

export type { Item };
