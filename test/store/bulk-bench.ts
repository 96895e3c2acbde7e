// A quick measure of one digest-sized write: N nodes + 2N edges in one write(), then reads.
// Usage: node dist/test/store/bulk-bench.js [nodes=100000]

import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../src/store/store.js";

const n = Number(process.argv[2] ?? 100_000);
const dir = mkdtempSync(join(tmpdir(), "drsg-bench-"));
const file = join(dir, "bench.drsg");
const store = openStore(file, { create: true });
let t = performance.now();
store.write((w) => {
  w.createPlane("bench");
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    ids.push(
      w.createNode("bench", {
        key: `pkg/src/mod${i % 500}.Class${i % 97}.method${i}`,
        labels: ["Method"],
        props: {
          file: `src/mod${i % 500}.ts`,
          line: i % 1000,
          end_line: (i % 1000) + 10,
          signature: `method${i}(a: string, b: number): Promise<void>`,
          doc_comment: i % 3 === 0 ? `Does thing number ${i} carefully.` : null,
          _generated_by: "typescript@1.0.0+abcdef12",
        },
      }),
    );
  }
  for (let i = 0; i < 2 * n; i++) {
    w.createEdge("bench", {
      type: i % 2 === 0 ? "CALLS" : "REFERENCES",
      src: ids[i % n]!,
      dst: ids[(i * 7919) % n]!,
      props: { line: i % 1000, _ref: "method", _resolved_by: "scope", _confidence: "high" },
    });
  }
});
const write = performance.now() - t;
t = performance.now();
let count = 0;
for (const _ of store.allNodes("bench")) count++;
for (const _ of store.allEdges("bench")) count++;
const scan = performance.now() - t;
t = performance.now();
const hits = store.searchText("bench", "method42 carefully", 10).length;
const search = performance.now() - t;
store.close();
console.log(
  `${n} nodes + ${2 * n} edges: write ${(write / 1000).toFixed(2)} s, scan ${(scan / 1000).toFixed(2)} s (${count} rows), ` +
    `search ${search.toFixed(1)} ms (${hits} hits), file ${(statSync(file).size / 1e6).toFixed(0)} MB`,
);
rmSync(dir, { recursive: true, force: true });
