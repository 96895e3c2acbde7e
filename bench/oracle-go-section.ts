// BENCHMARKS.md section: the go family's CALLS against go/types as oracle (bench/oracle-go/main.go),
// per repository given with a go.mod at its root — the same site-level comparison as
// oracle-section.ts does for TypeScript. A site is drsg's `[line, col]` (1-based, the callee's
// name token) on a CALLS edge bound to a definition in the tree; it is judged when go/types binds
// the call at that position (matched by file, line and column, else by file, line and called
// name) to a declaration in the tree, and right when that declaration is drsg's target (same
// file, its line inside the target's lines, same name). Recall is over go/types' call sites whose
// target is a function or method (interface methods included) declared in the tree. go/types
// sees the files go/build selects on this machine: drsg sites in the other files (build-tag twins
// such as *_windows.go) are counted apart. Runnable alone:
//   node dist/bench/oracle-go-section.js REPO_DIR...
// DRSG_ORACLE_VERBOSE=1 writes each wrong, unjudged and missed site to stderr.
import { edgeSites, inTree } from "../test/support/facts.js";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Facts, NodeFact } from "../src/model/facts.js";
import { keyName } from "../src/model/facts.js";
import { PACKAGE_ROOT } from "../src/paths.js";
import { activePlugins } from "../src/plugin/registry.js";
import { digest } from "../src/sync/digest.js";
import { digestInChild, measureTrees, oracleScript } from "./common.js";

const RUNS = 2;

/** One call site as go/types sees it (a line of oracle-go's output). */
interface GoSite {
  file: string;
  line: number;
  col: number;
  name: string;
  /** func, method, iface (an interface's method), var, type, builtin, other, none (unbound). */
  kind: string;
  tfile?: string;
  tline?: number;
  tname?: string;
  intree: boolean;
}

export interface GoOracleRow {
  name: string;
  lines: number;
  digestMs: number;
  precision: number;
  judged: number;
  unjudged: number;
  /** drsg's bound sites in files go/types did not check (build tags, no module). */
  unchecked: number;
  /** Wrong sites whose drsg target is the same name in a file go/types did not check: a build-tag twin. */
  twins: number;
  recall: number;
  compilerSites: number;
  wrong: string[];
  unjudgedAt: string[];
  missed: string[];
}

const pct = (x: number) => `${(100 * x).toFixed(2)}%`;
const ENV = { ...process.env, GOTOOLCHAIN: "local", GOPROXY: "off" };

/** The go toolchain's version line, or undefined when `go` is not installed. */
export function goVersion(): string | undefined {
  const r = spawnSync("go", ["version"], { encoding: "utf8", env: ENV });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

let binary: string | undefined;

/** bench/oracle-go/main.go, built once into a temporary directory. */
function oracleBinary(): string {
  if (binary) return binary;
  const out = join(mkdtempSync(join(tmpdir(), "drsg-oracle-go-")), "oracle-go");
  const r = spawnSync("go", ["build", "-o", out, join(PACKAGE_ROOT, "bench", "oracle-go", "main.go")], {
    cwd: tmpdir(),
    encoding: "utf8",
    env: ENV,
  });
  if (r.status !== 0) throw new Error(`go build bench/oracle-go/main.go: ${r.stderr}`);
  return (binary = out);
}

/** go/types' call sites of a tree, and the files it checked. */
export function goSites(dir: string): { sites: GoSite[]; checked: Set<string> } {
  const r = spawnSync(oracleBinary(), [dir], { encoding: "utf8", maxBuffer: 1 << 30, env: ENV });
  if (r.status !== 0) throw new Error(`oracle-go ${dir}: ${r.stderr}`);
  const sites: GoSite[] = [];
  const checked = new Set<string>();
  for (const line of r.stdout.split("\n")) {
    if (line === "") continue;
    const j = JSON.parse(line) as GoSite | { checked: string };
    if ("checked" in j) checked.add(j.checked);
    else sites.push(j);
  }
  return { sites, checked };
}

function matches(s: GoSite, t: NodeFact): boolean {
  const line = t.props.line;
  const end = t.props.end_line;
  return (
    s.intree &&
    s.tfile === t.props.file &&
    typeof line === "number" &&
    typeof end === "number" &&
    s.tline !== undefined &&
    s.tline >= line &&
    s.tline <= end &&
    s.tname === keyName(t.key)
  );
}

const isDefinition = (s: GoSite) => s.intree && (s.kind === "func" || s.kind === "method" || s.kind === "iface");
const target = (s: GoSite) => `${s.tfile}:${s.tline} ${s.tname} (${s.kind})`;

/** Compare drsg's CALLS sites of a tree with go/types' view of the same tree. */
export function compareGoSites(
  dir: string,
  facts: Facts,
  oracle: { sites: GoSite[]; checked: Set<string> },
): Omit<GoOracleRow, "name" | "lines" | "digestMs" | "precision" | "recall"> & { agreed: number; found: number } {
  const byKey = new Map(facts.nodes.map((n) => [n.key, n]));
  const r = {
    judged: 0,
    agreed: 0,
    unjudged: 0,
    unchecked: 0,
    twins: 0,
    compilerSites: 0,
    found: 0,
    wrong: [] as string[],
    unjudgedAt: [] as string[],
    missed: [] as string[],
  };
  const byLine = new Map<string, GoSite[]>();
  for (const s of oracle.sites) {
    const k = `${s.file}:${s.line}`;
    const l = byLine.get(k);
    if (l) l.push(s);
    else byLine.set(k, [s]);
  }
  const text = new Map<string, string[]>();
  const code = (file: string, line: number): string => {
    let t = text.get(file);
    if (!t) {
      const p = join(dir, file);
      text.set(file, (t = existsSync(p) ? readFileSync(p, "utf8").split("\n") : []));
    }
    return (t[line - 1] ?? "").trim().slice(0, 160);
  };
  // drsg's bound sites (file:line:col → targets), and every CALLS target at a site for the missed list.
  const bound = new Map<string, NodeFact[]>();
  const any = new Map<string, string[]>();
  for (const e of facts.edges) {
    if (e.type !== "CALLS") continue;
    const dst = byKey.get(e.dst);
    const src = byKey.get(e.src);
    if (!src) continue;
    const file = String(src.props.file);
    const list = edgeSites(e);
    const isBound = inTree(dst);
    for (const [line, col] of list) {
      const cands = byLine.get(`${file}:${line}`) ?? [];
      const exact = cands.filter((c) => c.col === col);
      const hit = exact.length > 0 ? exact : cands.filter((c) => c.name === keyName(e.dst));
      const pos = `${file}:${line}:${hit.length === 1 ? hit[0]!.col : col}`;
      const a = any.get(pos);
      if (a) a.push(e.dst);
      else any.set(pos, [e.dst]);
      if (!isBound) continue;
      const b = bound.get(pos);
      if (b) b.push(dst);
      else bound.set(pos, [dst]);
      const where = `${file}:${line}:${col} ${e.props._ref} → ${e.dst} (${e.props._resolved_by}) | ${code(file, line!)}`;
      if (!oracle.checked.has(file)) {
        r.unchecked++;
        continue;
      }
      const ds = hit.filter((h) => h.intree);
      if (ds.length === 0) {
        r.unjudged++;
        r.unjudgedAt.push(`${where} | go/types: ${hit.length === 0 ? "no call there" : hit.map((h) => `${h.kind} ${h.tname ?? ""}`).join(", ")}`);
        continue;
      }
      r.judged++;
      if (ds.some((d) => matches(d, dst))) r.agreed++;
      else {
        // A build-tag twin's target: another file's declaration of the name.
        const twin = !oracle.checked.has(String(dst.props.file)) && ds.some((d) => d.tname === keyName(dst.key));
        if (twin) r.twins++;
        r.wrong.push(`${twin ? "[build-tag twin] " : ""}${where} | go/types: ${ds.map(target).join(" ; ")}`);
      }
    }
  }
  for (const s of oracle.sites) {
    if (!isDefinition(s)) continue;
    r.compilerSites++;
    const pos = `${s.file}:${s.line}:${s.col}`;
    if ((bound.get(pos) ?? []).some((t) => matches(s, t))) r.found++;
    else r.missed.push(`${pos} ${s.name} → ${target(s)} | drsg: ${(any.get(pos) ?? ["nothing"]).join(", ")} | ${code(s.file, s.line)}`);
  }
  return r;
}

/** One repository: facts by a dry-run digest, go/types' view, the digest's wall time (fastest of RUNS). */
export async function measure(dir: string): Promise<GoOracleRow> {
  const d = await digest({ dir, plugins: activePlugins() });
  const facts = d.build.facts;
  let lines = 0;
  for (const n of facts.nodes)
    if (n.labels[0] === "File" && String(n.props.file).endsWith(".go") && typeof n.props.end_line === "number") lines += n.props.end_line;
  const s = compareGoSites(dir, facts, goSites(dir));
  let digestMs = Number.POSITIVE_INFINITY;
  for (let i = 0; i < RUNS; i++) digestMs = Math.min(digestMs, digestInChild(dir).ms);
  return {
    name: basename(dir),
    lines,
    digestMs,
    precision: s.judged === 0 ? 1 : s.agreed / s.judged,
    judged: s.judged,
    unjudged: s.unjudged,
    unchecked: s.unchecked,
    twins: s.twins,
    recall: s.compilerSites === 0 ? 1 : s.found / s.compilerSites,
    compilerSites: s.compilerSites,
    wrong: s.wrong,
    unjudgedAt: s.unjudgedAt,
    missed: s.missed,
  };
}

export function table(rows: GoOracleRow[]): string {
  const head =
    "| tree | lines | site precision (judged) | of the wrong, build-tag twins | unjudged sites | sites in unchecked files | site recall (compiler sites) | digest (s) | digest per 100k lines (s) |\n|---|---|---|---|---|---|---|---|---|";
  const body = rows.map(
    (r) =>
      `| ${r.name} | ${r.lines} | ${pct(r.precision)} (${r.judged}) | ${r.twins} | ${r.unjudged} | ${r.unchecked} | ${pct(r.recall)} (${r.compilerSites}) | ${(r.digestMs / 1000).toFixed(2)} | ${((r.digestMs * 100) / Math.max(1, r.lines)).toFixed(2)} |`,
  );
  return [head, ...body].join("\n");
}

export function section(repos: string[] = []): { name: string; title: string; run(): Promise<string> } {
  return {
    name: "oracle-go",
    title: "Go call resolution against go/types",
    async run() {
      const go = goVersion();
      if (!go) return "`go` is not installed on this machine (apt-get install golang-go): nothing measured.";
      const dirs = repos.map((r) => realpathSync(r)).filter((r) => existsSync(join(r, "go.mod")));
      if (dirs.length === 0) return "No repository with a go.mod at its root given (npm run bench -- REPO...): nothing measured.";
      const rows = await measureTrees(dirs, measure, true);
      return [
        `Oracle: go/types (${go}) through bench/oracle-go/main.go, standard library from the toolchain, imports outside the tree as empty packages, type errors ignored. A site is drsg's \`[line, col]\` on a CALLS edge bound in the tree, judged when go/types binds the call there (same file, line and column of the callee's name, else same line and called name) to a declaration in the tree; recall is over go/types' call sites whose target is a function or method (interface methods included) declared in the tree. go/types checks the files go/build selects by default on this machine (with in-package and external tests); drsg's sites in the other files (build-tag twins) are counted apart, unjudged. A function defined once per build tag is a node per file in drsg, names binding the variant a default build selects; a call bound to a twin go/types does not build would count as wrong and is also shown apart. Goal: precision ≥ 99.9 % of judged sites, recall ≥ 99 %.`,
        "",
        table(rows),
      ].join("\n");
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href)
  await oracleScript("oracle-go-section.js", measure, table, { prefix: true, missing: () => (goVersion() ? undefined : "oracle-go: `go` is not installed") });
