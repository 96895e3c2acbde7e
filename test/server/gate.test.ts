// The process-wide tool gate: at most N calls run at once, the rest queue, and one deadline
// covers waiting plus running — a late call says whether the server was busy or the body slow.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Gate } from "../../src/server/gate.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test("calls beyond the limit queue, and run once a slot frees", async () => {
  const gate = new Gate(2, 0);
  let peak = 0;
  let running = 0;
  const job = async () => {
    running++;
    peak = Math.max(peak, running);
    await sleep(20);
    running--;
    return "ok";
  };
  const late = () => "late";
  const results = await Promise.all(Array.from({ length: 7 }, () => gate.run(job, late)));
  assert.deepEqual(results, Array(7).fill("ok"));
  assert.equal(peak, 2);
  assert.equal(gate.active, 0);
  assert.equal(gate.waiting, 0);
});

test("a call that waits past the deadline is 'busy'; one that runs past it is 'slow'", async () => {
  const gate = new Gate(1, 150);
  const kinds: string[] = [];
  const late = (k: "busy" | "slow") => {
    kinds.push(k);
    return k;
  };
  const slow = gate.run(async () => {
    await sleep(600);
    return "done";
  }, late);
  const queued = gate.run(async () => "never late", late);
  assert.equal(await queued, "busy");
  assert.equal(await slow, "slow");
  assert.deepEqual(kinds.sort(), ["busy", "slow"]);
  // The slow body keeps its slot until it ends; afterwards the gate is free again.
  await sleep(600);
  assert.equal(await gate.run(async () => "fresh", late), "fresh");
});
