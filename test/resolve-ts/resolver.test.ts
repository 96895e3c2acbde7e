// Unit tests of the ts resolver family beside the annotated plugin cases: facts do not depend on
// the order of partials, a 4-hop call chain can be walked, and the small readers (type text,
// receiver chains, specifier resolution, module keys) behave at their edges.
import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import type { Facts } from "../../src/model/facts.js";
import { PLUGINS_DIR } from "../../src/paths.js";
import { Project } from "../../src/resolve/ts/project.js";
import { normaliseObjectPath, parsePath, parseType } from "../../src/resolve/ts/syntax.js";
import { resolveTs } from "../../src/resolve/ts/index.js";
import { factsOfDir } from "../support/facts.js";
import { shuffled } from "../support/random.js";

const CASES = join(PLUGINS_DIR, "ts", "tests");

test("ts resolver: facts do not depend on the order of partials", async () => {
  for (const c of ["barrels", "commonjs", "monorepo", "receivers"]) {
    const dir = join(CASES, c);
    const { partials } = await factsOfDir(dir);
    const list = [...partials.values()].map((x) => x.partial);
    const manifests = new Map<string, string>();
    const input = (ps: typeof list) => ({ partials: ps, manifests, treeName: c });
    const base = JSON.stringify(resolveTs(input(list)).facts);
    for (const seed of [1, 7, 42]) assert.equal(JSON.stringify(resolveTs(input(shuffled(list, seed))).facts), base, `${c}, seed ${seed}`);
  }
});

/** Shortest CALLS path between two keys (breadth first). */
function callPath(facts: Facts, from: string, to: string): string[] | undefined {
  const out = new Map<string, string[]>();
  for (const e of facts.edges) if (e.type === "CALLS") out.set(e.src, [...(out.get(e.src) ?? []), e.dst]);
  const prev = new Map<string, string>([[from, ""]]);
  const queue = [from];
  while (queue.length > 0) {
    const k = queue.shift()!;
    if (k === to) {
      const path = [k];
      for (let p = prev.get(k)!; p !== ""; p = prev.get(p)!) path.unshift(p);
      return path;
    }
    for (const n of out.get(k) ?? []) {
      if (prev.has(n)) continue;
      prev.set(n, k);
      queue.push(n);
    }
  }
  return undefined;
}

test("ts resolver: a call chain through a barrel, a typed field and inheritance is walkable", async () => {
  const { facts } = await factsOfDir(join(CASES, "trace-chain"));
  const path = callPath(facts, "trace-chain/src/main.main", "trace-chain/src/db.query");
  assert.deepEqual(path, [
    "trace-chain/src/main.main",
    "trace-chain/src/controllers/user.controller.UserController.handle",
    "trace-chain/src/services/user.service.UserService.find",
    "trace-chain/src/services/base.service.BaseService.load",
    "trace-chain/src/db.query",
  ]);
});

test("ts syntax: type annotations", () => {
  assert.deepEqual(parseType("Repo<User> | null"), { k: "named", name: "Repo", args: ["User"] });
  assert.deepEqual(parseType("User[]"), { k: "builtin" });
  assert.deepEqual(parseType("(a: string) => void"), { k: "unknown" });
  assert.deepEqual(parseType("A & B"), { k: "unknown" });
  assert.equal(parseType("A | B").k, "union");
  assert.deepEqual(parseType("ns.Repo"), { k: "named", name: "ns.Repo", args: [] });
  assert.deepEqual(parseType("Map<string, Array<() => void>>"), { k: "named", name: "Map", args: ["string", "Array<() => void>"] });
});

test("ts syntax: receiver chains", () => {
  assert.deepEqual(parsePath("this.svc"), { head: { k: "this" }, steps: [{ k: "prop", name: "svc" }] });
  assert.deepEqual(parsePath("a?.b!.c"), {
    head: { k: "ident", name: "a" },
    steps: [
      { k: "prop", name: "b" },
      { k: "prop", name: "c" },
    ],
  });
  assert.deepEqual(parsePath('make(")", `x`).run<T>()'), {
    head: { k: "ident", name: "make" },
    steps: [{ k: "call", args: 2 }, { k: "prop", name: "run" }, { k: "call", args: 0, typeArgs: true }],
  });
  assert.deepEqual(parsePath("new ns.C(1)"), {
    head: { k: "new", ctor: { head: { k: "ident", name: "ns" }, steps: [{ k: "prop", name: "C" }] } },
    steps: [],
  });
  assert.deepEqual(parsePath("(x as Repo)"), { head: { k: "cast", type: "Repo" }, steps: [] });
  assert.equal(parsePath("handlers[k]"), undefined);
  assert.deepEqual(normaliseObjectPath("View.prototype"), { path: "View", proto: true });
  assert.deepEqual(normaliseObjectPath("module.exports"), { path: "", proto: false });
});

test("ts project: module keys and specifiers", () => {
  const files = [
    "packages/ui/src/index.ts",
    "packages/ui/src/button.tsx",
    "packages/app/src/main.ts",
    "packages/app/src/util.ts",
    "packages/app/src/util/index.ts",
    "loose.js",
    "loose.d.ts",
    "web/src/a.jsx",
  ];
  const manifests = new Map([
    ["packages/ui/package.json", JSON.stringify({ name: "@acme/ui", main: "dist/index.js" })],
    ["packages/app/package.json", JSON.stringify({ name: "app", dependencies: { lodash: "*" } })],
    ["web/jsconfig.json", '{ "compilerOptions": { "paths": { "@/*": ["./src/*"], }, }, // comment\n}'],
  ]);
  const p = new Project(files, manifests, "tree");
  assert.equal(p.moduleKey("packages/ui/src/index.ts"), "@acme/ui/src");
  assert.equal(p.moduleKey("packages/ui/src/button.tsx"), "@acme/ui/src/button");
  assert.equal(p.moduleKey("loose.js"), "tree/loose");
  assert.equal(p.moduleKey("loose.d.ts"), "tree/loose.d.ts");
  assert.equal(p.moduleKey("packages/app/src/util.ts"), "app/src/util");
  assert.equal(p.moduleKey("packages/app/src/util/index.ts"), "app/src/util/index.ts");
  assert.deepEqual(p.resolve("packages/app/src/main.ts", "./util.js"), { kind: "file", path: "packages/app/src/util.ts" });
  assert.deepEqual(p.resolve("packages/app/src/main.ts", "@acme/ui"), { kind: "file", path: "packages/ui/src/index.ts" });
  assert.deepEqual(p.resolve("packages/app/src/main.ts", "@acme/ui/src/button"), { kind: "file", path: "packages/ui/src/button.tsx" });
  assert.deepEqual(p.resolve("packages/app/src/main.ts", "lodash/fp"), { kind: "external", key: "npm:lodash/fp" });
  assert.deepEqual(p.resolve("packages/app/src/main.ts", "fs"), { kind: "external", key: "node:fs" });
  assert.deepEqual(p.resolve("packages/app/src/main.ts", "./missing"), { kind: "unresolved" });
  assert.deepEqual(p.resolve("packages/app/src/main.ts", "./data.json"), { kind: "unresolved" });
  assert.deepEqual(p.resolve("web/src/a.jsx", "@/a"), { kind: "file", path: "web/src/a.jsx" });
  assert.deepEqual(p.resolve("web/src/a.jsx", "@/nope"), { kind: "unresolved" });
  assert.deepEqual(p.resolve("packages/app/src/main.ts", "packages/ui"), { kind: "unresolved" });
});

test("ts project: `..` reaching the tree root resolves to the root's index file", () => {
  const p = new Project(["index.ts", "client/types.test.ts", "a/b/c.ts"], new Map(), "tree");
  assert.deepEqual(p.resolve("client/types.test.ts", ".."), { kind: "file", path: "index.ts" });
  assert.deepEqual(p.resolve("a/b/c.ts", "../.."), { kind: "file", path: "index.ts" });
  assert.deepEqual(p.resolve("index.ts", "."), { kind: "file", path: "index.ts" });
  assert.deepEqual(p.resolve("a/b/c.ts", "../../.."), { kind: "unresolved" });
  const bare = new Project(["client/x.ts", "ts.ts"], new Map(), "tree");
  assert.deepEqual(bare.resolve("client/x.ts", ".."), { kind: "unresolved" });
});

test("ts resolver: a fold's emit set yields exactly the full run's facts of those files", async () => {
  const dir = join(CASES, "commonjs");
  const { partials } = await factsOfDir(dir);
  const list = [...partials.values()].map((x) => x.partial);
  const manifests = new Map<string, string>([["package.json", JSON.stringify({ name: "mini-express" })]]);
  const full = resolveTs({ partials: list, manifests, treeName: "commonjs" }).facts;
  const emit = new Set(["lib/router.js", "lib/response.js"]);
  const part = resolveTs({ partials: list, manifests, treeName: "commonjs", emit }).facts;
  const fileOf = new Map(full.nodes.map((n) => [n.key, n.props.file]));
  const mine = (key: string) => emit.has(String(fileOf.get(key)));
  const owned = full.nodes.filter((n) => !n.labels.includes("External") && !n.labels.includes("UnresolvedRef") && mine(n.key));
  assert.deepEqual(
    part.nodes.filter((n) => !n.labels.includes("External") && !n.labels.includes("UnresolvedRef")),
    owned,
  );
  assert.deepEqual(
    part.edges,
    full.edges.filter((e) => mine(e.src)),
  );
});
