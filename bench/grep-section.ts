// BENCHMARKS.md section: grep over a ≥100k-line digested plane (symbols named per hit) beside
// ripgrep on the same tree, plus any REPO paths given to npm run bench.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { activePlugins } from "../src/plugin/registry.js";
import { openStore } from "../src/store/store.js";
import { digest } from "../src/sync/digest.js";
import { commitCorpus } from "./common.js";
import { generate } from "./gen.js";
import { benchGrep, grepTable } from "./grep.js";

export function section(repos: string[] = []): { name: string; title: string; run(): Promise<string> } {
  return {
    name: "grep",
    title: "grep beside ripgrep (issue: agent verbs)",
    async run() {
      const corpus = generate("ts", 100_000);
      const dir = commitCorpus(corpus.files, "drsg-bench-grep-");
      const tmp = mkdtempSync(join(tmpdir(), "drsg-bench-grep-db-"));
      const db = join(tmp, "g.drsg");
      try {
        const store = openStore(db, { create: true });
        try {
          await digest({ dir, plugins: activePlugins(), store, plane: "bench" });
        } finally {
          store.close();
        }
        const out = [
          "Target: grep ≤ 3× ripgrep (p50). grep is the tool's parse → run in-process on a digested plane, reading the blobs of the plane's commit (the default; the `worktree: true` row reads the working tree, opening each file without following a link and comparing each file with hits against the commit) — each hit names its symbol; the answer renders the first 50 hits and counts all; rg is `rg -n --no-heading [-F] [-i] -e PATTERN .` spawned on the same tree, every match printed to a pipe. Both respect .gitignore and skip binaries.",
          "",
          `### Generated TypeScript corpus (${corpus.lines} lines)`,
          "",
          grepTable(await benchGrep(dir, { db, plane: "bench", literal: "method0", regex: "Service\\d+\\(req" })),
        ];
        for (const r of repos) out.push("", `### ${basename(r)} (a bare plane at its HEAD: hits unnamed)`, "", grepTable(await benchGrep(r)));
        return out.join("\n");
      } finally {
        rmSync(tmp, { recursive: true, force: true });
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
