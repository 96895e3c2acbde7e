// Child process of the digest benchmark: digest <dir> into <db>, print figures as JSON.
import { resourceUsage } from "node:process";
import { activePlugins } from "../src/plugin/registry.js";
import { openStore } from "../src/store/store.js";
import { digest } from "../src/sync/digest.js";

const [dir, db] = process.argv.slice(2);
if (!dir || !db) throw new Error("usage: digest-child <dir> <db>");
const store = openStore(db, { create: true });
const t0 = performance.now();
const r = await digest({ dir, plugins: activePlugins(), store });
const ms = performance.now() - t0;
store.close();
let resolved = 0;
let unresolved = 0;
for (const p of Object.values(r.report.plugins)) {
  resolved += p.stats.resolved;
  unresolved += p.stats.unresolved;
}
process.stdout.write(
  `${JSON.stringify({ ms, maxRssMb: resourceUsage().maxRSS / 1024, nodes: r.report.nodes, edges: r.report.edges, resolved, unresolved })}\n`,
);
