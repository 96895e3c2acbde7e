// Statement → plan. Each pattern starts where the store can find few nodes: a variable bound
// already, then a `key` (the unique key index), a `name` (the name index), a label (the label
// index), and only then a
// scan — of the edges when the pattern names a relationship type, else of the nodes. The rest
// of the path is walked outwards from there by the edge indexes (endpoint + type).
import type { Clause, Expr, NodePattern, PathPattern, ProjItem, Projection, RelPattern, SetItem, SortItem, Statement } from "./ast.js";
import { AGGREGATES, cypherError, hasAggregate, PREV, walkExpr } from "./eval.js";
import { type Agg, MAX_HOPS, type Op, type Plan } from "./plan.js";

/** Variables the planner names itself start with a space: no statement can write them. */
let anonCounter = 0;
function anon(kind: string): string {
  anonCounter = (anonCounter + 1) % 1_000_000_000;
  return ` ${kind}${anonCounter}`;
}

export function isHidden(name: string): boolean {
  return name.startsWith(" ") || name.startsWith("\u0000");
}

type Scope = Set<string>;

/** Throw CYPHER_ERROR for a variable not bound in `scope` (patterns inside exists() may bind their own). */
export function checkVars(e: Expr, scope: Scope, where: string): void {
  walkExpr(e, (x) => {
    if (x.k === "var" && !scope.has(x.name)) throw cypherError(`${where}: variable \`${x.name}\` is not defined${scope.size ? ` (in scope: ${[...scope].filter((s) => !isHidden(s)).join(", ")})` : ""}`);
    if (x.k === "exists") for (const n of x.pattern.nodes) for (const [, v] of n.props ?? []) checkVars(v, scope, where);
  });
}

function propFilters(v: string, props: [string, Expr][] | undefined): Expr[] {
  return (props ?? []).map(([k, e]) => ({ k: "bin", op: "=", l: { k: "prop", of: { k: "var", name: v }, key: k }, r: e }) as Expr);
}

function andAll(es: Expr[]): Expr | undefined {
  if (es.length === 0) return undefined;
  return es.reduce((l, r) => ({ k: "bin", op: "AND", l, r }));
}

function nodeScore(n: NodePattern, scope: Scope): number {
  if (n.var !== undefined && scope.has(n.var)) return 0;
  if ((n.props ?? []).some(([k]) => k === "key")) return 1;
  if ((n.props ?? []).some(([k]) => k === "name")) return 2;
  if (n.labels.length > 0) return 3;
  return 4;
}

function flip(r: RelPattern): RelPattern {
  return { ...r, dir: r.dir === "out" ? "in" : r.dir === "in" ? "out" : "both" };
}

/** Plan one path pattern, adding its variables to `scope`; `uniq` holds the MATCH's used edge ids. */
export function planPattern(p: PathPattern, scope: Scope, uniq: string, notes: string[]): Op[] {
  const ops: Op[] = [];
  const names = p.nodes.map((n) => n.var ?? anon("n"));
  const relNames = p.rels.map((r) => r.var ?? anon("r"));
  for (const n of p.nodes) for (const [, e] of n.props ?? []) checkVars(e, new Set([...scope, ...names.filter((x) => scope.has(x))]), "pattern property");
  // Where to start.
  let start = 0;
  let best = 99;
  p.nodes.forEach((n, i) => {
    const s = nodeScore(n, scope);
    if (s < best) {
      best = s;
      start = i;
    }
  });
  const nodeCheck = (i: number) => {
    const n = p.nodes[i]!;
    const conds: Expr[] = [];
    if (n.labels.length > 0) conds.push({ k: "haslabel", e: { k: "var", name: names[i]! }, labels: n.labels });
    conds.push(...propFilters(names[i]!, n.props));
    const w = andAll(conds);
    if (w) ops.push({ op: "filter", where: w });
  };
  const range = (r: RelPattern) => {
    if (!r.range) return undefined;
    let max = r.range.max;
    if (max === undefined) {
      max = MAX_HOPS;
      notes.push(`a variable-length relationship with no upper bound is read as at most ${MAX_HOPS} hops`);
    }
    if (max > MAX_HOPS) throw cypherError(`variable-length relationships take at most ${MAX_HOPS} hops (*${r.range.min}..${max} asked)`);
    if (r.range.min > max) throw cypherError(`*${r.range.min}..${max}: the minimum is above the maximum`);
    return { min: r.range.min, max };
  };
  for (const r of p.rels) if (r.var !== undefined && scope.has(r.var)) throw cypherError(`relationship variable \`${r.var}\` is bound already; a pattern cannot reuse it`);
  // A pattern with nothing to narrow its start but a relationship: scan edges, not nodes.
  const r0 = p.rels[start] ?? p.rels[start - 1];
  if (best === 4 && r0 !== undefined && !r0.range) {
    const i = p.rels[start] ? start : start - 1;
    const r = p.rels[i]!;
    const [a, b] = [names[i]!, names[i + 1]!];
    ops.push({ op: "edgescan", from: a, rel: relNames[i]!, to: b, types: r.types, dir: r.dir, relProps: r.props ?? [], uniq });
    scope.add(a);
    scope.add(b);
    scope.add(relNames[i]!);
    nodeCheck(i);
    if (b !== a) nodeCheck(i + 1);
    walkOut(i + 1, i + 1, i - 1);
    return ops;
  }
  if (scope.has(names[start]!)) nodeCheck(start);
  else {
    const n = p.nodes[start]!;
    ops.push({ op: "scan", var: names[start]!, labels: n.labels, props: n.props ?? [] });
    scope.add(names[start]!);
  }
  walkOut(start, start, start - 1);
  return ops;

  function expand(fromI: number, toI: number, relI: number, r: RelPattern) {
    const to = names[toI]!;
    const toBound = scope.has(to);
    ops.push({ op: "expand", from: names[fromI]!, rel: relNames[relI]!, to, types: r.types, dir: r.dir, relProps: r.props ?? [], range: range(r), toBound, uniq });
    scope.add(to);
    scope.add(relNames[relI]!);
    nodeCheck(toI);
  }
  /** Right of `right` and left of `left`, one hop at a time. */
  function walkOut(right: number, _from: number, left: number) {
    for (let i = right; i < p.rels.length; i++) expand(i, i + 1, i, p.rels[i]!);
    for (let i = left; i >= 0; i--) expand(i + 1, i, i, flip(p.rels[i]!));
  }
}

function bindsOf(p: PathPattern): string[] {
  return [...p.nodes.map((n) => n.var), ...p.rels.map((r) => r.var)].filter((x): x is string => x !== undefined);
}

function sameExpr(a: Expr, b: Expr): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Plan a projection (RETURN / WITH): its steps and the scope after it. */
export function planProjection(pr: Projection, scope: Scope, what: string, where?: Expr): { ops: Op[]; columns: string[]; scope: Scope } {
  const items: ProjItem[] = [];
  if (pr.star) {
    const vis = [...scope].filter((v) => !isHidden(v)).sort();
    if (vis.length === 0) throw cypherError(`${what} *: there are no variables to return`);
    for (const v of vis) items.push({ expr: { k: "var", name: v }, alias: v });
  }
  items.push(...pr.items);
  const seen = new Set<string>();
  for (const it of items) {
    if (seen.has(it.alias)) throw cypherError(`${what}: column name \`${it.alias}\` appears twice — give one an alias with AS`);
    seen.add(it.alias);
    checkVars(it.expr, scope, what);
  }
  const aggs: Agg[] = [];
  const keys: number[] = [];
  const rewrite = (e: Expr): Expr => {
    if (e.k === "call" && AGGREGATES.has(e.name)) {
      if (e.args.some(hasAggregate)) throw cypherError(`${what}: an aggregate cannot hold another aggregate`);
      if (!e.star && e.args.length !== 1) throw cypherError(`${e.name}() takes one argument`);
      const slot = `\u0000agg${aggs.length}`;
      aggs.push({ slot, fn: e.name, ...(e.args[0] ? { arg: e.args[0] } : {}), distinct: e.distinct, star: e.star });
      return { k: "var", name: slot };
    }
    return mapExpr(e, rewrite);
  };
  const outItems = items.map((it, i) => {
    if (!hasAggregate(it.expr)) {
      keys.push(i);
      return it;
    }
    return { expr: rewrite(it.expr), alias: it.alias };
  });
  const grouped = aggs.length > 0;
  const after = new Set(items.map((i) => i.alias));
  const ops: Op[] = [{ op: "project", items: outItems, distinct: pr.distinct, keepPrev: !grouped && !pr.distinct, aggs, keys }];
  if (pr.order.length > 0) {
    const order: SortItem[] = pr.order.map((o) => {
      const hit = items.find((it) => sameExpr(it.expr, o.expr));
      if (hit) return { expr: { k: "var", name: hit.alias }, desc: o.desc };
      if (hasAggregate(o.expr)) throw cypherError(`${what} … ORDER BY: an aggregate there must also be a returned column (RETURN count(*) AS n ORDER BY n)`);
      checkVars(o.expr, grouped || pr.distinct ? after : new Set([...after, ...scope]), `${what} … ORDER BY`);
      return o;
    });
    ops.push({ op: "order", items: order });
  }
  if (pr.skip) {
    checkVars(pr.skip, new Set(), `${what} … SKIP`);
    ops.push({ op: "skip", n: pr.skip });
  }
  if (pr.limit) {
    checkVars(pr.limit, new Set(), `${what} … LIMIT`);
    ops.push({ op: "limit", n: pr.limit });
  }
  if (where) {
    checkVars(where, after, `${what} … WHERE`);
    if (hasAggregate(where)) throw cypherError("WITH … WHERE cannot hold an aggregate: alias it in WITH and test the alias");
    ops.push({ op: "filter", where });
  }
  return { ops, columns: items.map((i) => i.alias), scope: after };
}

/** A copy of `e` with each direct child replaced by `f(child)`. */
export function mapExpr(e: Expr, f: (x: Expr) => Expr): Expr {
  switch (e.k) {
    case "prop":
      return { ...e, of: f(e.of) };
    case "index":
      return { ...e, of: f(e.of), idx: f(e.idx) };
    case "list":
      return { ...e, items: e.items.map(f) };
    case "map":
      return { ...e, entries: e.entries.map(([k, x]) => [k, f(x)] as [string, Expr]) };
    case "bin":
      return { ...e, l: f(e.l), r: f(e.r) };
    case "not":
    case "neg":
    case "isnull":
    case "haslabel":
      return { ...e, e: f(e.e) } as Expr;
    case "call":
      return { ...e, args: e.args.map(f) };
    case "case":
      return {
        ...e,
        ...(e.subject ? { subject: f(e.subject) } : {}),
        whens: e.whens.map(([w, t]) => [f(w), f(t)] as [Expr, Expr]),
        ...(e.else ? { else: f(e.else) } : {}),
      };
    default:
      return e;
  }
}

function checkSetItems(items: SetItem[], scope: Scope, what: string): void {
  for (const it of items) {
    if (it.k === "prop") checkVars(it.target, scope, what);
    else if (!scope.has(it.var)) throw cypherError(`${what}: variable \`${it.var}\` is not defined`);
    if (it.k !== "labels") {
      checkVars(it.value, scope, what);
      if (hasAggregate(it.value)) throw cypherError(`${what}: an aggregate cannot be written; compute it in WITH first`);
    }
  }
}

/** The expressions a step evaluates (not those of nested steps). */
function stepExprs(op: Op): Expr[] {
  switch (op.op) {
    case "scan":
      return op.props.map(([, e]) => e);
    case "edgescan":
    case "expand":
      return op.relProps.map(([, e]) => e);
    case "filter":
      return [op.where];
    case "unwind":
      return [op.expr];
    case "project":
      return op.items.map((i) => i.expr);
    case "order":
      return op.items.map((i) => i.expr);
    case "skip":
    case "limit":
      return [op.n];
    default:
      return [];
  }
}

/**
 * Whether `v` is used only through its properties, id, labels or presence in `e` (collecting
 * the property names into `keys`); false when the whole node is needed.
 */
function slimUse(e: Expr, v: string, keys: Set<string>): boolean {
  const isV = (x: Expr | undefined) => x !== undefined && x.k === "var" && x.name === v;
  if (e.k === "prop" && isV(e.of)) {
    keys.add(e.key);
    return true;
  }
  if (e.k === "call" && ["id", "labels", "count"].includes(e.name) && e.args.length === 1 && isV(e.args[0])) return true;
  if ((e.k === "isnull" || e.k === "haslabel") && isV(e.e)) return true;
  if (isV(e)) return false;
  if (e.k === "exists") return !e.pattern.nodes.some((n) => n.var === v);
  let ok = true;
  mapExpr(e, (c) => {
    if (ok && !slimUse(c, v, keys)) ok = false;
    return c;
  });
  return ok;
}

function slimOps(ops: Op[], v: string, keys: Set<string>): boolean {
  for (const op of ops) {
    if (op.op === "optional" && !slimOps(op.ops, v, keys)) return false;
    if (op.op === "project") for (const a of op.aggs) if (a.arg && !(a.fn === "count" && a.arg.k === "var" && a.arg.name === v) && !slimUse(a.arg, v, keys)) return false;
    if (op.op === "merge" || op.op === "create" || op.op === "set" || op.op === "remove" || op.op === "delete") return false;
    for (const e of stepExprs(op)) if (!slimUse(e, v, keys)) return false;
  }
  return true;
}

/**
 * Mark label scans whose nodes the plan reads only a few properties of (`only`), so the store
 * reads those properties instead of parsing every node's whole property map. Read plans only.
 */
export function slimScans(p: Plan): void {
  if (p.writes) return;
  const visit = (ops: Op[]) => {
    for (const op of ops) {
      if (op.op === "optional") visit(op.ops);
      if (op.op !== "scan" || op.labels.length === 0 || op.props.some(([k]) => k === "key")) continue;
      const keys = new Set(op.props.map(([k]) => k));
      if (slimOps(p.ops, op.var, keys)) op.only = [...keys].sort();
    }
  };
  visit(p.ops);
  // MATCH (n:Label) RETURN [n.prop, …,] count(*) / count(n): a count of one label, grouped by
  // properties (not `key` or `name`, whose stand-ins the store's grouping cannot see).
  const [scan, proj] = p.ops;
  if (scan?.op !== "scan" || proj?.op !== "project" || scan.labels.length !== 1 || scan.props.length > 0 || proj.aggs.length === 0 || proj.distinct) return;
  const v = scan.var;
  const props: string[] = [];
  for (const i of proj.keys) {
    const e = proj.items[i]!.expr;
    if (e.k !== "prop" || e.of.k !== "var" || e.of.name !== v || e.key === "key" || e.key === "name") return;
    props.push(e.key);
  }
  const countsOnly = proj.aggs.every((a) => a.fn === "count" && !a.distinct && (a.star || (a.arg?.k === "var" && a.arg.name === v)));
  const rest = proj.items.filter((_, i) => !proj.keys.includes(i));
  if (countsOnly && rest.every((it) => !JSON.stringify(it.expr).includes(JSON.stringify(v)))) proj.labelCount = { label: scan.labels[0]!, props };
}

export function plan(st: Statement): Plan {
  const ops: Op[] = [];
  const notes: string[] = [];
  let scope: Scope = new Set();
  let columns: string[] = [];
  let writes = false;
  st.clauses.forEach((c: Clause, ci) => {
    if (c.k !== "return" && columns.length > 0) throw cypherError("RETURN must be the last clause");
    switch (c.k) {
      case "match": {
        const uniq = `\u0000uniq${ci}`;
        if (c.optional) {
          const inner: Scope = new Set(scope);
          const sub: Op[] = [];
          for (const p of c.patterns) sub.push(...planPattern(p, inner, uniq, notes));
          if (c.where) {
            checkVars(c.where, inner, "OPTIONAL MATCH … WHERE");
            sub.push({ op: "filter", where: c.where });
          }
          const binds = [...inner].filter((v) => !scope.has(v));
          ops.push({ op: "optional", ops: sub, binds });
          scope = inner;
        } else {
          for (const p of c.patterns) ops.push(...planPattern(p, scope, uniq, notes));
          if (c.where) {
            checkVars(c.where, scope, "MATCH … WHERE");
            if (hasAggregate(c.where)) throw cypherError("WHERE cannot hold an aggregate: compute it in WITH and filter on the alias");
            ops.push({ op: "filter", where: c.where });
          }
        }
        break;
      }
      case "unwind":
        checkVars(c.expr, scope, "UNWIND");
        ops.push({ op: "unwind", expr: c.expr, as: c.as });
        scope = new Set([...scope, c.as]);
        break;
      case "with": {
        const r = planProjection(c, scope, "WITH", c.where);
        ops.push(...r.ops);
        scope = r.scope;
        break;
      }
      case "return": {
        const r = planProjection(c, scope, "RETURN");
        ops.push(...r.ops);
        columns = r.columns;
        break;
      }
      case "create":
        writes = true;
        for (const p of c.patterns) {
          for (const n of p.nodes) for (const [, e] of n.props ?? []) checkVars(e, scope, "CREATE");
          for (const r of p.rels) {
            if (r.types.length !== 1) throw cypherError("CREATE: a relationship needs exactly one type ([:TYPE])");
            if (r.dir === "both") throw cypherError("CREATE: a relationship needs a direction (-> or <-)");
            if (r.range) throw cypherError("CREATE: a relationship cannot be variable-length");
            if (r.var !== undefined && scope.has(r.var)) throw cypherError(`CREATE: \`${r.var}\` is bound already`);
          }
          for (const n of p.nodes) {
            if (n.var !== undefined && scope.has(n.var) && (n.labels.length > 0 || n.props)) throw cypherError(`CREATE: \`${n.var}\` is bound already; write (${n.var}) to use it`);
          }
          scope = new Set([...scope, ...bindsOf(p)]);
        }
        ops.push({ op: "create", patterns: c.patterns });
        break;
      case "merge": {
        writes = true;
        for (const r of c.pattern.rels) {
          if (r.types.length !== 1) throw cypherError("MERGE: a relationship needs exactly one type ([:TYPE])");
          if (r.range) throw cypherError("MERGE: a relationship cannot be variable-length");
        }
        const inner: Scope = new Set(scope);
        const match = planPattern(c.pattern, inner, `\u0000uniq${ci}`, notes);
        checkSetItems(c.onCreate, inner, "MERGE … ON CREATE SET");
        checkSetItems(c.onMatch, inner, "MERGE … ON MATCH SET");
        ops.push({ op: "merge", pattern: c.pattern, match, onCreate: c.onCreate, onMatch: c.onMatch });
        scope = new Set([...inner].filter((v) => !isHidden(v) || scope.has(v)));
        break;
      }
      case "set":
        writes = true;
        checkSetItems(c.items, scope, "SET");
        ops.push({ op: "set", items: c.items });
        break;
      case "remove":
        writes = true;
        for (const it of c.items) {
          if (it.k === "prop") checkVars(it.target, scope, "REMOVE");
          else if (!scope.has(it.var)) throw cypherError(`REMOVE: variable \`${it.var}\` is not defined`);
        }
        ops.push({ op: "remove", items: c.items });
        break;
      case "delete":
        writes = true;
        for (const e of c.exprs) checkVars(e, scope, "DELETE");
        ops.push({ op: "delete", detach: c.detach, exprs: c.exprs });
        break;
    }
  });
  const out: Plan = { ops, columns, writes, notes: [...new Set(notes)] };
  slimScans(out);
  return out;
}

export { PREV };
