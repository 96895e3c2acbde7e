// Reading files safely (DESIGN §8), end to end: a spawned drsg-mcp, the SDK's real Client, and a
// checkout holding a symlink that points out of it (made after the commit, so read with
// `worktree: true`; the commit itself holds no link to follow). Every path — an argument, or a node's `file`
// property written straight into the store — that is absolute, contains `..`, or resolves
// outside the tree is refused with PATH_OUTSIDE_TREE by grep and snippet, and nothing outside
// is ever shown.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type Sandbox, type Session, connect, sandbox } from "../mcp/helpers.js";
import { type GrepFixture, grepFixture } from "./text-fixture.js";

describe("paths over stdio", () => {
  let fx: GrepFixture;
  let sb: Sandbox;
  let s: Session;
  before(async () => {
    fx = grepFixture();
    fx.close();
    sb = sandbox();
    s = await connect(sb, ["--db", fx.db]);
  });
  after(async () => {
    await s?.close();
    sb?.cleanup();
    fx?.done();
  });

  const refused = async (tool: string, args: Record<string, unknown>) => {
    const r = await s.call(tool, { plane: "p", ...args });
    assert.ok(r.isError, `${tool} ${JSON.stringify(args)} was answered:\n${r.text}`);
    assert.match(r.text, /\[PATH_OUTSIDE_TREE\]/, `${tool} ${JSON.stringify(args)}: ${r.text}`);
    assert.doesNotMatch(r.text, /root:|needle outside the tree|needle in a linked dir/);
  };

  for (const p of ["../x", "/etc/passwd", "src/../../x", "C:/x", "~/x"]) test(`grep path ${p}`, () => refused("grep", { pattern: "needle", path: p }));
  for (const p of ["../x", "link-out.txt", "linkdir", "linkdir/more.ts"])
    test(`grep path ${p} in the working tree`, () => refused("grep", { pattern: "needle", path: p, worktree: true }));

  for (const name of ["../x:1", "/etc/passwd:1", "src/../../x:1-3", "../x", "/etc/passwd", "src/../../x"]) test(`snippet ${name}`, () => refused("snippet", { name }));
  for (const name of ["../x:1", "link-out.txt:1", "linkdir/more.ts:1", "link-out.txt"])
    test(`snippet ${name} in the working tree`, () => refused("snippet", { name, worktree: true }));

  for (const name of ["app/evil", "app/abs"]) test(`snippet of node ${name} (file points out)`, () => refused("snippet", { name }));
  for (const name of ["app/evil", "app/abs", "app/linked"])
    test(`snippet of node ${name} (file points out) in the working tree`, () => refused("snippet", { name, worktree: true }));

  test("grep never follows a link out nor opens a node's file: nothing outside is found", async () => {
    const r = await s.call("grep", { plane: "p", pattern: "needle", all_files: true, worktree: true });
    assert.ok(!r.isError, r.text);
    assert.doesNotMatch(r.text, /needle outside the tree|needle in a linked dir/);
    const root = await s.call("grep", { plane: "p", pattern: "root:", all_files: true, worktree: true });
    assert.match(root.text, /^no matches/m);
  });

  test("a link that stays inside the tree is read", async () => {
    const r = await s.call("snippet", { plane: "p", name: "link-in.py:1", worktree: true });
    assert.ok(!r.isError, r.text);
    assert.match(r.text, /def helper\(\):/);
  });
});
