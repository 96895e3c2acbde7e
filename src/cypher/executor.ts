// Runs a plan over one plane of a Reader (a Writer inside a write transaction). Steps are lazy
// generators, so LIMIT stops the scans early; write steps take their whole input first, as
// openCypher's clause-at-a-time semantics need. Reads go through the store's indexes only:
// key → getNodeByKey, label → nodesByLabel, hops → edgesOut / edgesIn by type; whole-plane
// scans happen only for a pattern that names neither.
import { DrsgError } from "../model/errors.js";
import type { Props, PropValue } from "../model/facts.js";
import type { Reader, StoredEdge, StoredNode, Writer } from "../store/types.js";
import type { Direction, Expr, PathPattern, RemoveItem, SetItem } from "./ast.js";
import { cypherError, type EvalEnv, evaluate, PREV } from "./eval.js";
import type { Agg, Op, Plan } from "./plan.js";
import { isHidden, planPattern } from "./planner.js";
import { equals, isMap, keyOf, NodeV, orderCompare, propOf, RelV, type Row, toProp, typeName, type Value } from "./values.js";

export interface Limits {
  /** Result rows returned at most; more are counted up to one past and cut. */
  maxRows: number;
  /** Wall-clock budget of the statement. */
  budgetMs: number;
  /** Intermediate rows (candidates read, hops taken) at most. */
  maxWork: number;
}

export const DEFAULT_LIMITS: Limits = { maxRows: 500, budgetMs: 5_000, maxWork: 2_000_000 };

export interface WriteStats {
  nodesCreated: number;
  nodesDeleted: number;
  relsCreated: number;
  relsDeleted: number;
  propsSet: number;
  labelsAdded: number;
  labelsRemoved: number;
}

export interface ExecResult {
  columns: string[];
  rows: Value[][];
  /** True when more rows than maxRows came out (rows holds the first maxRows). */
  capped: boolean;
  /** Set when the time budget or the work cap stopped the reads: the answer covers only what was read. */
  stopped?: "time" | "work";
  notes: string[];
  stats: WriteStats;
  /** Reserved (`_`) property names dropped from writes. */
  stripped: string[];
}

class Guard {
  private ticks = 0;
  work = 0;
  stopped: "time" | "work" | undefined;
  private readonly deadline: number;
  constructor(private readonly limits: Limits) {
    this.deadline = performance.now() + limits.budgetMs;
  }
  /** Count one unit of work; true once the statement must stop reading. */
  stop(): boolean {
    if (this.stopped) return true;
    this.work++;
    if (this.work > this.limits.maxWork) this.stopped = "work";
    else if ((++this.ticks & 255) === 0 && performance.now() > this.deadline) this.stopped = "time";
    return this.stopped !== undefined;
  }
  checkTime(): void {
    if (!this.stopped && performance.now() > this.deadline) this.stopped = "time";
  }
}

function truthy(v: Value, what: string): boolean {
  if (v === null) return false;
  if (typeof v === "boolean") return v;
  throw cypherError(`${what} needs a boolean condition, got a ${typeName(v)}`);
}

export class Executor implements EvalEnv {
  private readonly nodes = new Map<number, NodeV>();
  private readonly rels = new Map<number, RelV>();
  private readonly guard: Guard;
  private readonly existsPlans = new Map<string, Op[]>();
  private readonly hopCache = new Map<string, { e: StoredEdge; other: number }[]>();
  readonly stats: WriteStats = { nodesCreated: 0, nodesDeleted: 0, relsCreated: 0, relsDeleted: 0, propsSet: 0, labelsAdded: 0, labelsRemoved: 0 };
  readonly stripped = new Set<string>();
  private readonly deletedNodes = new Set<number>();
  private readonly deletedRels = new Set<number>();
  readonly notes: string[] = [];

  constructor(
    private readonly r: Reader,
    private readonly plane: string,
    readonly params: Record<string, Value>,
    private readonly limits: Limits,
    private readonly w?: Writer,
  ) {
    this.guard = new Guard(limits);
  }

  // ---- values ---------------------------------------------------------------------------

  private wrap(n: StoredNode): NodeV {
    let v = this.nodes.get(n.id);
    if (!v) {
      v = new NodeV(n.id, n.key, n.labels, n.props);
      this.nodes.set(n.id, v);
    }
    return v;
  }

  private wrapRel(e: StoredEdge): RelV {
    let v = this.rels.get(e.id);
    if (!v) {
      v = new RelV(e.id, e.type, e.src, e.dst, e.props);
      this.rels.set(e.id, v);
    }
    return v;
  }

  node(id: number): NodeV | null {
    const hit = this.nodes.get(id);
    if (hit) return hit;
    const n = this.r.getNode(this.plane, id);
    return n ? this.wrap(n) : null;
  }

  exists(p: PathPattern, row: Row): boolean {
    const bound = Object.keys(row).filter((k) => !k.startsWith("\u0000"));
    const id = `${JSON.stringify(p)}\u0001${bound.sort().join(",")}`;
    let ops = this.existsPlans.get(id);
    if (!ops) {
      ops = planPattern(p, new Set(bound), "\u0000exists", []);
      this.existsPlans.set(id, ops);
    }
    for (const _ of this.run(ops, [row])) return true;
    return false;
  }

  private ev(e: Expr, row: Row): Value {
    return evaluate(e, row, this);
  }

  private count(e: Expr, what: string): number {
    const v = this.ev(e, {});
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0) throw cypherError(`${what} needs a non-negative integer, got ${JSON.stringify(v)}`);
    return v;
  }

  private matchesProps(v: NodeV | RelV, props: [string, Expr][], row: Row): boolean {
    for (const [k, e] of props) if (equals(propOf(v, k) ?? null, this.ev(e, row)) !== true) return false;
    return true;
  }

  // ---- the pipeline ---------------------------------------------------------------------

  /** The rows of `plan` (cut at maxRows + 1 by the caller). */
  *run(ops: Op[], input: Iterable<Row>): Generator<Row> {
    let rows: Iterable<Row> = input;
    for (const op of ops) rows = this.step(op, rows);
    yield* rows;
  }

  private step(op: Op, rows: Iterable<Row>): Iterable<Row> {
    switch (op.op) {
      case "scan":
        return this.flat(rows, (row) => this.scan(op, row));
      case "edgescan":
        return this.flat(rows, (row) => this.edgescan(op, row));
      case "expand":
        return this.flat(rows, (row) => this.expand(op, row));
      case "filter":
        return this.filter(op.where, rows);
      case "optional":
        return this.flat(rows, (row) => this.optional(op, row));
      case "unwind":
        return this.flat(rows, (row) => this.unwind(op.expr, op.as, row));
      case "project":
        return op.aggs.length > 0 ? this.aggregate(op, rows) : this.project(op, rows);
      case "order":
        return this.order(op.items, rows);
      case "skip":
        return this.skip(this.count(op.n, "SKIP"), rows);
      case "limit":
        return this.limit(this.count(op.n, "LIMIT"), rows);
      case "create":
        return this.eager(rows, (row) => [this.create(op.patterns, row)]);
      case "merge":
        return this.eager(rows, (row) => this.merge(op, row));
      case "set":
        return this.eager(rows, (row) => {
          for (const it of op.items) this.setItem(it, row);
          return [row];
        });
      case "remove":
        return this.eager(rows, (row) => {
          for (const it of op.items) this.removeItem(it, row);
          return [row];
        });
      case "delete":
        return this.eager(rows, (row) => {
          for (const e of op.exprs) this.delete(this.ev(e, row), op.detach);
          return [row];
        });
    }
  }

  private *flat(rows: Iterable<Row>, f: (row: Row) => Iterable<Row>): Generator<Row> {
    for (const row of rows) yield* f(row);
  }

  private *filter(where: Expr, rows: Iterable<Row>): Generator<Row> {
    for (const row of rows) if (truthy(this.ev(where, row), "WHERE")) yield row;
  }

  private *scan(op: Op & { op: "scan" }, row: Row): Generator<Row> {
    const keyProp = op.props.find(([k]) => k === "key");
    const nameProp = op.props.find(([k]) => k === "name");
    let cands: Iterable<StoredNode>;
    if (keyProp) {
      const k = this.ev(keyProp[1], row);
      const n = typeof k === "string" ? this.r.getNodeByKey(this.plane, k) : undefined;
      cands = n ? [n] : [];
    } else if (nameProp && this.r.nodesByNameProp) {
      const v = this.ev(nameProp[1], row);
      cands = typeof v === "string" ? this.r.nodesByNameProp(this.plane, v) : [];
    } else if (op.labels.length > 0) {
      cands =
        op.only && this.r.nodesByLabelProps
          ? this.r.nodesByLabelProps(this.plane, op.labels[0]!, op.only)
          : this.r.nodesByLabel(this.plane, op.labels[0]!);
    } else cands = this.r.allNodes(this.plane);
    for (const sn of cands) {
      if (this.guard.stop()) return;
      if (this.deletedNodes.has(sn.id)) continue;
      // A node read with some properties only stays out of the per-statement cache, which must hold whole nodes.
      const n = op.only ? (this.nodes.get(sn.id) ?? new NodeV(sn.id, sn.key, sn.labels, sn.props)) : this.wrap(sn);
      if (!op.labels.every((l) => n.labels.includes(l))) continue;
      if (!this.matchesProps(n, op.props, row)) continue;
      yield { ...row, [op.var]: n };
    }
  }

  private *edgescan(op: Op & { op: "edgescan" }, row: Row): Generator<Row> {
    const types = op.types.length > 0 ? new Set(op.types) : undefined;
    const used = (row[op.uniq] as number[] | undefined) ?? [];
    for (const e of this.r.allEdges(this.plane)) {
      if (this.guard.stop()) return;
      if (types && !types.has(e.type)) continue;
      if (used.includes(e.id) || this.deletedRels.has(e.id)) continue;
      const rel = this.wrapRel(e);
      if (!this.matchesProps(rel, op.relProps, row)) continue;
      const ends: [number, number][] = [];
      if (op.dir !== "in") ends.push([e.src, e.dst]);
      if (op.dir !== "out" && (op.dir === "in" || e.src !== e.dst)) ends.push([e.dst, e.src]);
      for (const [a, b] of ends) {
        if (op.from === op.to && a !== b) continue;
        const na = this.node(a);
        const nb = this.node(b);
        if (!na || !nb) continue;
        yield { ...row, [op.from]: na, [op.rel]: rel, [op.to]: nb, [op.uniq]: [...used, e.id] };
      }
    }
  }

  /** The relationships at node `id` in direction `dir` over `types`, each with the node at its other end. */
  private hops(id: number, dir: Direction, types: string[]): { e: StoredEdge; other: number }[] {
    // A variable-length walk reaches a node along many paths: read its edges once per statement
    // (writes clear this, see dirty()).
    const ck = `${id}|${dir}|${types.join("|")}`;
    const hit = this.hopCache.get(ck);
    if (hit) return hit;
    const out = this.readHops(id, dir, types);
    if (this.hopCache.size >= 200_000) this.hopCache.clear();
    this.hopCache.set(ck, out);
    return out;
  }

  /** Forget cached edges: the statement changed them. */
  private dirty(): void {
    this.hopCache.clear();
  }

  private readHops(id: number, dir: Direction, types: string[]): { e: StoredEdge; other: number }[] {
    const out: { e: StoredEdge; other: number }[] = [];
    const read = (f: (t?: string) => StoredEdge[]) => (types.length === 0 ? f() : types.flatMap((t) => f(t)));
    if (dir !== "in") for (const e of read((t) => this.r.edgesOut(this.plane, id, t))) out.push({ e, other: e.dst });
    if (dir !== "out")
      for (const e of read((t) => this.r.edgesIn(this.plane, id, t))) {
        // A self-loop read both ways is still one relationship.
        if (dir === "both" && e.src === e.dst) continue;
        out.push({ e, other: e.src });
      }
    return out;
  }

  private *expand(op: Op & { op: "expand" }, row: Row): Generator<Row> {
    const from = row[op.from];
    if (from === null || from === undefined) return;
    if (!(from instanceof NodeV)) throw cypherError(`\`${op.from}\` is a ${typeName(from)}, not a node, and cannot start a relationship pattern`);
    const target = op.toBound ? row[op.to] : undefined;
    if (op.toBound && !(target instanceof NodeV)) return;
    const used = (row[op.uniq] as number[] | undefined) ?? [];
    if (!op.range) {
      for (const { e, other } of this.hops(from.id, op.dir, op.types)) {
        if (this.guard.stop()) return;
        if (used.includes(e.id) || this.deletedRels.has(e.id)) continue;
        if (target instanceof NodeV && target.id !== other) continue;
        const rel = this.wrapRel(e);
        if (!this.matchesProps(rel, op.relProps, row)) continue;
        const to = this.node(other);
        if (!to) continue;
        yield { ...row, [op.rel]: rel, [op.to]: to, [op.uniq]: [...used, e.id] };
      }
      return;
    }
    const { min, max } = op.range;
    const path: RelV[] = [];
    const pathIds = new Set<number>();
    const self = this;
    function* walk(at: NodeV, depth: number): Generator<Row> {
      if (depth >= min && (!(target instanceof NodeV) || target.id === at.id))
        yield { ...row, [op.rel]: [...path], [op.to]: at, [op.uniq]: [...used, ...pathIds] };
      if (depth === max) return;
      for (const { e, other } of self.hops(at.id, op.dir, op.types)) {
        if (self.guard.stop()) return;
        if (pathIds.has(e.id) || used.includes(e.id) || self.deletedRels.has(e.id)) continue;
        const rel = self.wrapRel(e);
        if (!self.matchesProps(rel, op.relProps, row)) continue;
        const next = self.node(other);
        if (!next) continue;
        path.push(rel);
        pathIds.add(e.id);
        yield* walk(next, depth + 1);
        path.pop();
        pathIds.delete(e.id);
      }
    }
    yield* walk(from, 0);
  }

  private *optional(op: Op & { op: "optional" }, row: Row): Generator<Row> {
    let any = false;
    for (const r of this.run(op.ops, [row])) {
      any = true;
      yield r;
    }
    if (!any) {
      const out: Row = { ...row };
      for (const b of op.binds) out[b] = null;
      yield out;
    }
  }

  private *unwind(e: Expr, as: string, row: Row): Generator<Row> {
    const v = this.ev(e, row);
    if (v === null) return;
    if (Array.isArray(v)) {
      for (const x of v) yield { ...row, [as]: x };
    } else yield { ...row, [as]: v };
  }

  private *project(op: Op & { op: "project" }, rows: Iterable<Row>): Generator<Row> {
    const seen = op.distinct ? new Set<string>() : undefined;
    for (const row of rows) {
      const out: Row = {};
      for (const it of op.items) out[it.alias] = this.ev(it.expr, row);
      if (seen) {
        const k = op.items.map((it) => keyOf(out[it.alias]!)).join("\u0001");
        if (seen.has(k)) continue;
        seen.add(k);
      }
      if (op.keepPrev) (out as Record<string, unknown>)[PREV] = row;
      yield out;
    }
  }

  private *aggregate(op: Op & { op: "project" }, rows: Iterable<Row>): Generator<Row> {
    if (op.labelCount !== undefined) {
      // MATCH (n:Label) RETURN n.file, count(*): the store counts per group; the scan is never pulled.
      const { label, props } = op.labelCount;
      let groups: { values: Value[]; n: number }[];
      if (props.length === 0) groups = [{ values: [], n: this.r.countByLabel ? this.r.countByLabel(this.plane, label) : this.r.nodesByLabel(this.plane, label).length }];
      else if (this.r.countByLabelProps) groups = this.r.countByLabelProps(this.plane, label, props) as { values: Value[]; n: number }[];
      else {
        const m = new Map<string, { values: Value[]; n: number }>();
        for (const node of this.r.nodesByLabel(this.plane, label)) {
          const values = props.map((k) => (node.props[k] ?? null) as Value);
          const id = values.map(keyOf).join("\u0001");
          const g = m.get(id);
          if (g) g.n++;
          else m.set(id, { values, n: 1 });
        }
        groups = [...m.values()];
      }
      // Values equal by openCypher's rules but spelt apart in JSON (key order of maps) are one group.
      const merged = new Map<string, { values: Value[]; n: number }>();
      for (const g of groups) {
        const id = g.values.map(keyOf).join("\u0001");
        const hit = merged.get(id);
        if (hit) hit.n += g.n;
        else merged.set(id, { values: g.values, n: g.n });
      }
      for (const g of merged.values()) {
        const base: Row = {};
        for (const a of op.aggs) base[a.slot] = g.n;
        const out: Row = {};
        op.items.forEach((it, i) => {
          const ki = op.keys.indexOf(i);
          out[it.alias] = ki >= 0 ? g.values[ki]! : this.ev(it.expr, base);
        });
        yield out;
      }
      return;
    }
    const groups = new Map<string, { first: Row; keyVals: Value[]; states: AggState[] }>();
    for (const row of rows) {
      const keyVals = op.keys.map((i) => this.ev(op.items[i]!.expr, row));
      const k = keyVals.map(keyOf).join("\u0001");
      let g = groups.get(k);
      if (!g) {
        g = { first: row, keyVals, states: op.aggs.map(newState) };
        groups.set(k, g);
      }
      for (let i = 0; i < op.aggs.length; i++) this.feed(op.aggs[i]!, g.states[i]!, row);
    }
    if (groups.size === 0 && op.keys.length === 0) groups.set("", { first: {}, keyVals: [], states: op.aggs.map(newState) });
    this.guard.checkTime();
    const seen = op.distinct ? new Set<string>() : undefined;
    for (const g of groups.values()) {
      const base: Row = { ...g.first };
      op.aggs.forEach((a, i) => {
        base[a.slot] = finish(a, g.states[i]!);
      });
      const out: Row = {};
      op.items.forEach((it, i) => {
        const ki = op.keys.indexOf(i);
        out[it.alias] = ki >= 0 ? g.keyVals[ki]! : this.ev(it.expr, base);
      });
      if (seen) {
        const k = op.items.map((it) => keyOf(out[it.alias]!)).join("\u0001");
        if (seen.has(k)) continue;
        seen.add(k);
      }
      yield out;
    }
  }

  private feed(a: Agg, s: AggState, row: Row): void {
    if (a.star) {
      s.n++;
      return;
    }
    const v = this.ev(a.arg!, row);
    if (v === null) return;
    if (a.distinct) {
      const k = keyOf(v);
      if (s.seen.has(k)) return;
      s.seen.add(k);
    }
    s.n++;
    switch (a.fn) {
      case "collect":
        s.list.push(v);
        break;
      case "min":
        if (s.best === undefined || orderCompare(v, s.best) < 0) s.best = v;
        break;
      case "max":
        if (s.best === undefined || orderCompare(v, s.best) > 0) s.best = v;
        break;
      case "sum":
      case "avg":
        if (typeof v !== "number") throw cypherError(`${a.fn}() needs numbers, got a ${typeName(v)}`);
        s.sum += v;
        break;
      default:
    }
  }

  private *order(items: { expr: Expr; desc: boolean }[], rows: Iterable<Row>): Generator<Row> {
    const all: { row: Row; keys: Value[] }[] = [];
    for (const row of rows) all.push({ row, keys: items.map((it) => this.ev(it.expr, row)) });
    all.sort((a, b) => {
      for (let i = 0; i < items.length; i++) {
        const c = orderCompare(a.keys[i]!, b.keys[i]!);
        if (c !== 0) return items[i]!.desc ? -c : c;
      }
      return 0;
    });
    for (const x of all) yield x.row;
  }

  private *skip(n: number, rows: Iterable<Row>): Generator<Row> {
    let i = 0;
    for (const row of rows) if (i++ >= n) yield row;
  }

  private *limit(n: number, rows: Iterable<Row>): Generator<Row> {
    if (n === 0) return;
    let i = 0;
    for (const row of rows) {
      yield row;
      if (++i >= n) return;
    }
  }

  private *eager(rows: Iterable<Row>, f: (row: Row) => Row[]): Generator<Row> {
    if (!this.w) throw new DrsgError("INTERNAL", "cypher: a write step ran outside a write transaction");
    const input = [...rows];
    const out: Row[] = [];
    for (const row of input) out.push(...f(row));
    yield* out;
  }

  // ---- writes ---------------------------------------------------------------------------

  private writer(): Writer {
    return this.w!;
  }

  /** Property values to write: `_` names dropped (and remembered), nulls left out. */
  private writable(map: Value, what: string, keepNull = false): Props {
    if (map instanceof NodeV || map instanceof RelV) map = map.props as { [k: string]: Value };
    if (!isMap(map)) throw cypherError(`${what} needs a map of properties, got a ${typeName(map)}`);
    const out: Props = {};
    for (const [k, v] of Object.entries(map)) {
      if (k.startsWith("_")) {
        this.stripped.add(k);
        continue;
      }
      if (v === null && !keepNull) continue;
      out[k] = toProp(v, what) as PropValue;
    }
    return out;
  }

  private createNode(labels: string[], props: Props): NodeV {
    if (labels.length === 0) throw cypherError("CREATE: a new node needs at least one label, e.g. (n:Note {key: 'notes/1'})");
    const key = props.key;
    if (typeof key !== "string" || key.length === 0)
      throw cypherError("CREATE: a new node needs a `key` property (a string unique in the plane), e.g. (n:Note {key: 'notes/1'}) — drsg nodes are identified by their key");
    const rest: Props = { ...props };
    delete rest.key;
    const w = this.writer();
    if (w.getNodeByKey(this.plane, key)) throw new DrsgError("KEY_TAKEN", `CREATE: key '${key}' is taken in plane '${this.plane}' — nothing was written (MERGE matches it instead)`);
    const id = w.createNode(this.plane, { key, labels, props: rest });
    this.stats.nodesCreated++;
    const n = new NodeV(id, key, [...labels], rest);
    this.nodes.set(id, n);
    return n;
  }

  private create(patterns: PathPattern[], row: Row): Row {
    const out: Row = { ...row };
    for (const p of patterns) {
      const nodes = p.nodes.map((np) => {
        if (np.var !== undefined && out[np.var] !== undefined) {
          const v = out[np.var]!;
          if (!(v instanceof NodeV)) throw cypherError(`CREATE: \`${np.var}\` is a ${typeName(v)}, not a node`);
          return v;
        }
        const props: { [k: string]: Value } = {};
        for (const [k, e] of np.props ?? []) props[k] = this.ev(e, out);
        const n = this.createNode(np.labels, this.writable(props, "CREATE"));
        if (np.var !== undefined) out[np.var] = n;
        return n;
      });
      p.rels.forEach((rp, i) => {
        const [a, b] = rp.dir === "in" ? [nodes[i + 1]!, nodes[i]!] : [nodes[i]!, nodes[i + 1]!];
        const props: { [k: string]: Value } = {};
        for (const [k, e] of rp.props ?? []) props[k] = this.ev(e, out);
        const clean = this.writable(props, "CREATE");
        this.dirty();
        const id = this.writer().createEdge(this.plane, { type: rp.types[0]!, src: a.id, dst: b.id, props: clean });
        this.stats.relsCreated++;
        const rel = new RelV(id, rp.types[0]!, a.id, b.id, clean);
        this.rels.set(id, rel);
        if (rp.var !== undefined) out[rp.var] = rel;
      });
    }
    return out;
  }

  private merge(op: Op & { op: "merge" }, row: Row): Row[] {
    const found = [...this.run(op.match, [row])];
    if (found.length > 0) {
      for (const r of found) for (const it of op.onMatch) this.setItem(it, r);
      return found;
    }
    const made = this.create([op.pattern], row);
    for (const it of op.onCreate) this.setItem(it, made);
    return [made];
  }

  private target(e: Expr, row: Row, what: string): NodeV | RelV | null {
    const v = this.ev(e, row);
    if (v === null) return null;
    if (v instanceof NodeV || v instanceof RelV) return v;
    throw cypherError(`${what} writes a node or relationship, got a ${typeName(v)}`);
  }

  private save(t: NodeV | RelV, change: { labels?: boolean }): void {
    const w = this.writer();
    if (t instanceof NodeV) w.updateNode(this.plane, t.id, { props: t.props, ...(change.labels ? { labels: t.labels } : {}) });
    else w.updateEdge(this.plane, t.id, t.props);
  }

  private setItem(it: SetItem, row: Row): void {
    if (it.k === "labels") {
      const t = this.target({ k: "var", name: it.var }, row, "SET");
      if (t === null) return;
      if (!(t instanceof NodeV)) throw cypherError("SET n:Label needs a node");
      const add = it.labels.filter((l) => !t.labels.includes(l));
      if (add.length === 0) return;
      t.labels = [...t.labels, ...add];
      this.stats.labelsAdded += add.length;
      this.save(t, { labels: true });
      return;
    }
    if (it.k === "prop") {
      const t = this.target(it.target, row, "SET");
      if (t === null) return;
      if (it.key.startsWith("_")) {
        this.stripped.add(it.key);
        return;
      }
      if (it.key === "key" && t instanceof NodeV) throw cypherError("SET: a node's `key` is its identity and cannot be changed; CREATE a new node instead");
      const v = this.ev(it.value, row);
      const props = { ...t.props };
      if (v === null) delete props[it.key];
      else props[it.key] = toProp(v, "SET");
      t.props = props;
      this.stats.propsSet++;
      this.save(t, {});
      return;
    }
    const t = this.target({ k: "var", name: it.var }, row, "SET");
    if (t === null) return;
    const map = this.writable(this.ev(it.value, row), "SET", it.merge);
    if (t instanceof NodeV && "key" in map && map.key !== t.key) throw cypherError("SET: a node's `key` is its identity and cannot be changed");
    delete map.key;
    let props: Props;
    if (it.merge) {
      props = { ...t.props };
      for (const [k, v] of Object.entries(map)) {
        if (v === null) delete props[k];
        else props[k] = v;
      }
    } else {
      // `=` replaces the agent's properties; provenance (`_`) is the pipeline's and stays.
      props = {};
      for (const [k, v] of Object.entries(t.props)) if (k.startsWith("_")) props[k] = v;
      Object.assign(props, map);
    }
    this.stats.propsSet += Object.keys(map).length;
    t.props = props;
    this.save(t, {});
  }

  private removeItem(it: RemoveItem, row: Row): void {
    if (it.k === "labels") {
      const t = this.target({ k: "var", name: it.var }, row, "REMOVE");
      if (t === null) return;
      if (!(t instanceof NodeV)) throw cypherError("REMOVE n:Label needs a node");
      const keep = t.labels.filter((l) => !it.labels.includes(l));
      if (keep.length === t.labels.length) return;
      if (keep.length === 0) throw cypherError(`REMOVE: node '${t.key}' would have no label left; every drsg node keeps at least one`);
      this.stats.labelsRemoved += t.labels.length - keep.length;
      t.labels = keep;
      this.save(t, { labels: true });
      return;
    }
    const t = this.target(it.target, row, "REMOVE");
    if (t === null) return;
    if (it.key.startsWith("_")) {
      this.stripped.add(it.key);
      return;
    }
    if (it.key === "key" && t instanceof NodeV) throw cypherError("REMOVE: a node's `key` is its identity and cannot be removed");
    if (!(it.key in t.props)) return;
    const props = { ...t.props };
    delete props[it.key];
    t.props = props;
    this.stats.propsSet++;
    this.save(t, {});
  }

  private delete(v: Value, detach: boolean): void {
    if (v === null) return;
    const w = this.writer();
    if (v instanceof NodeV) {
      if (this.deletedNodes.has(v.id)) return;
      const edges = [...w.edgesOut(this.plane, v.id), ...w.edgesIn(this.plane, v.id)].filter((e) => !this.deletedRels.has(e.id));
      if (edges.length > 0 && !detach)
        throw cypherError(`DELETE: node '${v.key}' still has ${edges.length} relationship(s) — DETACH DELETE removes them with it; nothing was written`);
      for (const e of edges) {
        if (!this.deletedRels.has(e.id)) this.stats.relsDeleted++;
        this.deletedRels.add(e.id);
      }
      this.dirty();
      w.deleteNode(this.plane, v.id);
      this.deletedNodes.add(v.id);
      this.stats.nodesDeleted++;
      return;
    }
    if (v instanceof RelV) {
      if (this.deletedRels.has(v.id)) return;
      this.dirty();
      w.deleteEdge(this.plane, v.id);
      this.deletedRels.add(v.id);
      this.stats.relsDeleted++;
      return;
    }
    if (Array.isArray(v)) {
      for (const x of v) this.delete(x, detach);
      return;
    }
    throw cypherError(`DELETE takes nodes and relationships, got a ${typeName(v)}`);
  }

  /** Run the whole plan: rows up to the cap, what stopped it, what it wrote. */
  execute(plan: Plan): ExecResult {
    const rows: Value[][] = [];
    let capped = false;
    const it = this.run(plan.ops, [{}]);
    for (const row of it) {
      if (plan.columns.length === 0) continue; // a write with no RETURN: drain it
      if (rows.length >= this.limits.maxRows) {
        capped = true;
        if (!plan.writes) break;
        continue;
      }
      rows.push(plan.columns.map((c) => row[c] ?? null));
    }
    const res: ExecResult = {
      columns: plan.columns.filter((c) => !isHidden(c)),
      rows,
      capped,
      notes: [...plan.notes, ...this.notes],
      stats: this.stats,
      stripped: [...this.stripped].sort(),
    };
    if (this.guard.stopped) res.stopped = this.guard.stopped;
    return res;
  }
}

interface AggState {
  n: number;
  sum: number;
  list: Value[];
  best: Value | undefined;
  seen: Set<string>;
}

function newState(): AggState {
  return { n: 0, sum: 0, list: [], best: undefined, seen: new Set() };
}

function finish(a: Agg, s: AggState): Value {
  switch (a.fn) {
    case "count":
      return s.n;
    case "collect":
      return s.list;
    case "min":
    case "max":
      return s.best ?? null;
    case "sum":
      return s.sum;
    case "avg":
      return s.n === 0 ? null : s.sum / s.n;
  }
  return null;
}
