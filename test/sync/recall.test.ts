// recall on a scripted history: every `at` form, directory listings, files and ranges, a symbol
// then vs now (found by re-parsing the old file), pattern search (literal, regex, case), `vs`
// diffs of files, directories and symbols, and each refusal said plainly.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Store } from "../../src/store/types.js";
import { digest } from "../../src/sync/digest.js";
import { recall } from "../../src/tools/recall.js";
import { type FixtureHistory, makeShopHistory, shopDirs } from "./history-fixture.js";
import { callTool, cleanupAll, closePool, officialSet, sharedPool, temp, tempStore, toolCtx } from "./helpers.js";

let fx: FixtureHistory;
let store: Store;

before(async () => {
  const { dir, subDir } = shopDirs(temp("drsg-recall-"));
  fx = makeShopHistory(dir, subDir);
  store = tempStore().store;
  await digest({ dir, plugins: officialSet(), plane: "shop", store, pool: sharedPool() });
});
after(async () => {
  store.close();
  await closePool();
  cleanupAll();
});

async function call(input: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  return callTool(toolCtx(store), recall, { plane: "shop", ...input });
}
async function ok(input: Record<string, unknown>): Promise<string> {
  const r = await call(input);
  assert.equal(r.isError, false, r.text);
  assert.match(r.text, /^synced: commit [0-9a-f]{12}\n/, "every answer opens with the freshness line");
  return r.text;
}
async function fails(input: Record<string, unknown>, code: string): Promise<string> {
  const r = await call(input);
  assert.equal(r.isError, true, r.text);
  assert.match(r.text, new RegExp(`\\[${code}\\]`));
  return r.text;
}

const atLine = (sha: string) => new RegExp(`^at ${sha.slice(0, 12)}  \\d{4}-\\d\\d-\\d\\d  t  `, "m");

describe("recall: at", () => {
  test("every revision form resolves to the commit it names", async () => {
    const s = fx.sha;
    const cases: [unknown, string][] = [
      [s.price2!, s.price2!],
      [s.price2!.slice(0, 4), s.price2!],
      [s.discount!.slice(0, 9), s.discount!],
      ["feature", s.feature!],
      ["v0.1", s.base!],
      ["v1.0", s.merge!],
      ["HEAD", s.last!],
      ["HEAD~2", s.links!],
      ["main~1", s.submodule!],
      [`${s.merge}^2`, s.feature!],
      ["v1.0^1", s.docs!],
      ["2024-01-03", s.discount!],
      ["2024-01-03T23:59:59Z", s.discount!],
    ];
    for (const [at, want] of cases) {
      const text = await ok({ name: "package.json", at });
      assert.match(text, atLine(want), `at ${String(at)}`);
    }
    const text = await ok({ name: "package.json" });
    assert.match(text, atLine(s.last!), "default HEAD");
    assert.match(await ok({ name: "package.json", at: "v0.1" }), /\(via v0\.1\)/);
  });

  test("an unknown revision is said plainly", async () => {
    const t = await fails({ name: "package.json", at: "no-such-branch" }, "REV_NOT_FOUND");
    assert.match(t, /no revision 'no-such-branch'/);
    await fails({ name: "package.json", at: "1999-01-01" }, "REV_NOT_FOUND");
    await fails({ name: "package.json", at: "HEAD~99" }, "REV_NOT_FOUND");
  });
});

describe("recall: paths", () => {
  test("the root and a directory as they were: dirs first, sizes, a cap hint", async () => {
    const root = await ok({ name: "", at: "v0.1" });
    assert.match(root, /^\/ at [0-9a-f]{7} — 2 dir\(s\), 1 file\(s\)$/m);
    assert.match(root, /^ {2}shop\/ {2}dir \(3 file\(s\) below\)\n {2}src\/ {2}dir \(2 file\(s\) below\)\n {2}package\.json {2}\d+ B$/m);
    const src = await ok({ name: "src/", at: "HEAD" });
    assert.match(src, /^src\/ at [0-9a-f]{7} — 0 dir\(s\), 4 file\(s\)$/m);
    assert.match(src, /^ {2}alias\.ts {2}symlink$/m);
    assert.match(src, /^ {2}pricing\.ts {2}[\d.]+ (B|KiB)$/m);
    const sub = await ok({ name: "deps" });
    assert.match(sub, /^ {2}sub {2}submodule$/m);
  });

  test("a file and a range as they were", async () => {
    const f = await ok({ name: "src/price.ts", at: "v0.1" });
    assert.match(f, /^src\/price\.ts:1-4 \(4 of 4 line\(s\)\) at [0-9a-f]{7}$/m);
    assert.match(f, /^ {4}3 \| {3}return item\.length;$/m);
    assert.match(f, /snippet src\/price\.ts:1-4 reads the same lines at the plane's commit \(worktree: true: as they are now\)/);
    const r = await ok({ name: "src/price.ts:2-3", at: fx.sha.price2 });
    assert.match(r, /^src\/price\.ts:2-3 \(2 of 5 line\(s\)\)/m);
    assert.match(r, /^ {4}3 \| {3}const base = item\.length;$/m);
    assert.match(r, /… src\/price\.ts continues to line 5; recall src\/price\.ts:4-5 at [0-9a-f]{7} reads on/);
    const capped = await ok({ name: "src/price.ts", at: fx.sha.price2, lines: 2 });
    assert.match(capped, /^src\/price\.ts:1-2 \(2 of 5/m);
    const past = await ok({ name: "src/price.ts:40", at: "v0.1" });
    assert.match(past, /has 4 line\(s\) at [0-9a-f]{7}; line 40 is past its end/);
  });

  test("absent, binary, submodule and symlink are each said plainly", async () => {
    assert.match(await ok({ name: "src/tax.ts", at: "v0.1" }), /^src\/tax\.ts does not exist at [0-9a-f]{7}$/m);
    assert.match(await ok({ name: "assets/logo.png" }), /^assets\/logo\.png is a binary file at [0-9a-f]{7} \(8 B\) — not shown$/m);
    assert.match(await ok({ name: "deps/sub" }), /^deps\/sub is a submodule at [0-9a-f]{7} \(commit [0-9a-f]{12} of another repository\) — recall does not read into submodules$/m);
    assert.match(await ok({ name: "src/alias.ts" }), /^src\/alias\.ts is a symlink at [0-9a-f]{7} \(to pricing\.ts\) — links are not followed/m);
    assert.match(await ok({ name: "src/nothing/here.ts" }), /does not exist at [0-9a-f]{7} \(nor now\)/);
  });

  test("paths obey the tree's rules", async () => {
    await fails({ name: "../etc/passwd" }, "PATH_OUTSIDE_TREE");
    await fails({ name: "/etc/passwd" }, "PATH_OUTSIDE_TREE");
    await fails({ name: "src/../../x.ts:1-2" }, "PATH_OUTSIDE_TREE");
    await fails({ name: "src/price.ts:5-2", at: "v0.1" }, "BAD_INPUT");
  });
});

describe("recall: symbols", () => {
  test("a symbol's declaration then, found by parsing the file as it was", async () => {
    // Cart.add lives in src/cart.ts throughout; at v0.1 the cart had no total().
    const add = await ok({ name: "Cart.add", at: "v0.1" });
    assert.match(add, /^shop\/src\/cart\.Cart\.add {2}Method {2}src\/cart\.ts:5-8 at [0-9a-f]{7}$/m);
    assert.match(add, /^ {4}7 \| {5}return price\(item\);$/m);
    // Cart.clear exists only now: asking for it at v0.1 says so and names what the file declared.
    const clear = await ok({ name: "Cart.clear", at: "v0.1" });
    assert.match(clear, /Cart\.clear is not declared in src\/cart\.ts at [0-9a-f]{7}; that file then declared: Cart/);
    // pricing.price lives in src/pricing.ts now; at v0.1 that file did not exist.
    const price = await ok({ name: "shop/src/pricing.price", at: "v0.1" });
    assert.match(price, /is declared in src\/pricing\.ts now, which does not exist at [0-9a-f]{7}/);
    assert.match(price, /pattern: "price"/);
  });

  test("a symbol that no longer exists: the miss names the key prefixes and the pattern way", async () => {
    const t = await ok({ name: "discount", at: fx.sha.discount });
    assert.match(t, /no symbol matches `discount`/);
    assert.match(t, /pattern: "discount"/);
  });

  test("vs: a symbol's declaration then against now, and a file, and a directory", async () => {
    const sym = await ok({ name: "shop/src/pricing.price", at: "HEAD", vs: fx.sha.move });
    assert.match(sym, /^diff of shop\/src\/pricing\.price: [0-9a-f]{7} \([0-9a-f]{40}\) → [0-9a-f]{7} \(HEAD\)$/m);
    assert.match(sym, /^ {2}no difference$/m);
    const add = await ok({ name: "Cart.add", at: "HEAD", vs: "v0.1" });
    assert.match(add, /no difference/);
    const cart = await ok({ name: "Cart", at: "HEAD", vs: "v0.1" });
    assert.match(cart, /^--- src\/cart\.ts:3@[0-9a-f]{7}\n\+\+\+ src\/cart\.ts:3@[0-9a-f]{7}$/m);
    assert.match(cart, /^\+ {2}clear\(\): void \{$/m);
    const file = await ok({ name: "src/price.ts", at: fx.sha.price2, vs: "v0.1" });
    assert.match(file, /^--- src\/price\.ts@[0-9a-f]{7}\n\+\+\+ src\/price\.ts@[0-9a-f]{7}\n@@ -1,4 \+1,5 @@$/m);
    assert.match(file, /^-\/\*\* The price of an item\. \*\/$/m);
    assert.match(file, /^\+ {2}return base \* 2;$/m);
    const gone = await ok({ name: "src/discount.ts", at: fx.sha.delete, vs: fx.sha.discount });
    assert.match(gone, /does not exist at [0-9a-f]{7} \(deleted since\)/);
    assert.match(gone, /^-export function discount/m);
    const dir = await ok({ name: "src", at: "v1.0", vs: "v0.1" });
    assert.match(dir, /^3 file\(s\) changed:\n {2}A src\/discount\.ts\n {2}M src\/price\.ts\n {2}A src\/tax\.ts$/m);
    assert.match(await ok({ name: "assets/logo.png", at: "HEAD", vs: fx.sha.docs }), /binary file .* — not diffed/);
  });
});

describe("recall: pattern", () => {
  test("literal, regex (RE2) and case-insensitive searches of the tree as it was", async () => {
    const lit = await ok({ name: "", pattern: "item.length", at: "v0.1" });
    assert.match(lit, /^"item\.length" in the tree at [0-9a-f]{7}: 1 match\(es\) in 1 file\(s\) of 6$/m);
    assert.match(lit, /^ {2}src\/price\.ts:3: return item\.length;$/m);
    const re = await ok({ name: "src", pattern: "price\\(\\w+\\)", regex: true, at: "HEAD" });
    assert.match(re, /^\/price\\\(\\w\+\\\)\/ in src at [0-9a-f]{7}: 1 match\(es\) in 1 file\(s\)/m);
    const ci = await ok({ name: "shop", pattern: "HELPER", ignore_case: true, at: "v0.1" });
    assert.match(ci, /: 3 match\(es\) in 2 file\(s\) of 3$/m);
    const capped = await ok({ name: "", pattern: "e", max_results: 2 });
    assert.match(capped, /… and \d+ more \(max_results raises the cap/);
    const oneFile = await ok({ name: "src/cart.ts", pattern: "price", at: "v0.1" });
    assert.match(oneFile, /in src\/cart\.ts at [0-9a-f]{7}: 2 match\(es\) in 1 file\(s\) of 1/);
    await fails({ name: "", pattern: "(unclosed", regex: true }, "BAD_REGEX");
    // A backtracking bomb for JS RegExp is an ordinary expression on RE2.
    assert.match(await ok({ name: "", pattern: "(a+)+$", regex: true }), /: 0 match\(es\)/);
  });
});
