// trimCHeap hands the C heap's free pages back: on this Linux/glibc machine, memory freed in the
// middle of malloc's heap (which free() keeps resident) leaves RSS when it runs.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { trimCHeap } from "../../src/store/trim.js";

const rssMb = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))![1]) / 1024;
const glibc = process.platform === "linux" && readFileSync("/proc/self/maps", "utf8").includes("/libc.so.6");

test("trimCHeap releases the free middle of the C heap", { skip: !glibc && "not a glibc system" }, () => {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  trimCHeap();
  // 96 MB of 48 KiB blocks from malloc (below its mmap threshold, so inside an arena); keep
  // every fourth, so the freed three quarters are holes below live blocks, not the arena's top.
  let blocks: Buffer[] | undefined = Array.from({ length: 2048 }, () => Buffer.allocUnsafeSlow(48 * 1024).fill(1));
  const kept = blocks.filter((_, i) => i % 4 === 3);
  blocks = undefined;
  gc();
  gc();
  const before = rssMb();
  assert.equal(trimCHeap(), true);
  const after = rssMb();
  assert.ok(before - after >= 24, `RSS ${before.toFixed(0)} → ${after.toFixed(0)} MB: the ~72 MB of holes should leave`);
  assert.equal(kept.length, 512);
  assert.ok(kept.every((b) => b[0] === 1 && b[b.length - 1] === 1), "live blocks are untouched");
});
