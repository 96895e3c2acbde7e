// Incremental resolution for folds. Resolver families are black boxes (partials → facts), so a
// fold that re-resolved everything would cost a full resolution per commit. Two properties of the
// resolver contract let it do less, exactly:
//   P1  a file's refs only shape facts whose source node is in that file — a call is bound where
//       it is written (its locals do not: a class body's `registry = Registry()` is a local
//       scoped to the class, and other files' calls are typed through it);
//   P2  a file's facts depend on another file's partial only through identifiers the first file
//       writes (names it calls, imports, annotates with, or declares) or through paths (which
//       only adds, deletes, renames and manifests change).
// So when only existing files change: E = the changed files, plus every file whose identifiers
// meet a name that a changed file's interface (its partial without refs, positions and docs)
// adds, loses or changes; the family is resolved with E's partials whole and every other partial
// stripped of refs (cheap), and only E's facts are replaced. Anything else — a file added, deleted
// or renamed, a manifest changed, E too large, a key shared across families — resolves the family
// in full. The convergence property test holds both paths to one full digest.
import type { EdgeFact, Facts, NodeFact } from "../model/facts.js";
import type { Local, Partial } from "../model/partial.js";
import type { PluginSet } from "../plugin/host.js";
import { log } from "../log.js";
import { compareEdges } from "../resolve/common.js";
import { resolverFamily } from "../resolve/index.js";
import type { FactChanges } from "./apply.js";
import { deferredPartial, type FactSource, isUnread } from "./lazy.js";

/** What a file says about supertypes: each definition's extends / implements / owner / trait. */
function inheritanceOf(p: Partial): string {
  const out: string[] = [];
  for (const d of p.defs)
    if (d.extends?.length || d.implements?.length || d.trait)
      out.push(`${d.name}\u0000${d.parent}\u0000${(d.extends ?? []).join(",")}\u0000${(d.implements ?? []).join(",")}\u0000${d.owner ?? ""}\u0000${d.trait ?? ""}`);
  return out.join("\n");
}

export type Known = Map<string, { partial: Partial; oid: string; build: string }>;

interface Group {
  nodes: Map<string, NodeFact>;
  edges: Map<string, EdgeFact>;
  /** Stand-in keys its edges reach (with repeats). */
  reach: string[];
}

/** One plugin's stamped facts as the last fold resolved them, grouped by the file that owns them. */
interface FamilyFacts {
  build: string;
  /** Paths of the partials resolved (the files of this family). */
  files: Set<string>;
  groups: Map<string, Group>;
  /** Nodes no file owns (External stand-ins). */
  shared: Map<string, NodeFact>;
  /** Edges touching no owned node. */
  loose: Map<string, EdgeFact>;
  manifests: Map<string, string>;
  notes: string[];
  /** Every node key this family asserts (owned and shared). */
  keys: Set<string>;
  /** Stand-in key → how many edges of the groups and loose edges reach it. */
  reached: Map<string, number>;
  /** The resolver reported key collisions: ownership by file is ambiguous, so no partial runs. */
  colliding: boolean;
  /**
   * Seeded lazily (seedLazy): groups, shared, loose, keys and reached are not held — the plane
   * holds them (FactIndex.source) and a partial resolution reads what it needs of them.
   */
  lazy?: boolean;
  /** A lazy family's keys asserted and given up by this update's delta, not yet in the plane. */
  pending?: { added: Set<string>; gone: Set<string> };
}

const isCollisionNote = (n: string) => /collision/i.test(n);

export interface IncrementalStats {
  /** Families resolved in full, and why. */
  full: { family: string; why: string }[];
  /** Families resolved incrementally, with how many files' facts were recomputed. */
  partial: { family: string; files: number; of: number }[];
  /** With verification on: whether the incremental result equalled a full resolution. */
  verified?: boolean;
}

const edgeKey = (e: { src: string; type: string; dst: string }) => `${e.src}\u0000${e.type}\u0000${e.dst}`;
const byPath = (a: Partial, b: Partial) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

const IDENT = /[A-Za-z_$][\w$]*/g;
function idents(text: string | undefined, out: Set<string>): void {
  if (!text) return;
  for (const m of text.matchAll(IDENT)) out.add(m[0]);
}

/** Every identifier a file writes: what it calls, imports, annotates with, and declares. */
function tokensOf(p: Partial): Set<string> {
  const out = new Set<string>();
  for (const d of p.defs) {
    out.add(d.name);
    for (const t of [d.returns, d.type, d.owner, d.trait, d.object, d.valueCallee, d.signature]) idents(t, out);
    for (const xs of [d.extends, d.implements, d.decorators]) for (const t of xs ?? []) idents(t, out);
  }
  for (const r of p.refs) {
    out.add(r.name);
    idents(r.text, out);
    idents(r.receiver, out);
  }
  for (const i of p.imports) {
    out.add(i.imported);
    out.add(i.local);
    idents(i.source, out);
  }
  for (const e of p.exports) {
    out.add(e.name);
    if (e.local) out.add(e.local);
    if (e.imported) out.add(e.imported);
    idents(e.source, out);
  }
  for (const l of p.locals) {
    out.add(l.name);
    for (const t of [l.type, l.newOf, l.callOf, l.callReceiver, l.aliasOf, l.prop, l.importOf]) idents(t, out);
  }
  return out;
}

const FUNCTION_KINDS = new Set(["function", "method", "constructor", "getter", "setter"]);

/** A return the ts family infers a function's return type from (a call in another file reads it). */
function isReturnLocal(l: Local): boolean {
  return l.name === "return" || l.name === "=>";
}

/**
 * Whether other files' facts may depend on a local: a module-level one, one in a class (or other
 * non-function) body, an attribute target (`self.x = …` in a method types the class's field), a
 * `global`, and the return locals a function's inferred return type comes from.
 */
function seenOutside(p: Partial, l: Local): boolean {
  if (l.scope < 0 || isReturnLocal(l)) return true;
  const kind = p.defs[l.scope]?.kind;
  return kind === undefined || !FUNCTION_KINDS.has(kind) || l.name.includes(".") || (l.aliasOf?.startsWith("global") ?? false);
}

/** What other files may see of a file: the partial without refs, function-private locals, positions, docs. */
function interfaceOf(p: Partial): string {
  return JSON.stringify({
    g: p.grammar,
    d: p.defs.map(({ line: _l, endLine: _e, start: _s, end: _n, doc: _d, ...rest }) => rest),
    i: p.imports.map(({ line: _l, ...rest }) => rest),
    x: p.exports.map(({ line: _l, ...rest }) => rest),
    l: p.locals.filter((l) => seenOutside(p, l)).map(({ line: _l, at: _a, ...rest }) => rest),
  });
}

/**
 * The interface as elements: definitions by their chain of names (`Cart.add`), imports by local
 * name, exports by name, module-level locals by name — each with everything but positions and
 * docs, and parents named rather than indexed. Two versions of a file differ in the names whose
 * elements differ; only those can change what other files' identifiers mean.
 */
function elementsOf(p: Partial): Map<string, { name: string; value: string }> {
  const chain: string[] = [];
  p.defs.forEach((d, i) => {
    chain[i] = d.parent >= 0 && chain[d.parent] !== undefined ? `${chain[d.parent]}.${d.name}` : d.name;
  });
  const scopeName = (i: number) => (i >= 0 ? (chain[i] ?? "?") : "");
  const out = new Map<string, { name: string; value: string }>();
  const add = (id: string, name: string, value: unknown) => {
    const prior = out.get(id);
    const v = JSON.stringify(value);
    out.set(id, { name, value: prior ? `${prior.value}\u0000${v}` : v });
  };
  p.defs.forEach((d, i) => {
    const { line: _l, endLine: _e, start: _s, end: _n, doc: _d, id: _i, parent, ...rest } = d;
    add(`d:${chain[i]}`, d.name, { ...rest, parent: scopeName(parent) });
  });
  for (const imp of p.imports) {
    const { line: _l, scope, ...rest } = imp;
    add(`i:${imp.local}:${imp.imported}`, imp.local || imp.imported, { ...rest, scope: scopeName(scope) });
  }
  for (const e of p.exports) {
    const { line: _l, ...rest } = e;
    add(`x:${e.name}`, e.name, rest);
  }
  for (const l of p.locals) {
    if (!seenOutside(p, l)) continue;
    const { line: _l, at: _a, scope, ...rest } = l;
    if (isReturnLocal(l)) {
      // A return of a definition: it is that definition's name other files use (`a.make().x()`);
      // a hidden body's returns are its function's.
      let s = l.scope;
      while (s >= 0 && p.defs[s]!.name === "{") s = p.defs[s]!.parent;
      const owner = s >= 0 ? p.defs[s]!.name : "";
      add(`r:${scopeName(l.scope)}`, owner, rest);
    } else {
      // An attribute target (`self.cache`) is seen by the name other files write (`cache`); an
      // interface's call signature (`(`) by the interface's.
      const name = l.name === "(" && l.scope >= 0 ? p.defs[l.scope]!.name : l.name.slice(l.name.lastIndexOf(".") + 1);
      add(`l:${scopeName(scope)}:${l.name}`, name, { ...rest, scope: scopeName(scope) });
    }
  }
  return out;
}

/** Names whose interface elements differ between two versions of a file. */
function changedNames(a: Partial, b: Partial): Set<string> {
  const ea = elementsOf(a);
  const eb = elementsOf(b);
  const out = new Set<string>();
  for (const [id, x] of ea) if (eb.get(id)?.value !== x.value) out.add(x.name);
  for (const [id, x] of eb) if (ea.get(id)?.value !== x.value) out.add(x.name);
  // A function's inferred return type may follow calls to others in its file (`return
  // this._addCheck(c)`): any change of the file's interface may change it, so its name is touched.
  if (out.size > 0) for (const e of [ea, eb]) for (const [id, x] of e) if (id.startsWith("r:")) out.add(x.name);
  return out;
}

/** P1: the partial as other files' resolution needs it — every local kept (class bodies type members). */
function stripped(p: Partial): Partial {
  // A partial not read yet stays so until the resolution asks for it (lazy.ts).
  if (isUnread(p)) return deferredPartial(p.path, () => strippedNow(p));
  return strippedNow(p);
}

function strippedNow(p: Partial): Partial {
  // Not a spread: a partial read for a fold parses its refs when first asked (lazy.ts).
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(p)) out[k] = k === "refs" ? [] : (p as unknown as Record<string, unknown>)[k];
  return out as unknown as Partial;
}

/** Per-blob derived data, cached by blob id and build. */
interface Derived {
  tokens?: Set<string>;
  iface?: string;
  stripped?: Partial;
  typeUses?: TypeUse[];
}

/** A name other files see, and the identifiers its declared type is written with. */
type TypeUse = [name: string, uses: Set<string>];

/**
 * What each name a file declares is typed through: a definition's annotations (type, parameters,
 * returns, heritage), an interface's call signatures (seen by the interface's name), and the
 * declared types and initialisers of the locals other files see.
 */
function typeUsesOf(p: Partial): TypeUse[] {
  const out: TypeUse[] = [];
  for (const d of p.defs) {
    const uses = new Set<string>();
    for (const t of [d.returns, d.type, d.params]) idents(t, uses);
    for (const xs of [d.extends, d.implements]) for (const t of xs ?? []) idents(t, uses);
    uses.delete(d.name);
    if (uses.size > 0) out.push([d.name, uses]);
  }
  for (const l of p.locals) {
    if (!seenOutside(p, l)) continue;
    const uses = new Set<string>();
    for (const t of [l.type, l.newOf, l.callOf, l.callReceiver, l.aliasOf, l.prop, l.importOf]) idents(t, uses);
    if (uses.size === 0) continue;
    // A call signature (`(`) is seen through its interface.
    const name = l.name === "(" && l.scope >= 0 ? p.defs[l.scope]!.name : l.name.slice(l.name.lastIndexOf(".") + 1);
    uses.delete(name);
    if (uses.size > 0) out.push([name, uses]);
  }
  return out;
}

export class FactIndex {
  private families = new Map<string, FamilyFacts>();
  private derived = new Map<string, Derived>();
  /** Where lazy families' facts are read (seedLazy). */
  private source: FactSource | undefined;

  constructor(private readonly plugins: PluginSet) {}

  get empty(): boolean {
    return this.families.size === 0;
  }

  /** Forget everything: the next update resolves every family in full. */
  reset(): void {
    this.families.clear();
    this.prevPartials = undefined;
    this.derived.clear();
    this.source = undefined;
  }

  /** Whether some family is held by the plane rather than in memory (seedLazy). */
  get lazy(): boolean {
    for (const f of this.families.values()) if (f.lazy) return true;
    return false;
  }

  private d(x: { partial: Partial; oid: string; build: string }): Derived {
    const id = `${x.oid}\u0000${x.build}\u0000${x.partial.path}`;
    let d = this.derived.get(id);
    if (!d) {
      d = {};
      this.derived.set(id, d);
    }
    return d;
  }
  private tokens(x: { partial: Partial; oid: string; build: string }): Set<string> {
    const d = this.d(x);
    d.tokens ??= tokensOf(x.partial);
    return d.tokens;
  }
  private typeUses(x: { partial: Partial; oid: string; build: string }): TypeUse[] {
    const d = this.d(x);
    d.typeUses ??= typeUsesOf(x.partial);
    return d.typeUses;
  }
  private iface(x: { partial: Partial; oid: string; build: string }): string {
    const d = this.d(x);
    d.iface ??= interfaceOf(x.partial);
    return d.iface;
  }
  private stripped(x: { partial: Partial; oid: string; build: string }): Partial {
    const d = this.d(x);
    d.stripped ??= stripped(x.partial);
    return d.stripped;
  }

  /** Drop derived data of blobs no longer in the tree. */
  private prune(partials: Known): void {
    const live = new Set<string>();
    for (const x of partials.values()) live.add(`${x.oid}\u0000${x.build}\u0000${x.partial.path}`);
    for (const id of this.derived.keys()) if (!live.has(id)) this.derived.delete(id);
  }

  /**
   * Resolve `partials` (the whole tree's) given what changed since the last call: families whose
   * partials and manifests are unchanged keep their facts; the others are resolved in part or in
   * full. Returns the plane-level delta, or `all` facts when a family had to be resolved in full
   * (the caller then reconciles everything).
   */
  async update(
    partials: Known,
    manifests: Map<string, Map<string, string>>,
    treeName: string,
    changedManifests: Set<string>,
  ): Promise<{ changes?: FactChanges; all?: Facts; stats: IncrementalStats }> {
    const stats: IncrementalStats = { full: [], partial: [] };
    for (const f of this.families.values()) f.pending = undefined;
    let lazyDelta = false;
    const fresh = this.empty;
    const deltas: { family: string; changes: FactChanges }[] = [];
    let anyFull = fresh;
    const byBuild = new Map<string, Known>();
    for (const [path, x] of partials) {
      let m = byBuild.get(x.build);
      if (!m) byBuild.set(x.build, (m = new Map()));
      m.set(path, x);
    }
    for (const plugin of this.plugins.plugins) {
      const name = plugin.manifest.name;
      const build = plugin.build;
      const mine: Known = byBuild.get(build) ?? new Map();
      const old = this.families.get(name);
      const man = manifests.get(name) ?? new Map<string, string>();
      if (mine.size === 0) {
        if (old) {
          this.families.delete(name);
          anyFull = true;
          stats.full.push({ family: name, why: "no files left" });
        }
        continue;
      }
      if (!old || old.build !== build) {
        await this.resolveFull(name, build, mine, man, treeName);
        anyFull = true;
        stats.full.push({ family: name, why: old ? "plugin build changed" : "first resolution" });
        continue;
      }
      const changed: string[] = [];
      let structural: string | undefined;
      for (const [path, x] of mine) {
        if (!old.files.has(path)) {
          structural = `${path} added`;
          break;
        }
        const prev = this.prevPartials?.get(path);
        if (!prev || prev.oid !== x.oid) changed.push(path);
      }
      if (!structural) for (const path of old.files) if (!mine.has(path)) structural = `${path} deleted`;
      if (!structural) for (const m of changedManifests) if (man.has(m) || old.manifests.has(m)) structural = `manifest ${m} changed`;
      // A changed supertype reaches callers that never write its name (`b.bar()` bound through
      // B extends C extends D): P2 does not hold for inheritance, so resolve the family in full.
      if (!structural)
        for (const path of changed) {
          const before = this.prevPartials?.get(path)?.partial;
          const after = mine.get(path)?.partial;
          if (before && after && inheritanceOf(before) !== inheritanceOf(after)) {
            structural = `inheritance changed in ${path}`;
            break;
          }
        }
      if (structural) {
        await this.resolveFull(name, build, mine, man, treeName);
        anyFull = true;
        stats.full.push({ family: name, why: structural });
        continue;
      }
      if (changed.length === 0) continue;
      const r = old.colliding ? { why: "key collisions between files" } : await this.resolvePart(name, old, mine, changed, treeName);
      if ("why" in r) {
        await this.resolveFull(name, build, mine, man, treeName);
        anyFull = true;
        stats.full.push({ family: name, why: r.why });
        continue;
      }
      stats.partial.push({ family: name, files: r.files, of: mine.size });
      deltas.push({ family: name, changes: r.changes });
      if (old.lazy) lazyDelta = true;
    }
    for (const name of [...this.families.keys()]) if (!this.plugins.get(name)) {
      this.families.delete(name);
      anyFull = true;
    }
    if (anyFull && lazyDelta) {
      // A lazy family's delta is not in the plane yet, so the merge cannot read it there:
      // resolve everything (a plane of several languages where one changed structurally).
      this.reset();
      return this.update(partials, manifests, treeName, changedManifests);
    }
    this.prevPartials = partials;
    this.prune(partials);
    if (anyFull) return { all: this.merged(), stats };
    const changes: FactChanges = { nodes: [], goneNodes: [], edges: [], goneEdges: [] };
    for (const d of deltas) {
      changes.nodes.push(...d.changes.nodes);
      changes.goneNodes.push(...d.changes.goneNodes);
      changes.edges.push(...d.changes.edges);
      changes.goneEdges.push(...d.changes.goneEdges);
    }
    return { changes, stats };
  }

  /** The partials the facts were last resolved from. */
  private prevPartials: Known | undefined;

  /** Every fact of the plane, merged across families as the pipeline merges them. */
  merged(): Facts {
    this.materialize();
    const nodes = new Map<string, NodeFact>();
    const edges = new Map<string, EdgeFact>();
    for (const plugin of this.plugins.plugins) {
      const f = this.families.get(plugin.manifest.name);
      if (!f) continue;
      const all: NodeFact[] = [];
      for (const g of f.groups.values()) for (const n of g.nodes.values()) all.push(n);
      for (const n of f.shared.values()) all.push(n);
      all.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      for (const n of all) if (!nodes.has(n.key)) nodes.set(n.key, n);
      const es: EdgeFact[] = [];
      for (const g of f.groups.values()) for (const e of g.edges.values()) es.push(e);
      for (const e of f.loose.values()) es.push(e);
      es.sort(compareEdges);
      for (const e of es) {
        const id = edgeKey(e);
        if (!edges.has(id)) edges.set(id, e);
      }
    }
    return {
      nodes: [...nodes.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
      edges: [...edges.values()].sort(compareEdges),
    };
  }

  /** One resolution of a family; facts come back unstamped (group() stamps what it keeps). */
  private async run(
    name: string,
    input: Partial[],
    manifests: Map<string, string>,
    treeName: string,
    emit?: ReadonlySet<string>,
  ): Promise<{ facts: Facts; notes: string[]; build: string }> {
    const plugin = this.plugins.get(name)!;
    const out = (await resolverFamily(plugin.manifest.resolver))({ partials: input, manifests, treeName, ...(emit ? { emit } : {}) });
    return { facts: out.facts, notes: out.notes, build: plugin.build };
  }

  /** Facts by owning file (a node's `file`; an edge's source's, else its target's), stamped with `build`. */
  private group(files: Set<string>, facts: Facts, build: string | undefined, only?: Set<string>) {
    const stamp = <T extends NodeFact | EdgeFact>(f: T): T => (build === undefined ? f : { ...f, props: { ...f.props, _generated_by: build } });
    const owner = new Map<string, string>();
    const groups = new Map<string, Group>();
    const shared = new Map<string, NodeFact>();
    const loose = new Map<string, EdgeFact>();
    const groupOf = (f: string) => {
      let g = groups.get(f);
      if (!g) {
        g = { nodes: new Map(), edges: new Map(), reach: [] };
        groups.set(f, g);
      }
      return g;
    };
    for (const n of facts.nodes) {
      const file = typeof n.props.file === "string" && files.has(n.props.file) ? n.props.file : undefined;
      if (file === undefined) {
        shared.set(n.key, stamp(n));
        continue;
      }
      owner.set(n.key, file);
      if (!only || only.has(file)) groupOf(file).nodes.set(n.key, stamp(n));
    }
    const reached = new Map<string, number>();
    const count = (k: string) => reached.set(k, (reached.get(k) ?? 0) + 1);
    for (const e of facts.edges) {
      const file = owner.get(e.src) ?? owner.get(e.dst);
      if (file === undefined) {
        loose.set(edgeKey(e), stamp(e));
        count(e.src);
        count(e.dst);
      } else if (!only || only.has(file)) {
        const g = groupOf(file);
        g.edges.set(edgeKey(e), stamp(e));
        for (const k of [e.src, e.dst]) {
          if (owner.has(k)) continue;
          g.reach.push(k);
          count(k);
        }
      }
    }
    return { groups, shared, loose, owner, reached };
  }

  private async resolveFull(name: string, build: string, mine: Known, manifests: Map<string, string>, treeName: string): Promise<void> {
    const input = [...mine.values()].map((x) => x.partial).sort(byPath);
    const files = new Set(mine.keys());
    const { facts, notes } = await this.run(name, input, manifests, treeName);
    const { groups, shared, loose, reached } = this.group(files, facts, build);
    const keys = new Set(facts.nodes.map((n) => n.key));
    this.families.set(name, { build, files, groups, shared, loose, manifests, notes, keys, reached, colliding: notes.some(isCollisionNote) });
  }

  private async resolvePart(
    name: string,
    old: FamilyFacts,
    mine: Known,
    changed: string[],
    treeName: string,
  ): Promise<{ changes: FactChanges; files: number } | { why: string }> {
    // E: the changed files, and the files whose identifiers meet names an interface change touches.
    const touched = new Set<string>();
    for (const path of changed) {
      const now = mine.get(path)!;
      const prev = this.prevPartials!.get(path)!;
      if (this.iface(now) === this.iface(prev)) continue;
      for (const n of changedNames(prev.partial, now.partial)) touched.add(n);
    }
    // A name typed through a touched one is touched too (a field typed by a changed interface, an
    // interface whose call signature names a changed alias): callers that write only the field's
    // name (`app.get('/', (c) => c.json())`) are re-resolved. To a fixpoint, bounded.
    if (touched.size > 0) {
      for (let round = 0; round < 8; round++) {
        let grew = false;
        for (const x of mine.values())
          for (const [name, uses] of this.typeUses(x)) {
            if (touched.has(name)) continue;
            for (const u of uses)
              if (touched.has(u)) {
                touched.add(name);
                grew = true;
                break;
              }
          }
        if (!grew) break;
      }
    }
    const E = new Set(changed);
    if (touched.size > 0) {
      for (const [path, x] of mine) {
        if (E.has(path)) continue;
        const tokens = this.tokens(x);
        for (const t of touched) {
          if (tokens.has(t)) {
            E.add(path);
            break;
          }
        }
      }
    }
    log("debug", `fold ${name}: ${changed.length} changed, names touched: ${[...touched].slice(0, 40).join(" ")}${touched.size > 40 ? ` … (${touched.size})` : ""}; ${E.size} file(s) to resolve`);
    if (E.size > Math.max(64, mine.size / 2)) return { why: `${E.size} of ${mine.size} files affected` };
    // A lazy family's facts for E, read from the plane (the rest is not needed).
    let base: FamilyFacts = old.lazy ? { ...old, groups: this.source!.groups(old.build, old.files, E) } : old;
    const input = [...mine.values()].map((x) => (E.has(x.partial.path) ? x.partial : this.stripped(x))).sort(byPath);
    const { facts, notes } = await this.run(name, input, old.manifests, treeName, E);
    // Keys claimed by two files make ownership ambiguous: such a family is always resolved in full.
    if (notes.some(isCollisionNote)) return { why: "key collisions between files" };
    const g = this.group(old.files, facts, old.build, E);
    if (old.lazy) {
      // Its stand-ins: only those E's edges reached or reach now, or the run emits, can change.
      const at = new Map<string, number>();
      for (const path of E) for (const k of base.groups.get(path)?.reach ?? []) at.set(k, (at.get(k) ?? 0) + 1);
      const keys = new Set([...at.keys(), ...g.shared.keys()]);
      for (const path of E) for (const k of g.groups.get(path)?.reach ?? []) keys.add(k);
      base = { ...base, ...this.source!.standIns(old.build, old.files, keys, at) };
    }
    // Keys must stay with this family: a key another family holds is merged by plugin order.
    for (const [, grp] of g.groups)
      for (const key of grp.nodes.keys()) if (this.heldElsewhere(name, key)) return { why: `key ${key} is shared with another plugin` };
    // A key another file of the family holds is a collision the run may not have seen (a
    // resolver need not read the files it does not emit): the full resolution says who keeps it.
    for (const [path, grp] of g.groups)
      for (const key of grp.nodes.keys()) {
        const holder = this.holderIn(old, base, E, key);
        if (holder !== undefined && holder !== path) return { why: `key ${key} of ${path} is held by ${holder}` };
      }
    if (!sameEdges(g.loose, base.loose)) return { why: "facts between stand-ins changed" };

    const changes: FactChanges = { nodes: [], goneNodes: [], edges: [], goneEdges: [] };
    const nowKeys = new Set<string>();
    const nowEdges = new Set<string>();
    for (const path of E) {
      const grp = g.groups.get(path);
      if (!grp) continue;
      for (const [k, n] of grp.nodes) {
        nowKeys.add(k);
        changes.nodes.push(n);
      }
      for (const [id, e] of grp.edges) {
        nowEdges.add(id);
        changes.edges.push(e);
      }
    }
    const gone: string[] = [];
    for (const path of E) {
      const grp = base.groups.get(path);
      if (!grp) continue;
      for (const k of grp.nodes.keys()) if (!nowKeys.has(k)) gone.push(k);
      for (const [id, e] of grp.edges) if (!nowEdges.has(id)) changes.goneEdges.push(e);
    }
    // Stand-ins: those the new run emits, plus those the untouched files' edges still reach.
    const reached = new Map(base.reached);
    for (const path of E) {
      for (const k of base.groups.get(path)?.reach ?? []) reached.set(k, (reached.get(k) ?? 0) - 1);
      for (const k of g.groups.get(path)?.reach ?? []) reached.set(k, (reached.get(k) ?? 0) + 1);
    }
    for (const [k, n] of reached) if (n <= 0) reached.delete(k);
    const shared = new Map(g.shared);
    for (const [k, n] of base.shared) if (!shared.has(k) && reached.has(k)) shared.set(k, n);
    for (const [k, n] of shared) {
      if (this.heldElsewhere(name, k)) return { why: `stand-in ${k} is shared with another plugin` };
      nowKeys.add(k);
      const prior = base.shared.get(k);
      if (!prior || JSON.stringify(prior) !== JSON.stringify(n)) changes.nodes.push(n);
    }
    for (const k of base.shared.keys()) if (!shared.has(k)) gone.push(k);
    // A key that moved between files (or between a file and the stand-ins) is patched, not recreated.
    changes.goneNodes = gone.filter((k) => !nowKeys.has(k));

    if (old.lazy) {
      // The plane takes the delta when the fold writes it; until then other families ask here.
      old.pending = { added: nowKeys, gone: new Set(changes.goneNodes) };
      old.notes = notes;
      return { changes, files: E.size };
    }
    // Nothing can fail from here on: update the family in place (no copies of its big tables).
    for (const path of E) {
      const grp = g.groups.get(path);
      if (grp) old.groups.set(path, grp);
      else old.groups.delete(path);
    }
    for (const k of changes.goneNodes) old.keys.delete(k);
    for (const k of nowKeys) old.keys.add(k);
    old.shared = shared;
    old.notes = notes;
    old.reached = reached;
    return { changes, files: E.size };
  }

  /**
   * The file outside E of the family `old` whose node has `key` as the last fold left it (`base`
   * holds E's groups and the stand-ins), or undefined when none does.
   */
  private holderIn(old: FamilyFacts, base: FamilyFacts, E: ReadonlySet<string>, key: string): string | undefined {
    for (const path of E) if (base.groups.get(path)?.nodes.has(key)) return undefined;
    if (old.lazy) {
      const file = this.source!.fileOf(key, old.build);
      return file !== undefined && !E.has(file) ? file : undefined;
    }
    if (!old.keys.has(key) || base.shared.has(key)) return undefined;
    for (const [path, grp] of old.groups) if (!E.has(path) && grp.nodes.has(key)) return path;
    return undefined;
  }

  /** Whether another family asserts a node with this key (the pipeline keeps the first plugin's). */
  private heldElsewhere(family: string, key: string): boolean {
    for (const [name, f] of this.families) {
      if (name === family) continue;
      if (!f.lazy) {
        if (f.keys.has(key)) return true;
        continue;
      }
      if (f.pending?.added.has(key)) return true;
      if (!f.pending?.gone.has(key) && this.source!.ownerOf(key) === f.build) return true;
    }
    return false;
  }

  /**
   * Seed from the plane without reading it (lazy.ts): every family of `partials` is held by
   * `source`, which is read for what a partial resolution needs. The same conditions as seed():
   * the caller vouches that the plane is what these partials resolve to.
   */
  seedLazy(source: FactSource, partials: Known, manifests: Map<string, Map<string, string>>, notes: string[]): void {
    this.families.clear();
    this.prevPartials = undefined;
    this.source = undefined;
    if (notes.some((n) => n.includes("key collision(s) between plugins"))) return;
    this.source = source;
    for (const plugin of this.plugins.plugins) {
      const build = plugin.build;
      const files = new Set<string>();
      for (const [path, x] of partials) if (x.build === build) files.add(path);
      if (files.size === 0) continue;
      const name = plugin.manifest.name;
      this.families.set(name, {
        build,
        files,
        groups: new Map(),
        shared: new Map(),
        loose: new Map(),
        manifests: manifests.get(name) ?? new Map(),
        notes: [],
        keys: new Set(),
        reached: new Map(),
        colliding: notes.some((n) => n.startsWith(`${name}: `) && isCollisionNote(n)),
        lazy: true,
      });
    }
    this.prevPartials = partials;
    this.prune(partials);
  }

  /** Read every lazy family's facts from the plane into memory (it holds them exactly: no delta is pending). */
  private materialize(): void {
    if (!this.lazy) return;
    const facts = this.source!.all();
    const byBuild = new Map<string, { nodes: NodeFact[]; edges: EdgeFact[] }>();
    const bucket = (b: unknown) => {
      const k = String(b);
      let x = byBuild.get(k);
      if (!x) byBuild.set(k, (x = { nodes: [], edges: [] }));
      return x;
    };
    for (const n of facts.nodes) bucket(n.props._generated_by).nodes.push(n);
    for (const e of facts.edges) bucket(e.props._generated_by).edges.push(e);
    for (const [name, f] of this.families) {
      if (!f.lazy) continue;
      const mine = byBuild.get(f.build) ?? { nodes: [], edges: [] };
      const { groups, shared, loose, reached } = this.group(f.files, mine, undefined);
      this.families.set(name, { ...f, groups, shared, loose, reached, keys: new Set(mine.nodes.map((n) => n.key)), lazy: false, pending: undefined });
    }
  }

  /**
   * Take a full build's facts as the starting point (no second resolution). Refused (the next
   * update then resolves in full) when plugins collided on keys, which the merge has hidden.
   */
  seed(facts: Facts, partials: Known, manifests: Map<string, Map<string, string>>, notes: string[]): void {
    this.families.clear();
    this.prevPartials = undefined;
    if (notes.some((n) => n.includes("key collision(s) between plugins"))) return;
    const byBuild = new Map<string, { nodes: NodeFact[]; edges: EdgeFact[] }>();
    const bucket = (b: unknown) => {
      const k = String(b);
      let x = byBuild.get(k);
      if (!x) {
        x = { nodes: [], edges: [] };
        byBuild.set(k, x);
      }
      return x;
    };
    for (const n of facts.nodes) bucket(n.props._generated_by).nodes.push(n);
    for (const e of facts.edges) bucket(e.props._generated_by).edges.push(e);
    for (const plugin of this.plugins.plugins) {
      const build = plugin.build;
      const files = new Set<string>();
      for (const [path, x] of partials) if (x.build === build) files.add(path);
      if (files.size === 0) continue;
      const f = byBuild.get(build) ?? { nodes: [], edges: [] };
      const { groups, shared, loose, reached } = this.group(files, f, undefined);
      const name = plugin.manifest.name;
      this.families.set(name, {
        build,
        files,
        groups,
        shared,
        loose,
        manifests: manifests.get(name) ?? new Map(),
        notes: [],
        keys: new Set(f.nodes.map((n) => n.key)),
        reached,
        colliding: notes.some((n) => n.startsWith(`${name}: `) && isCollisionNote(n)),
      });
    }
    this.prevPartials = partials;
    this.prune(partials);
  }
}

function sameEdges(a: Map<string, EdgeFact>, b: Map<string, EdgeFact>): boolean {
  if (a.size !== b.size) return false;
  for (const [id, e] of a) {
    const o = b.get(id);
    if (!o || JSON.stringify(o.props) !== JSON.stringify(e.props)) return false;
  }
  return true;
}
