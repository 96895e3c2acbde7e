// A fold re-resolves only the files that may read a change (P3, src/sync/affected.ts), in the
// families that say what a file reads (python, typescript): what each file's imports reach, a
// class's members where a value of the class can be held, a module's names where the module is
// read (and where a package or a barrel re-exports them, under another name too). Held to the
// convergence invariant after every commit — by one follower and by a fresh sync per commit (a
// new process: partials deferred, the index read from the plane) — and to the scope it claims:
// a change only a test module can see re-resolves that module alone; a key collision with a file
// it never read is still seen. A fresh fold reads only the
// partials its resolution meets: a cache row it never asks for stays as it was, and one it needs
// but cannot read sends it back to an eager read that still converges.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import Database from "better-sqlite3";
import { openStore } from "../../src/store/store.js";
import type { Store } from "../../src/store/types.js";
import type { FoldResult } from "../../src/sync/fold.js";
import { git, makeRepo } from "../git/fixture.js";
import { assertConverged, cleanupAll, closePool, openSync, temp, tempStore } from "./helpers.js";

after(async () => {
  await closePool();
  cleanupAll();
});

const PY_BASE = {
  "app/__init__.py": "from .models import User\nfrom .base import *\n",
  "app/base.py": "class Base:\n    def save(self):\n        return 1\n\n\ndef helper():\n    return 2\n",
  "app/models.py": "from .base import Base\n\n\nclass User(Base):\n    def greet(self):\n        return 'hi'\n",
  "app/factory.py": "from .models import User\n\n\ndef make() -> User:\n    return User()\n",
  // Through the package's re-export: never names app.models.
  "app/use_direct.py": "from app import User\n\n\ndef f():\n    u = User()\n    return u.save()\n",
  // Through a declared return type: never names User or Base.
  "app/use_factory.py": "from .factory import make\n\n\ndef g():\n    x = make()\n    return x.save()\n",
  // Through the package's star import of base.
  "app/use_star.py": "from app import *\n\n\ndef h():\n    return helper()\n",
  // Nothing imports a test module.
  "tests/__init__.py": "",
  "tests/test_user.py": "from app.models import User\n\n\nclass TestUser:\n    def test_it(self):\n        return User().greet()\n",
  // Writes the same names, reads none of app.
  "other/__init__.py": "",
  "other/lone.py": "class Other:\n    def save(self):\n        return 3\n\n    def greet(self):\n        return 4\n\n\ndef helper():\n    return Other().save()\n",
};

/** A commit, and how many files a scoped fold may re-resolve at most (undefined: not bounded here). */
interface Step {
  message: string;
  files: Record<string, string | null>;
  atMost?: number;
  /** The family is resolved in full, for this reason. */
  full?: RegExp;
}

const PY_STEPS: Step[] = [
  {
    message: "save moves to a mixin: the MRO of Base changes (use_direct and use_factory bind it)",
    files: {
      "app/base.py": "class Mixin:\n    def save(self):\n        return 1\n\n\nclass Base(Mixin):\n    pass\n\n\ndef helper():\n    return 2\n",
    },
  },
  {
    message: "a test class extending another: nothing else can see it",
    files: {
      "tests/test_user.py":
        "from app.models import User\n\n\nclass TestUser:\n    def test_it(self):\n        return User().greet()\n\n\nclass TestMore(TestUser):\n    def test_more(self):\n        return self.test_it()\n",
    },
    atMost: 1,
  },
  {
    message: "greet is gone from User: the test's call changes, lone.py's greet is another class's",
    files: { "app/models.py": "from .base import Base\n\n\nclass User(Base):\n    pass\n" },
  },
  {
    message: "helper leaves base (the star import no longer brings it)",
    files: { "app/base.py": "class Mixin:\n    def save(self):\n        return 1\n\n\nclass Base(Mixin):\n    pass\n" },
  },
  {
    message: "helper comes back, in models, re-exported by the package by name",
    files: {
      "app/models.py": "from .base import Base\n\n\nclass User(Base):\n    pass\n\n\ndef helper():\n    return 5\n",
      "app/__init__.py": "from .models import User, helper\nfrom .base import *\n",
    },
  },
  {
    message: "make returns a Base now",
    files: { "app/factory.py": "from .base import Base\n\n\ndef make() -> Base:\n    return Base()\n" },
  },
];


const CHAIN = "export class P {\n  go() {\n    return 1;\n  }\n}\n\nexport class Q {\n  go() {\n    return 2;\n  }\n}\n\n";

const TS_BASE = {
  "package.json": '{"name":"app","version":"1.0.0","dependencies":{"left-pad":"^1.3.0"}}',
  "src/base.ts": "export class Base {\n  save() {\n    return 1;\n  }\n}\n\nexport function helper() {\n  return 2;\n}\n",
  "src/models.ts": 'import { Base } from "./base.js";\n\nexport class User extends Base {\n  greet() {\n    return "hi";\n  }\n}\n',
  "src/index.ts": 'export { User } from "./models.js";\nexport * from "./base.js";\n',
  "src/factory.ts": 'import { User } from "./models.js";\n\nexport function make(): User {\n  return new User();\n}\n',
  // Through the barrel's re-export: never names models.
  "src/use_direct.ts": 'import { User } from "./index.js";\n\nexport function f() {\n  const u = new User();\n  return u.save();\n}\n',
  // Through a declared return type: never names User or Base.
  "src/use_factory.ts": 'import { make } from "./factory.js";\n\nexport function g() {\n  const x = make();\n  return x.save();\n}\n',
  // Through the barrel's star re-export.
  "src/use_star.ts": 'import { helper } from "./index.js";\n\nexport function h() {\n  return helper();\n}\n',
  // Through a default export under another name.
  "src/dflt.ts": 'import { Base } from "./base.js";\n\nexport default function build(): Base {\n  return new Base();\n}\n',
  "src/use_dflt.ts": 'import mk from "./dflt.js";\n\nexport function k() {\n  return mk().save();\n}\n',
  // A result inferred through a same-file callee: direct() returns what make() returns.
  "src/chain.ts": `${CHAIN}\nexport class Maker {\n  make() {\n    return new P();\n  }\n  direct() {\n    const v = this.make();\n    return v;\n  }\n}\n`,
  "src/use_chain.ts": 'import { Maker } from "./chain.js";\n\nexport function c() {\n  return new Maker().direct().go();\n}\n',
  // Nothing imports a test.
  "test/user.test.ts": 'import { User } from "../src/models.js";\n\nexport function t() {\n  return new User().greet();\n}\n',
  // Writes the same names, reads none of src.
  "other/lone.ts": "export class Other {\n  save() {\n    return 3;\n  }\n  greet() {\n    return 4;\n  }\n}\n\nexport function helper() {\n  return new Other().save();\n}\n",
};

const TS_MIXIN = "export class Mixin {\n  save() {\n    return 1;\n  }\n}\n\nexport class Base extends Mixin {}\n";

const TS_STEPS: Step[] = [
  {
    message: "save moves to a mixin: Base's supertype changes (use_direct, use_factory and use_dflt bind it)",
    files: { "src/base.ts": `${TS_MIXIN}\nexport function helper() {\n  return 2;\n}\n` },
  },
  {
    message: "a test class extending User: nothing else can see it",
    files: {
      "test/user.test.ts":
        'import { User } from "../src/models.js";\n\nexport function t() {\n  return new User().greet();\n}\n\nclass More extends User {\n  more() {\n    return this.greet();\n  }\n}\n\nexport const more = new More().more();\n',
    },
    atMost: 1,
  },
  {
    message: "greet is gone from User: the test's calls change, lone.ts's greet is another class's",
    files: { "src/models.ts": 'import { Base } from "./base.js";\n\nexport class User extends Base {}\n' },
  },
  { message: "helper leaves base (the star re-export no longer brings it)", files: { "src/base.ts": TS_MIXIN } },
  {
    message: "helper comes back, in models, re-exported by the barrel by name",
    files: {
      "src/models.ts": 'import { Base } from "./base.js";\n\nexport class User extends Base {}\n\nexport function helper() {\n  return 5;\n}\n',
      "src/index.ts": 'export { User, helper } from "./models.js";\nexport * from "./base.js";\n',
    },
  },
  {
    message: "a release: the version and a dependency's version move (nothing the resolver reads)",
    files: { "package.json": '{"name":"app","version":"1.0.1","dependencies":{"left-pad":"^1.3.1"}}' },
    atMost: 0,
  },
  {
    message: "a dependency added: a bare specifier may now be external",
    files: { "package.json": '{"name":"app","version":"1.0.1","dependencies":{"left-pad":"^1.3.1","lodash":"^4.0.0"}}' },
    full: /manifest package.json changed/,
  },
  {
    message: "a method added to Maker: no inferred result follows it, use_chain stays",
    files: { "src/chain.ts": `${CHAIN}\nexport class Maker {\n  make() {\n    return new P();\n  }\n  direct() {\n    const v = this.make();\n    return v;\n  }\n  extra() {\n    return 3;\n  }\n}\n` },
    atMost: 1,
  },
  {
    message: "make returns a Q now: direct(), inferred through make in the same file, changes use_chain's go",
    files: { "src/chain.ts": `${CHAIN}\nexport class Maker {\n  make() {\n    return new Q();\n  }\n  direct() {\n    const v = this.make();\n    return v;\n  }\n  extra() {\n    return 3;\n  }\n}\n` },
  },
  {
    message: "the default export returns a Mixin now",
    files: { "src/dflt.ts": 'import { Mixin } from "./base.js";\n\nexport default function build(): Mixin {\n  return new Mixin();\n}\n' },
  },
];

const LANGUAGES = [
  { name: "python", family: "python", base: PY_BASE, steps: PY_STEPS },
  { name: "typescript", family: "ts", base: TS_BASE, steps: TS_STEPS },
];

function partialFiles(r: FoldResult, family = "python"): number | undefined {
  return r.resolution?.partial.find((x) => x.family === family)?.files;
}

function fullWhy(r: FoldResult, family = "python"): string | undefined {
  return r.resolution?.full.find((x) => x.family === family)?.why;
}

describe("a fold scoped by what files may read", () => {
  for (const lang of LANGUAGES)
    for (const mode of ["one follower", "a fresh sync per commit"] as const) {
      test(`${lang.name}, ${mode}: every commit equals a full digest, and a change only a test sees re-resolves that test alone`, { timeout: 300_000 }, async () => {
        const dir = temp("drsg-scoped-");
        makeRepo(dir, [{ files: lang.base, message: "base" }]);
        const { store } = tempStore();
        let sync = await openSync(store, dir, { plane: "app", git: false });
        try {
          await sync.syncToHead();
          for (const step of lang.steps) {
            makeRepo(dir, [{ files: step.files, message: step.message }]);
            if (mode === "a fresh sync per commit") {
              await sync.close();
              sync = await openSync(store, dir, { plane: "app", git: false });
            }
            const r = await sync.syncToHead();
            await assertConverged(store, "app", dir, step.message);
            if (step.full) {
              assert.match(fullWhy(r, lang.family) ?? "", step.full, `${step.message}: resolved in full`);
              continue;
            }
            assert.equal(fullWhy(r, lang.family), undefined, `${step.message}: resolved in part, not in full`);
            const n = partialFiles(r, lang.family) ?? 0;
            if (step.atMost !== undefined) assert.ok(n <= step.atMost, `${step.message}: ${n} file(s) re-resolved, at most ${step.atMost}`);
            assert.ok(n < Object.keys(lang.base).length - 1, `${step.message}: ${n} file(s) re-resolved — not every one`);
          }
        } finally {
          await sync.close();
          store.close();
        }
      });
    }

  test("a family that declares no dependencies (java) resolves a supertype change in full, and converges", { timeout: 300_000 }, async () => {
    const dir = temp("drsg-scoped-java-");
    makeRepo(dir, [
      {
        files: {
          "j/A.java": "package j;\npublic class A { public int run() { return 1; } }\n",
          "j/Z.java": "package j;\npublic class Z { public int run() { return 2; } }\n",
          "j/B.java": "package j;\npublic class B extends A {}\n",
          "j/C.java": "package j;\npublic class C { int go() { B b = new B(); return b.run(); } }\n",
        },
        message: "base",
      },
    ]);
    const { store } = tempStore();
    const sync = await openSync(store, dir, { plane: "j", git: false });
    try {
      await sync.syncToHead();
      makeRepo(dir, [{ files: { "j/B.java": "package j;\npublic class B extends Z {}\n" }, message: "B extends Z" }]);
      const r = await sync.syncToHead();
      await assertConverged(store, "j", dir, "B extends Z");
      assert.match(r.resolution?.full.map((x) => x.why).join(" ") ?? "", /inheritance changed/);
    } finally {
      await sync.close();
      store.close();
    }
  });
});

describe("a new definition whose key is another file's module", () => {
  for (const mode of ["one follower", "a fresh sync per commit"] as const) {
    test(`${mode}: a new definition whose key another file holds resolves the family in full, and converges`, { timeout: 300_000 }, async () => {
      // A class `mod` added to pkg/__init__.py claims pkg/mod.py's module key (pkg.mod), and its
      // method `x` that of pkg/mod.py's `x`; nothing pkg/__init__.py resolves reads pkg/mod.py.
      const dir = temp("drsg-collide-");
      makeRepo(dir, [
        {
          files: {
            "pkg/__init__.py": "def top():\n    return 1\n",
            "pkg/mod.py": "def x():\n    return 2\n",
            "pkg/use.py": "from pkg.mod import x\n\n\ndef y():\n    return x()\n",
          },
          message: "base",
        },
      ]);
      const { store } = tempStore();
      let sync = await openSync(store, dir, { plane: "pkg", git: false });
      try {
        await sync.syncToHead();
        makeRepo(dir, [{ files: { "pkg/__init__.py": "def top():\n    return 1\n\n\nclass mod:\n    def x(self):\n        return 3\n" }, message: "class mod" }]);
        if (mode === "a fresh sync per commit") {
          await sync.close();
          sync = await openSync(store, dir, { plane: "pkg", git: false });
        }
        const r = await sync.syncToHead();
        await assertConverged(store, "pkg", dir, "class mod");
        assert.match(fullWhy(r) ?? "", /collision/, "resolved in full");
      } finally {
        await sync.close();
        store.close();
      }
    });
  }
});

/** The raw bytes of a file's cached partial at HEAD (the store closed meanwhile). */
function cacheRow(file: string, dir: string, path: string): { blob: string; data: Buffer | undefined } {
  const blob = git(dir, ["rev-parse", `HEAD:${path}`]).trim();
  const db = new Database(file, { readonly: true });
  try {
    const row = db.prepare("SELECT data FROM partial_cache WHERE blob = ?").get(blob) as { data: Buffer } | undefined;
    return { blob, data: row?.data };
  } finally {
    db.close();
  }
}

function spoil(file: string, blob: string): void {
  const db = new Database(file);
  try {
    db.prepare("UPDATE partial_cache SET data = x'00ff00ff' WHERE blob = ?").run(blob);
  } finally {
    db.close();
  }
}

async function foldFresh(file: string, dir: string): Promise<{ store: Store; r: FoldResult }> {
  const store = openStore(file);
  const sync = await openSync(store, dir, { plane: "app", git: false });
  try {
    return { store, r: await sync.syncToHead() };
  } finally {
    await sync.close();
  }
}

describe("a fresh fold reads only the partials its resolution meets", () => {
  test("a row it never asks for stays unread; a row it needs but cannot read is extracted again, and the fold converges", { timeout: 300_000 }, async () => {
    const dir = temp("drsg-deferred-");
    makeRepo(dir, [{ files: PY_BASE, message: "base" }]);
    const { store, file } = tempStore();
    const first = await openSync(store, dir, { plane: "app", git: false });
    await first.syncToHead();
    await first.close();
    store.close();

    // lone.py is read by nothing a change to use_direct.py leads to (a change of its body, not of
    // what it returns: a return statement is part of what other files see).
    const lone = cacheRow(file, dir, "other/lone.py");
    assert.ok(lone.data, "lone.py's partial is cached");
    spoil(file, lone.blob);
    makeRepo(dir, [{ files: { "app/use_direct.py": "from app import User\n\n\ndef f():\n    u = User()\n    n = 1\n    return u.save()\n" }, message: "body" }]);
    let fold = await foldFresh(file, dir);
    try {
      assert.equal(partialFiles(fold.r), 1, `one file re-resolved: ${JSON.stringify(fold.r.resolution)} ${fold.r.kind} ${fold.r.reason}`);
      await assertConverged(fold.store, "app", dir, "after a body change");
    } finally {
      fold.store.close();
    }
    assert.deepEqual(cacheRow(file, dir, "other/lone.py").data, Buffer.from([0, 255, 0, 255]), "lone.py's row was never read (or it would have been extracted again)");

    // models.py is where User is: resolving use_direct.py's u.save() reads it.
    const models = cacheRow(file, dir, "app/models.py");
    spoil(file, models.blob);
    makeRepo(dir, [{ files: { "app/use_direct.py": "from app import User\n\n\ndef f():\n    u = User()\n    n = 2\n    return u.save()\n" }, message: "body again" }]);
    fold = await foldFresh(file, dir);
    try {
      await assertConverged(fold.store, "app", dir, "after a fold that needed a spoiled row");
    } finally {
      fold.store.close();
    }
    assert.deepEqual(cacheRow(file, dir, "app/models.py").data, models.data, "models.py's row was extracted again");
  });
});
