// The first journey with real processes on loopback: drsg init in a repository → the stdio entry
// it wrote, started the way a host starts it, relays to serve watch → a commit lands and the next
// answer names it → init again says "unchanged" → drsg status / stop → a "reboot" (SIGKILL the
// server, commit meanwhile, a host starts drsg-mcp: serve watch starts again, folds the commit,
// answers) → drsg init --remove gives every file back byte for byte.
import assert from "node:assert/strict";
import { existsSync, lstatSync, readFileSync, readdirSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { PACKAGE_ROOT } from "../../src/paths.js";
import { FOLLOWER_MALLOC_ENV, FOLLOWER_NODE_FLAGS } from "../../src/sync/follower-process.js";
import { git, makeRepo } from "../git/fixture.js";
import { alive, drsg, host, killServers, mode, record, remember, sandboxEnv, text, until } from "./init-helpers.js";

after(killServers);

test("drsg init: stdio entries, relay, a followed commit, re-run unchanged, status, reboot, --remove", { timeout: 240_000 }, async () => {
  const env = sandboxEnv();
  const repo = join(env.base, "journey");
  const [first] = makeRepo(repo, [
    {
      files: {
        "package.json": JSON.stringify({ name: "journey" }),
        "src/core.ts": "export function core() { return 1; }\n",
        "src/api.ts": "import { core } from './core.js';\nexport function handler() { return core(); }\n",
      },
      message: "init",
    },
  ]);
  const root = realpathSync(repo);
  const plane = "journey";
  const excludeBefore = readFileSync(join(repo, ".git", "info", "exclude"));

  const r1 = drsg(repo, ["init"], env);
  assert.equal(r1.status, 0, r1.stderr + r1.stdout);
  assert.match(r1.stdout, /digesting .* into plane 'journey'/);
  assert.match(r1.stdout, /call sites: \d+ resolved/);
  assert.match(r1.stdout, /plane 'journey' ready — drsg serve watch pid \d+/);
  assert.match(r1.stdout, /\+ \.mcp\.json — Claude Code: created/);
  assert.match(r1.stdout, /dashboard: http:\/\/127\.0\.0\.1:\d+\//);
  const rec = record(repo);
  remember(rec.pid);
  assert.match(rec.addr, /^127\.0\.0\.1:\d+$/);
  assert.ok(Buffer.from(rec.token, "base64url").length >= 32, "a token of 32 random bytes");

  // Modes: the state is the user's alone.
  assert.equal(mode(lstatSync(join(repo, ".drsg")).mode), "700");
  for (const f of ["graph.drsg", "server.json", "init.json"]) assert.equal(mode(lstatSync(join(repo, ".drsg", f)).mode), "600", f);

  // serve watch follows for hours: it starts with drsg watch's follower settings.
  const argv = readFileSync(`/proc/${rec.pid}/cmdline`, "utf8").split("\0");
  for (const f of FOLLOWER_NODE_FLAGS) assert.ok(argv.includes(f), `${f} on serve watch's command line`);
  const environ = readFileSync(`/proc/${rec.pid}/environ`, "utf8").split("\0");
  for (const [k, v] of Object.entries(FOLLOWER_MALLOC_ENV)) assert.ok(environ.includes(`${k}=${v}`));

  // The entries: stdio drsg-mcp by absolute path, naming the repository; Claude Code approves it.
  const mcp = JSON.parse(readFileSync(join(repo, ".mcp.json"), "utf8"));
  const entry = mcp.mcpServers.drsg as { type: string; command: string; args: string[]; alwaysLoad: boolean };
  assert.deepEqual(entry, { type: "stdio", command: join(PACKAGE_ROOT, "bin", "drsg-mcp.js"), args: ["--repo", root], alwaysLoad: true });
  const settings = JSON.parse(readFileSync(join(repo, ".claude", "settings.local.json"), "utf8"));
  assert.deepEqual(settings.enabledMcpjsonServers, ["drsg"]);
  assert.deepEqual(settings.permissions.allow, ["mcp__drsg"]);
  assert.doesNotMatch(readFileSync(join(repo, ".mcp.json"), "utf8"), /Bearer|token/i, "a stdio entry holds no secret");
  const exclude = readFileSync(join(repo, ".git", "info", "exclude"), "utf8");
  for (const l of ["/.drsg/", "/.mcp.json", "/.claude/settings.local.json"]) assert.ok(exclude.split("\n").includes(l), l);
  assert.equal(git(repo, ["status", "--porcelain"]), "", "drsg's own files stay out of git status");

  // A host starts the entry (in a subdirectory, as hosts may): the session goes to serve watch.
  const h = await host(entry.command, entry.args, join(repo, "src"), env);
  assert.match(await text(h.client, "list_planes", {}), new RegExp(`synced: commit ${first!.slice(0, 12)}`));
  assert.match(h.stderr(), new RegExp(`relaying this session to drsg serve watch pid ${rec.pid}`));
  writeFileSync(join(repo, "src/extra.ts"), "import { core } from './core.js';\nexport function extra() { return core() + 1; }\n");
  git(repo, ["add", "-A"]);
  git(repo, ["commit", "-qm", "extra"]);
  const second = git(repo, ["rev-parse", "HEAD"]);
  assert.ok(await until(async () => (await text(h.client, "context", { plane, name: "core" })).includes(`synced: commit ${second.slice(0, 12)}`), 30_000), "the plane did not follow the commit");
  assert.match(await text(h.client, "context", { plane, name: "extra" }), /extra/);
  await h.close();
  assert.equal(existsSync(join(repo, "graph.drsg")), false, "the relay opens no local database");

  // init again: the live server is reused, every config unchanged.
  const mcpBytes = readFileSync(join(repo, ".mcp.json"));
  const r2 = drsg(repo, ["init"], env);
  assert.equal(r2.status, 0, r2.stderr);
  assert.match(r2.stdout, /already serves .* reusing it, the plane is untouched/);
  assert.match(r2.stdout, /= \.mcp\.json — Claude Code: unchanged/);
  assert.match(r2.stdout, /= \.claude\/settings\.local\.json — Claude Code: unchanged/);
  assert.doesNotMatch(r2.stdout, /^\s+[+~] /m);
  assert.deepEqual(readFileSync(join(repo, ".mcp.json")), mcpBytes);

  // status: pid, address, plane, commit vs HEAD, last fold, drift.
  const st = drsg(join(repo, "src"), ["status"], env);
  assert.equal(st.status, 0, st.stderr);
  assert.match(st.stdout, new RegExp(`running, pid ${rec.pid}, at ${rec.addr}`));
  assert.match(st.stdout, new RegExp(`plane 'journey': commit ${second.slice(0, 12)} \\(in sync with HEAD\\)`));
  assert.match(st.stdout, /last fold: .*fold journey /);
  assert.match(st.stdout, /plugins: unchanged/);
  assert.match(st.stdout, new RegExp(`dashboard: http://${rec.addr}/`));

  // A "reboot": the server dies hard, a commit lands while it is down, then a host starts drsg-mcp.
  process.kill(rec.pid, "SIGKILL");
  assert.ok(await until(() => !alive(rec.pid) || readFileSync(`/proc/${rec.pid}/stat`, "utf8").split(" ")[2] === "Z", 10_000));
  const down = drsg(repo, ["status"], env);
  assert.equal(down.status, 3, down.stdout);
  assert.match(down.stdout, /not running/);
  writeFileSync(join(repo, "src/later.ts"), "import { core } from './core.js';\nexport function later() { return core(); }\n");
  git(repo, ["add", "-A"]);
  git(repo, ["commit", "-qm", "later"]);
  const third = git(repo, ["rev-parse", "HEAD"]);
  const h2 = await host(entry.command, entry.args, env.home, env);
  const rec2 = record(repo);
  remember(rec2.pid);
  assert.notEqual(rec2.pid, rec.pid, "serve watch was started again");
  assert.equal(rec2.addr, rec.addr, "on the recorded address");
  assert.equal(rec2.token, rec.token, "with the recorded token");
  assert.match(await text(h2.client, "context", { plane, name: "later" }), new RegExp(`synced: commit ${third.slice(0, 12)}[\\s\\S]*later`));
  assert.match(h2.stderr(), /relaying this session/);
  await h2.close();

  // drsg stop, then --remove: every file back as it was, the server gone, the database kept.
  const stop = drsg(repo, ["stop"], env);
  assert.equal(stop.status, 0, stop.stderr);
  assert.match(stop.stdout, new RegExp(`stopped drsg serve watch pid ${rec2.pid}`));
  assert.ok(await until(() => !alive(rec2.pid), 10_000));
  const h3 = await host(entry.command, entry.args, env.home, env);
  const rec3 = record(repo);
  remember(rec3.pid);
  assert.match(await text(h3.client, "list_planes", {}), /journey/);
  await h3.close();
  const rm = drsg(repo, ["init", "--remove"], env);
  assert.equal(rm.status, 0, rm.stderr);
  assert.match(rm.stdout, new RegExp(`stopped drsg serve watch pid ${rec3.pid}`));
  assert.match(rm.stdout, /- \.mcp\.json \(deleted: init created it/);
  assert.ok(await until(() => !alive(rec3.pid), 10_000));
  assert.equal(existsSync(join(repo, ".mcp.json")), false);
  assert.equal(existsSync(join(repo, ".claude")), false, "the directory init created for settings.local.json is gone");
  assert.deepEqual(readFileSync(join(repo, ".git", "info", "exclude")), excludeBefore);
  assert.ok(statSync(join(repo, ".drsg", "graph.drsg")).isFile(), ".drsg/ stays without --purge");
  assert.equal(git(repo, ["status", "--porcelain", "--untracked-files=all"]), "", "and stays out of git status (its own .gitignore)");
  assert.match(rm.stdout, /kept \.drsg\/graph\.drsg, out of git status/);
  assert.equal(existsSync(join(repo, ".drsg", "init.json")), false);
  const purge = drsg(repo, ["init", "--remove", "--purge"], env);
  assert.equal(purge.status, 0, purge.stderr);
  assert.equal(existsSync(join(repo, ".drsg")), false);
  assert.deepEqual(readdirSync(repo).sort(), [".git", "package.json", "src"]);
});
