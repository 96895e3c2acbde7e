// BENCHMARKS.md section: fold latency against the full digest, a long history folded commit by
// commit, and commit → queryable under the watcher. The folds run in a child process of their
// own (bench/fold-child.ts), so RSS is a follower's alone — started as `drsg watch` starts its
// follower process (followerSpawn: the same node flags and malloc environment).
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { followerSpawn } from "../src/sync/follower-process.js";
import { type FoldBenchResult, foldMarkdown } from "./fold.js";

export function section(): { name: string; title: string; run(): Promise<string> } {
  return {
    name: "fold",
    title: "Folds against the full digest (issue: commit-synced planes)",
    async run() {
      const child = join(dirname(new URL(import.meta.url).pathname), "fold-child.js");
      const { execArgv, env } = followerSpawn(process.env, []);
      const r = spawnSync(process.execPath, [...execArgv, child], { env, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 1 << 26 });
      if (r.status !== 0) throw new Error(`fold bench child failed (status ${r.status})`);
      return foldMarkdown(JSON.parse(r.stdout.trim().split("\n").pop()!) as FoldBenchResult);
    },
  };
}
