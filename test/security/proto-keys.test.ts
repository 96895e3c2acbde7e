// Names an agent chooses become keys of maps inside drsg: labels, property names, edge types,
// node keys. Named `constructor`, `toString`, `hasOwnProperty`, `valueOf` or `__proto__`, they
// once made describe_plane fail with INTERNAL for the whole plane. Written here through
// write_nodes / write_edges on a digested plane, then every read tool is asked about the plane
// and about those nodes: no answer is INTERNAL, and describe_plane counts them as written.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { TOOLS } from "../../src/tools/index.js";
import type { Tool } from "../../src/tools/tool.js";
import { writeEdges, writeNodes } from "../../src/tools/write.js";
import { makeRepo } from "../git/fixture.js";
import { callTool, cleanupAll, closePool, openSync, temp, tempStore, toolCtx } from "../sync/helpers.js";

const NAMES = ["constructor", "toString", "hasOwnProperty", "valueOf", "__proto__", "__defineGetter__", "isPrototypeOf"];

describe("prototype names as labels, properties, edge types and keys", () => {
  after(async () => {
    await closePool();
    cleanupAll();
  });

  test("every read tool answers", { timeout: 120_000 }, async () => {
    const dir = temp("drsg-proto-");
    makeRepo(dir, [{ files: { "package.json": JSON.stringify({ name: "svc" }), "src/a.ts": "export function a() { return b(); }\nexport function b() { return 1; }\n" }, message: "base" }]);
    const { store } = tempStore();
    const sync = await openSync(store, dir);
    await sync.syncToHead();
    const plane = store.listPlanes().find((p) => !/_(git|ops)$/.test(p.name))!.name;
    const ctx = toolCtx(store);
    const props = Object.fromEntries(NAMES.map((n) => [n, `v-${n}`]));
    // JSON.parse keeps `__proto__` as an own member, as a client's request would carry it.
    const withProto = JSON.parse(`{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "toString": 1}`) as Record<string, unknown>;
    const w = await callTool(ctx, writeNodes, {
      plane,
      nodes: [
        ...NAMES.map((n) => ({ key: n, labels: [n], properties: props })),
        { key: "note.proto", labels: ["Note"], properties: withProto },
      ],
    });
    assert.equal(w.isError, false, w.text);
    const e = await callTool(ctx, writeEdges, {
      plane,
      edges: [
        ...NAMES.map((n) => ({ src_key: n, dst_key: "svc/src/a.a", type: n, properties: props })),
        { src_key: "svc/src/a.b", dst_key: "constructor", type: "CALLS", properties: withProto },
      ],
    });
    assert.equal(e.isError, false, e.text);
    assert.equal(({} as { polluted?: unknown }).polluted, undefined, "Object.prototype untouched");

    const dp = await callTool(ctx, TOOLS.find((t) => t.name === "describe_plane")!, { plane });
    assert.equal(dp.isError, false, dp.text);
    const desc = JSON.parse(dp.text) as { labels: Record<string, { count: number; properties: Record<string, { count: number }> }>; edge_types: Record<string, { count: number }> };
    for (const n of NAMES) {
      assert.equal(Object.getOwnPropertyDescriptor(desc.labels, n)?.value?.count, 1, `label ${n}`);
      assert.equal(Object.getOwnPropertyDescriptor(desc.edge_types, n)?.value?.count, 1, `edge type ${n}`);
      // `_` properties are reserved (stripped from agent writes), so `__proto__` never becomes one.
      if (!n.startsWith("_")) assert.equal(Object.getOwnPropertyDescriptor(Object.getOwnPropertyDescriptor(desc.labels, n)!.value.properties, n)?.value?.count, 1, `property ${n}`);
    }

    // Every read tool, on the plane and on each prototype-named node.
    const args = (t: Tool, name: string): Record<string, unknown>[] => {
      switch (t.name) {
        case "list_planes":
        case "mounts":
          return [{}];
        case "describe_plane":
        case "history":
        case "attachments":
        case "wire":
          return [{ plane }];
        case "trace":
          return [{ plane, from: name, to: "svc/src/a.a" }, { plane, from: "svc/src/a.b", to: name }];
        case "get_node":
          return [{ plane, key: name }];
        case "traverse":
          return [{ plane, from_key: name, direction: "both", max: 2 }];
        case "grep":
          return [{ plane, pattern: name }];
        case "search":
          return [{ plane, query: name }];
        case "recall":
          return [{ plane, name }];
        default:
          return [{ plane, name }];
      }
    };
    const internal: string[] = [];
    let calls = 0;
    for (const t of TOOLS.filter((x) => x.readOnly)) {
      for (const name of [...NAMES, "note.proto"]) {
        for (const input of args(t, name)) {
          const r = await callTool(ctx, t, input);
          calls++;
          if (/INTERNAL/.test(r.text) || /is not a function|Cannot read propert|of undefined/.test(r.text)) internal.push(`${t.name} ${JSON.stringify(input)}: ${r.text.slice(0, 200)}`);
        }
      }
    }
    assert.deepEqual(internal, []);
    assert.ok(calls > 100, `${calls} calls`);
    await sync.close();
    store.close();
  });
});
