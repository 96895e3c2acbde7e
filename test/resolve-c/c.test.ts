// The C resolver beyond the annotated fixtures: output independent of input order, and a
// synthetic tree of many modules whose every call binds through headers.
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { Partial } from "../../src/model/partial.js";
import { PLUGINS_DIR } from "../../src/paths.js";
import { resolveC } from "../../src/resolve/c/index.js";
import { factsOfFiles, listTree } from "../support/facts.js";
import { shuffled } from "../support/random.js";

function partialsOf(r: Awaited<ReturnType<typeof factsOfFiles>>): Partial[] {
  return [...r.partials.values()]
    .map((x) => x.partial)
    .filter((p) => p.path.endsWith(".c") || p.path.endsWith(".h"))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

test("c resolver: facts do not depend on the order of the partials", async () => {
  // Every fixture case in one tree (one extraction), resolved in several orders.
  const tests = join(PLUGINS_DIR, "c", "tests");
  const files: Record<string, Uint8Array> = {};
  for (const c of readdirSync(tests).sort())
    for (const rel of listTree(join(tests, c))) files[`${c}/${rel}`] = readFileSync(join(tests, c, rel));
  const partials = partialsOf(await factsOfFiles(files));
  assert.ok(partials.length > 20);
  const want = JSON.stringify(resolveC({ partials, manifests: new Map(), treeName: "tests" }).facts);
  for (const seed of [1, 2, 3, 4]) {
    const got = JSON.stringify(resolveC({ partials: shuffled(partials, seed), manifests: new Map(), treeName: "tests" }).facts);
    assert.equal(got, want, `order ${seed} changed the facts`);
  }
});

test("c resolver: a wide tree resolves every call through its headers", async () => {
  // 200 modules, each a header and a source; every source includes a shared header and calls the
  // next module's function, a helper of the shared header and a libc function.
  const files: Record<string, string> = {
    "include/common.h": "#include <string.h>\n#define MAX(a, b) ((a) > (b) ? (a) : (b))\nstatic inline int clamp(int x) { return MAX(x, 0); }\n",
  };
  const n = 200;
  for (let i = 0; i < n; i++) {
    const next = (i + 1) % n;
    files[`mod${i}/m${i}.h`] = `#include "common.h"\nint f${i}(int x);\n`;
    files[`mod${i}/m${i}.c`] =
      `#include "m${i}.h"\n#include "../mod${next}/m${next}.h"\n` +
      `int f${i}(int x) { return clamp(x) + (int)strlen("x") + (x > 0 ? f${next}(x - 1) : 0); }\n`;
  }
  const r = await factsOfFiles(files);
  const stats = r.report.plugins.c!.stats;
  assert.equal(stats.unresolved, 0, JSON.stringify(stats.reasons));
  assert.equal(stats.resolved, n * 3 + 1);
  const edges = new Set(r.facts.edges.filter((e) => e.type === "CALLS").map((e) => `${e.src} ${e.dst} ${e.props._resolved_by}`));
  assert.ok(edges.has("mod0/m0.c::f0 mod1/m1.c::f1 include"));
  assert.ok(edges.has("mod7/m7.c::f7 include/common.h::clamp include"));
  assert.ok(edges.has("mod7/m7.c::f7 c:strlen external"));
  assert.ok(edges.has("include/common.h::clamp include/common.h::MAX scope"));
});
