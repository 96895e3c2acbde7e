// A second process for the crash test (spawned, never run directly): open the database, start a
// fold to HEAD, and inside its write transaction print "inside <sha>" and spin until killed.
import { writeSync } from "node:fs";
import { PluginSet, officialPlugins } from "../../src/plugin/host.js";
import { openStore } from "../../src/store/store.js";
import { PlaneSync } from "../../src/sync/fold.js";

const [dir, db, plane] = process.argv.slice(2);
if (!dir || !db || !plane) {
  process.stderr.write("usage: fold-child.js <dir> <db> <plane>\n");
  process.exit(64);
}
const store = openStore(db);
const sync = await PlaneSync.open({
  store,
  dir,
  plane,
  plugins: new PluginSet(officialPlugins()),
  log: false,
  insideWrite: (sha) => {
    writeSync(1, `inside ${sha}\n`);
    for (;;) {
      // the parent kills us here, mid-transaction
    }
  },
});
await sync.syncToHead();
writeSync(1, "finished\n");
process.exit(3);
