// Precision of the ts resolver family against the TypeScript compiler (oracle.ts). For every
// fixture project fixtures/ts-* (and each ts plugin test case with a tsconfig.json), drsg's pipeline builds facts and the compiler checks each bound
// call: any disagreement fails the test (a wrong edge is worse than a missing one). Recall (the
// share of the compiler's in-tree call edges drsg found) is printed and held to a modest floor.
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { test } from "node:test";
import { PACKAGE_ROOT, PLUGINS_DIR } from "../../src/paths.js";
import { factsOfDir } from "../support/facts.js";
import { compare, compareSites } from "./oracle.js";

const FIXTURES = join(PACKAGE_ROOT, "fixtures");
const RECALL_FLOOR = 0.6;

const TS_TESTS = join(PLUGINS_DIR, "ts", "tests");
/** fixtures/ts-*, and the ts plugin's test cases that hold a tsconfig.json (compiled as they are). */
const fixtures = [
  ...(existsSync(FIXTURES)
    ? readdirSync(FIXTURES)
        .filter((d) => d.startsWith("ts-"))
        .sort()
        .map((d) => join(FIXTURES, d))
    : []),
  ...readdirSync(TS_TESTS)
    .sort()
    .filter((d) => existsSync(join(TS_TESTS, d, "tsconfig.json")))
    .map((d) => join(TS_TESTS, d)),
];

test("ts fixture projects exist for the compiler oracle", () => {
  assert.ok(fixtures.length >= 2, "expected fixtures/ts-* projects");
});

let totalEdges = 0;
let totalFound = 0;
for (const dir of fixtures) {
  const name = relative(PACKAGE_ROOT, dir);
  test(`ts oracle: ${name} — every bound call agrees with the TypeScript compiler`, async (t) => {
    const { facts } = await factsOfDir(dir);
    const r = compare(dir, facts);
    totalEdges += r.compilerEdges;
    totalFound += r.found;
    const recall = r.compilerEdges === 0 ? 1 : r.found / r.compilerEdges;
    t.diagnostic(
      `${name}: ${r.checked} bound edges checked, ${r.disagreements.length} disagreements, ${r.unconfirmed.length} unconfirmed; recall ${r.found}/${r.compilerEdges} = ${recall.toFixed(3)}`,
    );
    if (process.env.DRSG_ORACLE_VERBOSE) for (const m of r.missed) t.diagnostic(`missed: ${m}`);
    assert.ok(r.checked > 0, "no bound edges to check");
    assert.deepEqual(r.disagreements, [], `drsg bound edges the compiler disagrees with:\n${r.disagreements.join("\n")}`);
    // The fixtures use only what the compiler can type: here an unconfirmed edge is a failure too.
    assert.deepEqual(r.unconfirmed, [], `drsg bound edges the compiler cannot confirm:\n${r.unconfirmed.join("\n")}`);
    // Every call site on its own (issue 16 §4): each [line, col] drsg keeps, against the compiler's site there.
    const s = compareSites(dir, facts);
    t.diagnostic(`${name}: sites ${s.agreed}/${s.judged} agree (${s.unjudged} unjudged); site recall ${s.found}/${s.compilerSites}`);
    assert.ok(s.judged > 0, "no judged sites");
    assert.deepEqual(s.wrong, [], `drsg sites the compiler binds elsewhere:\n${s.wrong.join("\n")}`);
  });
}

test("ts oracle: recall over all fixture projects", (t) => {
  const recall = totalEdges === 0 ? 0 : totalFound / totalEdges;
  t.diagnostic(`recall ${totalFound}/${totalEdges} = ${recall.toFixed(3)} (floor ${RECALL_FLOOR})`);
  assert.ok(recall >= RECALL_FLOOR, `recall ${recall.toFixed(3)} fell below ${RECALL_FLOOR}`);
});
