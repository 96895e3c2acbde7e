// context lists a hub's edges by reading links, sorting them by their other end's key (then the
// line as text, then edge id) and reading whole only the page it shows: several edges from one
// node (their lines decide), an agent's edges apart, pages anywhere in the list, and the same
// listing as of an earlier commit (the history's rows read through the as-of store).
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { GraphViews } from "../../src/graph/view.js";
import { PluginSet } from "../../src/plugin/host.js";
import { openStore } from "../../src/store/store.js";
import type { Store } from "../../src/store/types.js";
import { context } from "../../src/tools/context.js";
import { runTool } from "../../src/tools/run.js";
import type { ToolContext } from "../../src/tools/tool.js";
import { tempDir } from "../store/helpers.js";

const SHA = "0123456789abcdef0123456789abcdef01234567";

function ctxOf(store: Store): ToolContext {
  return { store, transport: "cli", plugins: () => new PluginSet([]), views: new GraphViews(store, { lazy: true }) };
}

async function ask(ctx: ToolContext, input: Record<string, unknown>): Promise<string> {
  const r = await context.run(ctx, context.input.parse({ plane: "p", name: "pkg.hub", ...input }) as never);
  return String(r);
}

/** The lines of one section of an answer (without the two-space indent). */
function section(text: string, title: string): string[] {
  const lines = text.split("\n");
  const at = lines.findIndex((l) => l.startsWith(`${title} (`));
  assert.ok(at >= 0, `no section ${title} in:\n${text}`);
  const out: string[] = [];
  for (const l of lines.slice(at + 1)) {
    if (!l.startsWith("  ")) break;
    out.push(l.slice(2));
  }
  return out;
}

describe("context listings", () => {
  const { dir, cleanup } = tempDir();
  let store: Store;
  before(() => {
    store = openStore(join(dir, "g.drsg"), { create: true });
    store.write((w) => {
      w.createPlane("p", { synced_commit: SHA });
      const hub = w.createNode("p", { key: "pkg.hub", labels: ["Function"], props: { file: "hub.py", line: 1 } });
      const node = (key: string) => w.createNode("p", { key, labels: ["Function"], props: { file: "c.py", line: 3 } });
      // Created out of key order, so id order and key order differ.
      const c = node("pkg.c");
      const a = node("pkg.a");
      const b = node("pkg.b");
      const ab = node("pkg.a.b");
      // Several REFERENCES from one node: their lines sort as text ("10" < "100" < "9"), a missing line first.
      for (const line of [9, 100, 10, undefined]) w.createEdge("p", { type: "REFERENCES", src: b, dst: hub, props: line === undefined ? {} : { line } });
      w.createEdge("p", { type: "REFERENCES", src: a, dst: hub, props: { line: 5 } });
      w.createEdge("p", { type: "REFERENCES", src: ab, dst: hub, props: { line: 1 } });
      for (const [src, line] of [
        [c, 7],
        [a, 2],
        [ab, 4],
      ] as const)
        w.createEdge("p", { type: "CALLS", src, dst: hub, props: { line } });
      // Two calls from one node on one line: edge id order.
      w.createEdge("p", { type: "CALLS", src: b, dst: hub, props: { line: 8, count: 2, sites: [[8, 1], [8, 9]] } });
      w.createEdge("p", { type: "CALLS", src: b, dst: hub, props: { line: 8 } });
      w.createEdge("p", { type: "CALLS", src: c, dst: hub, props: { line: 11, _written_by: "agent" } });
      w.createEdge("p", { type: "CALLS", src: a, dst: hub, props: { line: 12, _written_by: "agent", _generated_by: "python@1.0.0+00000000" } });
    });
  });
  after(() => {
    store.close();
    cleanup();
  });

  test("several edges from one node are ordered by their lines as text, then by id; an agent's callers apart", async () => {
    const text = await ask(ctxOf(store), {});
    assert.deepEqual(section(text, "REFERENCES ←"), [
      "pkg.a  Function  c.py:3  @5",
      "pkg.a.b  Function  c.py:3  @1",
      "pkg.b  Function  c.py:3",
      "pkg.b  Function  c.py:3  @10",
      "pkg.b  Function  c.py:3  @100",
      "pkg.b  Function  c.py:3  @9",
    ]);
    assert.deepEqual(section(text, "callers"), [
      "pkg.a  Function  c.py:3  call@12",
      "pkg.a  Function  c.py:3  call@2",
      "pkg.a.b  Function  c.py:3  call@4",
      "pkg.b  Function  c.py:3  call@8 ×2",
      "pkg.b  Function  c.py:3  call@8",
      "pkg.c  Function  c.py:3  call@7",
    ]);
    assert.deepEqual(section(text, "callers an agent wrote (not proved by the parser)"), ["pkg.c  Function  c.py:3  call@11  [agent-written]"]);
  });

  test("a page anywhere in a list reads the same lines", async () => {
    const ctx = ctxOf(store);
    // Pages ending before the list's last other end: the store chooses the first ends by key
    // (Reader.nodeKeysFirst), several edges from one end among them; the rest are the whole sort.
    for (const title of ["REFERENCES ←", "callers"]) {
      const all = section(await ask(ctx, {}), title);
      for (const [offset, limit] of [
        [0, 1],
        [0, 3],
        [1, 2],
        [2, 2],
        [3, 3],
        [5, 1],
      ] as const) {
        const page = section(await ask(ctx, { offset, limit }), title);
        assert.deepEqual(page.slice(0, limit), all.slice(offset, offset + limit), `${title}: offset ${offset}, limit ${limit}`);
      }
    }
    assert.match(await ask(ctx, { offset: 6 }), /REFERENCES ← \(6, all before offset 6: offset: 0 lists them\)/);
  });

  test("as of an earlier commit: the listing then", async () => {
    const ctx = ctxOf(store);
    const seq = store.currentSeq();
    const then = await ask(ctx, {});
    store.write((w) => {
      const hub = w.getNodeByKey("p", "pkg.hub")!.id;
      const a = w.getNodeByKey("p", "pkg.a")!.id;
      w.createEdge("p", { type: "REFERENCES", src: a, dst: hub, props: { line: 6 } });
      for (const e of w.edgesIn("p", hub, "CALLS")) if (e.props.line === 8) w.deleteEdge("p", e.id);
    });
    const now = await ask(ctx, {});
    assert.notEqual(now, then);
    assert.deepEqual(section(now, "REFERENCES ←").slice(0, 2), ["pkg.a  Function  c.py:3  @5", "pkg.a  Function  c.py:3  @6"]);
    const past = await runTool(context, ctx, { plane: "p", name: "pkg.hub", as_of: seq });
    assert.equal(past.isError, false, past.text);
    assert.equal(past.text.split("\n").slice(1).join("\n"), then, "the answer as of the commit, under its as-of line");
  });
});
