// A query's matches over a tree as one flat Int32Array, read straight out of the wasm
// memory: no Node object per capture (web-tree-sitter's Query.matches builds one for every
// capture; extraction reads a handful of numbers from most of them). The node operations
// extraction needs (end index, end row, type, parent type, a field child's text) are asked of
// the wasm directly; a full Node is made only where a walk needs one.
//
// This reads web-tree-sitter 0.27's binding (the emscripten module, whose object is the one
// handed to Parser.init, and its transfer-buffer layout). When that module is not at hand (Parser
// was initialised elsewhere first) the same array is built from Query.matches instead: one
// code path for extraction either way, and a test holds the two equal.
import { Node, type Query, type QueryCapture, type Tree } from "web-tree-sitter";

/** The part of web-tree-sitter's emscripten module read here. */
interface Wasm {
  HEAP32: Int32Array;
  _free(ptr: number): void;
  _ts_init(): number;
  _ts_query_matches_wasm(...args: number[]): void;
  _ts_node_end_index_wasm(tree: number): number;
  _ts_node_end_point_wasm(tree: number): void;
  _ts_node_symbol_wasm(tree: number): number;
  _ts_node_parent_wasm(tree: number): void;
  _ts_node_child_by_field_id_wasm(tree: number, field: number): void;
  _ts_node_named_children_wasm(tree: number): void;
  _ts_query_predicates_for_pattern(query: number, pattern: number, out: number): number;
  _ts_query_string_value_for_id(query: number, id: number, out: number): number;
  UTF8ToString(ptr: number, length: number): string;
}

const NEEDED = [
  "_free",
  "_ts_init",
  "_ts_query_matches_wasm",
  "_ts_node_end_index_wasm",
  "_ts_node_end_point_wasm",
  "_ts_node_symbol_wasm",
  "_ts_node_parent_wasm",
  "_ts_node_child_by_field_id_wasm",
  "_ts_node_named_children_wasm",
  "_ts_query_predicates_for_pattern",
  "_ts_query_string_value_for_id",
  "UTF8ToString",
] as const;

let wasm: Wasm | undefined;
/** The binding's transfer buffer (in Int32 units): where a node is put for a node call and results come back. */
let tb = 0;

/** Bind to the module object Parser.init filled; false (and the Query.matches path) when it is not one. */
export function bindWasm(mod: object): boolean {
  const m = mod as Partial<Wasm>;
  const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
  if (!littleEndian || !(m.HEAP32 instanceof Int32Array) || NEEDED.some((k) => typeof m[k] !== "function")) return false;
  wasm = m as Wasm;
  // ts_init only writes the two language-version words into the transfer buffer and answers its address.
  tb = wasm._ts_init() >> 2;
  return true;
}

/** Whether matches are read from the wasm memory (else through Query.matches). */
export function wasmBound(): boolean {
  return wasm !== undefined;
}

/** For tests: read matches through Query.matches even when the module is bound. */
export function unbindWasmForTest(): () => void {
  const w = wasm;
  wasm = undefined;
  return () => {
    wasm = w;
  };
}

/**
 * Ints per capture: capture id, then the node as the binding marshals it (id, start index,
 * start row, start column, internal handle). A match is `pattern, count`, then its captures.
 */
export const CAP = 6;

type TextPredicate = (captures: { name: string; node: { text: string } }[]) => boolean;

/** A text predicate (#eq?, #match?, #any-of? and their variants), with web-tree-sitter's semantics. */
type TextPred =
  | { kind: "eq"; capture: number; value?: string; other?: number; positive: boolean; all: boolean }
  | { kind: "match"; capture: number; regex: RegExp; positive: boolean; all: boolean }
  | { kind: "any-of"; capture: number; values: string[]; positive: boolean }
  | { kind: "closure"; fn: TextPredicate };

const TEXT_PREDS = new WeakMap<Query, (TextPred[] | undefined)[] | null>();

/**
 * Each pattern's text predicates (undefined: none; null for the query: no pattern has any), read
 * from the query's predicate steps as web-tree-sitter reads them. A predicate this does not read
 * is tested by web-tree-sitter's closure for it (the patterns' closures are in predicate order).
 */
function textPredicates(w: Wasm, query: Query): (TextPred[] | undefined)[] | null {
  let out = TEXT_PREDS.get(query);
  if (out !== undefined) return out;
  const closures = (query as unknown as { textPredicates: TextPredicate[][] }).textPredicates;
  const qp = (query as unknown as { 0: number })[0];
  const strings = new Map<number, string>();
  const str = (id: number): string => {
    let v = strings.get(id);
    if (v === undefined) {
      const ptr = w._ts_query_string_value_for_id(qp, id, tb << 2);
      v = w.UTF8ToString(ptr, w.HEAP32[tb]!);
      strings.set(id, v);
    }
    return v;
  };
  const list: (TextPred[] | undefined)[] = [];
  let any = false;
  for (let pattern = 0; pattern < closures.length; pattern++) {
    const fns = closures[pattern]!;
    if (fns.length === 0) {
      list.push(undefined);
      continue;
    }
    any = true;
    // The steps: (type, value id) pairs; type 0 ends a predicate, 1 is a capture, 2 a string.
    let at = w._ts_query_predicates_for_pattern(qp, pattern, tb << 2) >> 2;
    const steps = w.HEAP32[tb]!;
    const raw: [number, number][] = [];
    for (let i = 0; i < steps; i++, at += 2) raw.push([w.HEAP32[at]!, w.HEAP32[at + 1]!]);
    const preds: TextPred[] = [];
    let fi = 0;
    let cur: { type: number; id: number }[] = [];
    for (const [type, id] of raw) {
      if (type !== 0) {
        cur.push({ type, id });
        continue;
      }
      const steps1 = cur;
      cur = [];
      if (steps1.length === 0 || steps1[0]!.type !== 2) continue;
      const op = str(steps1[0]!.id);
      const args = steps1.slice(1);
      const isText = /^(any-)?(not-)?(eq|match)\?$/.test(op) || op === "any-of?" || op === "not-any-of?";
      if (!isText) continue;
      const fn = fns[fi++]!;
      const capArg = args[0]?.type === 1 ? args[0].id : -1;
      if (/^(any-)?(not-)?eq\?$/.test(op) && args.length === 2 && capArg >= 0) {
        const positive = op === "eq?" || op === "any-eq?";
        const all = !op.startsWith("any-");
        if (args[1]!.type === 1) preds.push({ kind: "eq", capture: capArg, other: args[1]!.id, positive, all });
        else preds.push({ kind: "eq", capture: capArg, value: str(args[1]!.id), positive, all });
      } else if (/^(any-)?(not-)?match\?$/.test(op) && args.length === 2 && capArg >= 0 && args[1]!.type === 2) {
        const positive = op === "match?" || op === "any-match?";
        preds.push({ kind: "match", capture: capArg, regex: new RegExp(str(args[1]!.id)), positive, all: !op.startsWith("any-") });
      } else if ((op === "any-of?" || op === "not-any-of?") && capArg >= 0 && args.slice(1).every((a) => a.type === 2)) {
        preds.push({ kind: "any-of", capture: capArg, values: args.slice(1).map((a) => str(a.id)), positive: op === "any-of?" });
      } else preds.push({ kind: "closure", fn });
    }
    // Read otherwise than web-tree-sitter did (a count that does not tally): its closures, all of them.
    list.push(fi === fns.length ? preds : fns.map((fn) => ({ kind: "closure", fn })));
  }
  out = any ? list : null;
  TEXT_PREDS.set(query, out);
  return out;
}

const NO_POINT = 0;
/** The matches of the tree being extracted (extraction is one file at a time per thread): grown, never shrunk. */
let scratch = new Int32Array(1 << 16);
const NO_LIMIT = 0xffffffff;

/**
 * One tree's matches of one query, and the node operations extraction asks of them. With the
 * wasm bound, `data` is a view of a buffer the next Matches reuses: use one at a time.
 */
export class Matches {
  readonly data: Int32Array;
  private readonly tp: number;
  private readonly types: string[];
  private readonly fields: (string | null)[];
  /** Per symbol id: whether its type names a comment. */
  private readonly comment: boolean[] = [];
  /** The Query.matches path: node per capture offset. */
  private readonly nodes?: Map<number, Node>;

  constructor(
    readonly tree: Tree,
    readonly query: Query,
    readonly source: string,
  ) {
    this.tp = (tree as unknown as { 0: number })[0];
    this.types = tree.language.types;
    this.fields = tree.language.fields;
    if (wasm) this.data = this.fromWasm(wasm);
    else {
      this.nodes = new Map();
      this.data = this.fromQuery();
    }
  }

  private fromWasm(w: Wasm): Int32Array {
    const root = this.tree.rootNode;
    this.putNode(root);
    w._ts_query_matches_wasm(
      (this.query as unknown as { 0: number })[0],
      this.tp,
      NO_POINT,
      NO_POINT,
      NO_POINT,
      NO_POINT,
      0,
      0,
      NO_POINT,
      NO_POINT,
      NO_POINT,
      NO_POINT,
      0,
      0,
      NO_LIMIT,
      NO_LIMIT,
    );
    const h = w.HEAP32;
    const count = h[tb]!;
    const start = h[tb + 1]!;
    // The matches, all of them: walk the headers for the length, then copy once.
    let at = start >> 2;
    for (let i = 0; i < count; i++) at += 2 + h[at + 1]! * CAP;
    const len = at - (start >> 2);
    if (scratch.length < len) scratch = new Int32Array(Math.max(len, scratch.length * 2));
    const raw = scratch.subarray(0, len);
    raw.set(h.subarray(start >> 2, at));
    if (start) w._free(start);
    const preds = textPredicates(w, this.query);
    if (!preds) return raw;
    const keep: number[] = [];
    let o = 0;
    let dropped = false;
    for (let i = 0; i < count; i++) {
      const next = o + 2 + raw[o + 1]! * CAP;
      const tp = preds[raw[o]!];
      if (!tp || this.passes(tp, raw, o + 2, next)) keep.push(o, next);
      else dropped = true;
      o = next;
    }
    if (!dropped) return raw;
    // Kept matches moved down in place (each lands at or before where it was).
    let w0 = 0;
    for (let i = 0; i < keep.length; i += 2) {
      if (w0 !== keep[i]) raw.copyWithin(w0, keep[i]!, keep[i + 1]!);
      w0 += keep[i + 1]! - keep[i]!;
    }
    return raw.subarray(0, w0);
  }

  /** Whether the captures at [from, to) pass the pattern's text predicates (as Query.matches tests them). */
  private passes(preds: TextPred[], d: Int32Array, from: number, to: number): boolean {
    for (const p of preds) {
      if (p.kind === "closure") {
        // An operator read here only through web-tree-sitter's own closure, handed captures whose text is read on demand.
        const caps: { name: string; node: { text: string } }[] = [];
        const names = this.query.captureNames;
        for (let c = from; c < to; c += CAP) {
          const text = (at: number) => () => this.textOf(d, at);
          const get = text(c);
          caps.push({
            name: names[d[c]!]!,
            node: {
              get text() {
                return get();
              },
            },
          });
        }
        if (!p.fn(caps)) return false;
        continue;
      }
      const texts: string[] = [];
      for (let c = from; c < to; c += CAP) if (d[c] === p.capture) texts.push(this.textOf(d, c));
      let ok: boolean;
      if (p.kind === "eq") {
        if (p.other !== undefined) {
          const others: string[] = [];
          for (let c = from; c < to; c += CAP) if (d[c] === p.other) others.push(this.textOf(d, c));
          const cmp = (t: string) => others.some((u) => (p.positive ? t === u : t !== u));
          ok = p.all ? texts.every(cmp) : texts.some(cmp);
        } else {
          const cmp = (t: string) => (p.positive ? t === p.value : t !== p.value);
          ok = p.all ? texts.every(cmp) : texts.some(cmp);
        }
      } else if (p.kind === "match") {
        const cmp = (t: string) => (p.positive ? p.regex.test(t) : !p.regex.test(t));
        ok = texts.length === 0 ? !p.positive : p.all ? texts.every(cmp) : texts.some(cmp);
      } else {
        ok = texts.length === 0 ? !p.positive : texts.every((t) => p.values.includes(t)) === p.positive;
      }
      if (!ok) return false;
    }
    return true;
  }

  private fromQuery(): Int32Array {
    const ids = new Map<string, number>();
    this.query.captureNames.forEach((n, i) => {
      ids.set(n, i);
    });
    const ms = this.query.matches(this.tree.rootNode);
    let len = 0;
    for (const m of ms) len += 2 + m.captures.length * CAP;
    const d = new Int32Array(len);
    let o = 0;
    for (const m of ms) {
      d[o++] = m.patternIndex;
      d[o++] = m.captures.length;
      for (const c of m.captures as QueryCapture[]) {
        const n = c.node;
        this.nodes!.set(o, n);
        d[o] = ids.get(c.name)!;
        d[o + 1] = n.id;
        d[o + 2] = n.startIndex;
        d[o + 3] = n.startPosition.row;
        d[o + 4] = n.startPosition.column;
        d[o + 5] = (n as unknown as { 0: number })[0];
        o += CAP;
      }
    }
    return d;
  }

  /** Put a node into the transfer buffer, as the binding's marshalNode does. */
  private putNode(n: Node): void {
    const h = wasm!.HEAP32;
    h[tb] = n.id;
    h[tb + 1] = n.startIndex;
    h[tb + 2] = n.startPosition.row;
    h[tb + 3] = n.startPosition.column;
    h[tb + 4] = (n as unknown as { 0: number })[0];
  }

  private put(d: Int32Array, o: number): void {
    const h = wasm!.HEAP32;
    h[tb] = d[o + 1]!;
    h[tb + 1] = d[o + 2]!;
    h[tb + 2] = d[o + 3]!;
    h[tb + 3] = d[o + 4]!;
    h[tb + 4] = d[o + 5]!;
  }

  private textOf(d: Int32Array, o: number): string {
    const s = d[o + 2]!;
    this.put(d, o);
    return this.source.slice(s, wasm!._ts_node_end_index_wasm(this.tp));
  }

  /** The capture at offset `o` as a web-tree-sitter Node (for walks). */
  node(o: number): Node {
    const known = this.nodes?.get(o);
    if (known) return known;
    const d = this.data;
    // A Node as the binding's unmarshalNode makes it (its constructor is internal).
    const n = Object.create(Node.prototype) as Node & { 0: number };
    n[0] = d[o + 5]!;
    (n as { id: number }).id = d[o + 1]!;
    (n as { tree: Tree }).tree = this.tree;
    (n as { startIndex: number }).startIndex = d[o + 2]!;
    (n as { startPosition: { row: number; column: number } }).startPosition = { row: d[o + 3]!, column: d[o + 4]! };
    return n;
  }

  id(o: number): number {
    return this.data[o + 1]!;
  }

  start(o: number): number {
    return this.data[o + 2]!;
  }

  row(o: number): number {
    return this.data[o + 3]!;
  }

  /** Start column (0-based, as tree-sitter counts it). */
  col(o: number): number {
    return this.data[o + 4]!;
  }

  end(o: number): number {
    if (!wasm || this.nodes) return this.node(o).endIndex;
    this.put(this.data, o);
    return wasm._ts_node_end_index_wasm(this.tp);
  }

  text(o: number): string {
    const s = this.data[o + 2]!;
    return this.source.slice(s, this.end(o));
  }

  endRow(o: number): number {
    if (!wasm || this.nodes) return this.node(o).endPosition.row;
    this.put(this.data, o);
    wasm._ts_node_end_point_wasm(this.tp);
    return wasm.HEAP32[tb]! >>> 0;
  }

  type(o: number): string {
    if (!wasm || this.nodes) return this.node(o).type;
    this.put(this.data, o);
    return this.types[wasm._ts_node_symbol_wasm(this.tp)] || "ERROR";
  }

  /** The type of the node's parent; undefined at the root. */
  parentType(o: number): string | undefined {
    if (!wasm || this.nodes) return this.node(o).parent?.type;
    this.put(this.data, o);
    wasm._ts_node_parent_wasm(this.tp);
    if (wasm.HEAP32[tb] === 0) return undefined;
    return this.types[wasm._ts_node_symbol_wasm(this.tp)] || "ERROR";
  }

  /**
   * How many named children of the node are not comments (a parameter or argument count);
   * undefined when the wasm is not bound (the caller walks a cursor instead).
   */
  namedNonComment(o: number): number | undefined {
    if (!wasm || this.nodes) return undefined;
    this.put(this.data, o);
    wasm._ts_node_named_children_wasm(this.tp);
    let h = wasm.HEAP32;
    const n = h[tb]!;
    if (n === 0) return 0;
    const buf = h[tb + 1]! >> 2;
    let c = 0;
    for (let i = 0, at = buf; i < n; i++, at += 5) {
      h = wasm.HEAP32;
      h[tb] = h[at]!;
      h[tb + 1] = h[at + 1]!;
      h[tb + 2] = h[at + 2]!;
      h[tb + 3] = h[at + 3]!;
      h[tb + 4] = h[at + 4]!;
      const sym = wasm._ts_node_symbol_wasm(this.tp);
      let comment = this.comment[sym];
      if (comment === undefined) {
        comment = (this.types[sym] || "ERROR").includes("comment");
        this.comment[sym] = comment;
      }
      if (!comment) c++;
    }
    wasm._free(buf << 2);
    return c;
  }

  /** The text of the node's child in a field; undefined when there is none. */
  fieldText(o: number, field: string): string | undefined {
    if (!wasm || this.nodes) return this.node(o).childForFieldName(field)?.text;
    const id = this.fields.indexOf(field);
    if (id === -1) return undefined;
    this.put(this.data, o);
    wasm._ts_node_child_by_field_id_wasm(this.tp, id);
    const h = wasm.HEAP32;
    if (h[tb] === 0) return undefined;
    const s = h[tb + 1]!;
    // The child is in the transfer buffer now: its end index is asked of it where it lies.
    return this.source.slice(s, wasm._ts_node_end_index_wasm(this.tp));
  }
}
