// Reading the past on a real repository folded commit by commit: a symbol a fold deleted is
// found as of the commit before (by sequence and by RFC 3339 time) on every verb that takes
// as_of; older than the retained window is AS_OF_OUT_OF_RANGE naming DRSG_RETAIN_COMMITS; and
// the change feed over any range equals the difference of the two exports.
import assert from "node:assert/strict";
import { join } from "node:path";
import { basename } from "node:path";
import { after, before, describe, test } from "node:test";
import { openStore } from "../../src/store/store.js";
import type { Store } from "../../src/store/types.js";
import { canonical } from "../../src/sync/apply.js";
import { exportPlane } from "../../src/sync/export.js";
import type { PlaneSync } from "../../src/sync/fold.js";
import { changes } from "../../src/tools/changes.js";
import { context } from "../../src/tools/context.js";
import { describe as describeTool } from "../../src/tools/describe.js";
import { describePlane } from "../../src/tools/describe_plane.js";
import { getNode } from "../../src/tools/get_node.js";
import { impact } from "../../src/tools/impact.js";
import { listPlanes } from "../../src/tools/list_planes.js";
import type { Tool } from "../../src/tools/tool.js";
import { traverse } from "../../src/tools/traverse.js";
import { runTool } from "../../src/mcp/server.js";
import { makeRepo } from "../git/fixture.js";
import { cleanupAll, closePool, openSync, temp, toolCtx } from "../sync/helpers.js";

const CART = `import { price } from "./price";

/** A cart. */
export class Cart {
  items: string[] = [];
  add(item: string): number {
    this.items.push(item);
    return price(item);
  }
}

export function total(c: Cart): number {
  return c.items.length;
}
`;
const PRICE = "export function price(item: string): number {\n  return item.length * 2;\n}\n";

let dir: string;
let store: Store;
let sync: PlaneSync;
let plane: string;
/** The database commit after each fold: built, total deleted + extra added, price changed. */
const seq: number[] = [];
const sha: string[] = [];

async function call(tool: Tool, input: Record<string, unknown>) {
  const r = await runTool(tool, toolCtx(store), tool.input.parse(input));
  return r;
}

before(async () => {
  dir = temp("drsg-asof-");
  sha.push(...makeRepo(dir, [{ files: { "package.json": '{"name":"shop","version":"1.0.0"}', "src/cart.ts": CART, "src/price.ts": PRICE }, message: "base" }]));
  store = openStore(join(temp("drsg-asof-db-"), "graph.drsg"), { create: true, retainCommits: 0 });
  plane = basename(dir);
  sync = await openSync(store, dir);
  assert.equal((await sync.syncToHead()).kind, "build");
  seq.push(store.currentSeq());
  sha.push(
    ...makeRepo(dir, [
      {
        files: { "src/cart.ts": CART.replace(/\nexport function total[\s\S]*$/, "\n"), "src/extra.ts": "export function extra(): number {\n  return price2();\n}\nfunction price2(): number {\n  return 1;\n}\n" },
        message: "drop total, add extra",
      },
    ]),
  );
  await new Promise((r) => setTimeout(r, 5));
  assert.equal((await sync.syncToHead()).kind, "fold");
  seq.push(store.currentSeq());
  sha.push(...makeRepo(dir, [{ files: { "src/price.ts": PRICE.replace("* 2", "* 3").replace("item: string", "item: string, n = 1") }, message: "price" }]));
  await new Promise((r) => setTimeout(r, 5));
  assert.equal((await sync.syncToHead()).kind, "fold");
  seq.push(store.currentSeq());
});
after(async () => {
  await sync.close();
  store.close();
  await closePool();
  cleanupAll();
});

describe("as_of on the verbs", () => {
  const TOTAL = () => "shop/src/cart.total";

  test("a symbol the fold deleted is found as of the commit before, and missed now", async () => {
    const key = TOTAL();
    assert.ok(store.asOf(seq[0]!).getNodeByKey(plane, key), `${key} exists in the first build`);
    const now = await call(getNode, { plane, key });
    assert.equal((now.data as { node: unknown }).node, null);
    const then = await call(getNode, { plane, key, as_of: seq[0] });
    assert.equal(then.isError, false, then.text);
    const data = then.data as { node: { key: string } | null; as_of: { seq: number; at: string } };
    assert.equal(data.node?.key, key);
    assert.equal(data.as_of.seq, seq[0]);
    getNode.output!.parse(then.data);

    const ctxNow = await call(context, { plane, name: "total" });
    assert.match(ctxNow.text, /no symbol matches `total`/);
    const ctxThen = await call(context, { plane, name: "total", as_of: seq[0] });
    assert.equal(ctxThen.isError, false, ctxThen.text);
    assert.match(ctxThen.text, new RegExp(`^as of commit ${seq[0]} \\(\\d{4}-\\d\\d-\\d\\dT[^)]+\\)\\n`));
    assert.match(ctxThen.text, new RegExp(`\\nsynced: commit ${sha[0]!.slice(0, 12)}\\n`), "the plane as it was: its commit then");
    assert.match(ctxThen.text, /cart\.total/);

    const desc = await call(describeTool, { plane, name: "total", as_of: seq[0] });
    assert.match(desc.text, /cart\.total/);
    const imp = await call(impact, { plane, name: "price", as_of: seq[0] });
    assert.equal(imp.isError, false, imp.text);
    assert.match(imp.text, new RegExp(`^as of commit ${seq[0]} `));
    const tr = await call(traverse, { plane, from_key: "Cart.add", as_of: seq[0] });
    assert.equal(tr.isError, false, tr.text);
    assert.match(tr.text, /price/);
  });

  test("an RFC 3339 time names the newest commit at or before it", async () => {
    const at = store.commits().find((c) => c.seq === seq[0])!.at;
    const r = await call(getNode, { plane, key: TOTAL(), as_of: new Date(at).toISOString() });
    assert.equal((r.data as { as_of: { seq: number } }).as_of.seq, seq[0]);
    assert.equal((r.data as { node: { key: string } }).node.key, TOTAL());
    const bad = await call(getNode, { plane, key: TOTAL(), as_of: "yesterday" });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /\[BAD_INPUT\].*RFC 3339/);
  });

  test("list_planes and describe_plane as of a commit show that commit's plane", async () => {
    const lp = await call(listPlanes, { as_of: seq[0] });
    const d = lp.data as { commit: { seq: number }; planes: { name: string; synced_commit: string | null; nodes: number }[] };
    assert.equal(d.commit.seq, seq[0]);
    assert.equal(d.planes.find((p) => p.name === plane)?.synced_commit, sha[0]);
    listPlanes.output!.parse(lp.data);
    const now = await call(listPlanes, {});
    assert.equal((now.data as { commit: { seq: number } }).commit.seq, store.currentSeq());
    assert.match(now.text, new RegExp(`database commit ${store.currentSeq()} `));
    const dp = await call(describePlane, { plane, as_of: seq[0] });
    const count = [...exportPlane(store.asOf(seq[0]!), plane)].filter((l) => l.startsWith('{"kind":"node"')).length;
    assert.equal((dp.data as { node_count: number }).node_count, count);
    describePlane.output!.parse(dp.data);
  });

  test("older than the retained window: AS_OF_OUT_OF_RANGE saying what is kept and naming DRSG_RETAIN_COMMITS", async () => {
    const small = openStore(join(temp("drsg-asof-small-"), "graph.drsg"), { create: true, retainCommits: 2 });
    try {
      for (let i = 0; i < 4; i++) small.write((w) => (i === 0 ? w.createPlane("p") : w.createNode("p", { key: `k${i}`, labels: ["X"], props: {} })));
      const r = await runTool(getNode, toolCtx(small), getNode.input.parse({ plane: "p", key: "k1", as_of: 1 }));
      assert.equal(r.isError, true);
      assert.match(r.text, /\[AS_OF_OUT_OF_RANGE\]/);
      assert.match(r.text, /commits 3\.\.4 are readable/);
      assert.match(r.text, /DRSG_RETAIN_COMMITS/);
      const ok = await runTool(getNode, toolCtx(small), getNode.input.parse({ plane: "p", key: "k2", as_of: 3 }));
      assert.equal((ok.data as { node: { key: string } }).node.key, "k2");
      const future = await runTool(getNode, toolCtx(small), getNode.input.parse({ plane: "p", key: "k3", as_of: 99 }));
      assert.deepEqual((future.data as { as_of: unknown }).as_of, { seq: 4, at: new Date(small.commits().at(-1)!.at).toISOString(), asked: 99 });
      const text = await runTool(context, toolCtx(small), context.input.parse({ plane: "p", name: "k3", as_of: 99 }));
      assert.match(text.text, /^as of commit 4 .*commit 99 was asked/);
    } finally {
      small.close();
    }
  });
});

describe("changes", () => {
  /** Export lines as a multiset: line → count. */
  function counts(lines: Iterable<string>): Map<string, number> {
    const m = new Map<string, number>();
    for (const l of lines) m.set(l, (m.get(l) ?? 0) + 1);
    return m;
  }
  function nodeLine(key: string, labels: string[], props: Record<string, unknown>): string {
    return `{"kind":"node","key":${JSON.stringify(key)},"labels":${JSON.stringify(labels)},"props":${canonical(props as never)}}`;
  }
  function edgeLine(type: string, src: string, dst: string, props: Record<string, unknown>): string {
    return `{"kind":"edge","type":${JSON.stringify(type)},"src":${JSON.stringify(src)},"dst":${JSON.stringify(dst)},"props":${canonical(props as never)}}`;
  }

  /** The net change of export lines the feed describes for (a, b]: +1 per version after, −1 per version before. */
  async function feedDelta(a: number, b: number): Promise<Map<string, number>> {
    const m = new Map<string, number>();
    const bump = (l: string, d: number) => m.set(l, (m.get(l) ?? 0) + d);
    let offset = 0;
    for (;;) {
      const r = await call(changes, { plane, since: a, until: b, detail: true, limit: 1000, offset });
      assert.equal(r.isError, false, r.text);
      changes.output!.parse(r.data);
      const d = r.data as {
        commits: {
          nodes: { key: string; before?: { labels: string[]; props: Record<string, unknown> }; after?: { labels: string[]; props: Record<string, unknown> } }[];
          edges: { type: string; src: string; dst: string; before?: Record<string, unknown>; after?: Record<string, unknown> }[];
        }[];
        next_offset: number | null;
      };
      for (const c of d.commits) {
        for (const n of c.nodes) {
          if (n.before) bump(nodeLine(n.key, n.before.labels, n.before.props), -1);
          if (n.after) bump(nodeLine(n.key, n.after.labels, n.after.props), 1);
        }
        for (const e of c.edges) {
          if (e.before) bump(edgeLine(e.type, e.src, e.dst, e.before), -1);
          if (e.after) bump(edgeLine(e.type, e.src, e.dst, e.after), 1);
        }
      }
      if (d.next_offset === null) break;
      offset = d.next_offset;
    }
    for (const [k, v] of m) if (v === 0) m.delete(k);
    return m;
  }

  function exportDelta(a: number, b: number): Map<string, number> {
    const before = counts(a === 0 ? [] : exportPlane(store.asOf(a), plane));
    const after = counts(exportPlane(store.asOf(b), plane));
    const m = new Map<string, number>();
    for (const [l, n] of after) m.set(l, n - (before.get(l) ?? 0));
    for (const [l, n] of before) if (!after.has(l)) m.set(l, -n);
    for (const [k, v] of m) if (v === 0) m.delete(k);
    return m;
  }

  test("over every range of the folds, the feed equals the difference of the two exports", async () => {
    const points = [0, ...seq];
    for (let i = 0; i < points.length; i++)
      for (let j = i + 1; j < points.length; j++) {
        const feed = await feedDelta(points[i]!, points[j]!);
        const diff = exportDelta(points[i]!, points[j]!);
        assert.ok(diff.size > 0, "each range changes something");
        assert.deepEqual(new Map([...feed].sort()), new Map([...diff].sort()), `changes (${points[i]}, ${points[j]}]`);
      }
  });

  test("grouped per commit with its time and the git commit folded; the deletion and the patch named", async () => {
    const r = await call(changes, { plane, since: seq[0]! });
    const d = r.data as {
      commits: { seq: number; synced_commit?: string; nodes: { kind: string; key: string; changed?: string[] }[] }[];
      latest: number;
    };
    assert.deepEqual(
      d.commits.map((c) => c.synced_commit),
      d.commits.map((c) => (c.seq <= seq[1]! ? sha[1] : sha[2])),
    );
    const all = d.commits.flatMap((c) => c.nodes);
    assert.ok(all.some((n) => n.kind === "deleted" && n.key === "shop/src/cart.total"), r.text);
    assert.ok(all.some((n) => n.kind === "created" && n.key === "shop/src/extra.extra"), r.text);
    assert.ok(all.some((n) => n.kind === "patched" && n.key === "shop/src/price.price" && n.changed?.includes("signature")), r.text);
    assert.equal(d.latest, store.currentSeq());
    assert.match(r.text, new RegExp(`folded git ${sha[1]!.slice(0, 12)}`));
    assert.match(r.text, /node - \S+cart\.total/);
    // Paged: a small limit lists that many and says where to go on.
    const page = await call(changes, { plane, since: 0, limit: 3 });
    const pd = page.data as { total: number; next_offset: number | null; commits: { nodes: unknown[]; edges: unknown[] }[] };
    assert.equal(pd.commits.reduce((n, c) => n + c.nodes.length + c.edges.length, 0), 3);
    assert.equal(pd.next_offset, 3);
    assert.ok(pd.total > 3);
    assert.match(page.text, /call again with offset 3/);
    // Nothing new since the latest.
    const none = await call(changes, { plane, since: store.currentSeq() });
    assert.deepEqual((none.data as { commits: unknown[] }).commits, []);
  });
});
