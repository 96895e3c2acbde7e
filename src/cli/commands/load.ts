// One command's module, loaded alone: `drsg digest` reads no init, serve or MCP code (index.ts
// loads them all, for --help). test/cli checks this list against index.ts.
import type { Command } from "../command.js";

const LOADERS: Record<string, () => Promise<Command>> = {
  init: async () => (await import("./init.js")).initCommand,
  status: async () => (await import("./status.js")).statusCommand,
  stop: async () => (await import("./stop.js")).stopCommand,
  digest: async () => (await import("./digest.js")).digestCommand,
  export: async () => (await import("./export.js")).exportCommand,
  plane: async () => (await import("./plane.js")).planeCommand,
  plugin: async () => (await import("./plugin.js")).pluginCommand,
  parse: async () => (await import("./parse.js")).parseCommand,
  match: async () => (await import("./parse.js")).matchCommand,
  serve: async () => (await import("./serve.js")).serveCommand,
  watch: async () => (await import("./watch.js")).watchCommand,
  rebuild: async () => (await import("./rebuild.js")).rebuildCommand,
};

/** The command named `name`, or undefined for a name that is not a command. */
export async function loadCommand(name: string): Promise<Command | undefined> {
  return Object.hasOwn(LOADERS, name) ? LOADERS[name]!() : undefined;
}
