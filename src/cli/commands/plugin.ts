// drsg plugin install|list|remove
import { DrsgError } from "../../model/errors.js";
import { join } from "node:path";
import { CATALOG_DIR } from "../../paths.js";
import { officialPlugins } from "../../plugin/host.js";
import { comparePluginNames, readPluginFolder } from "../../plugin/manifest.js";
import { catalogNames, installedStatus, installPlugin, removePlugin } from "../../plugin/registry.js";
import { type Command, flag } from "../command.js";

/** Compare two semver strings by their numeric parts (pre-release tags are ignored). */
function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.+-]/).slice(0, 3).map(Number);
  const pb = b.split(/[.+-]/).slice(0, 3).map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export const pluginCommand: Command = {
  name: "plugin",
  summary: "install, list or remove language plugins",
  usage: "drsg plugin install <catalog-name|dir|file.tgz> | list [--json] [--available] | remove <name>",
  options: { json: { type: "boolean" }, available: { type: "boolean" } },
  async run(args, io) {
    const [sub, target] = args.positionals;
    if (sub === "install") {
      if (!target) throw new DrsgError("BAD_INPUT", `drsg plugin install: name a catalog plugin (${catalogNames().join(", ")}), a folder or a .tgz`);
      const r = await installPlugin(target);
      io.out(`installed ${r.entry.build}  sha256:${r.entry.sha256.slice(0, 12)}${r.replaced ? ` (replacing ${r.replaced})` : ""}`);
      io.out(`  handles: ${r.entry.extensions.join(", ")}`);
      io.out("  planes built before this say so on every answer; drsg rebuild re-reads the tree (run it in the repository, or name --plane NAME)");
      return 0;
    }
    if (sub === "remove") {
      if (!target) throw new DrsgError("BAD_INPUT", "drsg plugin remove: name the plugin");
      const e = removePlugin(target);
      io.out(`removed ${e.name}@${e.version}`);
      return 0;
    }
    if (sub === "list") {
      // Pins are checked one plugin at a time: a tampered plugin is listed as refused, and the
      // others (and the official ones) still show.
      const statuses = installedStatus();
      const refused = new Map(statuses.filter((x) => x.problem).map((x) => [x.entry.name, x.problem!]));
      const installed = new Map(statuses.map((x) => [x.entry.name, x.entry]));
      const official = officialPlugins().filter((p) => !installed.has(p.manifest.name));
      const rows = [
        ...official.map((p) => ({ name: p.manifest.name, version: p.manifest.version, extensions: p.manifest.extensions, sha256: p.sha256, source: p.source, build: p.build })),
        ...statuses.map(({ entry: e, problem }) => ({
          name: e.name,
          version: e.version,
          extensions: e.extensions,
          sha256: e.sha256,
          source: e.source,
          build: e.build,
          ...(problem ? { refused: problem } : {}),
        })),
      ].sort((a, b) => comparePluginNames(a.name, b.name));
      if (flag(args, "available")) {
        const cat = catalogNames().map((n) => {
          const offered = readPluginFolder(join(CATALOG_DIR, n)).manifest.version;
          const have = installed.get(n)?.version;
          const upgradable = have !== undefined && compareVersions(offered, have) > 0;
          return { name: n, version: offered, installed: have ?? null, upgradable, ...(refused.has(n) ? { refused: refused.get(n) } : {}) };
        });
        if (flag(args, "json")) io.out(JSON.stringify(cat, null, 2));
        else
          for (const c of cat)
            io.out(
              `${c.name.padEnd(10)} ${c.version.padEnd(8)}${c.installed ? `  [installed ${c.installed}]` : "  drsg plugin install " + c.name}${c.upgradable ? `  [upgradable → ${c.version}: drsg plugin install ${c.name}]` : ""}${c.refused ? "  [refused: files changed since install]" : ""}`,
            );
        return 0;
      }
      if (flag(args, "json")) {
        io.out(JSON.stringify(rows, null, 2));
        return 0;
      }
      const w = Math.max(4, ...rows.map((r) => r.name.length));
      io.out(`${"NAME".padEnd(w)}  VERSION  ${"SHA256".padEnd(12)}  EXTENSIONS  SOURCE`);
      for (const r of rows)
        io.out(`${r.name.padEnd(w)}  ${r.version.padEnd(7)}  ${r.sha256.slice(0, 12)}  ${r.extensions.join(" ")}  ${r.source}${"refused" in r ? "  [REFUSED]" : ""}`);
      for (const [name, why] of refused) io.err(`warning: ${name} is not loaded: ${why}`);
      return 0;
    }
    throw new DrsgError("BAD_INPUT", `drsg plugin: expected install, list or remove\nusage: ${this.usage}`);
  },
};
