// cypher and query beyond the reference corpus: parse errors with line, column and the grammar
// of the clauses reached; the confirm scan; refusal on mirrored planes; AS OF; the row cap and
// the time budget; all-or-nothing writes; reserved properties; and that patterns naming a label
// or key read through the store's indexes (a counting Reader over the real store).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { GraphViews } from "../../src/graph/view.js";
import { destroys, runStatement } from "../../src/cypher/run.js";
import { isDrsgError } from "../../src/model/errors.js";
import { PluginSet } from "../../src/plugin/host.js";
import { RoutedStore } from "../../src/store/routed.js";
import type { Reader, Store } from "../../src/store/types.js";
import { cypher } from "../../src/tools/cypher.js";
import { query } from "../../src/tools/query.js";
import type { Tool, ToolContext } from "../../src/tools/tool.js";
import { tempStore } from "../store/helpers.js";
import { drsgSetup } from "./fixture.js";
import { Structured } from "../../src/tools/tool.js";

const SHA = "0123456789abcdef0123456789abcdef01234567";

function ctxOf(store: Store): ToolContext {
  return { store, transport: "cli", plugins: () => new PluginSet([]), views: new GraphViews(store) };
}

async function ask(ctx: ToolContext, tool: Tool, input: Record<string, unknown>): Promise<string> {
  const r = await tool.run(ctx, tool.input.parse(input) as never);
  // A table answer is text and data (structuredContent): the text is what every transport shows.
  return r instanceof Structured ? r.text : typeof r === "string" ? r : JSON.stringify(r);
}

async function rejects(p: Promise<unknown> | (() => unknown), code: string): Promise<Error> {
  let caught: unknown;
  try {
    await (typeof p === "function" ? p() : p);
  } catch (e) {
    caught = e;
  }
  assert.ok(isDrsgError(caught), `expected ${code}, got ${caught === undefined ? "no error" : String(caught)}`);
  assert.equal((caught as { code: string }).code, code, (caught as Error).message);
  return caught as Error;
}

/** A Reader over the real store that counts each method called (not a mock: every call goes through). */
function counting(store: Store): { reader: Reader; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const reader = new Proxy(store, {
    get(target, prop, recv) {
      const v = Reflect.get(target, prop, recv);
      if (typeof v !== "function") return v;
      return (...args: unknown[]) => {
        calls.set(String(prop), (calls.get(String(prop)) ?? 0) + 1);
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as Reader;
  return { reader, calls };
}

describe("cypher", () => {
  let t: ReturnType<typeof tempStore>;
  let ctx: ToolContext;
  before(() => {
    t = tempStore();
    ctx = ctxOf(t.store);
    t.store.write((w) => {
      drsgSetup(w, "t");
      drsgSetup(w, "code", { synced_commit: SHA });
      w.createPlane("big");
      const ids = w.createNodes(
        "big",
        Array.from({ length: 3000 }, (_, i) => ({ key: `k${i}`, labels: [i % 2 ? "Odd" : "Even"], props: { i } })),
      );
      w.createEdges("big", ids.slice(1).map((id, i) => ({ type: "NEXT", src: ids[i]!, dst: id, props: {} })));
    });
  });
  after(() => t.done());

  test("a parse error names line and column and the grammar of the clauses reached, not the whole language", async () => {
    const e = await rejects(ask(ctx, cypher, { plane: "t", query: "MATCH (n:Function)\nWHERE n.name =\nRETURN n" }), "CYPHER_SYNTAX");
    assert.match(e.message, /^line 3, column 1: expected an expression/);
    assert.match(e.message, /\n\ngrammar:\n\[OPTIONAL\] MATCH pattern/);
    assert.match(e.message, /WHERE condition/);
    assert.doesNotMatch(e.message, /CREATE \(n:Label/);
    const e2 = await rejects(ask(ctx, cypher, { plane: "t", query: "CREATE (n:Note {key: 'x'}" }), "CYPHER_SYNTAX");
    assert.match(e2.message, /^line 1, column 26: expected '\)'/);
    assert.match(e2.message, /CREATE \(n:Label \{key:/);
    assert.doesNotMatch(e2.message, /RETURN \[DISTINCT\]/);
    const e3 = await rejects(ask(ctx, cypher, { plane: "t", query: "FROB (n)" }), "CYPHER_SYNTAX");
    assert.match(e3.message, /a statement is clauses in order/);
  });

  test("the confirm scan finds DELETE and REMOVE, skipping strings, comments, backticked names and properties", () => {
    assert.equal(destroys("MATCH (n) DELETE n"), true);
    assert.equal(destroys("match (n) detach delete n"), true);
    assert.equal(destroys("MATCH (n) REMOVE n.x"), true);
    assert.equal(destroys("MATCH (n)\nDeLeTe n"), true);
    assert.equal(destroys("MATCH (n) WHERE n.name = 'delete' RETURN n"), false);
    assert.equal(destroys('MATCH (n) WHERE n.name = "it\\"s remove" RETURN n'), false);
    assert.equal(destroys("MATCH (n) RETURN n.remove, n.delete"), false);
    assert.equal(destroys("MATCH (n) RETURN n.`delete`, `remove`"), false);
    assert.equal(destroys("// delete everything\nMATCH (n) RETURN n /* remove */"), false);
    assert.equal(destroys("MATCH (n) RETURN n.name AS deleted"), false);
    // Unsure (an unterminated string): ask.
    assert.equal(destroys("MATCH (n) WHERE n.x = 'a DELETE n"), true);
  });

  test("DELETE and REMOVE without confirm change nothing; with confirm they run", async () => {
    const seq = t.store.currentSeq();
    await rejects(ask(ctx, cypher, { plane: "t", query: "MATCH (n {key: 'f/lonely'}) DELETE n" }), "CONFIRM_REQUIRED");
    await rejects(ask(ctx, cypher, { plane: "t", query: "MATCH (n {key: 'f/save'}) REMOVE n.loc" }), "CONFIRM_REQUIRED");
    assert.equal(t.store.currentSeq(), seq);
    assert.ok(t.store.getNodeByKey("t", "f/lonely"));
    const text = await ask(ctx, cypher, { plane: "t", query: "MATCH (n {key: 'f/lonely'}) DELETE n", confirm: true });
    assert.match(text, /1 node\(s\) deleted/);
    assert.equal(t.store.getNodeByKey("t", "f/lonely"), undefined);
  });

  test("a write on a mirrored plane is refused naming the commit and the way out; the confirm check comes first", async () => {
    const seq = t.store.currentSeq();
    const e = await rejects(ask(ctx, cypher, { plane: "code", query: "CREATE (n:Note {key: 'n/1'})" }), "MIRRORED_PLANE");
    assert.match(e.message, /commit 0123456789ab\b/);
    assert.match(e.message, /write_nodes \/ write_edges/);
    assert.match(e.message, /plane of your own/);
    await rejects(ask(ctx, cypher, { plane: "code", query: "MATCH (n) DETACH DELETE n" }), "CONFIRM_REQUIRED");
    await rejects(ask(ctx, cypher, { plane: "code", query: "MATCH (n) DETACH DELETE n", confirm: true }), "MIRRORED_PLANE");
    await rejects(ask(ctx, cypher, { plane: "code", query: "MATCH (n {key: 'f/add'}) SET n.x = 1" }), "MIRRORED_PLANE");
    assert.equal(t.store.currentSeq(), seq);
    assert.equal(t.store.countNodes("code"), 12);
  });

  test("on a mirrored plane RETURN n answers one line per node after the synced line; projections are a table", async () => {
    const text = await ask(ctx, cypher, { plane: "code", query: "MATCH (n:Function) WHERE n.file = 'src/cart.ts' RETURN n ORDER BY n.line" });
    assert.deepEqual(text.split("\n"), ["synced: commit 0123456789ab", "2 node(s)", "f/add  Function  src/cart.ts:5", "f/remove  Function  src/cart.ts:12"]);
    const table = await ask(ctx, cypher, { plane: "code", query: "MATCH (n:Function) RETURN n.file AS file, count(*) AS n ORDER BY n DESC, file LIMIT 2" });
    assert.deepEqual(table.split("\n"), ["synced: commit 0123456789ab", "2 row(s)", "file | n", "src/cart.ts | 2", "src/store.ts | 2"]);
  });

  test("a server serving reads only refuses a writing statement (allowWrites: false) and runs reads", async () => {
    await rejects(() => runStatement(t.store, { plane: "t", statement: "CREATE (n:Note {key: 'n/ro'})", allowWrites: false }), "READ_ONLY");
    assert.equal(t.store.getNodeByKey("t", "n/ro"), undefined);
    assert.deepEqual(runStatement(t.store, { plane: "t", statement: "MATCH (n:Class) RETURN count(*)", allowWrites: false }).result.rows, [[2]]);
  });

  test("writes are one transaction: a failure part-way writes nothing", async () => {
    const seq = t.store.currentSeq();
    const before = t.store.countNodes("t");
    await rejects(ask(ctx, cypher, { plane: "t", query: "UNWIND [1, 2] AS i CREATE (:Note {key: 'dup', n: i})" }), "KEY_TAKEN");
    await rejects(ask(ctx, cypher, { plane: "t", query: "MATCH (n {key: 'f/helper'}) DELETE n", confirm: true }), "CYPHER_ERROR");
    await rejects(ask(ctx, cypher, { plane: "t", query: "CREATE (:Note {text: 'no key'})" }), "CYPHER_ERROR");
    assert.equal(t.store.countNodes("t"), before);
    assert.equal(t.store.currentSeq(), seq);
  });

  test("reserved `_` properties are stripped from CREATE, SET and MERGE, and the answer says so", async () => {
    const text = await ask(ctx, cypher, { plane: "t", query: "CREATE (n:Note {key: 'n/p', _generated_by: 'me', text: 'x'}) SET n._confidence = 1, n += {_ref: 'r', ok: true}" });
    assert.match(text, /reserved properties stripped .*: _confidence, _generated_by, _ref/);
    const n = t.store.getNodeByKey("t", "n/p")!;
    assert.deepEqual(n.props, { text: "x", ok: true });
    // SET n = {…} keeps the pipeline's own `_` properties.
    t.store.write((w) => w.updateNode("t", n.id, { props: { ...n.props, _generated_by: "ts@1" } }));
    await ask(ctx, cypher, { plane: "t", query: "MATCH (n {key: 'n/p'}) SET n = {text: 'y'}" });
    assert.deepEqual(t.store.getNodeByKey("t", "n/p")!.props, { _generated_by: "ts@1", text: "y" });
  });

  test("AS OF a commit or an RFC 3339 time reads the retained history; writes cannot travel", async () => {
    t.store.write((w) => w.createNode("t", { key: "n/old", labels: ["Note"], props: { text: "then" } }));
    const then = t.store.currentSeq();
    const thenAt = t.store.commits().find((c) => c.seq === then)!.at;
    // The next commits must carry a later millisecond than `then` for the time form to tell them apart.
    while (Date.now() <= thenAt + 1) await new Promise((r) => setTimeout(r, 2));
    await ask(ctx, cypher, { plane: "t", query: "MATCH (n {key: 'n/old'}) SET n.text = 'now'" });
    await ask(ctx, cypher, { plane: "t", query: "MATCH (n {key: 'n/old'}) DELETE n", confirm: true });
    const now = await ask(ctx, cypher, { plane: "t", query: "MATCH (n:Note {key: 'n/old'}) RETURN n.text" });
    assert.match(now, /^0 row\(s\)/m);
    const past = await ask(ctx, cypher, { plane: "t", query: `MATCH (n:Note {key: 'n/old'}) RETURN n.text AS OF ${then}` });
    assert.match(past, new RegExp(`as of database commit ${then}\\n1 row\\(s\\)\\nn.text\\nthen`));
    const iso = new Date(thenAt).toISOString();
    const byTime = await ask(ctx, cypher, { plane: "t", query: `MATCH (n {key: 'n/old'}) RETURN n.text AS OF "${iso}"` });
    assert.match(byTime, /\nthen$/);
    await rejects(ask(ctx, cypher, { plane: "t", query: `CREATE (n:Note {key: 'n/x'}) AS OF ${then}` }), "BAD_INPUT");
    await rejects(ask(ctx, cypher, { plane: "t", query: 'MATCH (n) RETURN n AS OF "yesterday"' }), "BAD_INPUT");
  });

  test("AS OF below the retained window is a typed error", async () => {
    const s = tempStore({ retainCommits: 2 });
    try {
      for (let i = 0; i < 5; i++) s.store.write((w) => (i === 0 ? w.createPlane("p") : w.createNode("p", { key: `k${i}`, labels: ["X"], props: {} })));
      const e = await rejects(ask(ctxOf(s.store), cypher, { plane: "p", query: "MATCH (n) RETURN count(*) AS OF 1" }), "AS_OF_OUT_OF_RANGE");
      assert.match(e.message, /DRSG_RETAIN_COMMITS/);
    } finally {
      s.done();
    }
  });

  test("the row cap and the time budget are said when hit", async () => {
    const capped = await ask(ctx, cypher, { plane: "big", query: "MATCH (n:Odd) RETURN n.i", max_rows: 3 });
    assert.match(capped, /^3 row\(s\)/m);
    assert.match(capped, /row cap: the first 3 rows are shown and more exist/);
    const a = runStatement(t.store, { plane: "big", statement: "MATCH (a)-[:NEXT*1..6]->(b) RETURN count(*) AS n", limits: { budgetMs: 0 } });
    assert.equal(a.result.stopped, "time");
    const timed = await ask(ctx, cypher, { plane: "big", query: "MATCH (a)-[:NEXT*1..6]->(b) RETURN count(*) AS n", timeout_ms: 10 });
    const full = runStatement(t.store, { plane: "big", statement: "MATCH (a)-[:NEXT*1..6]->(b) RETURN count(*) AS n" });
    assert.equal(full.result.stopped, undefined);
    assert.deepEqual(full.result.rows, [[2999 + 2998 + 2997 + 2996 + 2995 + 2994]]);
    if (timed.includes("time budget")) assert.match(timed, /time budget: reading stopped after 10 ms/);
    const work = runStatement(t.store, { plane: "big", statement: "MATCH (a)-[:NEXT*1..6]->(b) RETURN count(*) AS n", limits: { maxWork: 100 } });
    assert.equal(work.result.stopped, "work");
    // A write stopped by its budget writes nothing.
    await rejects(() => runStatement(t.store, { plane: "big", statement: "MATCH (n:Odd) SET n.seen = true", limits: { budgetMs: 0 } }), "TIMEOUT");
    assert.equal(t.store.getNodeByKey("big", "k1")!.props.seen, undefined);
  });

  test("patterns naming a key or label read through the indexes, not whole-plane scans", () => {
    const run = (q: string) => {
      const c = counting(t.store);
      const a = runStatement(t.store, { plane: "t", statement: q }, c.reader);
      return { calls: c.calls, rows: a.result.rows };
    };
    const counted = run("MATCH (n:Class) RETURN count(n)");
    assert.deepEqual(counted.rows, [[2]]);
    assert.equal(counted.calls.get("countByLabel"), 1);
    assert.equal(counted.calls.get("allNodes"), undefined);
    const byLabel = run("MATCH (n:Class) WHERE n.line > 1 RETURN n.name, labels(n)");
    assert.deepEqual(byLabel.rows, [["Store", ["Class"]]]);
    assert.equal(byLabel.calls.get("nodesByLabelProps"), 1);
    assert.equal(byLabel.calls.get("allNodes"), undefined);
    const whole = run("MATCH (n:Class) WHERE n.line > 1 RETURN n");
    assert.equal(whole.calls.get("nodesByLabel"), 1);
    assert.deepEqual((whole.rows[0]![0] as { props: unknown }).props, { name: "Store", file: "src/store.ts", line: 3, exported: false });
    // A count grouped by properties of one label: the store groups, no node is read whole.
    const grouped = run("MATCH (f:Function) RETURN f.file AS file, f.exported AS e, count(*) AS n");
    assert.equal(grouped.calls.get("countByLabelProps"), 1);
    assert.equal(grouped.calls.get("nodesByLabel"), undefined);
    const sorted = (rows: unknown[][]) => rows.map((r) => JSON.stringify(r)).sort();
    const viaRows = run("MATCH (f:Function) WITH f RETURN f.file AS file, f.exported AS e, count(*) AS n");
    assert.deepEqual(sorted(grouped.rows), sorted(viaRows.rows));
    const byName = run("MATCH (n {name: 'save'})-[:CALLS]->(m) RETURN m.key");
    assert.deepEqual(byName.rows, [["f/load"]]);
    assert.equal(byName.calls.get("nodesByNameProp"), 1);
    assert.equal(byName.calls.get("allNodes"), undefined);
    const byKey = run("MATCH (n {key: 'f/main'})-[:CALLS]->(m)-[:CALLS*1..2]->(x) RETURN DISTINCT x.key");
    assert.ok(byKey.rows.length > 0);
    assert.equal(byKey.calls.get("getNodeByKey"), 1);
    assert.ok((byKey.calls.get("edgesOut") ?? 0) > 0);
    assert.equal(byKey.calls.get("allNodes"), undefined);
    assert.equal(byKey.calls.get("allEdges"), undefined);
    // The key may sit at the end of the pattern: the walk starts there and goes backwards.
    const backwards = run("MATCH (a:Function)-[:CALLS]->(b {key: 'f/helper'}) RETURN a.key");
    assert.equal(backwards.rows.length, 4);
    assert.equal(backwards.calls.get("nodesByLabel"), undefined);
    assert.ok((backwards.calls.get("edgesIn") ?? 0) > 0);
    assert.equal(backwards.calls.get("allNodes"), undefined);
    // Nothing but a relationship type: one pass over edges, never a node scan with a lookup per node.
    const typed = run("MATCH (a)-[:IMPORTS]->(b) RETURN a.key, b.key");
    assert.deepEqual(typed.rows, [["m/app", "m/lib"]]);
    assert.equal(typed.calls.get("allEdges"), 1);
    assert.equal(typed.calls.get("allNodes"), undefined);
  });

  test("a node without a `name` property answers n.name with its key's last segment, found by the name index", () => {
    t.store.write((w) => {
      w.createPlane("names");
      w.createNode("names", { key: "pkg/src/a.ts.Cart.add", labels: ["Method"], props: { file: "src/a.ts" } });
      w.createNode("names", { key: "pkg/src/b.ts.add", labels: ["Function"], props: {} });
      w.createNode("names", { key: "notes/1", labels: ["Note"], props: { name: "add" } });
      w.createNode("names", { key: "notes/add", labels: ["Note"], props: { name: "other" } });
    });
    const q = (s: string) => runStatement(t.store, { plane: "names", statement: s }).result.rows;
    assert.deepEqual(q("MATCH (n {name: 'add'}) RETURN n.key ORDER BY n.key"), [["notes/1"], ["pkg/src/a.ts.Cart.add"], ["pkg/src/b.ts.add"]]);
    assert.deepEqual(q("MATCH (n) WHERE n.name = 'add' RETURN count(*)"), [[3]]);
    assert.deepEqual(q("MATCH (n:Method) RETURN n.name"), [["add"]]);
  });

  test("a node's labels: any label matches, and SET / REMOVE change them", async () => {
    await ask(ctx, cypher, { plane: "t", query: "MATCH (n {key: 'f/main'}) SET n:Entry:Hot" });
    assert.deepEqual(t.store.getNodeByKey("t", "f/main")!.labels, ["Function", "Entry", "Hot"]);
    assert.match(await ask(ctx, cypher, { plane: "t", query: "MATCH (n:Hot) RETURN labels(n) AS l" }), /\["Function","Entry","Hot"\]/);
    await ask(ctx, cypher, { plane: "t", query: "MATCH (n:Hot) REMOVE n:Hot", confirm: true });
    assert.deepEqual(t.store.getNodeByKey("t", "f/main")!.labels, ["Function", "Entry"]);
    await rejects(ask(ctx, cypher, { plane: "t", query: "MATCH (n {key: 'f/add'}) REMOVE n:Function", confirm: true }), "CYPHER_ERROR");
  });

  test("semantic errors are CYPHER_ERROR before anything runs", async () => {
    await rejects(ask(ctx, cypher, { plane: "t", query: "MATCH (n) RETURN m" }), "CYPHER_ERROR");
    await rejects(ask(ctx, cypher, { plane: "t", query: "MATCH (a)-[:CALLS*1..9]->(b) RETURN b" }), "CYPHER_ERROR");
    await rejects(ask(ctx, cypher, { plane: "t", query: "MATCH (n) RETURN n.key AS a, n.name AS a" }), "CYPHER_ERROR");
    await rejects(ask(ctx, cypher, { plane: "t", query: "MATCH (n) WHERE n.name =~ '(' RETURN n" }), "BAD_REGEX");
    await rejects(ask(ctx, cypher, { plane: "t", query: "RETURN $missing" }), "CYPHER_ERROR");
    await rejects(ask(ctx, cypher, { plane: "nope", query: "MATCH (n) RETURN n" }), "PLANE_NOT_FOUND");
    const note = await ask(ctx, cypher, { plane: "t", query: "MATCH (a {key: 'f/main'})-[:CALLS*]->(b) RETURN count(*) AS n" });
    assert.match(note, /note: a variable-length relationship with no upper bound is read as at most 6 hops/);
  });

  test("through the servers' routed store: reads use the same index paths, writes one transaction", async () => {
    const routed = new RoutedStore(t.store);
    const rctx = ctxOf(routed);
    const text = await ask(rctx, cypher, { plane: "t", query: "CREATE (n:Note {key: 'n/routed', text: 'r'}) RETURN n.key" });
    assert.match(text, /n\/routed/);
    assert.match(await ask(rctx, cypher, { plane: "t", query: "MATCH (n:Note) WHERE n.key = 'n/routed' RETURN count(*) AS c" }), /\n1$/);
    assert.match(await ask(rctx, cypher, { plane: "t", query: "MATCH (f:Function) RETURN f.file AS file, count(*) AS n ORDER BY file LIMIT 1" }), /src\/app.ts \| 1/);
    assert.match(await ask(rctx, cypher, { plane: "t", query: "MATCH (n {name: 'save'}) RETURN n.key" }), /f\/save/);
  });

  test("=~ runs on re2js: a pattern that backtracks exponentially in JS RegExp answers at once", async () => {
    t.store.write((w) => w.createNode("t", { key: "n/evil", labels: ["Note"], props: { text: `${"a".repeat(40)}!` } }));
    const text = await ask(ctx, cypher, { plane: "t", query: "MATCH (n:Note) WHERE n.text =~ '(a+)+$' RETURN count(*) AS n" });
    assert.match(text, /\n0$/);
  });
});

describe("query", () => {
  let t: ReturnType<typeof tempStore>;
  let ctx: ToolContext;
  before(() => {
    t = tempStore();
    ctx = ctxOf(t.store);
    t.store.write((w) => drsgSetup(w, "t"));
  });
  after(() => t.done());

  test("a plan answers what the same cypher statement answers", async () => {
    const plan = {
      steps: [
        { op: "scan", as: "g", labels: ["Function"], props: { name: "helper" } },
        { op: "expand", from: "g", as: "f", types: ["CALLS"], dir: "in" },
        { op: "project", columns: [{ expr: "f.key", as: "caller" }] },
        { op: "order", by: [{ expr: "caller" }] },
      ],
    };
    const viaPlan = await ask(ctx, query, { plane: "t", plan });
    const viaCypher = await ask(ctx, cypher, { plane: "t", query: "MATCH (g:Function {name: 'helper'})<-[:CALLS]-(f) RETURN f.key AS caller ORDER BY caller" });
    assert.equal(viaPlan, viaCypher);
    assert.match(viaPlan, /caller\nf\/add\nf\/getName\nf\/load\nf\/remove$/);
    const agg = await ask(ctx, query, {
      plane: "t",
      plan: {
        steps: [
          { op: "scan", as: "f", labels: ["Function"] },
          { op: "filter", where: "f.file IS NOT NULL" },
          { op: "aggregate", group_by: [{ expr: "f.file", as: "file" }], aggregates: [{ fn: "count", as: "n" }, { fn: "sum", expr: "f.loc", as: "loc" }] },
          { op: "order", by: [{ expr: "n", desc: true }, { expr: "file" }] },
          { op: "limit", n: 2 },
        ],
      },
    });
    assert.deepEqual(agg.split("\n"), ["2 row(s)", "file | n | loc", "src/cart.ts | 2 | 10", "src/store.ts | 2 | 20"]);
    const hops = await ask(ctx, query, { plane: "t", plan: { steps: [{ op: "scan", as: "a", props: { key: "f/main" } }, { op: "expand", from: "a", as: "b", types: ["CALLS"], min: 2, max: 2 }, { op: "project", columns: ["b.key"], distinct: true }] } });
    assert.deepEqual(hops.split("\n").slice(2).sort(), ["f/helper", "f/load", "f/save"]);
  });

  test("a bad plan is PLAN_INVALID naming the step", async () => {
    const bad = async (steps: unknown[], re: RegExp) => {
      const e = await rejects(ask(ctx, query, { plane: "t", plan: { steps } }), "PLAN_INVALID");
      assert.match(e.message, re);
    };
    await bad([{ op: "scan", as: "a" }, { op: "expand", from: "x", as: "b" }], /step 2 \(expand\): from `x` is not bound/);
    await bad([{ op: "scan", as: "a" }, { op: "filter", where: "a.name = " }], /step 2 \(filter\): where "a\.name = ": line 1/);
    await bad([{ op: "scan", as: "a" }, { op: "jump" }], /step 2 \(jump\):.*steps are scan, expand/);
    await bad([{ op: "scan", as: "a", label: "X" }], /step 1 \(scan\)/);
    await bad([{ op: "scan", as: "a" }, { op: "expand", from: "a", as: "b", max: 9 }], /step 2 \(expand\): max/);
    await bad([{ op: "scan", as: "a" }, { op: "project", columns: ["b.key"] }], /step 2 \(project\): .*`b` is not defined/);
    await bad([{ op: "scan", as: "a" }, { op: "aggregate", aggregates: [{ fn: "sum", as: "s" }] }], /step 2 \(aggregate\): sum needs expr/);
  });
});
