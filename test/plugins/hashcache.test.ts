// The plugin hash cache (src/plugin/hashcache.ts): a folder's hashes are reused across processes
// only while every file carries the stamp it had when hashed, so a changed file — even one
// rewritten to the same size with its mtime put back — is hashed again, and a tampered installed
// plugin is still refused by a real `drsg` process. Also: plugin names sort as a collator sorted them.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { before, describe, it } from "node:test";
import { CATALOG_DIR, PACKAGE_ROOT, PLUGINS_DIR } from "../../src/paths.js";
import { type FolderRecord, type SetRecord, SETTLE_MS, buildsKey, hashCachePath, resetHashCache } from "../../src/plugin/hashcache.js";
import { comparePluginNames, hashFolder, readPluginFolder } from "../../src/plugin/manifest.js";
import { version } from "../../src/version.js";
import { makeRepo } from "../git/fixture.js";

const DRSG = join(PACKAGE_ROOT, "bin", "drsg.js");

interface CacheFile {
  folders: Record<string, FolderRecord>;
  sets?: Record<string, SetRecord>;
}

function readCache(home: string): CacheFile {
  return JSON.parse(readFileSync(join(home, "plugin-hashes.json"), "utf8")) as CacheFile;
}

/** The mtime every file of the tests' folders is given (whole seconds: utimes can put it back exactly). */
const MTIME = 1_700_000_000;

function setTimes(dir: string): void {
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) utimesSync(join(e.parentPath, e.name), MTIME, MTIME);
}

/** Same length, other bytes, the old mtime put back: only ctime (and the bytes) tell. */
function rewriteSameSize(file: string): void {
  const st = statSync(file, { bigint: true });
  assert.equal(st.mtimeNs, BigInt(MTIME) * 1_000_000_000n);
  const bytes = Buffer.from(readFileSync(file));
  bytes[0] = bytes[0] === 0x41 ? 0x42 : 0x41;
  writeFileSync(file, bytes);
  utimesSync(file, MTIME, MTIME);
  const now = statSync(file, { bigint: true });
  assert.equal(now.size, st.size);
  assert.equal(now.mtimeNs, st.mtimeNs);
  assert.equal(now.ino, st.ino);
}

describe("plugin hash cache", () => {
  const base = mkdtempSync(join(tmpdir(), "drsg-hashcache-"));
  const home = join(base, "home");
  const folder = join(base, "plugin");
  const badRules = join(base, "bad-rules");
  const goodRules = join(base, "good-rules");
  const repo = join(base, "repo");
  const db = join(base, "g.drsg");
  const run = (args: string[]) =>
    spawnSync(process.execPath, [DRSG, ...args], {
      cwd: base,
      encoding: "utf8",
      env: { ...process.env, DRSG_HOME: home, DRSG_LOG_DIR: join(base, "logs") },
      timeout: 120_000,
    });

  before(async () => {
    cpSync(join(CATALOG_DIR, "ruby"), folder, { recursive: true });
    cpSync(join(PLUGINS_DIR, "ts"), goodRules, { recursive: true });
    // A plugin whose recover rule does not compile.
    cpSync(join(PLUGINS_DIR, "ts"), badRules, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(badRules, "plugin.json"), "utf8"));
    manifest.recover.typescript = [{ why: "w", pattern: "a**(", group: 1, fill: " " }];
    writeFileSync(join(badRules, "plugin.json"), JSON.stringify(manifest));
    makeRepo(repo, [{ files: { "lib/util.ts": "export function util() { return 1; }\n" }, message: "init" }]);
    const d = run(["digest", repo, "--apply", "--db", db, "--plane", "shop"]);
    assert.equal(d.status, 0, d.stderr);
    const inst = run(["plugin", "install", "ruby"]);
    assert.equal(inst.status, 0, inst.stderr);
    setTimes(folder);
    setTimes(badRules);
    setTimes(goodRules);
    setTimes(join(home, "plugins", "ruby"));
    // Files younger than SETTLE_MS are never remembered: let them settle once for every test.
    await new Promise((r) => setTimeout(r, SETTLE_MS + 200));
  });

  it("reuses a folder's hashes while its stamps hold, and hashes again on any change", () => {
    process.env.DRSG_HOME = home;
    resetHashCache();
    try {
      const fresh = hashFolder(folder);
      assert.deepEqual(hashFolder(folder, { cached: true }), fresh);
      const key = resolve(folder);
      const rec = readCache(home).folders[key];
      assert.ok(rec, "the settled folder is remembered");
      assert.equal(rec.sha256, fresh.sha256);

      // The record is what answers while nothing moved: a planted answer comes back.
      const planted = readCache(home);
      planted.folders[key]!.sha256 = "0".repeat(64);
      writeFileSync(hashCachePath(), JSON.stringify(planted));
      resetHashCache();
      assert.equal(hashFolder(folder, { cached: true }).sha256, "0".repeat(64));

      // Same size, mtime put back: ctime moved, so the folder is read again.
      const scm = join(folder, "queries", "ruby.scm");
      rewriteSameSize(scm);
      const changed = hashFolder(folder, { cached: true });
      assert.deepEqual(changed, hashFolder(folder));
      assert.notEqual(changed.sha256, fresh.sha256);
      // A file written moments ago is not remembered (a write in the same clock tick could keep its stamp).
      assert.equal(readCache(home).folders[key]!.sha256, "0".repeat(64));
      assert.equal(hashFolder(folder, { cached: true }).sha256, changed.sha256);

      // Replaced by another file (a new inode) of the same size and times.
      const st = statSync(scm);
      const other = join(base, "other.scm");
      writeFileSync(other, readFileSync(scm));
      utimesSync(other, MTIME, MTIME);
      rewriteSameSize(other);
      renameSync(other, scm);
      assert.equal(statSync(scm).size, st.size);
      assert.deepEqual(hashFolder(folder, { cached: true }), hashFolder(folder));

      // A file added, then removed.
      writeFileSync(join(folder, "extra.txt"), "x");
      const added = hashFolder(folder, { cached: true });
      assert.deepEqual(added, hashFolder(folder));
      assert.ok("extra.txt" in added.files);
      rmSync(join(folder, "extra.txt"));
      assert.deepEqual(hashFolder(folder, { cached: true }), hashFolder(folder));
    } finally {
      delete process.env.DRSG_HOME;
      resetHashCache();
    }
  });

  it("a plugin's build is its files but tests/; its pin is every file; each remembered apart", () => {
    process.env.DRSG_HOME = home;
    resetHashCache();
    const dir = join(base, "builds");
    cpSync(join(PLUGINS_DIR, "python"), dir, { recursive: true });
    try {
      const all = hashFolder(dir);
      const builds = hashFolder(dir, { builds: true });
      assert.ok(Object.keys(all.files).some((f) => f.startsWith("tests/")), "the pin covers the tests");
      assert.deepEqual(
        Object.keys(builds.files).filter((f) => f.startsWith("tests/")),
        [],
      );
      assert.deepEqual(Object.keys(builds.files), Object.keys(all.files).filter((f) => !f.startsWith("tests/")));
      const first = readPluginFolder(dir);
      assert.equal(first.sha256, builds.sha256);
      assert.equal(first.build, `${first.manifest.name}@${first.manifest.version}+${builds.sha256.slice(0, 8)}`);
      // A test changed: the pin moves, the build does not.
      const test = Object.keys(all.files).find((f) => f.startsWith("tests/"))!;
      writeFileSync(join(dir, test), `${readFileSync(join(dir, test), "utf8")}\n`);
      assert.notEqual(hashFolder(dir).sha256, all.sha256);
      assert.equal(readPluginFolder(dir).build, first.build);
      // A query changed: both move.
      const query = Object.keys(all.files).find((f) => f.startsWith("queries/"))!;
      writeFileSync(join(dir, query), `${readFileSync(join(dir, query), "utf8")}\n`);
      assert.notEqual(readPluginFolder(dir).build, first.build);
      // Both hashes remembered under their own keys, neither answering for the other.
      hashFolder(dir, { cached: true });
      readPluginFolder(dir);
      assert.deepEqual(hashFolder(dir, { cached: true }), hashFolder(dir));
      assert.equal(readPluginFolder(dir).sha256, hashFolder(dir, { builds: true }).sha256);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      delete process.env.DRSG_HOME;
      resetHashCache();
    }
  });

  it("recover rules are compiled until they compile, and again once any file moves", () => {
    process.env.DRSG_HOME = home;
    resetHashCache();
    try {
      const bad = /recover\.typescript: recover\[0\] pattern does not compile/;
      assert.throws(() => readPluginFolder(badRules), bad);
      assert.throws(() => readPluginFolder(badRules), bad, "a failed compile is never remembered");
      const key = buildsKey(resolve(badRules));
      const rec = readCache(home).folders[key];
      assert.ok(rec && rec.checked === undefined, "hashes remembered, the rules not marked checked");
      // A record saying these very bytes compiled is believed (the skip is what saves a verb the compile)...
      const planted = readCache(home);
      planted.folders[key]!.checked = `drsg@${version()}`;
      writeFileSync(hashCachePath(), JSON.stringify(planted));
      resetHashCache();
      assert.equal(readPluginFolder(badRules).manifest.name, "ts");
      // ...but only for those bytes: plugin.json rewritten as it was moves its stamp.
      writeFileSync(join(badRules, "plugin.json"), readFileSync(join(badRules, "plugin.json")));
      assert.throws(() => readPluginFolder(badRules), bad);
      // Rules that compile are marked checked, and the next read answers alike.
      const good = readPluginFolder(goodRules);
      assert.equal(readCache(home).folders[buildsKey(resolve(goodRules))]?.checked, `drsg@${version()}`);
      assert.deepEqual(readPluginFolder(goodRules), good);
    } finally {
      delete process.env.DRSG_HOME;
      resetHashCache();
    }
  });

  it("a verb's drift line comes from the plugin set remembered whole while every input holds", () => {
    const first = run(["context", "util.util", "--plane", "shop", "--db", db]);
    assert.equal(first.status, 0, first.stderr);
    const set = readCache(home).sets?.[PLUGINS_DIR];
    assert.ok(set, "the set is remembered (its inputs had settled)");
    assert.ok(set.builtBy.some((b) => b.startsWith("ruby@1.0.0+")), set.builtBy.join(" "));
    assert.deepEqual(set.builtBy, [...set.builtBy].sort());
    // The record is what answers: a planted build shows in the drift line.
    const planted = readCache(home);
    planted.sets![PLUGINS_DIR]!.builtBy.push("planted@9.9.9+00000000");
    writeFileSync(hashCachePathIn(home), JSON.stringify(planted));
    assert.match(run(["context", "util.util", "--plane", "shop", "--db", db]).stdout, /planted@9\.9\.9/);
    // The registry rewritten as it was: its stamp moved, so the set is loaded whole again.
    const registry = join(home, "plugins", "registry.json");
    writeFileSync(registry, readFileSync(registry));
    const again = run(["context", "util.util", "--plane", "shop", "--db", db]);
    assert.equal(again.status, 0, again.stderr);
    assert.doesNotMatch(again.stdout, /planted/);
    assert.equal(again.stdout, first.stdout);
  });

  it("a verb remembers the installed plugin, and a same-size tamper is still refused", () => {
    const before = run(["context", "util.util", "--plane", "shop", "--db", db]);
    assert.equal(before.status, 0, before.stderr);
    assert.match(before.stdout, /plugins changed since this plane was built: .*\+ruby@1\.0\.0/);
    const installed = join(home, "plugins", "ruby");
    assert.ok(existsSync(hashCachePathIn(home)));
    assert.ok(readCache(home).folders[installed], "the installed plugin's hashes are remembered");

    rewriteSameSize(join(installed, "queries", "ruby.scm"));
    const read = run(["context", "util.util", "--plane", "shop", "--db", db]);
    assert.equal(read.status, 0, read.stderr);
    assert.match(read.stdout, /plugins could not be loaded[\s\S]*ruby[\s\S]*queries\/ruby\.scm/);
    const listed = run(["plugin", "list"]);
    assert.match(listed.stdout, /^ruby .*\[REFUSED\]$/m);
  });

  it("sorts plugin names as localeCompare did, without building a collator", () => {
    const alphabet = "_-0123456789abcdefghijklmnopqrstuvwxyz";
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const names = ["a", "a_", "a-", "a0", "a_b", "a-b", "ab", "abc", "c", "cpp", "c-sharp", "c_sharp", "c2"];
    for (let i = 0; i < 300; i++) names.push(Array.from({ length: 1 + rnd(6) }, () => alphabet[rnd(alphabet.length)]).join(""));
    const sign = (x: number) => Math.sign(x);
    for (const a of names) for (const b of names) assert.equal(sign(comparePluginNames(a, b)), sign(a.localeCompare(b, "en")), `${a} vs ${b}`);
  });
});

function hashCachePathIn(home: string): string {
  return join(home, "plugin-hashes.json");
}
