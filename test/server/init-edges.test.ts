// drsg init's edges: a start whose health wait fails is stopped again (nothing left holding the
// database); a repository no plugin claims says so plainly; the token strength rule; the TTY
// phase line (and its silence off a TTY).
import assert from "node:assert/strict";
import { readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { phaseLine } from "../../src/cli/progress.js";
import { strongToken, tokenWeakness } from "../../src/server/state.js";
import { openStore } from "../../src/store/store.js";
import { makeRepo } from "../git/fixture.js";
import { alive, ask, drsg, host, killServers, record, remember, sandboxEnv, serveProcesses, until } from "./init-helpers.js";

after(killServers);

/** Live serve watches of the repository at `root`. */
const serveWatchesOf = (root: string) => serveProcesses((dir) => dir === root);

test("a start that does not come up in time is stopped: init fails saying why, and the database is free", { timeout: 120_000 }, () => {
  const env = sandboxEnv({ DRSG_START_WAIT_SECS: "0" });
  const repo = join(env.base, "slow");
  makeRepo(repo, [{ files: { "a.ts": "export const a = 1;\n" }, message: "a" }]);
  const r = drsg(repo, ["init"], env);
  assert.equal(r.status, 1, r.stdout);
  assert.match(r.stderr, /error \[SERVER_UNAVAILABLE\]: start drsg serve watch for .*: it did not answer \/health within 0 s and was stopped/);
  assert.deepEqual(serveWatchesOf(repo), [], "no serve watch left running");
  const store = openStore(join(repo, ".drsg", "graph.drsg"));
  store.close();
});

test("a repository no plugin claims says so plainly, not '0 node(s)' as a success", { timeout: 120_000 }, () => {
  const env = sandboxEnv();
  const repo = join(env.base, "prose");
  makeRepo(repo, [{ files: { "README.md": "# notes\n", "docs/a.txt": "x\n", "img/logo.svg": "<svg/>\n" }, message: "docs" }]);
  const r = drsg(repo, ["init"], env);
  assert.equal(r.status, 0, r.stderr);
  remember(record(repo).pid);
  assert.match(r.stdout, /nothing to index in .*prose: no installed plugin claims any of its 3 file\(s\) — \.md \(1\), \.svg \(1\), \.txt \(1\)/);
  assert.match(r.stdout, /drsg plugin list --available/);
  assert.doesNotMatch(r.stdout, /0 node\(s\)/);
});

test("token strength: 32 random bytes in any common encoding pass; short or patterned tokens are refused", () => {
  for (let i = 0; i < 200; i++) assert.equal(tokenWeakness(strongToken()), undefined);
  const bytes = Buffer.from(strongToken(), "base64url");
  assert.equal(bytes.length, 32);
  assert.equal(tokenWeakness(bytes.toString("hex")), undefined);
  assert.equal(tokenWeakness(bytes.toString("base64")), undefined);
  for (const weak of ["hunter2", "a".repeat(64), "abababababababababababababababababababab", "0123456789012345678901234567890123456789", `${"a".repeat(40)}bcd`, "0123456789abcdef".repeat(4)])
    assert.match(tokenWeakness(weak) ?? "", /./, weak);
});

test("the phase line: drawn on a TTY with the phase and count, cleared at the end; silent otherwise", () => {
  const seen: string[] = [];
  const line = phaseLine("drsg init", true, (s) => seen.push(s));
  line.phase("parsing");
  line.progress(5, 5);
  line.phase("resolving and writing");
  line.end();
  assert.match(seen[0]!, /drsg init: parsing$/);
  assert.match(seen[1]!, /drsg init: parsing \[#+\] 5\/5$/);
  assert.match(seen[2]!, /drsg init: resolving and writing$/);
  assert.equal(seen[3], "\r\u001b[2K");
  const quiet: string[] = [];
  const off = phaseLine("drsg init", false, (s) => quiet.push(s));
  off.phase("parsing");
  off.progress(1, 2);
  off.end();
  assert.deepEqual(quiet, []);
});

test("the server dies mid-session: the relay starts it again and the session goes on; two hosts starting at once share one server", { timeout: 240_000 }, async () => {
  const env = sandboxEnv();
  const repo = join(env.base, "midway");
  makeRepo(repo, [{ files: { "src/a.ts": "export function alpha() { return 1; }\n" }, message: "a" }]);
  const r = drsg(repo, ["init"], env);
  assert.equal(r.status, 0, r.stderr);
  const first = record(repo);
  remember(first.pid);
  const entry = JSON.parse(readFileSync(join(repo, ".mcp.json"), "utf8")).mcpServers.drsg as { command: string; args: string[] };
  const h = await host(entry.command, entry.args, env.home, env);
  assert.match(await ask(h, "context", { plane: "midway", name: "alpha" }), /alpha/);
  process.kill(first.pid, "SIGKILL");
  assert.ok(await until(() => !alive(first.pid) || readFileSync(`/proc/${first.pid}/stat`, "utf8").split(" ")[2] === "Z", 10_000));
  // The next call of the same session is answered by a server started again.
  assert.match(await ask(h, "context", { plane: "midway", name: "alpha" }), /alpha/);
  const second = record(repo);
  remember(second.pid);
  assert.notEqual(second.pid, first.pid);
  assert.match(h.stderr(), /session re-opened on drsg serve watch pid/);
  await h.close();

  // A reboot with two hosts opening their sessions at once: one serve watch for both.
  process.kill(second.pid, "SIGKILL");
  assert.ok(await until(() => !alive(second.pid) || readFileSync(`/proc/${second.pid}/stat`, "utf8").split(" ")[2] === "Z", 10_000));
  const [a, b] = await Promise.all([host(entry.command, entry.args, env.home, env), host(entry.command, entry.args, env.home, env)]);
  const [ta, tb] = await Promise.all([ask(a, "list_planes", {}), ask(b, "list_planes", {})]);
  assert.match(ta, /midway/);
  assert.match(tb, /midway/);
  const third = record(repo);
  remember(third.pid);
  await a.close();
  await b.close();
  assert.deepEqual(serveWatchesOf(realpathSync(repo)), [third.pid], "one serve watch for the repository");
});
