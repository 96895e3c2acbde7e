// search: "I don't know the name". No embeddings exist yet, so this is keyword search — SQLite
// FTS5 over names, keys, signatures and doc comments — and the answer says so.
import * as z from "../model/zod.js";
import { DrsgError } from "../model/errors.js";
import { clipLines, headerLines, oneLine } from "./common.js";
import { describeBlock } from "./describe.js";
import { planeOf } from "./graph_lines.js";
import { defineTool } from "./tool.js";

const BEST_LINES = 8;

export const search = defineTool({
  name: "search",
  description:
    "Find symbols when you do not know their name: keyword search (SQLite FTS5 over names, keys, signatures and doc comments — no embeddings exist, so hits rank by shared words, not meaning), top `k` (default 8, at most 50) as one-liners (`offset` pages on), then the best match's properties. Identifiers are split into words, acronyms included (`HTTP` finds parseHTTPHeader). For text inside bodies use grep.",
  input: z.strictObject({
    plane: z.string().check(z.minLength(1), z.maxLength(200)),
    query: z.string().check(z.minLength(1), z.maxLength(500)),
    k: z._default(z.int().check(z.minimum(1), z.maximum(50)), 8),
    offset: z._default(z.int().check(z.minimum(0), z.maximum(200)), 0).check(z.describe("skip this many of the best matches (paging: the next page starts at offset + k)")),
  }),
  readOnly: true,
  pure: true,
  cli: { positionals: ["query"], summary: "Keyword search for symbols by name, signature and doc comment." },
  run(ctx, { plane, query, k, offset }) {
    const p = planeOf(ctx, plane);
    if (query.trim() === "") throw new DrsgError("BAD_INPUT", "search: the query is empty — pass the words to look for");
    const out = headerLines(ctx, p);
    out.push(
      "keyword search (SQLite FTS5 over names, keys, signatures and doc comments) — this plane has no embeddings, so hits rank by shared words, not meaning",
    );
    if (!/[\p{L}\p{N}]/u.test(query)) {
      out.push(`no words to search for in \`${query}\`: keyword search matches letters and digits — grep finds other text`);
      return out.join("\n");
    }
    // Stand-ins (unbound calls, outside code) share names with real symbols; they are not answers.
    const hits = ctx.store
      .searchText(p.name, query, offset + k + 1)
      .filter((n) => !n.labels.includes("UnresolvedRef") && !n.labels.includes("External"));
    if (hits.length === 0) {
      out.push(`no symbol's name, key, signature or doc comment contains the words of \`${query}\` — grep searches the source text`);
      return out.join("\n");
    }
    const shown = hits.slice(offset, offset + k);
    if (shown.length === 0) {
      out.push(`${hits.length} match(es) in all; offset ${offset} is past them — offset: 0 starts again`);
      return out.join("\n");
    }
    const more = hits.length > offset + k ? ` — more match: offset: ${offset + k} reads the next page (or add words)` : "";
    const which = offset > 0 ? `matches ${offset + 1}–${offset + shown.length}` : `${shown.length} best match(es)`;
    out.push(`${which}${more}:`);
    out.push(...shown.map((n, i) => `  ${String(offset + i + 1).padStart(2)}. ${oneLine(n)}`));
    const best = describeBlock(shown[0]!).slice(0, BEST_LINES);
    out.push("best match:", ...best.map((l) => `  ${l}`));
    out.push(`next: context ${shown[0]!.key} for its callers, callees and other edges`);
    return clipLines(out.join("\n"));
  },
});
