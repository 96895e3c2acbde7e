#!/usr/bin/env node
// The drsg command line (a shim into the build). `drsg watch` first starts its follower process
// (src/sync/follower-process.ts), before the rest of drsg is loaded here; so does `drsg serve watch`.
import { followerExec } from "../dist/src/sync/follower-process.js";

const args = process.argv.slice(2);
const follower = followerExec(args);
const run = follower ?? import("../dist/src/cli/main.js").then(({ main }) => main(args));
run.then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`error [INTERNAL]: ${e?.stack ?? e}\n`);
    process.exitCode = 1;
  },
);
