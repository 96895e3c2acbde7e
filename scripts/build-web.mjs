// Builds the dashboard page (web/) into dist/web: web/src/main.ts bundled by esbuild (sigma and
// graphology inside it) into dist/web/assets/app.js, web/style.css into app.css, index.html
// beside them. Run by npm run build / prepare / test, so a published package serves the page
// with no toolchain at run time.
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "dist", "web");
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, "assets"), { recursive: true });
await build({
  entryPoints: [join(root, "web", "src", "main.ts")],
  outfile: join(out, "assets", "app.js"),
  bundle: true,
  format: "esm",
  platform: "browser",
  target: ["es2022"],
  minify: true,
  // No source map in the package by default (it is 3.5× the bundle); DRSG_WEB_SOURCEMAP=1 adds one.
  sourcemap: process.env.DRSG_WEB_SOURCEMAP === "1",
  legalComments: "linked",
  logLevel: "warning",
});
copyFileSync(join(root, "web", "style.css"), join(out, "assets", "app.css"));
copyFileSync(join(root, "web", "index.html"), join(out, "index.html"));
