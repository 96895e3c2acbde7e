// A checkout for the text verbs (grep, snippet): a real git repository with tracked, untracked
// and ignored files, a binary, an oversized file and symlinks in and out, and a plane whose
// synced_root is that checkout and whose synced_commit is its HEAD, with symbols written
// straight into the store. `ask` searches the working tree (worktree: true) unless told otherwise.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GraphViews } from "../../src/graph/view.js";
import { PluginSet } from "../../src/plugin/host.js";
import type { Store } from "../../src/store/types.js";
import { grep } from "../../src/tools/grep.js";
import type { ToolContext } from "../../src/tools/tool.js";
import { git, makeRepo } from "../git/fixture.js";
import { tempStore } from "../store/helpers.js";

export const LIB = [
  "// the library", // 1
  "export function alpha(): number {", // 2
  "  return needle(1);", // 3
  "}", // 4
  "", // 5
  "export class Box {", // 6
  "  open(): void {", // 7
  "    needle(2);", // 8
  "    needle(3);", // 9
  "  }", // 10
  "}", // 11
  "", // 12
  "const far = 1;", // 13
  "const farther = 2;", // 14
  "export const last = needle(4); // Needle", // 15
].join("\n");

export interface GrepFixture {
  /** The checkout (canonical path). */
  root: string;
  /** A directory outside it that links point into. */
  outside: string;
  /** HEAD of the checkout: plane `p`'s synced_commit. */
  head: string;
  /** The database file holding plane `p`. */
  db: string;
  store: Store;
  ctx: ToolContext;
  /** Close the store (to hand the database to a drsg-mcp process); done() still cleans up. */
  close(): void;
  done(): void;
}

/** A checkout with tracked, untracked and ignored files, and a plane over it. */
export function grepFixture(): GrepFixture {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "drsg-grep-")));
  const outside = realpathSync(mkdtempSync(join(tmpdir(), "drsg-grep-out-")));
  writeFileSync(join(outside, "secret.txt"), "needle outside the tree\n");
  mkdirSync(join(outside, "dir"));
  writeFileSync(join(outside, "dir", "more.ts"), "needle in a linked dir\n");
  makeRepo(root, [
    {
      message: "tree",
      files: {
        ".gitignore": "*.log\nbuild-out/\n/secret.env\n",
        "src/lib.ts": LIB,
        "src/util.py": "def helper():\n    return 'needle'\n",
        "src/deep/inner.ts": "export const inner = 'NEEDLE';\n",
        "docs/notes.md": "a needle in the docs\n",
        "node_modules/pkg/index.js": "needle in node_modules\n",
        ".hidden/conf.ts": "needle in a dot-dir\n",
        "crlf.txt": "first needle\r\nsecond\r\n",
      },
    },
  ]);
  // Tracked although ignored: git still shows it, so grep reads it.
  writeFileSync(join(root, "tracked.log"), "needle in a tracked log: tracked beats ignored\n");
  git(root, ["add", "-f", "tracked.log"]);
  git(root, ["commit", "-q", "-m", "force-add an ignored file"]);
  // Untracked, not ignored: searched. Ignored: not, unless all_files.
  writeFileSync(join(root, "src", "fresh.ts"), "// needle in an untracked file\n");
  writeFileSync(join(root, "debug.log"), "needle in an ignored log\n");
  writeFileSync(join(root, "secret.env"), "TOKEN=needle\n");
  mkdirSync(join(root, "build-out"));
  writeFileSync(join(root, "build-out", "gen.ts"), "needle in an ignored dir\n");
  writeFileSync(join(root, "blob.bin"), Buffer.concat([Buffer.from("needle"), Buffer.from([0, 1, 2, 3]), Buffer.from("needle")]));
  writeFileSync(join(root, "huge.txt"), `needle\n${"x".repeat(2 * 1024 * 1024)}\n`);
  symlinkSync(join(outside, "secret.txt"), join(root, "link-out.txt"));
  symlinkSync(join(outside, "dir"), join(root, "linkdir"));
  symlinkSync("src/util.py", join(root, "link-in.py"));

  const head = git(root, ["rev-parse", "HEAD"]);
  const t = tempStore();
  let open = true;
  t.store.write((w) => {
    w.createPlane("p", { synced_root: root, synced_commit: head });
    const node = (key: string, label: string, file: string, line: number, end_line: number) =>
      w.createNode("p", { key, labels: [label], props: { file, line, end_line } });
    node("app/src/lib", "Module", "src/lib.ts", 1, 15);
    node("app/src/lib.alpha", "Function", "src/lib.ts", 2, 4);
    node("app/src/lib.Box", "Class", "src/lib.ts", 6, 11);
    node("app/src/lib.Box.open", "Method", "src/lib.ts", 7, 10);
    node("app/src/util.helper", "Function", "src/util.py", 1, 2);
    // Nodes whose file points outside the tree (by `..`, absolutely, through a link), and one
    // that stores its source instead of a file.
    node("app/evil", "Function", "../../etc/passwd", 1, 99);
    node("app/abs", "Function", "/etc/passwd", 1, 3);
    node("app/linked", "Function", "link-out.txt", 1, 1);
    w.createNode("p", { key: "app/stored", labels: ["Note"], props: { source: "line one\nline two" } });
    w.createNode("p", { key: "app/nowhere", labels: ["Note"], props: { text: "no file" } });
  });
  const ctx: ToolContext = { store: t.store, transport: "stdio", plugins: () => new PluginSet([]), views: new GraphViews(t.store) };
  return {
    root,
    outside,
    head,
    db: t.file,
    store: t.store,
    ctx,
    close() {
      if (open) t.store.close();
      open = false;
    },
    done() {
      if (open) t.done();
      else rmSync(t.dir, { recursive: true, force: true });
      rmSync(root, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    },
  };
}

/** grep on plane `p`, over the working tree unless `worktree: false` is passed. */
export async function ask(ctx: ToolContext, args: Record<string, unknown>): Promise<string> {
  const r = await grep.run(ctx, grep.input.parse({ plane: "p", worktree: true, ...args }));
  return r as string;
}

