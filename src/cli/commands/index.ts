// Every CLI command, in the order `drsg --help` lists them.
import type { Command } from "../command.js";
import { digestCommand } from "./digest.js";
import { exportCommand } from "./export.js";
import { matchCommand, parseCommand } from "./parse.js";
import { planeCommand } from "./plane.js";
import { pluginCommand } from "./plugin.js";

export const COMMANDS: Command[] = [digestCommand, exportCommand, planeCommand, pluginCommand, parseCommand, matchCommand];
