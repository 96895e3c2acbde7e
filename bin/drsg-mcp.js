#!/usr/bin/env node
// drsg-mcp: the MCP server over stdio (a shim into the build). stdout is the protocol only.
import { entry } from "./entry.js";

const { mainStdio } = await import(entry("mcp.js", "mcp/stdio.js"));
mainStdio(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    if (code !== 0) process.exit(code);
  },
  (e) => {
    process.stderr.write(`error [INTERNAL]: ${e?.stack ?? e}\n`);
    process.exit(1);
  },
);
