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

const NO_POINT = 0;
const NO_LIMIT = 0xffffffff;

/** One tree's matches of one query, and the node operations extraction asks of them. */
export class Matches {
  readonly data: Int32Array;
  private readonly tp: number;
  private readonly types: string[];
  private readonly fields: (string | null)[];
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
    const raw = h.slice(start >> 2, at);
    if (start) w._free(start);
    const preds = (this.query as unknown as { textPredicates: TextPredicate[][] }).textPredicates;
    if (!preds.some((p) => p.length > 0)) return raw;
    // Text predicates (#eq?, #match?, ...), as Query.matches applies them: web-tree-sitter's own
    // closures, handed captures whose node text is read on demand.
    const names = this.query.captureNames;
    const text = (at: number): string => this.textOf(raw, at);
    const keep: number[] = [];
    let o = 0;
    let dropped = false;
    for (let i = 0; i < count; i++) {
      const pattern = raw[o]!;
      const n = raw[o + 1]!;
      const next = o + 2 + n * CAP;
      const tp = preds[pattern]!;
      let ok = true;
      if (tp.length > 0) {
        const caps: { name: string; node: { text: string } }[] = [];
        for (let c = o + 2; c < next; c += CAP) {
          const at = c;
          caps.push({
            name: names[raw[c]!]!,
            node: {
              get text() {
                return text(at);
              },
            },
          });
        }
        ok = tp.every((p) => p(caps));
      }
      if (ok) keep.push(o, next);
      else dropped = true;
      o = next;
    }
    if (!dropped) return raw;
    let len = 0;
    for (let i = 0; i < keep.length; i += 2) len += keep[i + 1]! - keep[i]!;
    const out = new Int32Array(len);
    let w0 = 0;
    for (let i = 0; i < keep.length; i += 2) {
      out.set(raw.subarray(keep[i]!, keep[i + 1]!), w0);
      w0 += keep[i + 1]! - keep[i]!;
    }
    return out;
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
