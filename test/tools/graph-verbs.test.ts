// The graph verbs on synthetic planes written straight into a store: caps and true totals under
// the character budget, unresolved sites beside the impact total, the trace visit limit, the
// fathom node budget, views refreshed when the plane moves, and strict input schemas.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { toolInput } from "../../src/cli/tools.js";
import { GraphViews } from "../../src/graph/view.js";
import { PluginSet } from "../../src/plugin/host.js";
import type { Store, Writer } from "../../src/store/types.js";
import { BUDGET } from "../../src/tools/common.js";
import { fathom } from "../../src/tools/fathom.js";
import { getNode } from "../../src/tools/get_node.js";
import { impact } from "../../src/tools/impact.js";
import { search } from "../../src/tools/search.js";
import type { Tool, ToolContext } from "../../src/tools/tool.js";
import { trace } from "../../src/tools/trace.js";
import { traverse } from "../../src/tools/traverse.js";
import { tempStore } from "../store/helpers.js";

const SHA = "0123456789abcdef0123456789abcdef01234567";
const LONG = "x".repeat(240);

function ctxOf(store: Store): ToolContext {
  return { store, transport: "cli", plugins: () => new PluginSet([]), views: new GraphViews(store) };
}

/** Run a tool as the registrar would: parse with its schema, then run. */
async function ask(ctx: ToolContext, tool: Tool, input: Record<string, unknown>): Promise<string> {
  const r = await tool.run(ctx, tool.input.parse(input) as never);
  return typeof r === "string" ? r : JSON.stringify(r, null, 2);
}

function fn(w: Writer, plane: string, key: string, line = 1): number {
  return w.createNode(plane, { key, labels: ["Function"], props: { file: "src/big.ts", line, name: key.split(".").pop()! } });
}

test("impact's call sites are the caller's calls into the symbol, not the symbol's calls back (mutual recursion), on either view", async () => {
  const t = tempStore();
  try {
    t.store.write((w) => {
      w.createPlane("m", { synced_commit: SHA });
      const f = fn(w, "m", "pkg/src/m.f", 1);
      const g = fn(w, "m", "pkg/src/m.g", 10);
      w.createEdge("m", { type: "CALLS", src: g, dst: f, props: { line: 12 } });
      w.createEdge("m", { type: "CALLS", src: f, dst: g, props: { line: 3 } });
    });
    for (const lazy of [false, true]) {
      const ctx = { ...ctxOf(t.store), views: new GraphViews(t.store, { lazy }) };
      const text = await ask(ctx, impact, { plane: "m", name: "pkg/src/m.f", depth: 1 });
      assert.match(text, /^ {2}pkg\/src\/m\.g .*\[CALLS\] {2}call@12$/m, `${lazy ? "a walk of the store" : "a whole view"}: ${text}`);
    }
  } finally {
    t.done();
  }
});

test("impact pages a wide radius alike on either view: the store's first nodes by key are a whole view's, ASCII keys or not", async () => {
  for (const wide of [false, true]) {
    const t = tempStore();
    try {
      t.store.write((w) => {
        w.createPlane("m", { synced_commit: SHA });
        const hub = fn(w, "m", "pkg/src/hub.h", 1);
        // 60 callers, each called by one more: two depths wider than a page, keys out of id order.
        for (let i = 0; i < 60; i++) {
          const mark = wide && i % 7 === 0 ? (i % 2 ? "\u{1D465}" : "\uFF58") : "";
          const c = fn(w, "m", `pkg/src/c${(i * 37) % 60}${mark}.f${i}`, i + 2);
          w.createEdge("m", { type: i % 5 ? "CALLS" : "REFERENCES", src: c, dst: hub, props: { line: i + 2 } });
          w.createEdge("m", { type: "CALLS", src: fn(w, "m", `pkg/src/d${(i * 13) % 60}.g${i}`, 1), dst: c, props: { line: 1 } });
        }
      });
      for (const page of [{}, { offset: 30, limit: 7 }, { offset: 55, limit: 10 }]) {
        const input = { plane: "m", name: "pkg/src/hub.h", depth: 2, ...page };
        const whole = await ask({ ...ctxOf(t.store), views: new GraphViews(t.store) }, impact, input);
        const walked = await ask({ ...ctxOf(t.store), views: new GraphViews(t.store, { lazy: true }) }, impact, input);
        assert.equal(walked, whole, `${wide ? "keys beyond ASCII" : "ASCII keys"}, page ${JSON.stringify(page)}`);
        assert.match(whole, /^depth 2 \(60[,)]/m);
      }
    } finally {
      t.done();
    }
  }
});

describe("graph verbs on a synthetic plane", () => {
  let t: ReturnType<typeof tempStore>;
  let ctx: ToolContext;
  before(() => {
    t = tempStore();
    ctx = ctxOf(t.store);
    t.store.write((w) => {
      w.createPlane("p", { synced_commit: SHA });
      // target ← 6 levels × 50 callers with long keys: the answer must tighten its caps.
      const target = fn(w, "p", "pkg/src/core.target");
      let prev = Array.from({ length: 50 }, () => target);
      for (let d = 1; d <= 6; d++) {
        const level = Array.from({ length: 50 }, (_, i) => fn(w, "p", `pkg/src/l${d}/${LONG}.caller${String(i).padStart(2, "0")}`, i + 1));
        level.forEach((id, i) => {
          w.createEdge("p", { type: "CALLS", src: id, dst: prev[i]!, props: { line: i + 2 } });
        });
        prev = level;
      }
      // Three unbound calls named like the target, one repeated twice.
      const ref = w.createNode("p", { key: "?::src/dyn.ts::svc.target", labels: ["UnresolvedRef"], props: { name: "target", file: "src/dyn.ts" } });
      for (let i = 0; i < 3; i++) {
        const caller = fn(w, "p", `pkg/src/dyn.user${i}`, 10 * i + 1);
        w.createEdge("p", { type: "CALLS", src: caller, dst: ref, props: { line: 10 * i + 2, _reason: "receiver type unknown", ...(i === 0 ? { count: 2 } : {}) } });
      }
      // A call on a builtin object named like it: proven not to reach it.
      const builtin = w.createNode("p", { key: "?::src/x.ts::console.target", labels: ["UnresolvedRef"], props: { name: "target", file: "src/x.ts" } });
      w.createEdge("p", { type: "CALLS", src: fn(w, "p", "pkg/src/x.logger"), dst: builtin, props: { line: 3, _reason: "builtin" } });
      // A call chain longer than trace's visit limit.
      let last = fn(w, "p", "pkg/src/chain.c0");
      for (let i = 1; i <= 20_050; i++) {
        const next = fn(w, "p", `pkg/src/chain.c${i}`);
        w.createEdge("p", { type: "CALLS", src: last, dst: next, props: { line: i } });
        last = next;
      }
      // A star larger than fathom's node budget.
      const hub = fn(w, "p", "pkg/src/star.hub");
      for (let i = 0; i < 5_100; i++) w.createEdge("p", { type: "REFERENCES", src: fn(w, "p", `pkg/src/star.leaf${i}`), dst: hub, props: {} });
      w.createNode("p", { key: "pkg/src/vec.embedded", labels: ["Doc"], props: { embedding: Array.from({ length: 64 }, (_, i) => i / 64), text: "y".repeat(30_000) } });
    });
  });
  after(() => t.done());

  test("impact: true counts per depth, caps tightened to fit the budget, the total, unresolved sites beside it", async () => {
    const text = await ask(ctx, impact, { plane: "p", name: "pkg/src/core.target", depth: 6 });
    assert.ok(text.length <= BUDGET, `answer is ${text.length} characters`);
    const lines = text.split("\n");
    assert.equal(lines[0], `synced: commit ${SHA.slice(0, 12)}`);
    for (let d = 1; d <= 6; d++) assert.ok(lines.includes(`depth ${d} (50):`), `depth ${d} header with its true count`);
    assert.ok(lines.includes("  … and 40 more — offset: 10 reads the next page"), "caps halved from 20 to 10 to fit");
    assert.ok(lines.includes("total affected within depth 6: 300"));
    const u = lines.find((l) => l.startsWith("unresolved call sites"));
    assert.match(u ?? "", /not in the total: 4 \(calls named `target` the parser could not bind; 1 more on builtin objects cannot reach it\)/);
    assert.ok(!lines.some((l) => l.includes("pkg/src/x.logger")), "the builtin call is not a place to look");
    assert.ok(lines.some((l) => l.includes("pkg/src/dyn.user0") && l.includes("call@2 ×2") && l.includes("[receiver type unknown]")));
    assert.ok(lines.some((l) => l.startsWith("note: only recorded call edges")));
    assert.match(await ask(ctx, impact, { plane: "p", name: "pkg/src/core.target", depth: 2 }), /total affected within depth 2: 100\n/);
  });

  test("trace: a path past the visit limit is not claimed; a found path is one hop per line", async () => {
    const far = await ask(ctx, trace, { plane: "p", from: "pkg/src/chain.c0", to: "pkg/src/chain.c20050" });
    assert.match(far, /no recorded call path .* stopping at 20000\)/);
    const near = await ask(ctx, trace, { plane: "p", from: "pkg/src/chain.c0", to: "pkg/src/chain.c3" });
    assert.deepEqual(
      near.split("\n").filter((l) => l.startsWith("  -> ")).map((l) => l.split("  ")[1]),
      ["-> pkg/src/chain.c1", "-> pkg/src/chain.c2", "-> pkg/src/chain.c3"],
    );
    const back = await ask(ctx, trace, { plane: "p", from: "pkg/src/chain.c3", to: "pkg/src/chain.c1" });
    assert.match(back, /^synced: commit 0123456789ab\nno forward path; the call flow runs the other way:\npkg\/src\/chain.c1 /);
  });

  test("fathom: the node budget stops the walk and says so", async () => {
    const text = await ask(ctx, fathom, { plane: "p", name: "pkg/src/star.hub", depth: 2 });
    assert.match(text, /region: 2 hop\(s\) out and in — 5000 nodes, 4999 edges/);
    assert.match(text, /edges: REFERENCES 4999 \(0 out, 4999 in\)/);
    assert.match(text, /stopped by the node budget \(5000 nodes\) at hop 1 of 2/);
    assert.match(text, /hubs \(by edges inside the region\):\n {2}4999 {2}pkg\/src\/star.hub/);
  });

  test("traverse: grouped by hop, capped with the true total", async () => {
    const text = await ask(ctx, traverse, { plane: "p", from_key: "pkg/src/star.hub", direction: "in" });
    assert.match(text, /reached at 1 hop\(s\) in over every edge type: 5100 node\(s\)\nhop 1 \(5100\):/);
    assert.match(text, / {2}… and 5080 more — offset: 20 reads the next page\n/);
    assert.ok(text.length <= BUDGET);
    await assert.rejects(ask(ctx, traverse, { plane: "p", from_key: "pkg/src/star.hub", min: 3, max: 2 }), /min \(3\) is above max \(2\)/);
  });

  test("get_node: vectors and huge values elided, within the budget", async () => {
    const text = await ask(ctx, getNode, { plane: "p", key: "pkg/src/vec.embedded" });
    assert.ok(text.length <= BUDGET);
    const node = JSON.parse(text).node;
    assert.equal(node.properties.embedding, "$vector(64 dims, omitted)");
    assert.match(node.properties.text, /… \(30000 chars\)$/);
  });

  test("views follow the plane: a new caller shows up in the next answer", async () => {
    const before = await ask(ctx, impact, { plane: "p", name: "pkg/src/chain.c0", depth: 1 });
    assert.match(before, /total affected within depth 1: 0/);
    t.store.write((w) => {
      const c0 = w.getNodeByKey("p", "pkg/src/chain.c0")!.id;
      w.createEdge("p", { type: "CALLS", src: fn(w, "p", "pkg/src/late.caller"), dst: c0, props: { line: 7 } });
    });
    const after = await ask(ctx, impact, { plane: "p", name: "pkg/src/chain.c0", depth: 1 });
    assert.match(after, /depth 1 \(1\):\n {2}pkg\/src\/late.caller {2}Function {2}src\/big.ts:1 {2}\[CALLS\]/);
  });

  test("schemas are strict: bounds, unknown fields, types", () => {
    const bad: [Tool, Record<string, unknown>][] = [
      [impact, { plane: "p", name: "x", depth: 7 }],
      [impact, { plane: "p", name: "x", depth: 0 }],
      [impact, { plane: "p", name: "x", depth: 2.5 }],
      [impact, { plane: "p", name: "x", across: "everywhere" }],
      [impact, { plane: "p", name: "x", radius: 2 }],
      [impact, { plane: "p", name: "x".repeat(1001) }],
      [impact, { plane: "p", name: "" }],
      [trace, { plane: "p", from: "a" }],
      [fathom, { plane: "p", name: "x", depth: "2" }],
      [search, { plane: "p", query: "x", k: 51 }],
      [search, { plane: "p", query: "" }],
      [traverse, { plane: "p", from_key: "x", max: 11 }],
      [traverse, { plane: "p", from_key: "x", direction: "sideways" }],
      [traverse, { plane: "p", from_key: "x", edge_types: Array.from({ length: 33 }, () => "CALLS") }],
      [getNode, { plane: "p", id: -1 }],
    ];
    for (const [tool, input] of bad) assert.equal(tool.input.safeParse(input).success, false, `${tool.name} ${JSON.stringify(input).slice(0, 80)}`);
    assert.equal(impact.input.parse({ plane: "p", name: "x" }).depth, 3);
    assert.equal(fathom.input.parse({ plane: "p", name: "x" }).depth, 2);
  });

  test("CLI positionals fill the verbs' text fields, even when they look like numbers", () => {
    assert.deepEqual(toolInput(trace, ["404", "Cart.add", "--plane", "p"]).input, { from: "404", to: "Cart.add", plane: "p" });
    assert.deepEqual(toolInput(search, ["404"]).input, { query: "404" });
    assert.deepEqual(toolInput(impact, ["x", "--depth", "2"]).input, { name: "x", depth: 2 });
  });

  test("search refuses an empty query and says it is keyword search", async () => {
    await assert.rejects(ask(ctx, search, { plane: "p", query: "  " }), /query is empty/);
    assert.match(await ask(ctx, search, { plane: "p", query: "hub" }), /keyword search .* no embeddings/);
  });
});
