// BENCHMARKS.md section: the python family's CALLS / INSTANTIATES against jedi as oracle, per
// repository given (each with .py files): site-level precision over the sites jedi binds to a
// declaration in the tree, recall over jedi's sites whose target is a function, method or class in
// the tree (matched by file, line and column of the callee's name token), and the digest time.
// jedi runs in bench/oracle-py/oracle.py under /usr/bin/python3 (Debian: python3-jedi), or under
// $DRSG_ORACLE_PYTHON; its time cap per tree is $DRSG_ORACLE_PY_SECONDS (default 900); it imports
// the tree to look members up as Python does, from $DRSG_ORACLE_PY_IMPORT_PATH first when set
// (directories, ':'-separated: pyo-core imports from a full sqlalchemy checkout). Runnable alone:
//   node dist/bench/oracle-py-section.js REPO_DIR...   (each a directory inside a git repository)
// With DRSG_ORACLE_VERBOSE=1 the wrong, unjudged and missed sites go to stderr.
// BENCHMARKS.md's tree `pyo-core` is sqlalchemy's lib/sqlalchemy (__init__.py, engine, event,
// events.py, exc.py, inspection.py, log.py, pool, py.typed, schema.py, sql, types.py, util: all but
// orm, dialects, ext, testing, connectors, future) copied under sqlalchemy/ in a fresh git repository.
import { edgeSites, inTree } from "../test/support/facts.js";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
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
const PYTHON = process.env.DRSG_ORACLE_PYTHON ?? "/usr/bin/python3";
const SCRIPT = join(PACKAGE_ROOT, "bench", "oracle-py", "oracle.py");
const SECONDS = Number(process.env.DRSG_ORACLE_PY_SECONDS ?? 900);
/** Directories the oracle imports the tree's packages from first (oracle.py --import-path). */
const IMPORT_PATH = process.env.DRSG_ORACLE_PY_IMPORT_PATH ?? "";
const DEFINITION = new Set(["function", "class"]);

/** One declaration jedi resolves a callee's name to. */
export interface JediDecl {
  /** Tree-relative when in_tree, else absolute (or null for a builtin without a file). */
  file: string | null;
  module: string;
  line: number | null;
  end_line: number | null;
  name: string;
  /** jedi's Name.type: function, class, module, param, statement, instance, property, … */
  type: string;
  in_tree: boolean;
  /** Module + `__qualname__` (jedi's full_name, or the function's own at run time). */
  full_name?: string | null;
  /** "runtime" when Python's own member lookup gave it (oracle.py's runtime rule). */
  by?: string;
}

/** One call site: the callee's name token, 1-based line and column (characters). */
export interface JediSite {
  file: string;
  line: number;
  col: number;
  name: string;
  decls: JediDecl[];
}

export interface JediSummary {
  files: number;
  sites: number;
  skipped: number;
  errors: number;
  seconds: number;
  jedi: string;
}

export interface OraclePyRow {
  name: string;
  lines: number;
  digestMs: number;
  precision: number;
  judged: number;
  unjudged: number;
  recall: number;
  oracleSites: number;
  jediSites: number;
  skipped: number;
  jediSeconds: number;
  wrong: string[];
  unjudgedAt: string[];
  missed: string[];
}

const pct = (x: number) => `${(100 * x).toFixed(2)}%`;

/** Whether the oracle's Python has jedi. */
export function jediAvailable(): boolean {
  const r = spawnSync(PYTHON, ["-c", "import jedi"], { encoding: "utf8" });
  return r.status === 0;
}

/** Whether git tracks .py files under dir. */
export function hasPython(dir: string): boolean {
  const r = spawnSync("git", ["ls-files", "--", "*.py"], { cwd: dir, encoding: "utf8", maxBuffer: 1 << 26 });
  return r.status === 0 && r.stdout.trim() !== "";
}

/** jedi's sites for the given tree-relative files of dir. */
export function runJedi(dir: string, files: string[], seconds = SECONDS): { sites: JediSite[]; summary: JediSummary } {
  const list = join(mkdtempSync(join(tmpdir(), "drsg-oracle-py-")), "files.txt");
  writeFileSync(list, `${files.join("\n")}\n`);
  const args = [SCRIPT, dir, "--seconds", String(seconds), "--files", list];
  if (IMPORT_PATH) args.push("--import-path", IMPORT_PATH);
  // DRSG_ORACLE_PY_REUSE=DIR keeps jedi's answer per tree there and reads it back (jedi takes
  // minutes; drsg's side changes while the tree does not). Never for a BENCHMARKS.md row.
  const reuse = process.env.DRSG_ORACLE_PY_REUSE ? join(process.env.DRSG_ORACLE_PY_REUSE, `${basename(dir)}.jsonl`) : undefined;
  let stdout: string;
  if (reuse && existsSync(reuse)) stdout = readFileSync(reuse, "utf8");
  else {
    const r = spawnSync(PYTHON, args, {
      encoding: "utf8",
      maxBuffer: 1 << 30,
    });
    if (r.status !== 0) throw new Error(`oracle.py failed (${r.status}): ${r.stderr.slice(-2000)}`);
    stdout = r.stdout;
    if (reuse) writeFileSync(reuse, stdout);
  }
  const sites: JediSite[] = [];
  let summary: JediSummary = { files: files.length, sites: 0, skipped: 0, errors: 0, seconds: 0, jedi: "?" };
  for (const l of stdout.split("\n")) {
    if (l === "") continue;
    const o = JSON.parse(l) as JediSite | { summary: JediSummary };
    if ("summary" in o) summary = o.summary;
    else sites.push(o);
  }
  return { sites, summary };
}

/** The span of a node: [line, end_line], when it has both. */
function span(n: NodeFact): [number, number] | undefined {
  const line = n.props.line;
  const end = n.props.end_line;
  return typeof line === "number" && typeof end === "number" ? [line, end] : undefined;
}

/**
 * jedi's declaration is drsg's target: same file and name, and the declaration's line within the
 * target's span — or, for a function or class, the same qualified name as the target's key: the
 * definitions of one name in the branches of an if / else are one symbol, keyed once.
 */
function sameDecl(d: JediDecl, t: NodeFact): boolean {
  if (!d.in_tree || d.file !== t.props.file || d.name !== keyName(t.key)) return false;
  if (DEFINITION.has(d.type) && d.full_name === t.key) return true;
  const s = span(t);
  return d.line !== null && s !== undefined && d.line >= s[0] && d.line <= s[1];
}

/**
 * A matcher of jedi's declarations against drsg's targets. `Foo()` (jedi: class Foo) also matches
 * an edge to the `__init__` of Foo or of a class Foo extends (by drsg's CONTAINS / EXTENDS edges:
 * jedi's API does not give the MRO) — the constructor that call runs.
 */
function matcher(facts: Facts): (d: JediDecl, t: NodeFact) => boolean {
  const classes = new Map<string, NodeFact[]>();
  const owner = new Map<string, string>();
  const bases = new Map<string, string[]>();
  for (const n of facts.nodes)
    if (n.labels.includes("Class") && typeof n.props.file === "string") {
      const l = classes.get(n.props.file);
      if (l) l.push(n);
      else classes.set(n.props.file, [n]);
    }
  for (const e of facts.edges) {
    if (e.type === "CONTAINS") owner.set(e.dst, e.src);
    else if (e.type === "EXTENDS") {
      const l = bases.get(e.src);
      if (l) l.push(e.dst);
      else bases.set(e.src, [e.dst]);
    }
  }
  return (d, t) => {
    if (sameDecl(d, t)) return true;
    if (d.type !== "class" || !d.in_tree || d.file === null || keyName(t.key) !== "__init__") return false;
    const cls = owner.get(t.key);
    if (cls === undefined) return false;
    const seen = new Set<string>();
    const todo = (classes.get(d.file) ?? []).filter((c) => sameDecl(d, c)).map((c) => c.key);
    while (todo.length > 0) {
      const k = todo.pop()!;
      if (k === cls) return true;
      if (seen.has(k)) continue;
      seen.add(k);
      todo.push(...(bases.get(k) ?? []));
    }
    return false;
  };
}

const show = (ds: JediDecl[]) => ds.map((d) => `${d.file ?? d.module}:${d.line} ${d.name} (${d.type})`).join(" | ");

export interface PySiteReport {
  judged: number;
  agreed: number;
  unjudged: number;
  unjudgedAt: string[];
  oracleSites: number;
  found: number;
  wrong: string[];
  missed: string[];
}

/** drsg's bound CALLS / INSTANTIATES sites against jedi's. */
export function compareSites(facts: Facts, jedi: JediSite[]): PySiteReport {
  const byKey = new Map(facts.nodes.map((n) => [n.key, n]));
  const matches = matcher(facts);
  const r: PySiteReport = { judged: 0, agreed: 0, unjudged: 0, unjudgedAt: [], oracleSites: 0, found: 0, wrong: [], missed: [] };
  const sites = new Map<string, Map<number, JediSite[]>>();
  for (const s of jedi) {
    let byLine = sites.get(s.file);
    if (!byLine) sites.set(s.file, (byLine = new Map()));
    const list = byLine.get(s.line);
    if (list) list.push(s);
    else byLine.set(s.line, [s]);
  }
  const drsg = new Map<string, Map<string, NodeFact[]>>();
  /** Why drsg left a site unbound (`file:line:col` → its reason), for the missed list. */
  const why = new Map<string, string>();
  for (const e of facts.edges) {
    if (e.type !== "CALLS" && e.type !== "INSTANTIATES") continue;
    const dst = byKey.get(e.dst);
    const src = byKey.get(e.src);
    if (src && dst?.labels.includes("UnresolvedRef") && typeof e.props._reason === "string")
      for (const [line, col] of edgeSites(e)) why.set(`${String(src.props.file)}:${line}:${col}`, e.props._reason);
    if (!src || !inTree(dst)) continue;
    const file = String(src.props.file);
    if (!sites.has(file)) continue; // not a file jedi visited (or skipped by the cap)
    const list = edgeSites(e);
    let byPos = drsg.get(file);
    if (!byPos) drsg.set(file, (byPos = new Map()));
    const dstName = keyName(dst.key);
    for (const [line, col] of list) {
      const cands = sites.get(file)?.get(line!) ?? [];
      const exact = cands.filter((c) => c.col === col);
      const hit =
        exact.length > 0
          ? exact
          : cands.filter((c) => c.name === dstName || (dstName === "__init__" && c.decls.some((d) => d.type === "class")));
      const key = `${line}:${hit.length === 1 ? hit[0]!.col : col}`;
      const t = byPos.get(key);
      if (t) t.push(dst);
      else byPos.set(key, [dst]);
      const ds = hit.flatMap((h) => h.decls);
      const where = `${file}:${line}:${col} ${e.props._ref ?? hit[0]?.name ?? "?"} → ${e.dst}`;
      if (!ds.some((d) => d.in_tree)) {
        r.unjudged++;
        r.unjudgedAt.push(`${where}: jedi says ${hit.length === 0 ? "no call here" : ds.length === 0 ? "nothing" : show(ds)}`);
        continue;
      }
      r.judged++;
      if (ds.some((d) => matches(d, dst))) r.agreed++;
      else r.wrong.push(`${where}: jedi says ${show(ds)}`);
    }
  }
  for (const [file, byLine] of sites)
    for (const list of byLine.values())
      for (const c of list) {
        const ds = c.decls.filter((d) => d.in_tree && DEFINITION.has(d.type));
        if (ds.length === 0) continue;
        r.oracleSites++;
        const got = drsg.get(file)?.get(`${c.line}:${c.col}`) ?? [];
        if (got.some((t) => ds.some((d) => matches(d, t)))) r.found++;
        else
          r.missed.push(
            `${file}:${c.line}:${c.col} ${c.name} → ${show(ds)}${got.length ? `; drsg: ${got.map((g) => g.key).join(" | ")}` : `; drsg: ${why.get(`${file}:${c.line}:${c.col}`) ?? "no site"}`}`,
          );
      }
  return r;
}

/** One repository: facts by a dry-run digest, jedi's view, the digest's wall time (fastest of RUNS). */
export async function measure(dir: string): Promise<OraclePyRow> {
  const d = await digest({ dir, plugins: activePlugins() });
  const facts = d.build.facts;
  let lines = 0;
  const files: string[] = [];
  for (const n of facts.nodes) {
    if (n.labels[0] !== "Module" || typeof n.props.file !== "string" || !n.props.file.endsWith(".py")) continue;
    files.push(n.props.file);
    if (typeof n.props.end_line === "number") lines += n.props.end_line;
  }
  const j = runJedi(dir, files);
  const s = compareSites(facts, j.sites);
  let digestMs = Number.POSITIVE_INFINITY;
  for (let i = 0; i < RUNS; i++) digestMs = Math.min(digestMs, digestInChild(dir).ms);
  return {
    name: basename(dir),
    lines,
    digestMs,
    precision: s.judged === 0 ? 1 : s.agreed / s.judged,
    judged: s.judged,
    unjudged: s.unjudged,
    recall: s.oracleSites === 0 ? 1 : s.found / s.oracleSites,
    oracleSites: s.oracleSites,
    jediSites: j.summary.sites,
    skipped: j.summary.skipped,
    jediSeconds: j.summary.seconds,
    wrong: s.wrong,
    unjudgedAt: s.unjudgedAt,
    missed: s.missed,
  };
}

export function table(rows: OraclePyRow[]): string {
  const head =
    "| tree | lines | site precision (judged) | unjudged sites | site recall (oracle sites) | jedi call sites (skipped by the cap) | jedi (s) | digest (s) | digest per 100k lines (s) |\n|---|---|---|---|---|---|---|---|---|";
  const body = rows.map(
    (r) =>
      `| ${r.name} | ${r.lines} | ${pct(r.precision)} (${r.judged}) | ${r.unjudged} | ${pct(r.recall)} (${r.oracleSites}) | ${r.jediSites} (${r.skipped}) | ${r.jediSeconds.toFixed(1)} | ${(r.digestMs / 1000).toFixed(2)} | ${((r.digestMs * 100) / Math.max(1, r.lines)).toFixed(2)} |`,
  );
  return [head, ...body].join("\n");
}

export function section(repos: string[] = []): { name: string; title: string; run(): Promise<string> } {
  return {
    name: "oracle-py",
    title: "Python call resolution against jedi",
    async run() {
      const py = repos.map((r) => realpathSync(r)).filter((r) => existsSync(r) && hasPython(r));
      if (py.length === 0) return "No repository with .py files given (npm run bench -- REPO...): nothing measured.";
      if (!jediAvailable())
        return `jedi is not importable by ${PYTHON} (Debian: \`apt-get install python3-jedi\`; or set DRSG_ORACLE_PYTHON): nothing measured.`;
      const rows = await measureTrees(py, measure);
      return [
        "Goals (issue 16): precision ≥ 99.9 % of judged sites on every tree, recall ≥ 99 %. A site is drsg's `[line, col]` on a bound CALLS / INSTANTIATES edge, judged when the oracle's declarations for the callee's name token at that position include one in the tree; recall is over the oracle's call sites (`ast.Call` with a name or attribute callee) whose target is a function, method or class in the tree. `Foo()` matches drsg's edge to class Foo or to the `__init__` of Foo or of a class it extends (by drsg's EXTENDS edges); a declaration matches drsg's target by file, name and line within its span, or by qualified name (module + `__qualname__` = drsg's key: the definitions of one name in the branches of an if / else are one symbol).",
        "",
        "The oracle is jedi's `goto` (following imports; `infer` when goto stops at a parameter, assignment or nothing), corrected where jedi is not the interpreter by rules that apply to every site alike (bench/oracle-py/oracle.py): **alias** — goto stopping at `x = a.b` is followed to what `a.b` names (`and_ = BooleanClauseList.and_`, `meth = DMLState.get_plugin_class(self).get_entity_description`); an assignment of anything else, or one whose value names no function or class, leaves the site unjudged (a variable is no definition a call runs); **none** — goto stopping at `f = None` (a reference dropped) reaches the functions named f in that scope; **runtime** — a member called on `self` / `cls` (the class the method is written in), `super()` (that class's MRO after it), a class, `C(…)`, or a receiver jedi infers to be (an instance of) a class of the tree is looked up as Python looks it up, along the class's `__mro__` in the `__dict__`s of the imported module (functools wrappers unwrapped through `__wrapped__`), and `self.x` is the type its class annotation declares; when the receiver is unknown, the member jedi found is looked up from the class jedi found it in. So `if TYPE_CHECKING:` stubs, `if not TYPE_CHECKING:` overrides and `super()` are judged by what runs. Only modules Python loads byte-identical to the tree's are used; `pyo-core` imports from a full sqlalchemy checkout of the same files ($DRSG_ORACLE_PY_IMPORT_PATH, with a typing_extensions ≥ 4.6 beside it); **stub** — a function jedi reaches that is defined only under `if TYPE_CHECKING:` (Python never defines it) is no recall site, and drsg binding it is wrong. The tree's package roots (`src/`) are on jedi's path, as installing the project puts them. Checked by hand against Python at run time (`Class.__mro__`, `__qualname__`): every disagreement the older jedi-only oracle reported on SQLAlchemy's core was one of these, bar one drsg error (a method declared under `if TYPE_CHECKING:` in a mixin, TypeEngineMixin.adapt, shadowing the TypeEngine.adapt that runs), now fixed.",
        "",
        "`pyo-core` is SQLAlchemy's lib/sqlalchemy without orm, dialects, ext, testing, connectors and future, committed as its own repository; `click` is pallets/click as fetched (src, tests, examples, docs).",
        "",
        table(rows),
      ].join("\n");
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href)
  await oracleScript("oracle-py-section.js", measure, table, { missing: () => (jediAvailable() ? undefined : `jedi is not importable by ${PYTHON}`) });
