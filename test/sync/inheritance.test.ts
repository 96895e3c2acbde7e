// A fold after a supertype changes: `b.bar()` is bound through B extends C extends D, and the
// calling file never writes C or D. Changing what C extends must still re-bind the call, in
// TypeScript, Python and Java alike — the folded plane equals a full digest after each commit.
import { after, test } from "node:test";
import { makeRepo } from "../git/fixture.js";
import { assertConverged, cleanupAll, closePool, openSync, temp, tempStore } from "./helpers.js";

after(async () => {
  await closePool();
  cleanupAll();
});

test("a changed supertype re-binds calls in files that never name it", { timeout: 120_000 }, async () => {
  const dir = temp();
  makeRepo(dir, [
    {
      files: {
        "package.json": '{"name":"inh"}',
        "src/d.ts": "export class D { bar() { return 1; } }\nexport class E { bar() { return 2; } }\n",
        "src/c.ts": 'import { D } from "./d.js";\nexport class C extends D {}\n',
        "src/b.ts": 'import { C } from "./c.js";\nexport class B extends C {}\n',
        "src/x.ts": 'import { B } from "./b.js";\nexport function use() { const b: B = new B(); return b.bar(); }\n',
        "py/__init__.py": "",
        "py/d.py": "class D:\n    def bar(self):\n        return 1\n\n\nclass E:\n    def bar(self):\n        return 2\n",
        "py/c.py": "from py.d import D\n\n\nclass C(D):\n    pass\n",
        "py/b.py": "from py.c import C\n\n\nclass B(C):\n    pass\n",
        "py/x.py": "from py.b import B\n\n\ndef use():\n    b = B()\n    return b.bar()\n",
        "j/D.java": "package j;\npublic class D { public int bar() { return 1; } }\n",
        "j/E.java": "package j;\npublic class E { public int bar() { return 2; } }\n",
        "j/C.java": "package j;\npublic class C extends D {}\n",
        "j/B.java": "package j;\npublic class B extends C {}\n",
        "j/X.java": "package j;\npublic class X { int use() { B b = new B(); return b.bar(); } }\n",
      },
      message: "C extends D",
    },
  ]);
  const { store } = tempStore();
  const sync = await openSync(store, dir);
  try {
    await sync.syncToHead();
    await assertConverged(store, sync.plane, dir, "first build");
    makeRepo(dir, [
      {
        files: {
          "src/c.ts": 'import { E } from "./d.js";\nexport class C extends E {}\n',
          "py/c.py": "from py.d import E\n\n\nclass C(E):\n    pass\n",
          "j/C.java": "package j;\npublic class C extends E {}\n",
        },
        message: "C extends E",
      },
    ]);
    await sync.syncToHead();
    await assertConverged(store, sync.plane, dir, "after C changed its supertype");
  } finally {
    await sync.close();
    store.close();
  }
});
