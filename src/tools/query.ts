// query: a serialised logical plan — the form `ask` compiles a question to — validated step by
// step (PLAN_INVALID names the step) and compiled into the same plan steps cypher's planner
// makes, so one executor (src/cypher/executor.ts) answers both. Read-only by construction.
import * as z from "../model/zod.js";
import type { Expr, ProjItem } from "../cypher/ast.js";
import { DEFAULT_LIMITS, Executor } from "../cypher/executor.js";
import type { Op, Plan } from "../cypher/plan.js";
import { MAX_HOPS } from "../cypher/plan.js";
import { checkVars, isHidden, planProjection, slimScans } from "../cypher/planner.js";
import { parseExpr } from "../cypher/parser.js";
import { renderAnswer, TABLE_OUTPUT, tableData, type TableData } from "../cypher/render.js";
import { paramValues } from "../cypher/run.js";
import { DrsgError, isDrsgError } from "../model/errors.js";
import type { Store } from "../store/types.js";
import { planeOf } from "./graph_lines.js";
import type { Tool, ToolContext } from "./tool.js";
import { defineTool, structured } from "./tool.js";
import { AS_OF_INPUT } from "./asof.js";

const Name = z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, "a variable name: letters, digits, _"));
const Literal = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const ExprText = z.string().check(z.minLength(1), z.maxLength(2000));
const Column = z.union([ExprText, z.strictObject({ expr: ExprText, as: z.optional(Name) })]);

const Step = z.discriminatedUnion("op", [
  z.strictObject({ op: z.literal("scan"), as: Name, labels: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(100))).check(z.maxLength(8))), props: z.optional(z.record(z.string().check(z.maxLength(200)), Literal)) }),
  z.strictObject({
    op: z.literal("expand"),
    from: Name,
    as: Name,
    rel: z.optional(Name),
    types: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(100))).check(z.maxLength(16))),
    dir: z._default(z.enum(["out", "in", "both"]), "out"),
    min: z.optional(z.int().check(z.minimum(0), z.maximum(MAX_HOPS))),
    max: z.optional(z.int().check(z.minimum(1), z.maximum(MAX_HOPS))),
    labels: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(100))).check(z.maxLength(8))),
    props: z.optional(z.record(z.string().check(z.maxLength(200)), Literal)),
  }),
  z.strictObject({ op: z.literal("filter"), where: ExprText }),
  z.strictObject({ op: z.literal("project"), columns: z.array(Column).check(z.minLength(1), z.maxLength(64)), distinct: z.optional(z.boolean()) }),
  z.strictObject({
    op: z.literal("aggregate"),
    group_by: z.optional(z.array(Column).check(z.maxLength(32))),
    aggregates: z.array(z.strictObject({ fn: z.enum(["count", "collect", "min", "max", "sum", "avg"]), expr: z.optional(ExprText), as: Name, distinct: z.optional(z.boolean()) })).check(z.minLength(1), z.maxLength(32)),
  }),
  z.strictObject({ op: z.literal("order"), by: z.array(z.strictObject({ expr: ExprText, desc: z.optional(z.boolean()) })).check(z.minLength(1), z.maxLength(16)) }),
  z.strictObject({ op: z.literal("limit"), n: z.int().check(z.minimum(0), z.maximum(1_000_000)), skip: z.optional(z.int().check(z.minimum(0))) }),
]);

export type PlanStep = z.infer<typeof Step>;

export const queryInput = z.strictObject({
  plane: z.string().check(z.minLength(1), z.maxLength(200)),
  plan: z.strictObject({ steps: z.array(z.unknown()).check(z.minLength(1), z.maxLength(64)) }),
  params: z.optional(z.record(z.string().check(z.maxLength(200)), z.unknown())),
  max_rows: z.optional(z.int().check(z.minimum(1), z.maximum(10_000))),
  timeout_ms: z.optional(z.int().check(z.minimum(10), z.maximum(60_000))),
  as_of: AS_OF_INPUT,
});

function bad(i: number, op: string, msg: string): DrsgError {
  return new DrsgError("PLAN_INVALID", `query: step ${i + 1} (${op}): ${msg}`, { step: i + 1, op });
}

function lits(props: Record<string, string | number | boolean | null> | undefined): [string, Expr][] {
  return Object.entries(props ?? {}).map(([k, v]) => [k, { k: "lit", v }]);
}

/** Validate and compile a plan's steps into executor steps (PLAN_INVALID naming the first bad step). */
export function compilePlan(steps: unknown[]): Plan {
  const ops: Op[] = [];
  let scope = new Set<string>();
  let columns: string[] | undefined;
  const uniq = "\u0000uniq";
  let anon = 0;
  steps.forEach((raw, i) => {
    const parsed = Step.safeParse(raw);
    const opName = typeof raw === "object" && raw !== null && typeof (raw as { op?: unknown }).op === "string" ? String((raw as { op: string }).op) : "?";
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw bad(i, opName, `${issue.path.length ? `${issue.path.join(".")}: ` : ""}${issue.message} — steps are scan, expand, filter, project, aggregate, order, limit`);
    }
    const s = parsed.data;
    const expr = (text: string, what: string, sc: Set<string>): Expr => {
      let e: Expr;
      try {
        e = parseExpr(text);
      } catch (err) {
        if (isDrsgError(err, "CYPHER_SYNTAX")) throw bad(i, s.op, `${what} ${JSON.stringify(text)}: ${err.message.split("\n")[0]}`);
        throw err;
      }
      try {
        checkVars(e, sc, what);
      } catch (err) {
        if (isDrsgError(err)) throw bad(i, s.op, err.message);
        throw err;
      }
      return e;
    };
    const items = (cols: z.infer<typeof Column>[], what: string): ProjItem[] =>
      cols.map((c) => {
        const text = typeof c === "string" ? c : c.expr;
        const e = expr(text, what, scope);
        const alias = typeof c === "string" || c.as === undefined ? (e.k === "var" ? e.name : text) : c.as;
        return { expr: e, alias };
      });
    const project = (its: ProjItem[], distinct: boolean) => {
      try {
        const r = planProjection({ star: false, distinct, items: its, order: [] }, scope, s.op);
        ops.push(...r.ops);
        scope = r.scope;
        columns = r.columns;
      } catch (err) {
        if (isDrsgError(err)) throw bad(i, s.op, err.message);
        throw err;
      }
    };
    if (columns !== undefined && (s.op === "scan" || s.op === "expand")) throw bad(i, s.op, "comes after a project/aggregate step; scans and expands go first");
    switch (s.op) {
      case "scan":
        if (scope.has(s.as)) throw bad(i, s.op, `\`${s.as}\` is bound already — pick a new name, or filter on it`);
        ops.push({ op: "scan", var: s.as, labels: s.labels ?? [], props: lits(s.props) });
        scope.add(s.as);
        break;
      case "expand": {
        if (!scope.has(s.from)) throw bad(i, s.op, `from \`${s.from}\` is not bound by an earlier scan or expand (bound: ${[...scope].filter((v) => !isHidden(v)).join(", ") || "nothing"})`);
        if (s.rel !== undefined && scope.has(s.rel)) throw bad(i, s.op, `rel \`${s.rel}\` is bound already`);
        const min = s.min ?? 1;
        const max = s.max ?? Math.max(1, min);
        if (min > max) throw bad(i, s.op, `min ${min} is above max ${max}`);
        const varLen = s.min !== undefined || s.max !== undefined ? !(min === 1 && max === 1) : false;
        const rel = s.rel ?? ` r${anon++}`;
        const toBound = scope.has(s.as);
        ops.push({ op: "expand", from: s.from, rel, to: s.as, types: s.types ?? [], dir: s.dir, relProps: [], ...(varLen ? { range: { min, max } } : {}), toBound, uniq });
        scope.add(s.as);
        scope.add(rel);
        const conds: Expr[] = [];
        if (s.labels?.length) conds.push({ k: "haslabel", e: { k: "var", name: s.as }, labels: s.labels });
        for (const [k, v] of lits(s.props)) conds.push({ k: "bin", op: "=", l: { k: "prop", of: { k: "var", name: s.as }, key: k }, r: v });
        if (conds.length) ops.push({ op: "filter", where: conds.reduce((l, r) => ({ k: "bin", op: "AND", l, r })) });
        break;
      }
      case "filter":
        ops.push({ op: "filter", where: expr(s.where, "where", scope) });
        break;
      case "project":
        project(items(s.columns, "column"), s.distinct ?? false);
        break;
      case "aggregate": {
        const its = items(s.group_by ?? [], "group_by");
        for (const a of s.aggregates) {
          if (a.expr === undefined && a.fn !== "count") throw bad(i, s.op, `${a.fn} needs expr (only count may count rows)`);
          const arg = a.expr === undefined ? undefined : expr(a.expr, a.fn, scope);
          its.push({ expr: { k: "call", name: a.fn, args: arg ? [arg] : [], distinct: a.distinct ?? false, star: arg === undefined }, alias: a.as });
        }
        project(its, false);
        break;
      }
      case "order":
        ops.push({ op: "order", items: s.by.map((b) => ({ expr: expr(b.expr, "by", scope), desc: b.desc ?? false })) });
        break;
      case "limit":
        if (s.skip) ops.push({ op: "skip", n: { k: "lit", v: s.skip } });
        ops.push({ op: "limit", n: { k: "lit", v: s.n } });
        break;
    }
  });
  const cols = columns ?? [...scope].filter((v) => !isHidden(v));
  if (columns === undefined) ops.push(...planProjection({ star: true, distinct: false, items: [], order: [] }, scope, "query").ops);
  const plan: Plan = { ops, columns: cols, writes: false, notes: [] };
  slimScans(plan);
  return plan;
}

export function queryAnswer(ctx: ToolContext, input: z.infer<typeof queryInput>): { text: string; data: TableData } {
  const p = planeOf(ctx, input.plane);
  const plan = compilePlan(input.plan.steps);
  const limits = { ...DEFAULT_LIMITS, maxRows: input.max_rows ?? DEFAULT_LIMITS.maxRows, budgetMs: input.timeout_ms ?? DEFAULT_LIMITS.budgetMs };
  const result = new Executor(ctx.store as Store, p.name, paramValues(input.params), limits).execute(plan);
  const a = { plane: p, plan, result };
  return { text: renderAnswer(ctx, a, limits), data: tableData(a) };
}

export const query: Tool<typeof queryInput> = defineTool({
  name: "query",
  description: [
    "Run a logical plan (read-only): `plan.steps`, in order, each {op: …}:",
    "scan {as, labels?, props?} binds nodes (props: exact values; `key` uses the key index);",
    "expand {from, as, rel?, types?, dir: out|in|both, min?, max? (≤ 6), labels?, props?} follows relationships from a bound node;",
    "filter {where: a Cypher expression, e.g. \"n.name STARTS WITH 'get'\"};",
    "project {columns: [\"n.key\" | {expr, as}], distinct?}; aggregate {group_by?: columns, aggregates: [{fn: count|collect|min|max|sum|avg, expr?, as, distinct?}]};",
    "order {by: [{expr, desc?}]}; limit {n, skip?}. Without project/aggregate the rows are the bound variables. Same executor, caps and answer as cypher.",
    'Example 1 — callers of save: {"steps":[{"op":"scan","as":"g","labels":["Function"],"props":{"name":"save"}},{"op":"expand","from":"g","as":"f","types":["CALLS"],"dir":"in"},{"op":"project","columns":["f.key","f.file"]}]}.',
    'Example 2 — files with the most functions: {"steps":[{"op":"scan","as":"f","labels":["Function"]},{"op":"aggregate","group_by":[{"expr":"f.file","as":"file"}],"aggregates":[{"fn":"count","as":"n"}]},{"op":"order","by":[{"expr":"n","desc":true}]},{"op":"limit","n":10}]}.',
  ].join(" "),
  input: queryInput,
  readOnly: true,
  output: TABLE_OUTPUT,
  // Not pure: a statement stopped by its time budget answers partially, which no cache may keep.
  pure: false,
  run(ctx, input) {
    const a = queryAnswer(ctx, input);
    return structured(a.text, a.data as unknown as Record<string, unknown>);
  },
});
