// Incremental resolution for folds. Resolver families are black boxes (partials → facts), so a
// fold that re-resolved everything would cost a full resolution per commit. Two properties of the
// resolver contract let it do less, exactly:
//   P1  a file's refs only shape facts whose source node is in that file — a call is bound where
//       it is written (its locals do not: a class body's `registry = Registry()` is a local
//       scoped to the class, and other files' calls are typed through it);
//   P2  a file's facts depend on another file's partial only through identifiers the first file
//       writes (names it calls, imports, annotates with, or declares) or through paths (which
//       only adds, deletes, renames and manifests change).
//   P3  (families that declare it, resolve/index.ts familyDependencies) a file's facts depend only
//       on the files the family says it may read, transitively (python: what its imports reach).
// So when only existing files change: E = the changed files, plus every file (that may read a
// changed one, P3) whose identifiers meet a name that a changed file's interface (its partial
// without refs, positions and docs) adds, loses or changes, or a name typed through one such
// (to a fixpoint); the family is resolved with E's partials whole and every other partial
// stripped of refs (cheap), and only E's facts are replaced. Anything else — a file added, deleted
// or renamed, a manifest changed, E too large, a key shared across families — resolves the family
// in full. The convergence property test holds both paths to one full digest.
import type { EdgeFact, Facts, NodeFact } from "../model/facts.js";
import type { Partial } from "../model/partial.js";
import { affected, interfaceOf, type Tokens, tokensOf, type TypeUse, typeUsesOf } from "./affected.js";
import type { PluginSet } from "../plugin/host.js";
import { log } from "../log.js";
import { compareEdges } from "../resolve/common.js";
import { familyDependencies, familyManifestView, resolverFamily } from "../resolve/index.js";
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

/** A file's partial as a fold knows it: by blob id and the plugin build that extracted it. */
export interface KnownPartial {
  partial: Partial;
  oid: string;
  build: string;
}
export type Known = Map<string, KnownPartial>;

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
  tokens?: Tokens;
  iface?: string;
  stripped?: Partial;
  typeUses?: TypeUse[];
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

  private d(x: KnownPartial): Derived {
    const id = `${x.oid}\u0000${x.build}\u0000${x.partial.path}`;
    let d = this.derived.get(id);
    if (!d) {
      d = {};
      this.derived.set(id, d);
    }
    return d;
  }
  private tokens(x: KnownPartial): Tokens {
    const d = this.d(x);
    d.tokens ??= tokensOf(x.partial);
    return d.tokens;
  }
  private typeUses(x: KnownPartial): TypeUse[] {
    const d = this.d(x);
    d.typeUses ??= typeUsesOf(x.partial);
    return d.typeUses;
  }
  private iface(x: KnownPartial): string {
    const d = this.d(x);
    d.iface ??= interfaceOf(x.partial);
    return d.iface;
  }
  private stripped(x: KnownPartial): Partial {
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
      if (!structural) {
        // A manifest edit the family does not read (a version bump) changes nothing it resolves.
        const view = await familyManifestView(plugin.manifest.resolver);
        for (const m of changedManifests) {
          if (!man.has(m) && !old.manifests.has(m)) continue;
          const [a, b] = [old.manifests.get(m), man.get(m)];
          if (!view || a === undefined || b === undefined || view(m, a) !== view(m, b)) structural = `manifest ${m} changed`;
        }
        if (!structural && changedManifests.size > 0) old.manifests = man;
      }
      // A changed supertype reaches callers that never write its name (`b.bar()` bound through
      // B extends C extends D): without the family's dependencies (P3), resolve it in full. With
      // them, the class extending it is touched (resolvePart's fixpoint through `extends`), and
      // the files that may read it and write its name are re-resolved.
      if (!structural && !(await familyDependencies(plugin.manifest.resolver)))
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
    // One family's delta as it is; several concatenated (never spread into push: a delta of
    // a few hundred thousand edges overflows the call stack).
    const changes: FactChanges =
      deltas.length === 1
        ? deltas[0]!.changes
        : {
            nodes: deltas.flatMap((d) => d.changes.nodes),
            goneNodes: deltas.flatMap((d) => d.changes.goneNodes),
            edges: deltas.flatMap((d) => d.changes.edges),
            goneEdges: deltas.flatMap((d) => d.changes.goneEdges),
          };
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
    // E: the changed files, and the files their interface changes reach (affected.ts).
    const resolver = this.plugins.get(name)!.manifest.resolver;
    const family = await familyDependencies(resolver);
    const a = affected({
      mine,
      changed,
      prev: (path) => this.prevPartials!.get(path)!,
      iface: (x) => this.iface(x),
      tokens: (x) => this.tokens(x),
      typeUses: (x) => this.typeUses(x),
      ...(family ? { deps: () => family([...mine.values()].map((x) => x.partial).sort(byPath), old.manifests, treeName) } : {}),
    });
    if (!a) return { why: "too many names touched" };
    const E = a.files;
    log(
      "debug",
      `fold ${name}: ${changed.length} changed (${a.reshaped.length} reshaped), names touched: ${a.names.slice(0, 40).join(" ")}${a.names.length > 40 ? ` … (${a.names.length})` : ""}; ${E.size} file(s) to resolve${a.why?.length ? ` — most by ${a.why.join(", ")}` : ""}`,
    );
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
