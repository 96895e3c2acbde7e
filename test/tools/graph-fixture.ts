// Fixture databases for the verb tests: a source tree under fixtures/<name>/ becomes a real git
// repository in a temp dir (fixed author and date, so the commit sha is stable), digested with
// the official plugins into a temp database; `serve` spawns bin/drsg-mcp.js on it and connects
// the MCP SDK's real Client over stdio.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { PACKAGE_ROOT } from "../../src/paths.js";
import { PluginSet, officialPlugins } from "../../src/plugin/host.js";
import { openStore } from "../../src/store/store.js";
import { digest } from "../../src/sync/digest.js";
import { listTree } from "../support/facts.js";
import { makeRepo } from "../git/fixture.js";

export const FIXTURES_DIR = join(PACKAGE_ROOT, "fixtures");

export interface FixtureDb {
  name: string;
  /** The temp dir holding the repository and the database. */
  tmp: string;
  /** The repository (its directory is named like the fixture, which names the plane and the key prefix). */
  repo: string;
  db: string;
  commit: string;
  cleanup(): void;
}

/** Build `fixtures/<name>` into a committed repository and a digested database (plane `<name>`). */
export async function buildFixtureDb(name: string): Promise<FixtureDb> {
  const src = join(FIXTURES_DIR, name);
  const tmp = mkdtempSync(join(tmpdir(), "drsg-verbs-"));
  const repo = join(tmp, name);
  const files: Record<string, Uint8Array> = {};
  for (const rel of listTree(src)) files[rel] = readFileSync(join(src, rel));
  const [commit] = makeRepo(repo, [{ files, message: `fixture ${name}` }]);
  const db = join(tmp, "graph.drsg");
  const store = openStore(db, { create: true });
  try {
    await digest({ dir: repo, plugins: new PluginSet(officialPlugins()), store, plane: name });
  } finally {
    store.close();
  }
  return { name, tmp, repo, db, commit: commit!, cleanup: () => rmSync(tmp, { recursive: true, force: true }) };
}

export interface Served {
  client: Client;
  /** Call a tool; the text of its answer and whether it was an error. */
  call(tool: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
  close(): Promise<void>;
}

/** Spawn drsg-mcp on `fx.db` (official plugins only, logs in the temp dir) and connect a Client. */
export async function serve(fx: FixtureDb): Promise<Served> {
  const home = join(fx.tmp, "home");
  mkdirSync(home, { recursive: true });
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  env.DRSG_HOME = home;
  env.DRSG_LOG_DIR = join(fx.tmp, "logs");
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(PACKAGE_ROOT, "bin", "drsg-mcp.js"), "--db", fx.db],
    env,
    stderr: "ignore",
  });
  const client = new Client({ name: "drsg-verbs-test", version: "0" });
  await client.connect(transport);
  return {
    client,
    async call(tool, args) {
      const r = await client.callTool({ name: tool, arguments: args });
      const content = r.content as { type: string; text?: string }[];
      const text = content.map((c) => c.text ?? "").join("\n");
      return { text, isError: r.isError === true };
    },
    close: () => client.close(),
  };
}
