// The third journey, with real processes: a repository holding .rb files is digested (the
// report counts .rb as unclaimed) → `drsg plugin install ruby` → every answer on the plane says
// the plugins changed → `drsg rebuild` → Ruby symbols are in the plane and the drift line is
// gone. Also: a tampered installed plugin is refused at load; a broken query is refused at
// install with its position; a second plugin claiming an extension names the incumbent.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { CATALOG_DIR, PACKAGE_ROOT } from "../../src/paths.js";
import { makeRepo } from "../git/fixture.js";

const DRSG = join(PACKAGE_ROOT, "bin", "drsg.js");

function run(args: string[], home: string, cwd: string) {
  return spawnSync(process.execPath, [DRSG, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, DRSG_HOME: home, DRSG_LOG_DIR: join(home, "logs") },
    timeout: 120_000,
  });
}

test("install ruby, see the drift, rebuild, find Ruby symbols", { timeout: 240_000 }, () => {
  const home = mkdtempSync(join(tmpdir(), "drsg-home-"));
  const repo = mkdtempSync(join(tmpdir(), "drsg-rb-"));
  makeRepo(repo, [
    {
      files: {
        "lib/cart.rb": "class Cart\n  def add(item)\n    normalize(item)\n  end\n\n  def normalize(item)\n    item\n  end\nend\n",
        "lib/util.ts": "export function util() { return 1; }\n",
      },
      message: "init",
    },
  ]);
  const db = join(mkdtempSync(join(tmpdir(), "drsg-rb-db-")), "g.drsg");

  const d = run(["digest", repo, "--apply", "--db", db, "--plane", "shop"], home, repo);
  assert.equal(d.status, 0, d.stderr);
  assert.match(d.stdout, /no plugin claims \.rb \(1\)/);

  const inst = run(["plugin", "install", "ruby"], home, repo);
  assert.equal(inst.status, 0, inst.stderr);
  assert.match(inst.stdout, /installed ruby@1\.0\.0\+[0-9a-f]{8}\s+sha256:[0-9a-f]{12}/);
  assert.match(inst.stdout, /handles: \.rb/);
  const list = run(["plugin", "list", "--json"], home, repo);
  assert.ok((JSON.parse(list.stdout) as { name: string }[]).some((p) => p.name === "ruby"));

  const drifted = run(["context", "util.util", "--plane", "shop", "--db", db], home, repo);
  assert.equal(drifted.status, 0, drifted.stderr);
  assert.match(drifted.stdout, /plugins changed since this plane was built: .*\+ruby@1\.0\.0\+[0-9a-f]{8}.* — rebuild re-reads the tree/);
  const planes = run(["list_planes", "--db", db], home, repo);
  assert.match(planes.stdout, /plugins changed since this plane was built/);

  const rb = run(["rebuild", "--plane", "shop", "--db", db], home, repo);
  assert.equal(rb.status, 0, rb.stderr);
  const after = run(["context", "Cart.add", "--plane", "shop", "--db", db], home, repo);
  assert.equal(after.status, 0, after.stderr);
  assert.match(after.stdout, /lib\/cart\.rb::Cart\.add\s+Method\s+lib\/cart\.rb:2/);
  assert.match(after.stdout, /lib\/cart\.rb::Cart\.normalize/);
  assert.doesNotMatch(after.stdout, /plugins changed/);

  // A tampered installed plugin is refused at load, naming it.
  const installed = join(home, "plugins", "ruby", "queries", "ruby.scm");
  appendFileSync(installed, "\n; tampered\n");
  const refused = run(["rebuild", "--plane", "shop", "--db", db], home, repo);
  assert.notEqual(refused.status, 0);
  assert.match(refused.stderr, /PLUGIN_HASH_MISMATCH[\s\S]*ruby[\s\S]*queries\/ruby\.scm/);
  // A read still answers, and says the plugins could not be checked.
  const read = run(["context", "util.util", "--plane", "shop", "--db", db], home, repo);
  assert.equal(read.status, 0, read.stderr);
  assert.match(read.stdout, /plugins could not be loaded[\s\S]*ruby/);
  // plugin list still lists everything, the tampered plugin marked refused.
  const listed = run(["plugin", "list"], home, repo);
  assert.equal(listed.status, 0, listed.stderr);
  assert.match(listed.stdout, /^ruby .*\[REFUSED\]$/m);
  assert.match(listed.stdout, /^ts /m);
  assert.match(listed.stderr, /ruby is not loaded: .*queries\/ruby\.scm/);
  const avail = run(["plugin", "list", "--available", "--json"], home, repo);
  assert.equal(avail.status, 0, avail.stderr);
  const rubyRow = (JSON.parse(avail.stdout) as { name: string; installed: string | null; refused?: string }[]).find((c) => c.name === "ruby");
  assert.equal(rubyRow?.installed, "1.0.0");
  assert.ok(rubyRow?.refused);
  // The source plugin list prints (catalog:ruby) is a form install accepts: reinstalling mends it.
  const mend = run(["plugin", "install", "catalog:ruby"], home, repo);
  assert.equal(mend.status, 0, mend.stderr);
  assert.doesNotMatch(run(["plugin", "list"], home, repo).stdout, /REFUSED/);
  assert.match(run(["plugin", "list", "--available"], home, repo).stdout, /^ruby\s+1\.0\.0\s+\[installed 1\.0\.0\]$/m);
  assert.equal(run(["plugin", "remove", "ruby"], home, repo).status, 0);

  // A broken query is refused at install with file, line and column.
  const broken = mkdtempSync(join(tmpdir(), "drsg-broken-"));
  cpSync(join(CATALOG_DIR, "ruby"), broken, { recursive: true });
  const scm = join(broken, "queries", "ruby.scm");
  writeFileSync(scm, `${readFileSync(scm, "utf8")}\n(method name: (no_such_node) @name) @definition.method\n`);
  const bad = run(["plugin", "install", broken], home, repo);
  assert.notEqual(bad.status, 0);
  assert.match(bad.stderr, /QUERY_COMPILE_FAILED.*ruby\/ruby:\d+:\d+/);

  // Two plugins claiming one extension: the incumbent is named.
  const clash = mkdtempSync(join(tmpdir(), "drsg-clash-"));
  cpSync(join(CATALOG_DIR, "bash"), clash, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(clash, "plugin.json"), "utf8")) as { name: string; extensions: string[] };
  manifest.name = "pyish";
  manifest.extensions = [".py"];
  writeFileSync(join(clash, "plugin.json"), JSON.stringify(manifest));
  const c = run(["plugin", "install", clash], home, repo);
  assert.notEqual(c.status, 0);
  assert.match(c.stderr, /PLUGIN_CONFLICT.*\.py is claimed by python/);
});
