// snippet on a real checkout with symbols written straight into the store: a symbol's declared
// extent, path:line and path:a-b ranges, how to read on, misses, the budget, and refusals of
// every path that leaves the tree — as an argument or as a node's `file` property.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { isDrsgError } from "../../src/model/errors.js";
import { BUDGET } from "../../src/tools/common.js";
import { parseRange, snippet } from "../../src/tools/snippet.js";
import type { ToolContext } from "../../src/tools/tool.js";
import { git } from "../git/fixture.js";
import { type GrepFixture, grepFixture } from "./text-fixture.js";

async function ask(ctx: ToolContext, args: Record<string, unknown>): Promise<string> {
  return (await snippet.run(ctx, snippet.input.parse({ plane: "p", ...args }))) as string;
}

async function code(ctx: ToolContext, args: Record<string, unknown>): Promise<string> {
  try {
    await ask(ctx, args);
  } catch (e) {
    assert.ok(isDrsgError(e), String(e));
    return e.code;
  }
  assert.fail(`expected an error for ${JSON.stringify(args)}`);
}

describe("snippet", () => {
  let fx: GrepFixture;
  let head = "";
  before(() => {
    fx = grepFixture();
    writeFileSync(join(fx.root, "src", "wide.txt"), Array.from({ length: 400 }, (_, i) => `${i} ${"q".repeat(200)}`).join("\n"));
    // Committed, and the plane moved to that commit: snippet reads the commit by default.
    git(fx.root, ["add", "src/wide.txt"]);
    git(fx.root, ["commit", "-q", "-m", "wide"]);
    head = git(fx.root, ["rev-parse", "HEAD"]).slice(0, 12);
    fx.store.write((w) => w.setPlaneProps("p", { synced_commit: git(fx.root, ["rev-parse", "HEAD"]) }));
  });
  after(() => fx.done());

  test("a symbol's declared extent, the symbol it is, and what to ask next", async () => {
    assert.equal(
      await ask(fx.ctx, { name: "Box.open" }),
      [
        `synced: commit ${head}`,
        "src/lib.ts:7-10 (4 lines of 15)",
        "in app/src/lib.Box.open",
        "    7 |   open(): void {",
        "    8 |     needle(2);",
        "    9 |     needle(3);",
        "   10 |   }",
        "context app/src/lib.Box.open — callers, callees and every other edge",
      ].join("\n"),
    );
  });

  test("lines caps a symbol's extent and says how to read on", async () => {
    const text = await ask(fx.ctx, { name: "app/src/lib.Box", lines: 2 });
    assert.match(text, /^src\/lib\.ts:6-7 \(2 lines of 15\)$/m);
    assert.match(text, /^… continues to line 11; snippet src\/lib\.ts:8-11 reads on$/m);
  });

  test("path:line reads 40 lines (or to the end) and names the symbol the range opens in", async () => {
    const text = await ask(fx.ctx, { name: "src/lib.ts:8" });
    assert.match(text, /^src\/lib\.ts:8-15 \(8 lines of 15\)$/m);
    assert.match(text, /^in app\/src\/lib\.Box\.open$/m);
    assert.doesNotMatch(text, /continues/);
    assert.match(text, /^context app\/src\/lib\.Box\.open — /m);
    const short = await ask(fx.ctx, { name: "src/lib.ts:1", lines: 3 });
    assert.match(short, /^… continues to line 15; snippet src\/lib\.ts:4-15 reads on$/m);
  });

  test("path:a-b reads exactly that range; past the cap it says how to read on", async () => {
    const text = await ask(fx.ctx, { name: "src/lib.ts:2-3" });
    assert.deepEqual(text.split("\n").slice(1), [
      "src/lib.ts:2-3 (2 lines of 15)",
      "in app/src/lib.alpha",
      "    2 | export function alpha(): number {",
      "    3 |   return needle(1);",
      "context app/src/lib.alpha — callers, callees and every other edge",
    ]);
    const capped = await ask(fx.ctx, { name: "src/lib.ts:2-14", lines: 3 });
    assert.match(capped, /^src\/lib\.ts:2-4 \(3 lines of 15\)$/m);
    assert.match(capped, /^… continues to line 14; snippet src\/lib\.ts:5-14 reads on$/m);
    // An end past the file's end stops at the last line.
    assert.match(await ask(fx.ctx, { name: "src/lib.ts:14-99" }), /^src\/lib\.ts:14-15 \(2 lines of 15\)$/m);
  });

  test("a range outside any symbol has no `in` line; a file path alone reads from line 1", async () => {
    const text = await ask(fx.ctx, { name: "docs/notes.md:1" });
    assert.equal(text, [`synced: commit ${head}`, "docs/notes.md:1-1 (1 line of 1)", "    1 | a needle in the docs"].join("\n"));
    assert.match(await ask(fx.ctx, { name: "src/util.py" }), /^src\/util\.py:1-2 \(2 lines of 2\)\nin app\/src\/util\.helper$/m);
  });

  test("bad ranges, directories and binaries are refused with a code", async () => {
    assert.equal(await code(fx.ctx, { name: "src/lib.ts:16" }), "BAD_INPUT");
    assert.equal(await code(fx.ctx, { name: "src/lib.ts:0" }), "BAD_INPUT");
    assert.equal(await code(fx.ctx, { name: "src/lib.ts:5-3" }), "BAD_INPUT");
    assert.equal(await code(fx.ctx, { name: "src/lib.ts:99999999999999999999" }), "BAD_INPUT");
    assert.equal(await code(fx.ctx, { name: "src/deep:1" }), "BAD_INPUT");
    assert.equal(await code(fx.ctx, { name: "blob.bin:1", worktree: true }), "BAD_INPUT");
    assert.equal(await code(fx.ctx, { name: "blob.bin:1" }), "PATH_NOT_FOUND", "untracked: not in the commit");
    assert.equal(await code(fx.ctx, { name: "src/missing.ts:1" }), "PATH_NOT_FOUND");
    assert.equal(await code(fx.ctx, { name: "x", plane: "nope" }), "PLANE_NOT_FOUND");
    assert.throws(() => snippet.input.parse({ plane: "p", name: "x", lines: 401 }));
    assert.throws(() => snippet.input.parse({ plane: "p", name: "x", extra: true }));
  });

  test("a miss names the key prefixes and says grep finds text", async () => {
    const text = await ask(fx.ctx, { name: "nothingLikeThis" });
    assert.match(text, /^no symbol matches `nothingLikeThis` in plane 'p'$/m);
    assert.match(text, /^key prefixes in this plane: /m);
    assert.match(text, /grep finds text and names the symbol each hit falls in; snippet path:line or path:start-end reads a range/);
  });

  test("ambiguous names return candidates", async () => {
    assert.match(await ask(fx.ctx, { name: "app/src" }), /no symbol is named `app\/src`; \d+ key\(s\) contain it — call again with an exact key:/);
  });

  test("a node that stores its source, and one with neither file nor source", async () => {
    assert.equal(
      await ask(fx.ctx, { name: "app/stored" }),
      [
        `synced: commit ${head}`,
        "app/stored (stored source, 2 lines)",
        "    1 | line one",
        "    2 | line two",
        "context app/stored — callers, callees and every other edge",
      ].join("\n"),
    );
    assert.match(await ask(fx.ctx, { name: "app/nowhere" }), /app\/nowhere records no file and no source — describe app\/nowhere shows its properties/);
  });

  test("the answer stays within the budget and says where to read on", async () => {
    const text = await ask(fx.ctx, { name: "src/wide.txt:1-400" });
    assert.ok(text.length <= BUDGET, `${text.length}`);
    const m = /^src\/wide\.txt:1-(\d+) \(\d+ lines of 400\)$/m.exec(text);
    assert.ok(m && Number(m[1]) < 400);
    assert.match(text, new RegExp(`^… continues to line 400; snippet src/wide\\.txt:${Number(m![1]) + 1}-400 reads on$`, "m"));
  });

  test("every path leaving the tree is PATH_OUTSIDE_TREE: arguments", async () => {
    for (const name of ["../x", "/etc/passwd", "src/../../x", "../x:1", "/etc/passwd:1", "src/../../x:1-2", "link-out.txt:1", "linkdir/more.ts:1", "link-out.txt", "~/x:1"])
      assert.equal(await code(fx.ctx, { name, worktree: true }), "PATH_OUTSIDE_TREE", name);
    // A symlinked file that stays inside the tree is read.
    assert.match(await ask(fx.ctx, { name: "link-in.py:1", worktree: true }), /^src\/util\.py:1-2 /m);
    // The links were made after the commit: the commit does not hold them.
    assert.equal(await code(fx.ctx, { name: "link-out.txt:1" }), "PATH_NOT_FOUND");
  });

  test("every path leaving the tree is PATH_OUTSIDE_TREE: node file properties", async () => {
    for (const name of ["app/evil", "app/abs", "app/linked"]) assert.equal(await code(fx.ctx, { name, worktree: true }), "PATH_OUTSIDE_TREE", name);
    for (const name of ["app/evil", "app/abs"]) assert.equal(await code(fx.ctx, { name }), "PATH_OUTSIDE_TREE", name);
  });

  test("over HTTP a plane rooted outside the attached tree is not read", async () => {
    const http: ToolContext = { ...fx.ctx, transport: "http" };
    assert.equal(await code(http, { name: "src/lib.ts:1" }), "NO_TREE");
    assert.equal(await code({ ...http, attached: fx.outside }, { name: "src/lib.ts:1" }), "PATH_OUTSIDE_TREE");
    assert.match(await ask({ ...http, attached: fx.root }, { name: "src/lib.ts:1" }), /^src\/lib\.ts:1-15 /m);
  });
});

test("parseRange: only path-like names are ranges", () => {
  assert.deepEqual(parseRange("src/a.ts:12"), { path: "src/a.ts", a: 12, b: undefined });
  assert.deepEqual(parseRange("a.py:3-9"), { path: "a.py", a: 3, b: 9 });
  assert.equal(parseRange("pkg::mod:12"), undefined);
  assert.equal(parseRange("name:12"), undefined);
  assert.equal(parseRange("src/a.ts"), undefined);
});
