// Crossing repositories on real planes: a symbol a library exports from its package root
// (index.js → key `mylib.greet`) is reached from a consumer that imports it as `mylib`; an
// attachment whose plane was dropped is a note in wire and impact, never PLANE_NOT_FOUND for the group.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { GraphViews } from "../../src/graph/view.js";
import { activePlugins } from "../../src/plugin/registry.js";
import { openStore } from "../../src/store/store.js";
import { digest } from "../../src/sync/digest.js";
import { attach } from "../../src/tools/attachments.js";
import { impact } from "../../src/tools/impact.js";
import type { ToolContext } from "../../src/tools/tool.js";
import { wire } from "../../src/tools/wire.js";
import { makeRepo } from "../git/fixture.js";

test("impact across reaches a consumer of a package-root export; a dropped attachment is a note", { timeout: 120_000 }, async () => {
  const root = mkdtempSync(join(tmpdir(), "drsg-across-"));
  try {
    const lib = join(root, "mylib");
    const app = join(root, "app");
    makeRepo(lib, [
      {
        files: {
          "package.json": JSON.stringify({ name: "mylib", main: "index.js" }),
          "index.js": "function shout(s) { return s.toUpperCase(); }\nexport function greet(name) { return shout(`hi ${name}`); }\n",
        },
        message: "lib",
      },
    ]);
    makeRepo(app, [
      {
        files: {
          "package.json": JSON.stringify({ name: "app", dependencies: { mylib: "1.0.0" } }),
          "src/main.ts": 'import { greet } from "mylib";\nexport function hello() { return greet("you"); }\napp.get("/hello", hello);\n',
        },
        message: "app",
      },
    ]);
    const store = openStore(join(root, "g.drsg"), { create: true });
    const ctx: ToolContext = { store, transport: "stdio", plugins: activePlugins, views: new GraphViews(store) };
    try {
      await digest({ dir: lib, plugins: activePlugins(), store, plane: "mylib" });
      await digest({ dir: app, plugins: activePlugins(), store, plane: "app" });
      assert.ok(store.getNodeByKey("mylib", "mylib.greet"), "the package root's export is keyed mylib.greet");
      await attach.run(ctx, { plane: "app", target: "mylib" });
      const across = String(await impact.run(ctx, { plane: "mylib", name: "shout", depth: 3, across: "attached" }));
      assert.match(across, /across plane 'app': via npm:mylib\/greet → mylib\.greet/);
      assert.match(across, /app\/src\/main\.hello/);

      // A plane the group attaches is dropped: both verbs answer, with a note naming it.
      await digest({ dir: lib, plugins: activePlugins(), store, plane: "scratch" });
      await attach.run(ctx, { plane: "app", target: "scratch" });
      store.write((w) => w.dropPlane("scratch"));
      const w = String(await wire.run(ctx, { plane: "app" }));
      assert.match(w, /note: plane 'app' attaches 'scratch', which this database does not hold now/);
      assert.match(w, /GET \/hello/);
      const i = String(await impact.run(ctx, { plane: "mylib", name: "shout", depth: 3, across: "attached" }));
      assert.match(i, /attaches 'scratch', which this database does not hold now/);
      assert.match(i, /across plane 'app'/);
    } finally {
      store.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
