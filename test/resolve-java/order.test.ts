// The java resolver's output depends only on the set of partials: every fixture tree of the
// plugin, resolved from its partials in path order, reversed and shuffled, yields the same facts.
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { Partial } from "../../src/model/partial.js";
import { PLUGINS_DIR } from "../../src/paths.js";
import { resolveJava } from "../../src/resolve/java/index.js";
import { factsOfDir } from "../support/facts.js";

function shuffled<T>(xs: T[], seed: number): T[] {
  const out = [...xs];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

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
