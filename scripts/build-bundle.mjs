// Bundles what bin/ runs (the CLI, drsg-mcp, the extraction worker) from tsc's output (dist/src)
// into dist/bundle with esbuild: one module graph per process start instead of ~150 files found,
// read and linked one by one (a cold CLI verb spent ~100 ms there, before any work). Lazy imports
// stay lazy (code splitting: a verb still loads only its own tool's chunk).
// - zod is bundled without its ~60 locale modules: drsg's messages are English, and zod's own
//   index imports them all (~50 ms of every start). Only `en` is kept (zod's default).
// - The MCP SDK is bundled with it, so it and drsg share one zod; its JSON Schema validator
//   (ajv, built when a Server or Client is constructed, ~50 ms of drsg-mcp's start) is replaced
//   by src/mcp/ajv-lazy.ts, which loads the SDK's own validator on its first use.
// - Native and wasm packages (better-sqlite3, web-tree-sitter) and everything else in
//   node_modules stay external: loaded from node_modules as tsc's output loads them.
// Run by npm run build / prepare / test / bench after tsc. Names and lines are kept (no
// minification): a stack trace from a user still says where.
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist", "bundle");
/** Packages bundled in; any other bare import stays a runtime import from node_modules. */
const BUNDLED = /^(zod|@modelcontextprotocol\/sdk)(\/|$)/;

const packages = {
  name: "drsg-packages",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (a) => (a.path.startsWith("node:") || BUNDLED.test(a.path) ? undefined : { path: a.path, external: true }));
    // zod's locales index (imported by zod/v4/core and zod's classic API): English only.
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (a) =>
      a.importer.includes(`${join("node_modules", "zod")}`) ? { path: join(dirname(a.importer), a.path), namespace: "zod-locales" } : undefined,
    );
    b.onResolve({ filter: /\/validation\/ajv-provider\.js$/ }, (a) =>
      a.importer.includes(join("node_modules", "@modelcontextprotocol", "sdk")) ? { path: join(root, "dist", "src", "mcp", "ajv-lazy.js") } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "zod-locales" }, (a) => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(a.path), "en.js"))};`,
      resolveDir: dirname(a.path),
    }));
  },
};

rmSync(out, { recursive: true, force: true });
await build({
  entryPoints: {
    cli: join(root, "dist", "src", "cli", "main.js"),
    mcp: join(root, "dist", "src", "mcp", "stdio.js"),
    // bin/drsg.js loads it first, alone (src/sync/follower-process.ts).
    follower: join(root, "dist", "src", "sync", "follower-process.js"),
    // src/extract/pool.ts starts it as `./worker.js` beside its own chunk.
    worker: join(root, "dist", "src", "extract", "worker.js"),
  },
  outdir: out,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  plugins: [packages],
  logLevel: "warning",
});
