// Child process of the digest benchmark: digest <dir> into <db>, print figures as JSON.
import { readFileSync } from "node:fs";
import { cpuUsage, resourceUsage } from "node:process";
import { activePlugins } from "../src/plugin/registry.js";
import { openStore } from "../src/store/store.js";
import { digest } from "../src/sync/digest.js";

const [dir, db] = process.argv.slice(2);
if (!dir || !db) throw new Error("usage: digest-child <dir> <db>");
const store = openStore(db, { create: true });
/** This thread's CPU in ms (utime + stime from /proc, 10 ms ticks); the main thread here. */
function threadCpuMs(): number {
  const f = readFileSync("/proc/thread-self/stat", "utf8");
  const rest = f.slice(f.lastIndexOf(")") + 2).split(" ");
  return (Number(rest[11]) + Number(rest[12])) * 10;
}
const t0 = performance.now();
const c0 = cpuUsage();
const m0 = threadCpuMs();
const r = await digest({ dir, plugins: activePlugins(), store });
const ms = performance.now() - t0;
const c1 = cpuUsage(c0);
// Every thread's CPU over the digest call (the workers' included: their time stays with the process when they exit).
const cpuMs = (c1.user + c1.system) / 1000;
const mainCpuMs = threadCpuMs() - m0;
store.close();
let resolved = 0;
let unresolved = 0;
for (const p of Object.values(r.report.plugins)) {
  resolved += p.stats.resolved;
  unresolved += p.stats.unresolved;
}
process.stdout.write(
  `${JSON.stringify({ ms, cpuMs, mainCpuMs, maxRssMb: resourceUsage().maxRSS / 1024, nodes: r.report.nodes, edges: r.report.edges, resolved, unresolved, phases: r.phases })}\n`,
);
