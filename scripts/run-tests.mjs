// Runs every compiled test file under dist/test with node's built-in test runner.
// Usage: node scripts/run-tests.mjs [substring filter...]
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

function walk(dir, out) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith(".test.js")) out.push(p);
  }
  return out;
}

const filters = process.argv.slice(2);
const files = walk("dist/test", []).filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)));
if (files.length === 0) {
  console.error("no test files matched");
  process.exit(1);
}
// No test may hang the run: each has ten minutes unless it says otherwise, a file whose tests are
// done exits even if a child it started is still holding it open, and the whole run has an hour.
const r = spawnSync(process.execPath, ["--test", "--test-reporter=spec", "--test-timeout=600000", "--test-force-exit", ...files], {
  stdio: "inherit",
  timeout: 60 * 60 * 1000,
  killSignal: "SIGKILL",
});
if (r.error) console.error(`the test run did not finish: ${r.error.message}`);
process.exit(r.status ?? 1);
