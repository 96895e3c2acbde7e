// A callback's parameter is typed through other files: the callee's declared type (a field typed by
// an interface), that interface's call signatures, the type aliases they name. None of those names
// appears in the calling file, yet a change to any of them must re-resolve it: a fold equals a
// full digest after each.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { git, makeRepo } from "../git/fixture.js";
import { assertConverged, cleanupAll, closePool, openSync, temp, tempStore } from "./helpers.js";

after(async () => {
  await closePool();
  cleanupAll();
});

const CONTEXT = "export class Context {\n  json(): string {\n    return ''\n  }\n}\n\nexport class Other {\n  json(): string {\n    return ''\n  }\n}\n";
const types = (param: string, handler: string) =>
  `import type { Context, Other } from './context'\n\nexport type Handler = (c: ${param}) => unknown\nexport type Alt = (c: Other) => unknown\n\nexport interface Route {\n  <P extends string>(path: P, handler: ${handler}): void\n}\n`;
const APP = "import type { Route } from './types'\n\nexport class App {\n  get!: Route\n}\n";
const USE = "import { App } from './app'\n\nexport function routes(app: App): void {\n  app.get('/', (c) => c.json())\n}\n";

test("a callback typed through an interface's call signature and a type alias follows each change in a fold", { timeout: 120_000 }, async () => {
  const dir = temp("drsg-contextual-");
  makeRepo(dir, [{ files: { "src/context.ts": CONTEXT, "src/types.ts": types("Context", "Handler"), "src/app.ts": APP, "src/use.ts": USE }, message: "init" }]);
  const { store } = tempStore();
  const sync = await openSync(store, dir, { plane: "p", git: false });
  try {
    await sync.syncToHead();
    // Keys open with the package's name: the temp dir's.
    const pkg = dir.slice(dir.lastIndexOf("/") + 1);
    const bound = () =>
      store
        .edgesOut("p", store.getNodeByKey("p", `${pkg}/src/use.routes`)!.id, "CALLS")
        .map((e) => store.getNode("p", e.dst)!.key)
        .filter((k) => k.startsWith(`${pkg}/`) && k.endsWith(".json"))
        .map((k) => k.slice(pkg.length + 1));
    assert.deepEqual(bound(), ["src/context.Context.json"], "a full digest binds it");
    const step = async (file: string, text: string, message: string, want: string[]) => {
      writeFileSync(join(dir, file), text);
      git(dir, ["commit", "-qam", message]);
      const r = await sync.syncToHead();
      assert.ok(r.resolution?.partial, `${message}: resolved incrementally`);
      assert.deepEqual(bound(), want, message);
      await assertConverged(store, "p", dir, message);
    };
    await step("src/types.ts", types("Other", "Handler"), "the alias's parameter type changes", ["src/context.Other.json"]);
    await step("src/types.ts", types("Context", "Handler"), "and back", ["src/context.Context.json"]);
    await step("src/types.ts", types("Context", "Alt"), "the call signature names another alias", ["src/context.Other.json"]);
    await step("src/app.ts", "import type { Route } from './types'\n\nexport class App {\n  get!: (path: string) => void\n}\n", "the field's type is no interface", []);
  } finally {
    await sync.close();
    store.close();
  }
});
