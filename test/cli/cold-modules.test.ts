// A cold verb loads what it answers with and nothing else: `drsg impact` and `drsg context`, run
// as whole processes opening the database, read no MCP SDK, no git code, no server, no grammar or
// extraction code, no list_planes or upgrade tool, no zod but its functional API (zod/mini, a
// tenth of the classic API's start), and — once the plugin set's rules were checked
// (src/plugin/hashcache.ts) — no regular-expression engine. Watched through a module resolve hook,
// on tsc's output (DRSG_UNBUNDLED=1: a module per source file) and on the bundle bin/ runs by
// default, whose chunks follow the same lazy imports: it loads none of the packages either.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, describe, test } from "node:test";
import { PACKAGE_ROOT } from "../../src/paths.js";
import { makeRepo } from "../git/fixture.js";

const DRSG = join(PACKAGE_ROOT, "bin", "drsg.js");

/** Modules (by a part of their path) a cold read verb must not load. */
const NEVER = [
  "@modelcontextprotocol",
  "/node_modules/graphology",
  "require:graphology",
  "isomorphic-git",
  "web-tree-sitter",
  "/dist/src/git/",
  "/dist/src/server/http",
  "/dist/src/mcp/",
  "/dist/src/extract/parser",
  "/dist/src/extract/worker",
  "/dist/src/tools/list_planes",
  "/dist/src/tools/upgrade",
  "/dist/src/cli/commands/index",
  "/node_modules/zod/v4/classic/",
  "/node_modules/zod/v3/",
];

describe("modules a cold verb loads", () => {
  const base = mkdtempSync(join(tmpdir(), "drsg-cold-modules-"));
  const home = join(base, "home");
  const repo = join(base, "repo");
  const db = join(base, "g.drsg");
  const hooks = join(base, "hooks.mjs");
  const register = join(base, "register.mjs");
  const env = { ...process.env, DRSG_HOME: home, DRSG_LOG_DIR: join(base, "logs") };

  before(() => {
    makeRepo(repo, [
      { files: { "src/a.ts": "export function a() { return b(); }\nexport function b() { return 1; }\n", "package.json": '{"name":"shop"}' }, message: "init" },
    ]);
    const d = spawnSync(process.execPath, [DRSG, "digest", repo, "--apply", "--db", db, "--plane", "shop"], { encoding: "utf8", env, timeout: 120_000 });
    assert.equal(d.status, 0, d.stderr);
    writeFileSync(
      hooks,
      `export async function resolve(spec, ctx, next) {\n  const r = await next(spec, ctx);\n  process.stderr.write("LOADED " + r.url + "\\n");\n  return r;\n}\n`,
    );
    // ESM imports through the resolve hook; require() (better-sqlite3, a lazily loaded CommonJS build) through Module._load.
    writeFileSync(
      register,
      `import Module, { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n` +
        `const load = Module._load;\nModule._load = function (request, ...rest) {\n  process.stderr.write("LOADED require:" + request + "\\n");\n  return load.call(this, request, ...rest);\n};\n`,
    );
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  /** The modules a verb's process resolved, and its answer. */
  function loaded(args: string[], bundled = false): { modules: string[]; out: string } {
    const r = spawnSync(process.execPath, ["--import", pathToFileURL(register).href, DRSG, ...args, "--plane", "shop", "--db", db], {
      encoding: "utf8",
      env: bundled ? env : { ...env, DRSG_UNBUNDLED: "1" },
      timeout: 120_000,
    });
    assert.equal(r.status, 0, r.stderr);
    const modules = r.stderr
      .split("\n")
      .filter((l) => l.startsWith("LOADED "))
      .map((l) => l.slice(7));
    return { modules, out: r.stdout };
  }

  for (const verb of ["impact", "context"]) {
    test(`${verb} loads its tool and what it reads with, nothing else`, () => {
      loaded([verb, "shop/src/a.b"]);
      const { modules, out } = loaded([verb, "shop/src/a.b"]);
      assert.match(out, /^synced: commit [0-9a-f]{12}$/m);
      assert.ok(modules.some((m) => m.includes(`/dist/src/tools/${verb}.js`)), `the hook saw ${verb}.js`);
      assert.ok(modules.some((m) => m.includes("/node_modules/zod/v4/mini/")), "and zod's functional API");
      for (const never of NEVER) {
        const hit = modules.filter((m) => m.includes(never));
        assert.deepEqual(hit, [], `drsg ${verb} loaded ${never}`);
      }
      assert.ok(modules.includes("require:bindings"), "require() is watched too (better-sqlite3 requires bindings)");
      // re2js is required only to compile recover rules: the second run finds the official
      // plugins' rules checked (their hashes' record says so) and compiles none.
      assert.deepEqual(
        modules.filter((m) => m.includes("re2js")),
        [],
      );
    });

    test(`${verb} from the bundle: no package it does not answer with`, () => {
      const { modules, out } = loaded([verb, "shop/src/a.b"], true);
      assert.match(out, /^synced: commit [0-9a-f]{12}$/m);
      assert.ok(modules.some((m) => m.includes("/dist/bundle/cli.js")), "the bundle ran");
      assert.deepEqual(
        modules.filter((m) => m.includes("/dist/src/")),
        [],
        "nothing of tsc's output",
      );
      for (const never of ["isomorphic-git", "web-tree-sitter", "re2js", "/node_modules/graphology", "require:graphology", "/node_modules/zod/", "@modelcontextprotocol"]) {
        const hit = modules.filter((m) => m.includes(never));
        assert.deepEqual(hit, [], `drsg ${verb} loaded ${never}`);
      }
      // The chunks it ran hold no module of zod's classic API (esbuild names each module it bundles).
      const chunks = modules.filter((m) => m.includes("/dist/bundle/")).map((m) => readFileSync(new URL(m), "utf8"));
      assert.ok(chunks.some((c) => c.includes("// node_modules/zod/v4/mini/")), "zod/mini is bundled in what it ran");
      assert.deepEqual(
        chunks.flatMap((c) => c.match(/^\/\/ node_modules\/zod\/(?:v4\/classic|v3)\/.*$/gm) ?? []),
        [],
      );
    });
  }
});
