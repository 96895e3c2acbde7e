// Which build a shim runs: the bundle (dist/bundle, scripts/build-bundle.mjs: one module graph, a
// cold start ~40–100 ms shorter) unless tsc's output is newer than it — a `tsc` run since the
// last bundle, while developing — or DRSG_UNBUNDLED=1 asks for tsc's output itself (dist/src).
import { statSync } from "node:fs";

/** The URL of `bundled` in dist/bundle, or of `compiled` in dist/src when that is newer or the bundle is absent. */
export function entry(bundled, compiled) {
  const bundle = new URL(`../dist/bundle/${bundled}`, import.meta.url);
  const src = new URL(`../dist/src/${compiled}`, import.meta.url);
  if (process.env.DRSG_UNBUNDLED === "1") return src.href;
  try {
    return statSync(bundle).mtimeMs >= statSync(src).mtimeMs ? bundle.href : src.href;
  } catch {
    return src.href;
  }
}
