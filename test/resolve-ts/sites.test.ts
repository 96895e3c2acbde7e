// Every call site kept (issue 16 §1): one edge per (caller, callee) carries the line and column
// of each site, sorted and de-duplicated, in every language family; the verbs show them capped
// and counted.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { EdgeFact, Facts } from "../../src/model/facts.js";
import { callSites } from "../../src/tools/graph_lines.js";
import { factsOfFiles } from "../support/facts.js";

function edge(facts: Facts, type: string, src: string, dst: string): EdgeFact {
  const e = facts.edges.find((x) => x.type === type && x.src === src && x.dst === dst);
  assert.ok(e, `no ${type} ${src} → ${dst}: ${facts.edges.map((x) => `${x.type} ${x.src}→${x.dst}`).join(", ")}`);
  return e;
}

test("sites: a TypeScript caller's repeated calls are one edge with every site", async () => {
  const { facts } = await factsOfFiles({
    "a.ts": [
      "export function f(): void {}",
      "export function g(): void {",
      "  f(); const s = 'ü'; f();",
      "  f();",
      "  new C(); new C();",
      "  h(); h();",
      "}",
      "export class C {}",
    ].join("\n"),
  });
  const calls = edge(facts, "CALLS", "fixture/a.g", "fixture/a.f");
  assert.deepEqual(calls.props.sites, [
    [3, 3],
    [3, 23],
    [4, 3],
  ]);
  assert.equal(calls.props.count, 3);
  assert.equal(calls.props.line, 3);
  assert.equal("col" in calls.props, false);
  const inst = edge(facts, "INSTANTIATES", "fixture/a.g", "fixture/a.C");
  assert.deepEqual(inst.props.sites, [
    [5, 7],
    [5, 16],
  ]);
  // Unresolved sites keep theirs too.
  const unres = facts.edges.find((x) => x.src === "fixture/a.g" && x.dst.startsWith("?::"));
  assert.deepEqual(unres?.props.sites, [
    [6, 3],
    [6, 8],
  ]);
});

test("sites: a single site has no count; Python and Go edges carry sites", async () => {
  const { facts } = await factsOfFiles({
    "m.py": "def f():\n    pass\n\ndef g():\n    f()\n    f()\n\ndef h():\n    f()\n",
    "go.mod": "module example.com/m\n",
    "main.go": "package main\n\nfunc f() {}\n\nfunc main() {\n\tf()\n\tf()\n}\n",
  });
  const py = edge(facts, "CALLS", "m.g", "m.f");
  assert.deepEqual(py.props.sites, [
    [5, 5],
    [6, 5],
  ]);
  const single = edge(facts, "CALLS", "m.h", "m.f");
  assert.deepEqual(single.props.sites, [[9, 5]]);
  assert.equal(single.props.count, undefined);
  const go = edge(facts, "CALLS", "example.com/m.main", "example.com/m.f");
  assert.deepEqual(go.props.sites, [
    [6, 2],
    [7, 2],
  ]);
});

test("sites: rendered lines are capped and counted", () => {
  assert.equal(callSites(237, undefined), "call@237");
  assert.equal(callSites(237, 3, [237, 241, 260]), "call@237,241,260");
  assert.equal(callSites(3, 3, [3, 4]), "call@3,4 ×3");
  assert.equal(callSites(1, 12, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]), "call@1,2,3,4,5,6,7,8 (+4 more)");
  assert.equal(callSites(undefined, undefined), "");
});
