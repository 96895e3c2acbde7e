// Rendering the digest report as text (CLI and the MCP digest/rebuild tools).
import type { DigestResult } from "../sync/digest.js";

const SHOW = 10;

/** The digest's phases as one line: walk, extract, resolve and (applied) write, in seconds. */
function phases(r: DigestResult): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const p = r.phases;
  return `walk ${s(p.walkMs)}, extract ${s(p.extractMs)}, resolve ${s(p.resolveMs)}${r.applied ? `, write ${s(p.writeMs)}` : ""}`;
}

export function renderDigest(r: DigestResult, opts: { dbPath?: string; drift?: string } = {}): string {
  const lines: string[] = [];
  const rep = r.report;
  const where =
    r.source === "git"
      ? `commit ${r.commit} (git objects — uncommitted edits are not read)`
      : "the working tree (no commit)";
  lines.push(`digest of ${r.dir} at ${where}`);
  if (opts.drift) lines.push(opts.drift);
  const plugins = Object.entries(rep.plugins);
  if (plugins.length === 0) lines.push("  no file is claimed by an installed plugin");
  let resolved = 0;
  let unresolved = 0;
  const reasons: Record<string, number> = {};
  for (const [, p] of plugins) {
    lines.push(`  ${p.build}: ${p.files} file(s), ${p.lines} line(s) → ${p.facts} fact(s)`);
    resolved += p.stats.resolved;
    unresolved += p.stats.unresolved;
    for (const [k, v] of Object.entries(p.stats.reasons)) reasons[k] = (reasons[k] ?? 0) + v;
  }
  lines.push(`  facts: ${rep.nodes} node(s), ${rep.edges} edge(s); parsed ${rep.parsed} file(s), ${rep.cached} from cache`);
  const total = resolved + unresolved;
  if (total > 0) {
    const pct = ((100 * resolved) / total).toFixed(1);
    lines.push(`  call sites: ${resolved} resolved, ${unresolved} unresolved (${pct}% resolved)`);
    const top = Object.entries(reasons).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    for (const [k, v] of top.slice(0, SHOW)) lines.push(`    unresolved: ${k} — ${v}`);
    if (top.length > SHOW) lines.push(`    … and ${top.length - SHOW} more reason(s)`);
  }
  const unclaimed = Object.entries(rep.unclaimed).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (unclaimed.length > 0) {
    const shown = unclaimed.slice(0, SHOW).map(([e, n]) => `${e} (${n})`);
    lines.push(
      `  no plugin claims ${shown.join(", ")}${unclaimed.length > SHOW ? `, … and ${unclaimed.length - SHOW} more` : ""} — drsg plugin list shows what is installed`,
    );
  }
  if (rep.skipped.length > 0) {
    lines.push(`  skipped ${rep.skipped.length}:`);
    for (const s of rep.skipped.slice(0, SHOW)) lines.push(`    ${s.path} — ${s.reason}`);
    if (rep.skipped.length > SHOW) lines.push(`    … and ${rep.skipped.length - SHOW} more`);
  }
  if (rep.syntaxErrors.length > 0) {
    lines.push(`  syntax errors in ${rep.syntaxErrors.length} file(s) (facts come from what parsed):`);
    for (const s of rep.syntaxErrors.slice(0, SHOW)) lines.push(`    ${s.path} — ${s.errors} error node(s)`);
    if (rep.syntaxErrors.length > SHOW) lines.push(`    … and ${rep.syntaxErrors.length - SHOW} more`);
  }
  if (rep.recovered.length > 0) {
    lines.push(`  parsed after the plugin's recovery rewrites: ${rep.recovered.length} file(s) the grammar alone reads with errors (drsg parse FILE --recovered):`);
    for (const p of rep.recovered.slice(0, SHOW)) lines.push(`    ${p}`);
    if (rep.recovered.length > SHOW) lines.push(`    … and ${rep.recovered.length - SHOW} more`);
  }
  for (const n of rep.notes) lines.push(`  note: ${n}`);
  if (r.applied) {
    const a = r.applied;
    lines.push(
      `applied to plane '${r.plane}'${opts.dbPath ? ` in ${opts.dbPath}` : ""}: nodes +${a.nodesCreated} ~${a.nodesPatched} -${a.nodesDeleted}${a.nodesReclaimed ? ` (${a.nodesReclaimed} key(s) an agent had written taken back by the parser)` : ""}, edges +${a.edgesCreated} ~${a.edgesPatched} -${a.edgesDeleted} in ${(r.ms / 1000).toFixed(2)} s (${phases(r)})`,
    );
  } else {
    lines.push(`dry run in ${(r.ms / 1000).toFixed(2)} s (${phases(r)}) — re-run with --apply to write plane '${r.plane}'`);
  }
  return lines.join("\n");
}
