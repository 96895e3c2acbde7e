// Every CLI command, in the order `drsg --help` lists them.
import type { Command } from "../command.js";
import { digestCommand } from "./digest.js";
import { exportCommand } from "./export.js";
import { initCommand } from "./init.js";
import { matchCommand, parseCommand } from "./parse.js";
import { planeCommand } from "./plane.js";
import { pluginCommand } from "./plugin.js";
import { rebuildCommand } from "./rebuild.js";
import { watchCommand } from "./watch.js";
import { serveCommand } from "./serve.js";
import { statusCommand } from "./status.js";
import { stopCommand } from "./stop.js";

export const COMMANDS: Command[] = [initCommand, statusCommand, stopCommand, digestCommand, exportCommand, planeCommand, pluginCommand, parseCommand, matchCommand, serveCommand, watchCommand, rebuildCommand];
