// Where the package's own data lives (plugins, grammars), wherever it is installed or built.
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, "package.json")) && existsSync(join(dir, "plugins"))) return dir;
    dir = dirname(dir);
  }
  throw new Error(`drsg: cannot find the package root above ${fileURLToPath(import.meta.url)}`);
}

/** The drsg package root (holds package.json, plugins/, grammars/). */
export const PACKAGE_ROOT = findRoot();
export const PLUGINS_DIR = join(PACKAGE_ROOT, "plugins");
export const CATALOG_DIR = join(PACKAGE_ROOT, "plugins", "catalog");
export const GRAMMARS_FILE = join(PACKAGE_ROOT, "grammars", "grammars.json");

/** The user's drsg data directory: $DRSG_HOME, else $XDG_DATA_HOME/drsg, else ~/.local/share/drsg. */
export function dataDir(): string {
  if (process.env.DRSG_HOME) return resolve(process.env.DRSG_HOME);
  const xdg = process.env.XDG_DATA_HOME;
  return join(xdg ? resolve(xdg) : join(homedir(), ".local", "share"), "drsg");
}
