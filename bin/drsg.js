#!/usr/bin/env node
// The drsg command line (a shim into the build). `drsg watch` first starts its follower process
// (src/sync/follower-process.ts), before the rest of drsg is loaded here; so does `drsg serve watch`.
import { entry } from "./entry.js";

const { followerExec } = await import(entry("follower.js", "sync/follower-process.js"));

const args = process.argv.slice(2);
const follower = followerExec(args);
const run = follower ?? import(entry("cli.js", "cli/main.js")).then(({ main }) => main(args));
run.then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`error [INTERNAL]: ${e?.stack ?? e}\n`);
    process.exitCode = 1;
  },
);
