// The answer of a statement: the plane's opening lines (synced commit, plugin drift), then
// nodes as the verbs' one-liners (a mirrored plane's `RETURN n`) or a table, then what the
// guards cut and what the statement wrote. The same rows as data for structured answers.
import * as z from "../model/zod.js";
import type { PropValue } from "../model/facts.js";
import { clipLines, headerLines, oneLine } from "../tools/common.js";
import type { ToolContext } from "../tools/tool.js";
import type { ExecResult } from "./executor.js";
import type { StatementAnswer } from "./run.js";
import { NodeV, RelV, toJson, type Value } from "./values.js";

/** Table data of an answer, for structuredContent. */
/** The structuredContent schema of a table answer (cypher, query): TableData. */
export const TABLE_OUTPUT = z.object({
  plane: z.string(),
  as_of: z.optional(z.unknown()),
  columns: z.array(z.string()),
  rows: z.array(z.array(z.unknown())),
  capped: z.boolean(),
  stopped: z.optional(z.enum(["time", "work"])),
  written: z.optional(z.record(z.string(), z.number())),
  notes: z.array(z.string()),
});

export interface TableData {
  plane: string;
  as_of?: number;
  columns: string[];
  /** Cells as JSON: nodes {id, key, labels, properties}, relationships {id, type, src, dst, properties}. */
  rows: PropValue[][];
  /** True when the row cap cut the rows. */
  capped: boolean;
  /** Set when the time budget or the work cap stopped the reads. */
  stopped?: "time" | "work";
  written?: Record<string, number>;
  notes: string[];
}

/** A node's or relationship's properties for a table cell: provenance (`_`) hidden as in every summary, long values cut. */
function propsText(props: Record<string, unknown>): string {
  const shown: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(props)) {
    if (k.startsWith("_")) continue;
    if (Array.isArray(x) && x.length > 16 && x.every((y) => typeof y === "number")) shown[k] = `$vector(${x.length} dims)`;
    else if (typeof x === "string" && x.length > 200) shown[k] = `${x.slice(0, 200)}… (${x.length} chars)`;
    else shown[k] = x;
  }
  return Object.keys(shown).length ? ` ${JSON.stringify(shown)}` : "";
}

function cell(v: Value): string {
  if (v === null) return "null";
  if (typeof v === "string") return v.replace(/\n/g, "\\n");
  if (v instanceof NodeV) return `(#${v.id} ${v.key} :${v.labels.join(":")}${propsText(v.props)})`;
  if (v instanceof RelV) return `[#${v.id} :${v.type} #${v.src}→#${v.dst}${propsText(v.props)}]`;
  if (Array.isArray(v) && v.some((x) => x instanceof NodeV || x instanceof RelV)) return `[${v.map(cell).join(", ")}]`;
  return JSON.stringify(toJson(v));
}

function writtenLine(r: ExecResult): string | undefined {
  const s = r.stats;
  const parts: string[] = [];
  const add = (n: number, what: string) => {
    if (n > 0) parts.push(`${n} ${what}`);
  };
  add(s.nodesCreated, "node(s) created");
  add(s.relsCreated, "relationship(s) created");
  add(s.propsSet, "property value(s) set or removed");
  add(s.labelsAdded, "label(s) added");
  add(s.labelsRemoved, "label(s) removed");
  add(s.nodesDeleted, "node(s) deleted");
  add(s.relsDeleted, "relationship(s) deleted");
  return parts.length ? `written in one transaction: ${parts.join(", ")}` : undefined;
}

export function guardLines(r: ExecResult, maxRows: number, budgetMs: number): string[] {
  const out: string[] = [];
  if (r.capped) out.push(`row cap: the first ${maxRows} rows are shown and more exist — add LIMIT, aggregate, or narrow the MATCH (max_rows raises the cap)`);
  if (r.stopped === "time") out.push(`time budget: reading stopped after ${budgetMs} ms, so rows and aggregates cover only what was read — narrow the MATCH with a label or key`);
  if (r.stopped === "work") out.push("work cap: reading stopped after 2000000 intermediate rows, so rows and aggregates cover only what was read — narrow the MATCH with a label or key");
  return out;
}

export function tableData(a: StatementAnswer): TableData {
  const r = a.result;
  const s = r.stats;
  const written = Object.fromEntries(Object.entries(s).filter(([, n]) => n > 0));
  return {
    plane: a.plane.name,
    ...(a.asOf !== undefined ? { as_of: a.asOf } : {}),
    columns: r.columns,
    rows: r.rows.map((row) => row.map(toJson)),
    capped: r.capped,
    ...(r.stopped ? { stopped: r.stopped } : {}),
    ...(a.plan.writes ? { written } : {}),
    notes: r.notes,
  };
}

/** The text answer. `limits` are those the statement ran under, to state them when hit. */
export function renderAnswer(ctx: ToolContext, a: StatementAnswer, limits: { maxRows: number; budgetMs: number }): string {
  const r = a.result;
  const lines = headerLines(ctx, a.plane);
  if (a.asOf !== undefined) lines.push(`as of database commit ${a.asOf}`);
  const mirrored = typeof a.plane.props.synced_commit === "string";
  const nodesOnly = r.columns.length === 1 && r.rows.length > 0 && r.rows.every((row) => row[0] instanceof NodeV);
  if (r.columns.length === 0) {
    // a write with no RETURN
  } else if (mirrored && nodesOnly) {
    lines.push(`${r.rows.length} node(s)`);
    for (const row of r.rows) lines.push(oneLine({ ...(row[0] as NodeV), plane: a.plane.name }));
  } else {
    lines.push(`${r.rows.length} row(s)`);
    lines.push(r.columns.join(" | "));
    for (const row of r.rows) lines.push(row.map(cell).join(" | "));
  }
  lines.push(...guardLines(r, limits.maxRows, limits.budgetMs));
  const w = writtenLine(r);
  if (w) lines.push(w);
  else if (a.plan.writes) lines.push("nothing was written (the MATCH found no rows)");
  if (r.stripped.length > 0) lines.push(`reserved properties stripped (\`_\` names belong to the pipeline): ${r.stripped.join(", ")}`);
  for (const n of r.notes) lines.push(`note: ${n}`);
  return clipLines(lines.join("\n"));
}
