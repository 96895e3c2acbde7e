#!/usr/bin/env node
// The drsg command line (a shim into the build).
import { main } from "../dist/src/cli/main.js";

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`error [INTERNAL]: ${e?.stack ?? e}\n`);
    process.exitCode = 1;
  },
);
