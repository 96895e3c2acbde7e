// The package version, read once from package.json.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "./paths.js";

let cached: string | undefined;
export function version(): string {
  cached ??= (JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string }).version;
  return cached;
}
