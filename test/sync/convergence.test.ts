// The central invariant (DESIGN §6): folding any sequence of commits yields exactly the facts one
// full digest of the final commit yields. A property over random commit sequences on a small
// TypeScript + Python tree — add, modify a body, add/remove a function, rename, delete, move a
// symbol between files, change an import so a call rebinds, change a file's language, branch
// and merge, switch branches, reset back, revert — compared after every step; and every commit
// of the scripted fixture history, forwards, backwards and jumping.
// Seed: printed; DRSG_PROPERTY_SEED / DRSG_PROPERTY_RUNS override it and the run count.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { after, describe, test } from "node:test";
import fc from "fast-check";
import type { FoldResult } from "../../src/sync/fold.js";
import { git, makeRepo } from "../git/fixture.js";
import { makeShopHistory, shopDirs } from "./history-fixture.js";
import { assertConverged, cleanupAll, closePool, openSync, temp, tempStore } from "./helpers.js";

after(async () => {
  await closePool();
  cleanupAll();
});

const NAMES = ["run", "load", "save", "calc", "fmt", "check"];

type Op = { kind: string; a: number; b: number; c: number };

const opArb: fc.Arbitrary<Op> = fc.record({
  kind: fc.constantFrom(
    "addTs",
    "addPy",
    "body",
    "body",
    "addFn",
    "removeFn",
    "rename",
    "delete",
    "move",
    "rebind",
    "lang",
    "branchMerge",
    "switch",
    "reset",
    "revert",
  ),
  a: fc.nat(1000),
  b: fc.nat(1000),
  c: fc.nat(1000),
});

function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      if (n === ".git") continue;
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p).split(sep).join("/"));
    }
  };
  walk(dir);
  return out;
}

const isTs = (p: string) => /\.(ts|js)$/.test(p);
const isPy = (p: string) => p.endsWith(".py") && !p.endsWith("__init__.py");
const modOf = (p: string) => p.replace(/\.(ts|js|py)$/, "").split("/").pop()!;

function tsFile(names: string[], imports: { from: string; name: string }[], calls: string[], salt: number): string {
  const lines = imports.map((i) => `import { ${i.name} } from "./${i.from}";`);
  lines.push("");
  names.forEach((n, i) => {
    lines.push(`export function ${n}(x: number): number {`);
    lines.push(`  const v = x + ${salt + i};`);
    const callee = calls[i % Math.max(1, calls.length)];
    lines.push(callee ? `  return ${callee}(v);` : "  return v;");
    lines.push("}");
    lines.push("");
  });
  return lines.join("\n");
}

function pyFile(names: string[], imports: { from: string; name: string }[], calls: string[], salt: number): string {
  const lines = imports.map((i) => `from pkg.${i.from} import ${i.name}`);
  lines.push("", "");
  names.forEach((n, i) => {
    lines.push(`def ${n}(x):`);
    lines.push(`    v = x + ${salt + i}`);
    const callee = calls[i % Math.max(1, calls.length)];
    lines.push(callee ? `    return ${callee}(v)` : "    return v");
    lines.push("", "");
  });
  return lines.join("\n");
}

/** Names a source file defines (by the shapes this test writes). */
function defined(text: string): string[] {
  return [...text.matchAll(/^(?:export function|def) (\w+)/gm)].map((m) => m[1]!);
}

/** Apply one op to the repository as a commit (or a ref move); returns a description. */
function applyOp(dir: string, op: Op, step: number): string {
  const files = listFiles(dir);
  const ts = files.filter(isTs);
  const py = files.filter(isPy);
  const pick = <T,>(xs: T[], n: number): T | undefined => (xs.length ? xs[n % xs.length] : undefined);
  const read = (p: string) => readFileSync(join(dir, p), "utf8");
  const commit = (changes: Record<string, string | null>, msg: string) => {
    makeRepo(dir, [{ files: changes, message: msg }]);
    return msg;
  };
  const salt = step * 7 + op.c;
  const someNames = (n: number) => [NAMES[n % NAMES.length]!, NAMES[(n + 1 + (op.b % 3)) % NAMES.length]!].filter((x, i, a) => a.indexOf(x) === i);
  const importFrom = (pool: string[], exclude: string) => {
    const src = pick(pool.filter((p) => p !== exclude), op.b);
    if (!src) return [];
    const name = pick(defined(read(src)), op.c);
    return name ? [{ from: modOf(src), name }] : [];
  };
  switch (op.kind) {
    case "addTs": {
      const path = `src/m${step}_${op.a % 97}.ts`;
      const imps = importFrom(ts, path);
      return commit({ [path]: tsFile(someNames(op.a), imps, imps.map((i) => i.name), salt) }, `add ${path}`);
    }
    case "addPy": {
      const path = `pkg/m${step}_${op.a % 97}.py`;
      const imps = importFrom(py, path);
      return commit({ [path]: pyFile(someNames(op.a), imps, imps.map((i) => i.name), salt) }, `add ${path}`);
    }
    case "body": {
      const p = pick([...ts, ...py], op.a);
      if (!p) return "noop";
      return commit({ [p]: read(p).replace(/x \+ (\d+)/, (_m, n: string) => `x + ${Number(n) + 1}`) }, `body ${p}`);
    }
    case "addFn": {
      const p = pick([...ts, ...py], op.a);
      if (!p) return "noop";
      const name = `${NAMES[op.b % NAMES.length]}${op.c % 3}`;
      if (defined(read(p)).includes(name)) return "noop";
      const text = p.endsWith(".py") ? `\n\ndef ${name}(x):\n    return x\n` : `\nexport function ${name}(x: number): number {\n  return x;\n}\n`;
      return commit({ [p]: read(p) + text }, `add fn ${name} to ${p}`);
    }
    case "removeFn": {
      const p = pick([...ts, ...py], op.a);
      if (!p) return "noop";
      const names = defined(read(p));
      const victim = pick(names, op.b);
      if (!victim) return "noop";
      const re = p.endsWith(".py") ? new RegExp(`^def ${victim}\\(x\\):\\n(?: {4}.*\\n)*`, "m") : new RegExp(`^export function ${victim}\\(.*\\n(?:.*\\n)*?\\}\\n`, "m");
      return commit({ [p]: read(p).replace(re, "") }, `remove ${victim} from ${p}`);
    }
    case "rename": {
      const p = pick([...ts, ...py], op.a);
      if (!p) return "noop";
      const to = p.replace(/([^/]+)\.(ts|js|py)$/, `$1r${step}.$2`);
      return commit({ [p]: null, [to]: read(p) }, `rename ${p} → ${to}`);
    }
    case "delete": {
      const p = pick([...ts, ...py], op.a);
      if (!p) return "noop";
      return commit({ [p]: null }, `delete ${p}`);
    }
    case "move": {
      // Move a function from one file to another of the same language.
      const pool = op.a % 2 === 0 ? ts : py;
      const from = pick(pool, op.a);
      const to = pick(pool.filter((x) => x !== from), op.b);
      if (!from || !to) return "noop";
      const text = read(from);
      const name = pick(defined(text), op.c);
      if (!name || defined(read(to)).includes(name)) return "noop";
      const re = from.endsWith(".py") ? new RegExp(`^def ${name}\\(x\\):\\n(?: {4}.*\\n)*`, "m") : new RegExp(`^export function ${name}\\(.*\\n(?:.*\\n)*?\\}\\n`, "m");
      const m = re.exec(text);
      if (!m) return "noop";
      return commit({ [from]: text.replace(re, ""), [to]: `${read(to)}\n${m[0]}` }, `move ${name} ${from} → ${to}`);
    }
    case "rebind": {
      // Point an import at another module that defines the same name, so the call rebinds.
      const pool = op.a % 2 === 0 ? ts : py;
      const file = pick(pool, op.a);
      if (!file) return "noop";
      const text = read(file);
      const m = file.endsWith(".py") ? /^from pkg\.(\w+) import (\w+)$/m.exec(text) : /^import \{ (\w+) \} from "\.\/(\w+)";$/m.exec(text);
      if (!m) return "noop";
      const name = file.endsWith(".py") ? m[2]! : m[1]!;
      const cur = file.endsWith(".py") ? m[1]! : m[2]!;
      const other = pool.find((p) => p !== file && modOf(p) !== cur && defined(read(p)).includes(name));
      if (!other) return "noop";
      const line = file.endsWith(".py") ? `from pkg.${modOf(other)} import ${name}` : `import { ${name} } from "./${modOf(other)}";`;
      return commit({ [file]: text.replace(m[0], line) }, `rebind ${name} in ${file} to ${other}`);
    }
    case "lang": {
      const p = pick(ts, op.a);
      if (!p) return "noop";
      const to = p.endsWith(".ts") ? p.replace(/\.ts$/, ".js") : p.replace(/\.js$/, ".ts");
      const text = read(p).replace(/\(x: number\): number/g, "(x)");
      return commit({ [p]: null, [to]: text }, `lang ${p} → ${to}`);
    }
    case "branchMerge": {
      const branch = `b${step}`;
      const cur = git(dir, ["rev-parse", "--abbrev-ref", "HEAD"]);
      if (cur === "HEAD") return "noop"; // detached
      git(dir, ["checkout", "-q", "-b", branch]);
      const path = `src/br${step}.ts`;
      const imps = importFrom(ts, path);
      makeRepo(dir, [{ files: { [path]: tsFile(someNames(op.b), imps, imps.map((i) => i.name), salt) }, message: `on ${branch}` }]);
      git(dir, ["checkout", "-q", cur]);
      const p = pick([...ts, ...py], op.c);
      if (p) makeRepo(dir, [{ files: { [p]: read(p).replace(/x \+ (\d+)/, (_m, n: string) => `x + ${Number(n) + 3}`) }, message: `meanwhile on ${cur}` }]);
      makeRepo(dir, [{ merge: branch, files: {}, message: `merge ${branch}` }]);
      return `branch ${branch}, merge`;
    }
    case "switch": {
      const branches = git(dir, ["for-each-ref", "--format=%(refname:short)", "refs/heads"]).split("\n").filter(Boolean);
      const cur = git(dir, ["rev-parse", "--abbrev-ref", "HEAD"]);
      if (!branches.includes("side")) {
        git(dir, ["branch", "side", `HEAD~${Math.min(op.a % 3, Number(git(dir, ["rev-list", "--count", "HEAD"])) - 1)}`]);
      }
      const target = cur === "side" ? "main" : "side";
      git(dir, ["checkout", "-q", target]);
      return `switch to ${target}`;
    }
    case "reset": {
      const depth = Number(git(dir, ["rev-list", "--count", "--first-parent", "HEAD"]));
      if (depth < 2) return "noop";
      const k = 1 + (op.a % Math.min(3, depth - 1));
      git(dir, ["reset", "-q", "--hard", `HEAD~${k}`]);
      return `reset HEAD~${k}`;
    }
    case "revert": {
      const parents = git(dir, ["rev-list", "--parents", "-n", "1", "HEAD"]).split(" ").length - 1;
      if (parents === 0) return "noop";
      git(dir, ["revert", "--no-edit", ...(parents > 1 ? ["-m", "1"] : []), "HEAD"], 1704110400 + step * 3600);
      return "revert HEAD";
    }
  }
  return "noop";
}

const BASE_TREE = {
  "package.json": JSON.stringify({ name: "prop", version: "1.0.0" }),
  "src/alpha.ts": tsFile(["run", "load"], [], [], 1),
  "src/beta.ts": tsFile(["calc", "run"], [{ from: "alpha", name: "load" }], ["load"], 2),
  "pkg/__init__.py": "",
  "pkg/one.py": pyFile(["save", "fmt"], [], [], 3),
  "pkg/two.py": pyFile(["check", "save"], [{ from: "one", name: "fmt" }], ["fmt"], 4),
};

describe("convergence", () => {
  test("random commit sequences: the folded plane equals a full digest after every step", { timeout: 600_000 }, async (t) => {
    const seed = process.env.DRSG_PROPERTY_SEED ? Number(process.env.DRSG_PROPERTY_SEED) : Date.now() % 2_147_483_647;
    const runs = process.env.DRSG_PROPERTY_RUNS ? Number(process.env.DRSG_PROPERTY_RUNS) : 10;
    t.diagnostic(`fast-check seed ${seed}, ${runs} run(s) — rerun with DRSG_PROPERTY_SEED=${seed}`);
    let partial = 0;
    let steps = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 2, maxLength: 7 }), async (ops) => {
        const dir = temp("drsg-prop-");
        makeRepo(dir, [{ files: BASE_TREE, message: "base" }]);
        const { store } = tempStore();
        const sync = await openSync(store, dir, { plane: "prop", git: false });
        const done: string[] = [];
        try {
          await sync.syncToHead();
          for (const [i, op] of ops.entries()) {
            done.push(applyOp(dir, op, i + 1));
            const r: FoldResult = await sync.syncToHead();
            if (r.resolution?.partial.length) partial++;
            steps++;
            await assertConverged(store, "prop", dir, `after ${done.join("; ")}`);
          }
        } finally {
          await sync.close();
          store.close();
        }
      }),
      { seed, numRuns: runs, endOnFailure: true },
    );
    t.diagnostic(`${steps} step(s) compared; ${partial} fold(s) resolved incrementally`);
  });

  test("random commit sequences folded by a fresh sync each time (a new process): equal to a full digest", { timeout: 600_000 }, async (t) => {
    const seed = process.env.DRSG_PROPERTY_SEED ? Number(process.env.DRSG_PROPERTY_SEED) : (Date.now() + 1) % 2_147_483_647;
    const runs = process.env.DRSG_PROPERTY_RUNS ? Number(process.env.DRSG_PROPERTY_RUNS) : 6;
    t.diagnostic(`fast-check seed ${seed}, ${runs} run(s) — rerun with DRSG_PROPERTY_SEED=${seed}`);
    let seeded = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 2, maxLength: 6 }), async (ops) => {
        const dir = temp("drsg-prop-");
        makeRepo(dir, [{ files: BASE_TREE, message: "base" }]);
        const { store } = tempStore();
        const done: string[] = [];
        try {
          const first = await openSync(store, dir, { plane: "prop", git: false });
          await first.syncToHead();
          await first.close();
          for (const [i, op] of ops.entries()) {
            done.push(applyOp(dir, op, i + 1));
            // Nothing in memory: the index is seeded from the plane's facts, or resolves in full.
            const sync = await openSync(store, dir, { plane: "prop", git: false });
            try {
              const r: FoldResult = await sync.syncToHead();
              if (r.resolution?.partial.length) seeded++;
            } finally {
              await sync.close();
            }
            await assertConverged(store, "prop", dir, `fresh sync after ${done.join("; ")}`);
          }
        } finally {
          store.close();
        }
      }),
      { seed, numRuns: runs, endOnFailure: true },
    );
    t.diagnostic(`${seeded} fresh fold(s) resolved incrementally from the plane's own facts`);
    assert.ok(seeded > 0, "some fresh folds were incremental (seeded from the plane)");
  });

  test("every commit of the fixture history, forwards, backwards and jumping", { timeout: 600_000 }, async () => {
    const { dir, subDir } = shopDirs(temp("drsg-conv-"));
    const fx = makeShopHistory(dir, subDir);
    assert.ok(fx.order.length >= 10);
    const { store } = tempStore();
    const sync = await openSync(store, dir, { plane: "shop", git: false });
    await sync.foldTo(fx.order[0]!);
    await assertConverged(store, "shop", dir, "first commit");
    for (const sha of fx.order.slice(1)) {
      await sync.foldTo(sha);
      await assertConverged(store, "shop", dir, `forwards at ${sha.slice(0, 7)}`);
    }
    for (const sha of [...fx.order].reverse()) {
      await sync.foldTo(sha);
      await assertConverged(store, "shop", dir, `backwards at ${sha.slice(0, 7)}`);
    }
    const jumps = [3, 11, 0, 14, 7, 2, 15, 5].map((i) => fx.order[i % fx.order.length]!);
    for (const sha of jumps) {
      await sync.foldTo(sha);
      await assertConverged(store, "shop", dir, `jump to ${sha.slice(0, 7)}`);
    }
    await sync.close();
    store.close();
  });
});
