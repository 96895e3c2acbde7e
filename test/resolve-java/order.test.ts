// The java resolver's output depends only on the set of partials: every fixture tree of the
// plugin, resolved from its partials in path order, reversed and shuffled, yields the same facts.
// And a file's refs and locals shape only facts whose source is in that file (what incremental
// folds rely on): with every other partial stripped of refs and locals, the file's own facts and
// every node key are those of the full resolution.
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { Partial } from "../../src/model/partial.js";
import { PLUGINS_DIR } from "../../src/paths.js";
import { resolveJava } from "../../src/resolve/java/index.js";
import { factsOfDir } from "../support/facts.js";
import { shuffled } from "../support/random.js";

const tests = join(PLUGINS_DIR, "java", "tests");
const cases = existsSync(tests) ? readdirSync(tests).sort() : [];

test("java resolver: facts do not depend on the order of partials", async () => {
  const all: Partial[] = [];
  for (const c of cases) {
    const { partials } = await factsOfDir(join(tests, c));
    for (const { partial } of partials.values()) all.push({ ...partial, path: `${c}/${partial.path}` });
  }
  assert.ok(all.length > 0, "no java fixtures found");
  const run = (ps: Partial[]) => JSON.stringify(resolveJava({ partials: ps, manifests: new Map(), treeName: "t" }));
  const base = run([...all].sort((a, b) => (a.path < b.path ? -1 : 1)));
  assert.equal(run([...all].reverse()), base);
  for (const seed of [1, 7, 42]) assert.equal(run(shuffled(all, seed)), base);
});

test("java resolver: a file's refs and locals only shape that file's facts", async () => {
  const run = (ps: Partial[]) => resolveJava({ partials: ps, manifests: new Map(), treeName: "t" }).facts;
  const strip = (p: Partial): Partial => ({ ...p, refs: [], locals: p.locals.filter((l) => l.scope < 0) });
  for (const c of cases) {
    const { partials } = await factsOfDir(join(tests, c));
    const all = [...partials.values()].map((x) => x.partial).sort((a, b) => (a.path < b.path ? -1 : 1));
    const full = run(all);
    const fileOf = new Map(full.nodes.map((n) => [n.key, n.props.file]));
    for (const p of all) {
      const part = run(all.map((q) => (q.path === p.path ? q : strip(q))));
      assert.deepEqual(
        part.nodes.filter((n) => !n.labels.includes("External") && !n.labels.includes("UnresolvedRef")).map((n) => n.key),
        full.nodes.filter((n) => !n.labels.includes("External") && !n.labels.includes("UnresolvedRef")).map((n) => n.key),
        `${c}: node keys change when files other than ${p.path} lose their refs`,
      );
      const mine = (es: typeof full.edges) => JSON.stringify(es.filter((e) => fileOf.get(e.src) === p.path));
      assert.equal(mine(part.edges), mine(full.edges), `${c}: facts of ${p.path} depend on other files' refs`);
    }
  }
});
