// The small .gitignore matcher used outside git repositories.
import assert from "node:assert/strict";
import { test } from "node:test";
import { isIgnoredBy, parseGitignore } from "../../src/git/gitignore.js";

function check(text: string, cases: Record<string, boolean>, base = "") {
  const rules = parseGitignore(text, base);
  for (const [p, want] of Object.entries(cases)) {
    const isDir = p.endsWith("/");
    assert.equal(isIgnoredBy(rules, p.replace(/\/$/, ""), isDir), want, `${JSON.stringify(text)} vs ${p}`);
  }
}

test("a bare name matches at any depth, files and directories", () => {
  check("foo", { foo: true, "a/foo": true, "a/b/foo/": true, foobar: false, "a/xfoo": false });
});

test("* and ? stay within one segment", () => {
  check("*.log", { "a.log": true, "d/e/x.log": true, "a.logx": false, "log/": false });
  check("a?c", { abc: true, "x/a-c": true, ac: false, "a/c": false });
  check("src/*.js", { "src/a.js": true, "src/d/a.js": false, "x/src/a.js": false });
});

test("a leading or middle slash anchors to the .gitignore's directory", () => {
  check("/build", { build: true, "build/": true, "a/build": false });
  check("doc/out", { "doc/out": true, "x/doc/out": false });
  check("/build", { "pkg/build": true, "pkg/x/build": false, build: false }, "pkg");
});

test("a trailing slash matches directories only", () => {
  check("tmp/", { "tmp/": true, "a/tmp/": true, tmp: false });
});

test("** forms", () => {
  check("**/gen", { gen: true, "a/b/gen/": true });
  check("logs/**", { "logs/a": true, "logs/a/b": true, logs: false });
  check("a/**/z", { "a/z": true, "a/b/z": true, "a/b/c/z": true, "b/a/z": false });
  check("x**y", { xay: true, "x/y": false });
});

test("! negates, last match wins; comments, escapes and blanks", () => {
  check("*.txt\n!keep.txt\n", { "a.txt": true, "keep.txt": false, "d/keep.txt": false });
  check("!keep.txt\n*.txt\n", { "keep.txt": true });
  check("# comment\n\n\\#hash\n\\!bang\nspace\\ \ntrail   \n", {
    "# comment": false,
    "#hash": true,
    "!bang": true,
    "space ": true,
    trail: true,
  });
  check("[ab].c\n[!x]y", { "a.c": true, "b.c": true, "c.c": false, zy: true, xy: false });
});

test("rules from nested files only apply under their directory", () => {
  const rules = [...parseGitignore("*.tmp\n"), ...parseGitignore("!keep.tmp\nlocal\n", "sub")];
  assert.equal(isIgnoredBy(rules, "a.tmp", false), true);
  assert.equal(isIgnoredBy(rules, "keep.tmp", false), true);
  assert.equal(isIgnoredBy(rules, "sub/keep.tmp", false), false);
  assert.equal(isIgnoredBy(rules, "sub/x/local", false), true);
  assert.equal(isIgnoredBy(rules, "local", false), false);
  assert.equal(isIgnoredBy(rules, "subway/local", false), false);
});
