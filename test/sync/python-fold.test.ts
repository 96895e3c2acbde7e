// A Python receiver typed through other files' function bodies: a function without a return
// annotation returns what its return statements agree on (not when it is a generator). Neither
// the callee's body nor whether it yields appears in the calling files, yet a change to either
// must re-resolve them — directly (`make().connect()`), through a module-level value
// (`CURRENT = make()` in a third file) and through a function of its file the callee's return
// calls (`return local()`), or through another file's function that declares its result
// (`return build()`: the return is typed through that name, so a change of it reaches these
// callers). A fold equals a full digest after each.
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

const KINDS = "class URL:\n    def connect(self) -> None:\n        pass\n\n\nclass Other:\n    def connect(self) -> None:\n        pass\n";
const make = (body: string, built = "URL") =>
  `from net.kinds import URL, Other\nfrom net.build import build\n\n\ndef local() -> ${built}:\n    return ${built}()\n\n\ndef make():\n${body}`;
const build = (cls: string) => `from net.kinds import URL, Other\n\n\ndef build() -> ${cls}:\n    return ${cls}()\n`;
const HOLDER = "from net.make import make\n\nCURRENT = make()\n";
const USE = "from net.make import make\nfrom net.holder import CURRENT\n\n\ndef use() -> None:\n    make().connect()\n    CURRENT.connect()\n";

test("python: an inferred return type across files follows each change of the callee's body in a fold", { timeout: 120_000 }, async () => {
  const dir = temp("drsg-python-fold-");
  makeRepo(dir, [
    {
      files: {
        "net/__init__.py": "",
        "net/kinds.py": KINDS,
        "net/build.py": build("URL"),
        "net/make.py": make("    return URL()\n"),
        "net/holder.py": HOLDER,
        "net/use.py": USE,
      },
      message: "init",
    },
  ]);
  const { store } = tempStore();
  const sync = await openSync(store, dir, { plane: "p", git: false });
  try {
    await sync.syncToHead();
    const bound = () =>
      store
        .edgesOut("p", store.getNodeByKey("p", "net.use.use")!.id, "CALLS")
        .map((e) => ({ key: store.getNode("p", e.dst)!.key, n: Array.isArray(e.props.sites) ? e.props.sites.length : 1 }))
        .filter((x) => x.key.endsWith(".connect") && x.key.startsWith("net."))
        .map((x) => `${x.key}×${x.n}`);
    assert.deepEqual(bound(), ["net.kinds.URL.connect×2"], "a full digest binds both");
    const step = async (file: string, text: string, message: string, want: string[]) => {
      writeFileSync(join(dir, file), text);
      git(dir, ["commit", "-qam", message]);
      const r = await sync.syncToHead();
      assert.ok(r.resolution?.partial, `${message}: resolved incrementally`);
      assert.deepEqual(bound(), want, message);
      await assertConverged(store, "p", dir, message);
    };
    await step("net/make.py", make("    return Other()\n"), "the callee returns another class", ["net.kinds.Other.connect×2"]);
    await step("net/make.py", make("    yield 1\n    return Other()\n"), "the callee becomes a generator", []);
    await step("net/make.py", make("    return URL()\n"), "and back", ["net.kinds.URL.connect×2"]);
    // make() returns what local() in its file declares; local's declaration changes.
    await step("net/make.py", make("    return local()\n"), "the callee returns a function's result", ["net.kinds.URL.connect×2"]);
    await step("net/make.py", make("    return local()\n", "Other"), "that function declares another class", ["net.kinds.Other.connect×2"]);
    // A function of another file that declares its result: the return is typed through its name,
    // so a change of that declaration re-resolves these callers.
    await step("net/make.py", make("    return build()\n"), "the callee returns another file's function's result", ["net.kinds.URL.connect×2"]);
    await step("net/build.py", build("Other"), "that function declares another class", ["net.kinds.Other.connect×2"]);
  } finally {
    await sync.close();
    store.close();
  }
});
