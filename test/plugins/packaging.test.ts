// What an npm install of drsg from the registry (not a dev clone) needs to install every catalog
// plugin: each grammar a plugin names is pinned in grammars/grammars.json, and its npm package is
// a runtime dependency at exactly the pinned version (a devDependency is not installed for users;
// a range could resolve to a build whose wasm no longer matches the pinned sha256).
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { CATALOG_DIR, PACKAGE_ROOT } from "../../src/paths.js";

const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies?: Record<string, string>;
  files: string[];
};
const pins = JSON.parse(readFileSync(join(PACKAGE_ROOT, "grammars", "grammars.json"), "utf8")) as Record<string, { package: string; version: string }>;

function pluginsIn(dir: string): { name: string; grammars: Record<string, string> }[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => {
      try {
        return [JSON.parse(readFileSync(join(dir, d.name, "plugin.json"), "utf8")) as { name: string; grammars: Record<string, string> }];
      } catch {
        return [];
      }
    });
}

test("every official and catalog plugin's grammar is a runtime dependency at its pinned version", () => {
  const all = [...pluginsIn(join(PACKAGE_ROOT, "plugins")), ...pluginsIn(CATALOG_DIR)];
  assert.ok(all.some((p) => p.name === "ruby") && all.some((p) => p.name === "ts"), "catalog and official plugins found");
  for (const p of all)
    for (const grammar of Object.values(p.grammars)) {
      const pin = pins[grammar];
      assert.ok(pin, `${p.name}: grammar '${grammar}' is pinned in grammars/grammars.json`);
      assert.equal(pkg.dependencies[pin.package], pin.version, `${p.name}: ${pin.package} is a dependency at exactly ${pin.version}`);
      assert.equal(pkg.devDependencies?.[pin.package], undefined, `${p.name}: ${pin.package} is not (also) a devDependency`);
    }
  for (const f of ["plugins", "grammars", "bin"]) assert.ok(pkg.files.includes(f), `package.json files ships ${f}`);
});
