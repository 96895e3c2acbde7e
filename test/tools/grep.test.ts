// grep over a real git repository built for the test (tracked, untracked and ignored files, a
// binary, an oversized file, symlinks in and out), with symbols written straight into a plane whose
// synced_root is that checkout: matching, scoping, context layout, ignore rules, caps and budgets.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { GraphViews } from "../../src/graph/view.js";
import { isDrsgError } from "../../src/model/errors.js";
import { PluginSet } from "../../src/plugin/host.js";
import { BUDGET } from "../../src/tools/common.js";
import { grep } from "../../src/tools/grep.js";
import type { ToolContext } from "../../src/tools/tool.js";
import { git, makeRepo } from "../git/fixture.js";
import { tempStore } from "../store/helpers.js";
import { type GrepFixture, ask, grepFixture } from "./text-fixture.js";

async function code(ctx: ToolContext, args: Record<string, unknown>): Promise<string> {
  try {
    await ask(ctx, args);
  } catch (e) {
    assert.ok(isDrsgError(e), String(e));
    return e.code;
  }
  assert.fail("expected an error");
}

function hitPaths(text: string): string[] {
  return [...new Set(text.split("\n").flatMap((l) => /^([^\s:]+):\d+: /.exec(l)?.[1] ?? []))];
}

describe("grep", () => {
  let fx: GrepFixture;
  before(() => {
    fx = grepFixture();
  });
  after(() => fx.done());

  test("reads tracked and untracked files, never ignored, vendored, dot-dir, binary, oversized or linked-out ones", async () => {
    const text = await ask(fx.ctx, { pattern: "needle" });
    assert.deepEqual(hitPaths(text).sort(), [
      "crlf.txt",
      "docs/notes.md",
      "link-in.py",
      "src/fresh.ts",
      "src/lib.ts",
      "src/util.py",
      "tracked.log",
    ]);
    assert.match(text, new RegExp(`^synced: commit ${fx.head.slice(0, 12)}$`, "m"));
    assert.match(text, /not searched: 1 binary file\(s\), 1 file\(s\) over 2 MiB/);
  });

  test("all_files adds ignored files, still not vendored, dot-dir or linked-out ones", async () => {
    const paths = hitPaths(await ask(fx.ctx, { pattern: "needle", all_files: true }));
    for (const p of ["debug.log", "secret.env", "build-out/gen.ts"]) assert.ok(paths.includes(p), p);
    for (const p of paths) assert.doesNotMatch(p, /node_modules|\.hidden|link-out|linkdir/);
  });

  test("each hit names the innermost symbol it falls in, only when it changes", async () => {
    // The commit (the default): its lines are the ones the symbols were parsed from.
    const text = await ask(fx.ctx, { pattern: "needle(", path: "src/lib.ts", worktree: false });
    assert.equal(
      text.split("\n").slice(1).join("\n"),
      [
        "src/lib.ts:3:   return needle(1);",
        "    in app/src/lib.alpha",
        "src/lib.ts:8:     needle(2);",
        "    in app/src/lib.Box.open",
        "src/lib.ts:9:     needle(3);",
        "src/lib.ts:15: export const last = needle(4); // Needle",
        "    in app/src/lib",
        "4 match(es) for \"needle(\" in 1 file(s) of 1 searched (searched only `src/lib.ts`; drop `path` to widen)",
        "context app/src/lib.alpha expands any symbol named above; snippet app/src/lib.alpha shows its source",
      ].join("\n"),
    );
  });

  test("context lines use -, groups are separated by --, overlaps are not repeated", async () => {
    const text = await ask(fx.ctx, { pattern: "needle(", path: "src/lib.ts", context: 1, worktree: false });
    assert.deepEqual(text.split("\n").slice(1, -2), [
      "src/lib.ts-2- export function alpha(): number {",
      "src/lib.ts:3:   return needle(1);",
      "    in app/src/lib.alpha",
      "src/lib.ts-4- }",
      "--",
      "src/lib.ts-7-   open(): void {",
      "src/lib.ts:8:     needle(2);",
      "    in app/src/lib.Box.open",
      "src/lib.ts:9:     needle(3);",
      "src/lib.ts-10-   }",
      "--",
      "src/lib.ts-14- const farther = 2;",
      "src/lib.ts:15: export const last = needle(4); // Needle",
      "    in app/src/lib",
    ]);
  });

  test("ignore_case, regex, and regex with ignore_case", async () => {
    assert.deepEqual(hitPaths(await ask(fx.ctx, { pattern: "NEEDLE" })), ["src/deep/inner.ts"]);
    const ci = hitPaths(await ask(fx.ctx, { pattern: "NEEDLE", ignore_case: true, path: "src" }));
    assert.deepEqual(ci, ["src/deep/inner.ts", "src/fresh.ts", "src/lib.ts", "src/util.py"]);
    const re = await ask(fx.ctx, { pattern: "needle\\([2-4]\\)", regex: true });
    assert.match(re, /^3 match\(es\) for \/needle\\\(\[2-4\]\\\)\/ in 1 file/m);
    const reCi = await ask(fx.ctx, { pattern: "^export const \\w+ = '?needle", regex: true, ignore_case: true });
    assert.deepEqual(hitPaths(reCi), ["src/deep/inner.ts", "src/lib.ts"]);
    // $ matches at the end of a CRLF line: the \r is not part of the line.
    assert.deepEqual(hitPaths(await ask(fx.ctx, { pattern: "needle$", regex: true })), ["crlf.txt"]);
  });

  test("a regex with no literal to prefilter on still finds its lines", async () => {
    const text = await ask(fx.ctx, { pattern: "^\\s+\\w+\\(\\d\\);$", regex: true });
    assert.deepEqual(
      text.split("\n").filter((l) => /^\S+:\d+: /.test(l)),
      ["src/lib.ts:8:     needle(2);", "src/lib.ts:9:     needle(3);"],
    );
  });

  test("path scopes to a directory, a file or an extension", async () => {
    assert.deepEqual(hitPaths(await ask(fx.ctx, { pattern: "needle", path: "src" })), ["src/fresh.ts", "src/lib.ts", "src/util.py"]);
    assert.deepEqual(hitPaths(await ask(fx.ctx, { pattern: "needle", path: "src/" })), ["src/fresh.ts", "src/lib.ts", "src/util.py"]);
    assert.deepEqual(hitPaths(await ask(fx.ctx, { pattern: "needle", path: ".py" })), ["link-in.py", "src/util.py"]);
    assert.deepEqual(hitPaths(await ask(fx.ctx, { pattern: "needle", path: "*.md" })), ["docs/notes.md"]);
    assert.deepEqual(hitPaths(await ask(fx.ctx, { pattern: "NEEDLE", path: "src/deep/inner.ts" })), ["src/deep/inner.ts"]);
    // An explicitly named dot-dir is searched; an ignored file only with all_files.
    assert.deepEqual(hitPaths(await ask(fx.ctx, { pattern: "needle", path: ".hidden" })), [".hidden/conf.ts"]);
    const ignored = await ask(fx.ctx, { pattern: "needle", path: "debug.log" });
    assert.match(ignored, /^no matches for "needle" in 0 file\(s\) \(searched only `debug.log`; drop `path` to widen\)$/m);
    assert.match(ignored, /`debug.log` is excluded by \.gitignore — all_files: true searches it/);
    assert.deepEqual(hitPaths(await ask(fx.ctx, { pattern: "needle", path: "debug.log", all_files: true })), ["debug.log"]);
    assert.deepEqual(hitPaths(await ask(fx.ctx, { pattern: "needle", path: "build-out", all_files: true })), ["build-out/gen.ts"]);
    assert.equal(await code(fx.ctx, { pattern: "needle", path: "nope" }), "PATH_NOT_FOUND");
    assert.equal(await code(fx.ctx, { pattern: "needle", path: ".git" }), "BAD_INPUT");
  });

  test("no matches names the scope, ignored paths, and the regex hint for a literal that looks like one", async () => {
    const none = await ask(fx.ctx, { pattern: "zzz", path: "src" });
    assert.match(none, /^no matches for "zzz" in 4 file\(s\) \(searched only `src`; drop `path` to widen\)$/m);
    const hint = await ask(fx.ctx, { pattern: "needle\\(\\d\\)" });
    assert.match(hint, /looks like a regular expression — pass regex: true/);
    assert.match(hint, /path\(s\) excluded by \.gitignore were not searched — all_files: true includes them/);
    assert.doesNotMatch(await ask(fx.ctx, { pattern: "needle\\(\\d\\)", regex: true }), /looks like a regular expression/);
  });

  test("refusals: empty pattern, invalid regex, no such plane", async () => {
    assert.equal(await code(fx.ctx, { pattern: "" }), "BAD_INPUT");
    assert.equal(await code(fx.ctx, { pattern: "(", regex: true }), "BAD_REGEX");
    assert.equal(await code(fx.ctx, { pattern: "a{2,1}", regex: true }), "BAD_REGEX");
    // Backreferences and lookahead are not RE2: refused, never run on a backtracking engine.
    assert.equal(await code(fx.ctx, { pattern: "(a)\\1", regex: true }), "BAD_REGEX");
    assert.equal(await code(fx.ctx, { pattern: "a(?=b)", regex: true }), "BAD_REGEX");
    assert.equal(await code(fx.ctx, { pattern: "x", plane: "nope" }), "PLANE_NOT_FOUND");
    assert.throws(() => grep.input.parse({ pattern: "x", plane: "p", bogus: 1 }));
    assert.throws(() => grep.input.parse({ pattern: "x", plane: "p", context: 11 }));
    assert.throws(() => grep.input.parse({ pattern: "x", plane: "p", max_results: 201 }));
  });

  test("a pathological regex runs in linear time", async () => {
    writeFileSync(join(fx.root, "src", "evil.txt"), `${"a".repeat(50_000)}!\n`);
    try {
      const t0 = performance.now();
      const text = await ask(fx.ctx, { pattern: "(a+)+$", regex: true, path: "src/evil.txt" });
      assert.ok(performance.now() - t0 < 5000, "catastrophic backtracking");
      assert.match(text, /^no matches/m);
    } finally {
      rmSync(join(fx.root, "src", "evil.txt"));
    }
  });
});

describe("grep caps, clipping and the budget", () => {
  let fx: GrepFixture;
  before(() => {
    fx = grepFixture();
    const many = Array.from({ length: 300 }, (_, i) => `hit ${i} ${"y".repeat(i % 7)}`).join("\n");
    writeFileSync(join(fx.root, "src", "many.txt"), many);
    const long = `${"z".repeat(1000)}TARGET${"w".repeat(1000)}\n`;
    writeFileSync(join(fx.root, "src", "long.txt"), long);
    const wide = Array.from({ length: 400 }, (_, i) => `wide ${i} ${"q".repeat(280)}`).join("\n");
    writeFileSync(join(fx.root, "src", "wide.txt"), wide);
  });
  after(() => fx.done());

  test("capped at max_results (default 50) with the true count", async () => {
    const text = await ask(fx.ctx, { pattern: "hit ", path: "src/many.txt" });
    assert.equal(text.split("\n").filter((l) => l.startsWith("src/many.txt:")).length, 50);
    assert.match(text, /^300 match\(es\) for "hit " in 1 file\(s\)/m);
    assert.match(text, /… showing the first 50: capped at 50 — offset: 50 reads the next page; or narrow with path, or raise max_results \(at most 200\)/);
    const more = await ask(fx.ctx, { pattern: "hit ", path: "src/many.txt", max_results: 200 });
    assert.equal(more.split("\n").filter((l) => l.startsWith("src/many.txt:")).length, 200);
    assert.match(more, /capped at 200 — offset: 200 reads the next page; or narrow with path$/m);
  });

  test("the true count spans files past the cap", async () => {
    const text = await ask(fx.ctx, { pattern: "needle", max_results: 1 });
    assert.equal(text.split("\n").filter((l) => /^\S+:\d+: /.test(l)).length, 1);
    assert.match(text, /^\d+ match\(es\) for "needle" in 7 file\(s\)/m);
  });

  test("a long line is clipped around its match", async () => {
    const text = await ask(fx.ctx, { pattern: "TARGET", path: "src/long.txt" });
    const line = text.split("\n").find((l) => l.startsWith("src/long.txt:1: "))!;
    assert.ok(line.includes("TARGET"));
    assert.ok(line.length <= "src/long.txt:1: ".length + 302, `${line.length}`);
    assert.ok(line.includes("…z") && line.endsWith("…"));
  });

  test("the answer stays within the budget by showing fewer hits, whole lines only", async () => {
    const text = await ask(fx.ctx, { pattern: "wide", path: "src/wide.txt", max_results: 200, context: 3 });
    assert.ok(text.length <= BUDGET, `${text.length}`);
    assert.match(text, /^400 match\(es\)/m);
    assert.match(text, /… showing the first \d+: cut to stay within 24000 characters/);
    for (const l of text.split("\n").filter((x) => x.startsWith("src/wide.txt"))) assert.match(l, /^src\/wide\.txt[:-]\d+[:-] wide \d+ q{280}$/);
  });
});

describe("grep in a tree that is a subdirectory of its repository", () => {
  test("ignore rules above the tree apply; tracked files inside ignored directories are read", async () => {
    const repo = mkdtempSync(join(tmpdir(), "drsg-grep-sub-"));
    const t = tempStore();
    try {
      makeRepo(repo, [{ message: "base", files: { ".gitignore": "*.gen\ngen-out/\n", "sub/a.txt": "word\n", "other.txt": "word\n" } }]);
      writeFileSync(join(repo, "sub", "b.gen"), "word\n");
      writeFileSync(join(repo, "sub", "tracked.gen"), "word\n");
      mkdirSync(join(repo, "sub", "gen-out"));
      writeFileSync(join(repo, "sub", "gen-out", "kept.txt"), "word\n");
      writeFileSync(join(repo, "sub", "gen-out", "dropped.txt"), "word\n");
      git(repo, ["add", "-f", "sub/tracked.gen", "sub/gen-out/kept.txt"]);
      git(repo, ["commit", "-q", "-m", "force"]);
      t.store.write((w) => w.createPlane("sub", { synced_root: join(repo, "sub") }));
      const ctx: ToolContext = { store: t.store, transport: "cli", plugins: () => new PluginSet([]), views: new GraphViews(t.store) };
      const ask2 = async (args: Record<string, unknown>) => (await grep.run(ctx, grep.input.parse({ plane: "sub", ...args }))) as string;
      assert.deepEqual(hitPaths(await ask2({ pattern: "word" })), ["a.txt", "gen-out/kept.txt", "tracked.gen"]);
      assert.deepEqual(hitPaths(await ask2({ pattern: "word", path: "gen-out" })), ["gen-out/kept.txt"]);
      assert.deepEqual(hitPaths(await ask2({ pattern: "word", path: "gen-out", all_files: true })), ["gen-out/dropped.txt", "gen-out/kept.txt"]);
      assert.deepEqual(hitPaths(await ask2({ pattern: "word", all_files: true })), ["a.txt", "b.gen", "gen-out/dropped.txt", "gen-out/kept.txt", "tracked.gen"]);
    } finally {
      t.done();
      rmSync(repo, { recursive: true, force: true });
    }
  });
});

describe("grep outside git, and without a plane", () => {
  test("a plain directory honours its .gitignore files", async () => {
    const root = mkdtempSync(join(tmpdir(), "drsg-grep-plain-"));
    const t = tempStore();
    try {
      mkdirSync(join(root, "sub"));
      writeFileSync(join(root, ".gitignore"), "*.tmp\n");
      writeFileSync(join(root, "sub", ".gitignore"), "local.txt\n");
      writeFileSync(join(root, "a.txt"), "word\n");
      writeFileSync(join(root, "b.tmp"), "word\n");
      writeFileSync(join(root, "sub", "local.txt"), "word\n");
      writeFileSync(join(root, "sub", "kept.txt"), "word\n");
      t.store.write((w) => w.createPlane("plain", { synced_root: root }));
      const ctx: ToolContext = { store: t.store, transport: "cli", plugins: () => new PluginSet([]), views: new GraphViews(t.store) };
      const text = (await grep.run(ctx, grep.input.parse({ pattern: "word", plane: "plain" }))) as string;
      assert.deepEqual(hitPaths(text), ["a.txt", "sub/kept.txt"]);
      assert.match(text, /^synced: working tree \(no commit\)$/m);
      // No plane: the attached tree, with the plane rooted there naming symbols.
      const attached = { ...ctx, attached: (await import("node:fs")).realpathSync(root) };
      assert.deepEqual(hitPaths((await grep.run(attached, grep.input.parse({ pattern: "word" }))) as string), ["a.txt", "sub/kept.txt"]);
      await assert.rejects(
        async () => grep.run(ctx, grep.input.parse({ pattern: "word" })),
        (e) => isDrsgError(e, "NO_TREE"),
      );
    } finally {
      t.done();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

test("nodeSites: nodes with a string file and a numeric line, UnresolvedRefs left out, current and as of a commit", () => {
  const t = tempStore();
  try {
    t.store.write((w) => {
      w.createPlane("s");
      w.createNode("s", { key: "a", labels: ["Function"], props: { file: "a.ts", line: 3, end_line: 9 } });
      w.createNode("s", { key: "b", labels: ["Module", "File"], props: { file: "b.ts", line: 1 } });
      w.createNode("s", { key: "c", labels: ["Function"], props: { file: "c.ts", line: "3" } });
      w.createNode("s", { key: "d", labels: ["Note"], props: { text: "no site" } });
      w.createNode("s", { key: "?::a.ts::x", labels: ["UnresolvedRef"], props: { file: "a.ts", line: 4 } });
    });
    const seq = t.store.currentSeq();
    const want = [
      { key: "a", label: "Function", file: "a.ts", line: 3, end_line: 9 },
      { key: "b", label: "Module", file: "b.ts", line: 1 },
    ];
    assert.deepEqual(t.store.nodeSites("s"), want);
    t.store.write((w) => w.createNode("s", { key: "e", labels: ["Function"], props: { file: "e.ts", line: 1 } }));
    assert.deepEqual(t.store.asOf(seq).nodeSites("s"), want);
    assert.equal(t.store.nodeSites("s").length, 3);
  } finally {
    t.done();
  }
});
