// cypher: an openCypher subset over one plane (src/cypher/). Reads answer from the store's
// indexes; writes are one transaction, refused on a mirrored plane; DELETE/REMOVE need confirm.
import * as z from "../model/zod.js";
import { DEFAULT_LIMITS } from "../cypher/executor.js";
import { renderAnswer, TABLE_OUTPUT, type TableData, tableData } from "../cypher/render.js";
import { runStatement } from "../cypher/run.js";
import type { Tool, ToolContext } from "./tool.js";
import { defineTool, structured } from "./tool.js";

export const cypherInput = z.strictObject({
  plane: z.string().check(z.minLength(1), z.maxLength(200)),
  query: z.string().check(z.minLength(1), z.maxLength(20_000)),
  params: z.optional(z.record(z.string().check(z.maxLength(200)), z.unknown())),
  confirm: z.optional(z.boolean()),
  max_rows: z.optional(z.int().check(z.minimum(1), z.maximum(10_000))),
  timeout_ms: z.optional(z.int().check(z.minimum(10), z.maximum(60_000))),
});

/** Run a statement and answer it as text and as table data (the shape structuredContent can carry). */
export function cypherAnswer(ctx: ToolContext, input: z.infer<typeof cypherInput>, allowWrites = true): { text: string; data: TableData } {
  const limits = { maxRows: input.max_rows ?? DEFAULT_LIMITS.maxRows, budgetMs: input.timeout_ms ?? DEFAULT_LIMITS.budgetMs };
  const a = runStatement(ctx.store, {
    plane: input.plane,
    statement: input.query,
    ...(input.params ? { params: input.params } : {}),
    ...(input.confirm !== undefined ? { confirm: input.confirm } : {}),
    ...(allowWrites ? {} : { allowWrites: false }),
    limits,
  });
  return { text: renderAnswer(ctx, a, limits), data: tableData(a) };
}

const DESCRIPTION_READS = [
  "Run one openCypher statement on a plane. Reads: MATCH (n:Label {prop: v})-[r:TYPE|OTHER*1..3]->(m) (≤ 6 hops), OPTIONAL MATCH, WHERE (= <> < > IN, STARTS WITH / ENDS WITH / CONTAINS, =~ RE2 regex, IS [NOT] NULL, exists(), AND/OR/NOT),",
  "WITH, UNWIND, RETURN [DISTINCT] … AS …, count/collect/min/max/sum/avg, ORDER BY, SKIP, LIMIT, $params, labels(n) type(r) id(n) size() toLower(). Nodes have `key` (n.key, unique in the plane), labels and properties (name, file, line …).",
];

export const cypherReadInput = z.omit(cypherInput, { confirm: true });

/** What a read-only server serves as `cypher`: the same reads; a statement that writes is refused READ_ONLY. */
export const cypherRead: Tool<typeof cypherReadInput> = defineTool({
  name: "cypher",
  description: [
    ...DESCRIPTION_READS,
    "This server serves reads only: a statement with CREATE, MERGE, SET, REMOVE or DELETE is refused.",
    "End a read with AS OF <commit> or AS OF \"<RFC 3339 time>\" to read the past. Rows are capped (max_rows, default 500) and time-boxed (timeout_ms, default 5000); both are said when hit.",
    "Example: MATCH (f:Function)-[:CALLS]->(g {name: 'save'}) RETURN f.file, count(*) AS calls ORDER BY calls DESC LIMIT 10",
  ].join(" "),
  input: cypherReadInput,
  readOnly: true,
  output: TABLE_OUTPUT,
  cli: { positionals: ["query"], summary: "run an openCypher statement on a plane (reads only)" },
  run(ctx, input) {
    const a = cypherAnswer(ctx, input, false);
    return structured(a.text, a.data as unknown as Record<string, unknown>);
  },
});

export const cypher: Tool<typeof cypherInput> = defineTool({
  name: "cypher",
  description: [
    ...DESCRIPTION_READS,
    "Writes (CREATE needs a label and a `key`; MERGE, SET, REMOVE, [DETACH] DELETE) run as one transaction; DELETE/REMOVE need confirm: true; planes that mirror a repository refuse writes (use write_nodes/write_edges or a plane of your own).",
    "End a read with AS OF <commit> or AS OF \"<RFC 3339 time>\" to read the past. Rows are capped (max_rows, default 500) and time-boxed (timeout_ms, default 5000); both are said when hit.",
    "Example: MATCH (f:Function)-[:CALLS]->(g {name: 'save'}) RETURN f.file, count(*) AS calls ORDER BY calls DESC LIMIT 10",
  ].join(" "),
  input: cypherInput,
  readOnly: false,
  // It can delete (DELETE / DETACH DELETE, with confirm: true).
  hints: { destructive: true },
  readVariant: cypherRead as unknown as Tool,
  output: TABLE_OUTPUT,
  cli: { positionals: ["query"], summary: "run an openCypher statement on a plane" },
  run(ctx, input) {
    const a = cypherAnswer(ctx, input);
    return structured(a.text, a.data as unknown as Record<string, unknown>);
  },
});
