// drsg parse <file> / drsg match <file>: the syntax tree and the query captures of one file,
// through the plugin that claims it — for plugin authors.
import { readFileSync } from "node:fs";
import type { Node, Query, Tree } from "web-tree-sitter";
import { DrsgError } from "../../model/errors.js";
import { activePlugins } from "../../plugin/registry.js";
import { loadGrammar } from "../../extract/parser.js";
import { keepMatch, recoverParse } from "../../extract/extract.js";
import { compileRules } from "../../extract/recover.js";
import { type Command, flag, int } from "../command.js";

async function grammarOf(file: string) {
  const set = activePlugins();
  const route = set.route(file);
  if (!route) throw new DrsgError("PLUGIN_NOT_FOUND", `no installed plugin claims '${file}' — drsg plugin list shows what is installed`);
  const job = set.jobs().find((j) => j.id === route.job)!;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new DrsgError("PATH_NOT_FOUND", `cannot read '${file}': ${(e as Error).message}`);
  }
  return { g: await loadGrammar(job), text, job };
}

/**
 * The tree extraction uses: with `recovered`, the parse after the plugin's recovery rewrites when
 * they leave fewer errors; without, the grammar's own, and a line saying when they would.
 */
async function treeOf(file: string, recovered: boolean, out: (s: string) => void): Promise<{ tree: Tree; query: Query }> {
  const { g, text, job } = await grammarOf(file);
  const tree = g.parser.parse(text);
  if (!tree) throw new DrsgError("INTERNAL", "parser returned no tree");
  out(`${file} — ${job.build} grammar ${job.grammar}`);
  if (!tree.rootNode.hasError || !job.recover) return { tree, query: g.query };
  const better = recoverParse(g.parser, tree, text, compileRules(job.recover, job.id));
  if (!better) return { tree, query: g.query };
  if (!recovered) {
    better.tree.delete();
    out(`(the grammar alone reads this file with errors; extraction uses the parse after ${job.plugin}'s recovery rewrites: --recovered shows it)`);
    return { tree, query: g.query };
  }
  tree.delete();
  out(`(after ${better.rewrites} recovery rewrite(s) of ${job.plugin}: every position is the file's; text in the tree may show the rewrites)`);
  return { tree: better.tree, query: g.query };
}

function pos(n: Node): string {
  return `${n.startPosition.row + 1}:${n.startPosition.column + 1}-${n.endPosition.row + 1}:${n.endPosition.column + 1}`;
}

export const parseCommand: Command = {
  name: "parse",
  summary: "print a file's syntax tree (for plugin authors)",
  usage: "drsg parse FILE [--depth N] [--anonymous] [--recovered]",
  options: { depth: { type: "string" }, anonymous: { type: "boolean" }, recovered: { type: "boolean" } },
  async run(args, io) {
    const file = args.positionals[0];
    if (!file) throw new DrsgError("BAD_INPUT", "drsg parse: name a FILE");
    const maxDepth = int(args, "depth", 1000, 1, 1000);
    const { tree } = await treeOf(file, flag(args, "recovered"), io.out);
    const anonymous = flag(args, "anonymous");
    const walk = (n: Node, depth: number, field: string | null) => {
      if (depth > maxDepth) return;
      const label = `${field ? `${field}: ` : ""}${n.isNamed ? n.type : JSON.stringify(n.type)}${n.isMissing ? " (MISSING)" : ""}`;
      const leaf = n.childCount === 0 && n.isNamed ? `  ${JSON.stringify(n.text.slice(0, 60))}` : "";
      io.out(`${"  ".repeat(depth)}${label} [${pos(n)}]${leaf}`);
      for (let i = 0; i < n.childCount; i++) {
        const c = n.child(i);
        if (!c || (!c.isNamed && !anonymous)) continue;
        walk(c, depth + 1, n.fieldNameForChild(i));
      }
    };
    walk(tree.rootNode, 0, null);
    tree.delete();
    return 0;
  },
};

export const matchCommand: Command = {
  name: "match",
  summary: "print the plugin query's captures on a file (for plugin authors)",
  usage: "drsg match FILE [--recovered]",
  options: { recovered: { type: "boolean" } },
  async run(args, io) {
    const file = args.positionals[0];
    if (!file) throw new DrsgError("BAD_INPUT", "drsg match: name a FILE");
    const { tree, query } = await treeOf(file, flag(args, "recovered"), io.out);
    for (const m of query.matches(tree.rootNode)) {
      // The matches extraction keeps: a pattern's #parent-is? filter applies here too.
      if (!keepMatch(query, m)) continue;
      io.out(`pattern ${m.patternIndex}:`);
      for (const c of m.captures) io.out(`  @${c.name} [${pos(c.node)}] ${JSON.stringify(c.node.text.replace(/\s+/g, " ").slice(0, 80))}`);
    }
    tree.delete();
    return 0;
  },
};
