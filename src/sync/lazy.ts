// The plane as the incremental index's memory, read on demand. A fresh process folding one commit
// (drsg digest --apply on a plane it did not build) used to read every fact of the plane to seed
// its FactIndex and its reconcile state; it now reads only what the fold touches: the facts of
// the files it re-resolves (through the nodes' file index), the family's stand-ins, and the rows
// the reconcile patches. Trusted under the same conditions as the eager seed (fold.ts,
// seedFromPlane): the plane records the commit, these plugins built it, no rebuild is pending,
// no key collision was reported; SQLite keeps the file index in step with every write.
import type { EdgeFact, Facts, NodeFact, Props } from "../model/facts.js";
import type { Partial } from "../model/partial.js";
import type { Reader, Store, StoredNode } from "../store/types.js";
import { isOwned, loadPlaneFacts, type StateNode, type StateView } from "./apply.js";

/** One file's facts in a family, as FactIndex groups them. */
export interface SourceGroup {
  nodes: Map<string, NodeFact>;
  edges: Map<string, EdgeFact>;
  /** Keys its edges reach that no file of the family owns (with repeats). */
  reach: string[];
}

/** A family's facts that no file owns: stand-ins, the edges between them, and how many edges reach each (lazily: of some stand-ins). */
export interface SourceStandIns {
  shared: Map<string, NodeFact>;
  loose: Map<string, EdgeFact>;
  reached: Map<string, number>;
}

/** Where a lazily seeded FactIndex reads a family's facts (the plane, as the last fold left it). */
export interface FactSource {
  /** The groups of `paths` for the family stamped `build` whose files are `files`. */
  groups(build: string, files: ReadonlySet<string>, paths: Iterable<string>): Map<string, SourceGroup>;
  /**
   * The family's stand-ins among `keys` (nodes of `build` no file of `files` owns), each with how
   * many of the family's edges reach it — counted only up to one more than `at` says the caller
   * takes away (a stand-in stays reached exactly when that count exceeds them) — and every edge
   * between stand-ins (they start at a node without a file).
   */
  standIns(build: string, files: ReadonlySet<string>, keys: Iterable<string>, at: ReadonlyMap<string, number>): SourceStandIns;
  /** The `_generated_by` of the parser-owned node at `key`, if any. */
  ownerOf(key: string): string | undefined;

  /** Every parser-owned fact (what the eager seed reads): for a fold that must resolve in full. */
  all(): Facts;
}

const edgeKey = (e: { src: string; type: string; dst: string }) => `${e.src}\u0000${e.type}\u0000${e.dst}`;

/** Whether the store can serve a lazy index (its file index and edge degrees). */
export function lazyCapable(store: Store): boolean {
  return typeof store.nodesByFile === "function" && typeof store.edgeDegreeCapped === "function";
}

/** The plane `plane` of `store` as a FactSource (lazyCapable must hold). */
export function planeSource(store: Store, plane: string): FactSource {
  const keyCache = new Map<number, StoredNode | undefined>();
  // Ids are never reused (AUTOINCREMENT), but a node's file or owner may change between folds:
  // the cache lives for one call only.
  const nodeOf = (id: number): StoredNode | undefined => {
    if (!keyCache.has(id)) keyCache.set(id, store.getNode(plane, id));
    return keyCache.get(id);
  };
  const mine = (n: StoredNode | undefined, build: string, files: ReadonlySet<string>): boolean =>
    n !== undefined && n.props._generated_by === build && typeof n.props.file === "string" && files.has(n.props.file);
  const fact = (n: StoredNode): NodeFact => ({ key: n.key, labels: n.labels, props: n.props });
  return {
    groups(build, files, paths) {
      keyCache.clear();
      const out = new Map<string, SourceGroup>();
      for (const path of paths) {
        if (!files.has(path)) continue;
        const nodes = store.nodesByFile!(plane, path).filter((n) => n.props._generated_by === build);
        if (nodes.length === 0) continue;
        const g: SourceGroup = { nodes: new Map(), edges: new Map(), reach: [] };
        for (const n of nodes) {
          keyCache.set(n.id, n);
          g.nodes.set(n.key, fact(n));
        }
        for (const n of nodes) {
          // An edge belongs to its source's file, else to its target's (FactIndex.group).
          for (const e of store.edgesOut(plane, n.id)) {
            if (e.props._generated_by !== build) continue;
            const d = nodeOf(e.dst);
            if (!d) continue;
            g.edges.set(edgeKey({ src: n.key, type: e.type, dst: d.key }), { src: n.key, type: e.type, dst: d.key, props: e.props });
            if (!mine(d, build, files)) g.reach.push(d.key);
          }
          for (const e of store.edgesIn(plane, n.id)) {
            if (e.props._generated_by !== build) continue;
            const s = nodeOf(e.src);
            if (!s || mine(s, build, files)) continue;
            g.edges.set(edgeKey({ src: s.key, type: e.type, dst: n.key }), { src: s.key, type: e.type, dst: n.key, props: e.props });
            g.reach.push(s.key);
          }
        }
        out.set(path, g);
      }
      return out;
    },
    standIns(build, files, keys, at) {
      keyCache.clear();
      const shared = new Map<string, NodeFact>();
      const reached = new Map<string, number>();
      for (const key of keys) {
        const n = store.getNodeByKey(plane, key);
        if (!n || n.props._generated_by !== build || mine(n, build, files)) continue;
        shared.set(n.key, fact(n));
        keyCache.set(n.id, n);
        const d = store.edgeDegreeCapped!(plane, n.id, build, (at.get(key) ?? 0) + 1);
        if (d > 0) reached.set(n.key, d);
      }
      // Edges between stand-ins start at one: at a node without a file (an External).
      const loose = new Map<string, EdgeFact>();
      const out = store.edgesFromFileless
        ? store.edgesFromFileless(plane)
        : store.nodesByFile!(plane, null).flatMap((src) => store.edgesOut(plane, src.id).map((edge) => ({ src, edge })));
      for (const { src: n, edge: e } of out) {
        if (n.props._generated_by !== build || e.props._generated_by !== build) continue;
        const t = nodeOf(e.dst);
        if (!t || mine(t, build, files)) continue;
        loose.set(edgeKey({ src: n.key, type: e.type, dst: t.key }), { src: n.key, type: e.type, dst: t.key, props: e.props });
      }
      return { shared, loose, reached };
    },
    ownerOf(key) {
      const n = store.getNodeByKey(plane, key);
      return n && isOwned(n.props) ? String(n.props._generated_by) : undefined;
    },
    all() {
      return loadPlaneFacts(store, plane).facts;
    },
  };
}

/**
 * The reconcile state of a plane read from the writer as it is asked (applyChanges touches only
 * the facts a delta names), in step with what the same transaction writes. Lookups are kept for
 * the transaction; what applyChanges records (set, delete) replaces them.
 */
export function writerState(w: Reader, plane: string): StateView {
  const nodes = new Map<string, StateNode | undefined>();
  const edges = new Map<string, { id: number; props: Props } | undefined>();
  const node = (key: string): StateNode | undefined => {
    if (nodes.has(key)) return nodes.get(key);
    const n = w.getNodeByKey(plane, key);
    const s = n === undefined ? undefined : { id: n.id, labels: n.labels, props: n.props, owned: isOwned(n.props) };
    nodes.set(key, s);
    return s;
  };
  return {
    nodes: {
      get: node,
      set(key, v) {
        nodes.set(key, v);
      },
      delete(key) {
        nodes.set(key, undefined);
      },
    },
    edges: {
      get(id) {
        if (edges.has(id)) return edges.get(id);
        const [s, type, d] = id.split("\u0000") as [string, string, string];
        const sn = node(s);
        const dn = node(d);
        let found: { id: number; props: Props } | undefined;
        if (sn && dn)
          for (const e of w.edgesOut(plane, sn.id, type))
            if (e.dst === dn.id && isOwned(e.props)) {
              found = { id: e.id, props: e.props };
              break;
            }
        edges.set(id, found);
        return found;
      },
      set(id, v) {
        edges.set(id, v);
      },
      delete(id) {
        edges.set(id, undefined);
      },
    },
  };
}

const REFS_AT = '"refs":[';
const REFS_END = '],"imports":';

/**
 * A partial's JSON parsed with its refs left as text until first asked for (`partial.refs`):
 * a fold reads every partial of the tree but resolves the refs of the few files it changes, and
 * refs are most of a partial. The text is JSON.stringify's (no spaces, keys in Partial's order):
 * `"refs":[` opens the top-level refs (no field of a definition is named so, and a quote that
 * is not escaped is never inside a string) and `],"imports":` closes it (a ref holds no array).
 * Anything else is parsed whole. Spreading the partial asks for the refs (use it as it is).
 */
export function parsePartialLazily(json: string | Buffer): Partial {
  // On the bytes: the markers are ASCII, and no byte of a multi-byte UTF-8 sequence is.
  const whole = () => JSON.parse(typeof json === "string" ? json : json.toString("utf8")) as Partial;
  const text = (from: number, to?: number) => (typeof json === "string" ? json.slice(from, to) : json.toString("utf8", from, to));
  const at = json.indexOf(REFS_AT);
  const end = at < 0 ? -1 : json.indexOf(REFS_END, at);
  if (end < 0) return whole();
  const open = at + REFS_AT.length - 1;
  let head: Partial;
  try {
    head = JSON.parse(`${text(0, open)}[]${text(end + 1)}`) as Partial;
  } catch {
    return whole();
  }
  if (!Array.isArray(head.refs) || head.refs.length !== 0 || !Array.isArray(head.imports)) return whole();
  const settle = (refs: Partial["refs"]) => Object.defineProperty(head, "refs", { value: refs, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(head, "refs", {
    enumerable: true,
    configurable: true,
    get() {
      const refs = JSON.parse(text(open, end + 1)) as Partial["refs"];
      settle(refs);
      return refs;
    },
    set(refs: Partial["refs"]) {
      settle(refs);
    },
  });
  return head;
}

/** A Partial's fields besides `path`, in its JSON order. */
const PARTIAL_FIELDS = ["grammar", "defs", "refs", "imports", "exports", "locals", "syntaxErrors", "recovered", "lines"] as const;

/** Deferred partials not yet read (deferredPartial). */
const unread = new WeakSet<Partial>();

/**
 * A partial known only by its path until one of its other fields is asked for: then `load` reads
 * it (once) and every field becomes the loaded one's — refs staying lazy if they were. A fold in a
 * fresh process holds one per file of the tree but reads only the files its resolution meets
 * (a resolver that asks for a file's tables only when a name leads there: python's). `load`
 * throws when the partial cannot be had (the fold then reads the tree eagerly).
 */
export function deferredPartial(path: string, load: () => Partial): Partial {
  const p = { path } as Partial;
  const settle = (): Partial => {
    if (!unread.has(p)) return p;
    unread.delete(p);
    const loaded = load();
    for (const f of PARTIAL_FIELDS) {
      if (f === "refs") {
        // The loaded partial's own (possibly lazy) refs, asked for only when read here.
        Object.defineProperty(p, "refs", {
          enumerable: true,
          configurable: true,
          get() {
            const refs = loaded.refs;
            Object.defineProperty(p, "refs", { value: refs, writable: true, enumerable: true, configurable: true });
            return refs;
          },
          set(refs: Partial["refs"]) {
            Object.defineProperty(p, "refs", { value: refs, writable: true, enumerable: true, configurable: true });
          },
        });
      } else if (loaded[f] === undefined) delete (p as unknown as Record<string, unknown>)[f];
      else Object.defineProperty(p, f, { value: loaded[f], writable: true, enumerable: true, configurable: true });
    }
    return p;
  };
  for (const f of PARTIAL_FIELDS)
    Object.defineProperty(p, f, {
      enumerable: true,
      configurable: true,
      get() {
        return (settle() as unknown as Record<string, unknown>)[f];
      },
      set(v: unknown) {
        settle();
        Object.defineProperty(p, f, { value: v, writable: true, enumerable: true, configurable: true });
      },
    });
  unread.add(p);
  return p;
}

/** Whether `p` is a deferred partial not read yet. */
export function isUnread(p: Partial): boolean {
  return unread.has(p);
}
