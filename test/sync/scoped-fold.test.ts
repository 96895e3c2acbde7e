// A python fold re-resolves only the files that may read a change (P3, src/sync/affected.ts):
// what each file's imports reach, a class's members where a value of the class can be held, a
// module's names where the module is read (and where a package re-exports them). Held to the
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

const BASE = {
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

/** Each commit, and the files a scoped fold must re-resolve at most (undefined: not bounded here). */
const STEPS: { message: string; files: Record<string, string | null>; atMost?: number }[] = [
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

function partialFiles(r: FoldResult): number | undefined {
  const p = r.resolution?.partial.find((x) => x.family === "python");
  return p?.files;
}

function fullWhy(r: FoldResult): string | undefined {
  return r.resolution?.full.find((x) => x.family === "python")?.why;
}

describe("a python fold scoped by what files may read", () => {
  for (const mode of ["one follower", "a fresh sync per commit"] as const) {
    test(`${mode}: every commit equals a full digest, and a change only a test sees re-resolves that test alone`, { timeout: 300_000 }, async () => {
      const dir = temp("drsg-scoped-");
      makeRepo(dir, [{ files: BASE, message: "base" }]);
      const { store } = tempStore();
      let sync = await openSync(store, dir, { plane: "app", git: false });
      try {
        await sync.syncToHead();
        for (const step of STEPS) {
          makeRepo(dir, [{ files: step.files, message: step.message }]);
          if (mode === "a fresh sync per commit") {
            await sync.close();
            sync = await openSync(store, dir, { plane: "app", git: false });
          }
          const r = await sync.syncToHead();
          await assertConverged(store, "app", dir, step.message);
          assert.equal(fullWhy(r), undefined, `${step.message}: resolved in part, not in full`);
          const n = partialFiles(r);
          if (step.atMost !== undefined) assert.ok(n !== undefined && n <= step.atMost, `${step.message}: ${n} file(s) re-resolved, at most ${step.atMost}`);
          assert.ok(n === undefined || n < Object.keys(BASE).length, `${step.message}: ${n} file(s) re-resolved — not every one`);
        }
      } finally {
        await sync.close();
        store.close();
      }
    });
  }

  test("a family that declares no dependencies (typescript) resolves a supertype change in full, and converges", { timeout: 300_000 }, async () => {
    // TypeScript declares no dependencies: a changed supertype resolves its family in full.
    const dir = temp("drsg-scoped-ts-");
    makeRepo(dir, [
      {
        files: {
          "package.json": '{"name":"t"}',
          "src/a.ts": "export class A { run() { return 1; } }\nexport class Z { run() { return 2; } }\n",
          "src/b.ts": 'import { A } from "./a.js";\nexport class B extends A {}\n',
          "src/c.ts": 'import { B } from "./b.js";\nexport function go() { const b: B = new B(); return b.run(); }\n',
        },
        message: "base",
      },
    ]);
    const { store } = tempStore();
    const sync = await openSync(store, dir, { plane: "t", git: false });
    try {
      await sync.syncToHead();
      makeRepo(dir, [{ files: { "src/b.ts": 'import { Z } from "./a.js";\nexport class B extends Z {}\n' }, message: "B extends Z" }]);
      const r = await sync.syncToHead();
      await assertConverged(store, "t", dir, "B extends Z");
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
    makeRepo(dir, [{ files: BASE, message: "base" }]);
    const { store, file } = tempStore();
    const first = await openSync(store, dir, { plane: "app", git: false });
    await first.syncToHead();
    await first.close();
    store.close();

    // lone.py is read by nothing a change to use_direct.py leads to.
    const lone = cacheRow(file, dir, "other/lone.py");
    assert.ok(lone.data, "lone.py's partial is cached");
    spoil(file, lone.blob);
    makeRepo(dir, [{ files: { "app/use_direct.py": "from app import User\n\n\ndef f():\n    u = User()\n    return u.save() + 1\n" }, message: "body" }]);
    let fold = await foldFresh(file, dir);
    try {
      assert.equal(partialFiles(fold.r), 1, "one file re-resolved");
      await assertConverged(fold.store, "app", dir, "after a body change");
    } finally {
      fold.store.close();
    }
    assert.deepEqual(cacheRow(file, dir, "other/lone.py").data, Buffer.from([0, 255, 0, 255]), "lone.py's row was never read (or it would have been extracted again)");

    // models.py is where User is: resolving use_direct.py's u.save() reads it.
    const models = cacheRow(file, dir, "app/models.py");
    spoil(file, models.blob);
    makeRepo(dir, [{ files: { "app/use_direct.py": "from app import User\n\n\ndef f():\n    u = User()\n    return u.save() + 2\n" }, message: "body again" }]);
    fold = await foldFresh(file, dir);
    try {
      await assertConverged(fold.store, "app", dir, "after a fold that needed a spoiled row");
    } finally {
      fold.store.close();
    }
    assert.deepEqual(cacheRow(file, dir, "app/models.py").data, models.data, "models.py's row was extracted again");
  });
});
