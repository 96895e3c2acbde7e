// BENCHMARKS.md section: fold latency against the full digest, a long history folded commit by
// commit, and commit → queryable under the watcher.
import { benchFold, foldMarkdown } from "./fold.js";

export function section(): { name: string; title: string; run(): Promise<string> } {
  return {
    name: "fold",
    title: "Folds against the full digest (issue: commit-synced planes)",
    async run() {
      return foldMarkdown(await benchFold({ log: (l) => process.stderr.write(`${l}\n`) }));
    },
  };
}
