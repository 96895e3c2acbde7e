// A second process for the store tests (spawned with process.execPath, never run directly).
//   hold <db>   open the database, print "ready <pid>", hold it until stdin closes, close, exit 0
//   bulk <db>   open it and, in one write(), change existing facts then create nodes without end;
//               print "started" once uncommitted pages have reached the WAL file, keep writing
//               until killed (exits 3 if it ever runs out)
// An open failure prints "error <CODE>" and exits 2.

import { statSync, writeSync } from "node:fs";
import { isDrsgError } from "../../src/model/errors.js";
import { openStore } from "../../src/store/store.js";
import type { Store } from "../../src/store/types.js";

const [mode, file] = process.argv.slice(2);
if (file === undefined || (mode !== "hold" && mode !== "bulk")) {
  process.stderr.write("usage: child.js hold|bulk <db>\n");
  process.exit(64);
}

// fs.writeSync: the line must be out before the next (synchronous) statement runs.
const say = (line: string): void => {
  writeSync(1, `${line}\n`);
};

let store: Store;
try {
  store = openStore(file);
} catch (e) {
  say(`error ${isDrsgError(e) ? e.code : String(e)}`);
  process.exit(2);
}

function walBytes(): number {
  try {
    return statSync(`${file}-wal`).size;
  } catch {
    return 0;
  }
}

if (mode === "hold") {
  say(`ready ${process.pid}`);
  process.stdin.resume();
  process.stdin.on("end", () => {
    store.close();
    process.exit(0);
  });
} else {
  store.write((w) => {
    const first = w.getNodeByKey("p", "p.n0");
    if (first) w.updateNode("p", first.id, { props: { changed: true } });
    const second = w.getNodeByKey("p", "p.n1");
    if (second) w.deleteNode("p", second.id);
    w.setPlaneProps("p", { synced_commit: "would-be-new" });
    w.createPlane("bulk");
    let prev = w.createNode("bulk", { key: "bulk.root", labels: ["Module"], props: {} });
    let announced = false;
    for (let i = 0; i < 5_000_000; i++) {
      const id = w.createNode("bulk", {
        key: `bulk/mod${i % 1000}.fn${i}`,
        labels: ["Function"],
        props: { file: `mod${i % 1000}.ts`, line: i, signature: `fn${i}(x: number): number` },
      });
      w.createEdge("bulk", { type: "CALLS", src: prev, dst: id, props: { line: i } });
      prev = id;
      if (!announced && i >= 200_000 && i % 10_000 === 0 && walBytes() > 1 << 20) {
        say("started");
        announced = true;
      }
    }
  });
  say("finished");
  store.close();
  process.exit(3);
}
