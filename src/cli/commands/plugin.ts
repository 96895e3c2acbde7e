// drsg plugin install|list|remove
import { DrsgError } from "../../model/errors.js";
import { activePlugins, catalogNames, installPlugin, readRegistry, removePlugin } from "../../plugin/registry.js";
import { type Command, flag } from "../command.js";

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
      io.out("  planes built before this say so on every answer; drsg rebuild --plane NAME re-reads a tree");
      return 0;
    }
    if (sub === "remove") {
      if (!target) throw new DrsgError("BAD_INPUT", "drsg plugin remove: name the plugin");
      const e = removePlugin(target);
      io.out(`removed ${e.name}@${e.version}`);
      return 0;
    }
    if (sub === "list") {
      const set = activePlugins();
      const installed = new Map(readRegistry().map((e) => [e.name, e]));
      const rows = set.plugins.map((p) => ({
        name: p.manifest.name,
        version: p.manifest.version,
        extensions: p.manifest.extensions,
        sha256: installed.get(p.manifest.name)?.sha256 ?? p.sha256,
        source: p.source,
        build: p.build,
      }));
      if (flag(args, "available")) {
        const active = new Set(rows.map((r) => r.name));
        const cat = catalogNames().map((n) => ({ name: n, installed: active.has(n) }));
        if (flag(args, "json")) io.out(JSON.stringify(cat, null, 2));
        else for (const c of cat) io.out(`${c.name}${c.installed ? "  [installed]" : ""}`);
        return 0;
      }
      if (flag(args, "json")) {
        io.out(JSON.stringify(rows, null, 2));
        return 0;
      }
      const w = Math.max(4, ...rows.map((r) => r.name.length));
      io.out(`${"NAME".padEnd(w)}  VERSION  ${"SHA256".padEnd(12)}  EXTENSIONS  SOURCE`);
      for (const r of rows)
        io.out(`${r.name.padEnd(w)}  ${r.version.padEnd(7)}  ${r.sha256.slice(0, 12)}  ${r.extensions.join(" ")}  ${r.source}`);
      return 0;
    }
    throw new DrsgError("BAD_INPUT", `drsg plugin: expected install, list or remove\nusage: ${this.usage}`);
  },
};
