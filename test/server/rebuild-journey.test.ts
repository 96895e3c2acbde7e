// The third journey in the repository drsg init prepared, with real processes: init → a .rb file
// is committed (serve watch folds it, but no plugin claims it) → `drsg plugin install ruby` →
// every answer over MCP says the plugins changed → `drsg rebuild` (the CLI, inside the
// repository, no flags: it goes to the live server) → a Ruby symbol is answered over MCP by the
// same server, the drift line is gone, and the next commit's .rb change is folded too.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { git, makeRepo } from "../git/fixture.js";
import { DRSG_MCP, drsg, host, killServers, record, remember, sandboxEnv, text, until } from "./init-helpers.js";

after(killServers);

test("init → commit .rb → plugin install ruby → drsg rebuild in the repository → Ruby over MCP, drift gone", { timeout: 300_000 }, async () => {
  const env = sandboxEnv();
  const repo = join(env.base, "shop");
  makeRepo(repo, [{ files: { "package.json": JSON.stringify({ name: "shop" }), "src/util.ts": "export function util() { return 1; }\n" }, message: "init" }]);
  const init = drsg(repo, ["init"], env);
  assert.equal(init.status, 0, init.stderr + init.stdout);
  const rec = record(repo);
  remember(rec.pid);

  const h = await host(DRSG_MCP, ["--repo", repo], repo, env);
  try {
    writeFileSync(join(repo, "cart.rb"), "class Cart\n  def add(item)\n    normalize(item)\n  end\n\n  def normalize(item)\n    item\n  end\nend\n");
    git(repo, ["add", "-A"]);
    git(repo, ["commit", "-qm", "ruby cart"]);
    const head = git(repo, ["rev-parse", "HEAD"]).trim();
    assert.ok(await until(async () => (await text(h.client, "context", { plane: "shop", name: "util" })).includes(head.slice(0, 12)), 60_000), "the commit is folded");

    const inst = drsg(repo, ["plugin", "install", "ruby"], env);
    assert.equal(inst.status, 0, inst.stderr);
    assert.match(inst.stdout, /installed ruby@/);
    // The server looks at the installed set at most once a second (src/server/http.ts).
    assert.ok(
      await until(async () => /plugins changed since this plane was built: .*\+ruby@/.test(await text(h.client, "context", { plane: "shop", name: "util" })), 10_000),
      "every answer says the plugins changed",
    );

    // The CLI, from a subdirectory, no flags: it finds the repository's database, and the live
    // server (which holds it) rebuilds with the plugins installed now.
    const rb = drsg(join(repo, "src"), ["rebuild"], env);
    assert.equal(rb.status, 0, rb.stderr + rb.stdout);
    assert.match(rb.stdout, /rebuilt plane 'shop'/);
    assert.match(rb.stdout, /builders changed: \+ruby@/);
    assert.equal(record(repo).pid, rec.pid, "the same server rebuilt; nothing else opened the database");

    const ruby = await text(h.client, "context", { plane: "shop", name: "Cart.add" });
    assert.match(ruby, /cart\.rb::Cart\.add\s+Method\s+cart\.rb:2/);
    assert.match(ruby, /cart\.rb::Cart\.normalize/);
    assert.doesNotMatch(ruby, /plugins changed/);

    // Later folds keep reading .rb with the plugin.
    writeFileSync(join(repo, "cart.rb"), "class Cart\n  def add(item)\n    normalize(item)\n  end\n\n  def remove(item)\n    item\n  end\n\n  def normalize(item)\n    item\n  end\nend\n");
    git(repo, ["commit", "-qam", "remove"]);
    assert.ok(
      await until(async () => /cart\.rb::Cart\.remove\s+Method/.test(await text(h.client, "context", { plane: "shop", name: "Cart.remove" })), 60_000),
      "the next .rb change is folded with the plugin",
    );
  } finally {
    await h.close();
  }
});
