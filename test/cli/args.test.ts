// The verbs' option table generated from each tool's zod schema (node's util.parseArgs), how an
// answer's outcome is read, the default plane and the exit codes — without a process or a database.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { EXIT, bareMessage, exitCodeOf } from "../../src/cli/command.js";
import { COMMANDS } from "../../src/cli/commands/index.js";
import { loadCommand } from "../../src/cli/commands/load.js";
import { COMMAND_NAMES } from "../../src/cli/commands/names.js";
import { codePlanes, fieldsOf, outcomeOf, planeRows, soleCodePlane, syncedOf, toolHelp, toolInput } from "../../src/cli/tools.js";
import { DrsgError } from "../../src/model/errors.js";
import { grep } from "../../src/tools/grep.js";
import { impact } from "../../src/tools/impact.js";
import { TOOLS } from "../../src/tools/index.js";
import { TOOL_NAMES, loadTool } from "../../src/tools/modules.js";
import { recall } from "../../src/tools/recall.js";
import type { Tool } from "../../src/tools/tool.js";
import { traverse } from "../../src/tools/traverse.js";

const code = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    if (e instanceof DrsgError) return e.code;
    throw e;
  }
  return "none";
};

test("the command line's list of command names is its commands' (it tells a command from a verb before loading either)", () => {
  assert.deepEqual([...COMMAND_NAMES].sort(), COMMANDS.map((c) => c.name).sort());
});

test("each command loads alone from the module that defines it", async () => {
  for (const c of COMMANDS) assert.equal(await loadCommand(c.name), c, `loadCommand("${c.name}")`);
  for (const name of ["nope", "__proto__", "constructor", "toString"]) assert.equal(await loadCommand(name), undefined);
});

test("each tool loads alone from the module that defines it, and the list of tool modules is the served list", async () => {
  assert.deepEqual([...TOOL_NAMES].sort(), TOOLS.map((t) => t.name).sort());
  for (const t of TOOLS) assert.equal(await loadTool(t.name), t, `loadTool("${t.name}")`);
  for (const name of ["nope", "__proto__", "constructor", "toString"]) assert.equal(await loadTool(name), undefined);
});

describe("options from the schema", () => {
  test("a boolean flag never takes the next argument", () => {
    assert.deepEqual(toolInput(grep as Tool, ["--regex", "help.r"]).input, { regex: true, pattern: "help.r" });
    assert.deepEqual(toolInput(grep as Tool, ["help.r", "--regex", "--ignore-case"]).input, { pattern: "help.r", regex: true, ignore_case: true });
    // A value given to a flag is refused, not silently read as a positional.
    assert.equal(code(() => toolInput(grep as Tool, ["--regex=yes", "x"])), "BAD_INPUT");
  });

  test("numbers are parsed, dash and underscore spellings both work, arrays repeat", () => {
    assert.deepEqual(toolInput(impact as Tool, ["x", "--depth", "2"]).input, { name: "x", depth: 2 });
    assert.deepEqual(toolInput(grep as Tool, ["p", "--max-results", "7", "--ignore_case"]).input, { pattern: "p", max_results: 7, ignore_case: true });
    assert.deepEqual(toolInput(traverse as Tool, ["--from-key", "a", "--edge-types", "CALLS", "--edge_types", "USES"]).input, {
      from_key: "a",
      edge_types: ["CALLS", "USES"],
    });
    assert.equal(code(() => toolInput(impact as Tool, ["x", "--depth", "deep"])), "BAD_INPUT");
    assert.equal(code(() => toolInput(impact as Tool, ["x", "--no-such"])), "BAD_INPUT");
    assert.equal(code(() => toolInput(impact as Tool, ["x", "y"])), "BAD_INPUT");
    assert.equal(code(() => toolInput(impact as Tool, ["x", "--name", "y"])), "BAD_INPUT");
  });

  test("a union with a string stays text (recall's revision), and -- ends the options", () => {
    assert.deepEqual(toolInput(recall as Tool, ["src/a.ts", "--at", "1234"]).input, { name: "src/a.ts", at: "1234" });
    assert.deepEqual(toolInput(grep as Tool, ["--", "--not-a-flag"]).input, { pattern: "--not-a-flag" });
  });

  test("--db, --json and --help are the common options", () => {
    const a = toolInput(impact as Tool, ["x", "--db", "g.drsg", "--json"]);
    assert.equal(a.db, "g.drsg");
    assert.equal(a.json, true);
    assert.equal(toolInput(impact as Tool, ["-h"]).help, true);
  });

  test("no tool field collides with a common option, and every CLI verb's help lists each field", () => {
    for (const t of TOOLS.filter((x) => x.cli)) {
      const fields = fieldsOf(t);
      for (const f of fields) assert.ok(!["db", "json", "help"].includes(f.name), `${t.name}.${f.name}`);
      const help = toolHelp(t);
      for (const f of fields) assert.match(help, new RegExp(`--${f.flag}\\b`), `${t.name} --help lists --${f.flag}`);
    }
  });

  test("the field table reads types, defaults and descriptions from the schema", () => {
    const g = new Map(fieldsOf(grep as Tool).map((f) => [f.name, f]));
    assert.equal(g.get("regex")?.kind, "boolean");
    assert.equal(g.get("max_results")?.kind, "number");
    assert.equal(g.get("max_results")?.default, 50);
    assert.equal(g.get("max_results")?.type, "integer 1..200");
    assert.equal(g.get("pattern")?.required, true);
    assert.match(g.get("pattern")?.description ?? "", /literal unless regex/);
    assert.equal(fieldsOf(traverse as Tool).find((f) => f.name === "edge_types")?.multiple, true);
  });
});

describe("answers, planes and exit codes", () => {
  test("a miss and an ambiguous name are read from the answer's opening lines", () => {
    assert.equal(outcomeOf("synced: commit 0123456789ab\nno symbol matches `x` in plane 'p'\nclosest keys: a"), "not_found");
    assert.equal(outcomeOf("synced: commit 0123456789ab\n`add` is ambiguous — 2 matches; call again with an exact key:\n  a\n  b"), "ambiguous");
    assert.equal(outcomeOf("p.f  Function  a.ts:1\nsynced: commit 0123456789ab\ncallers (0):"), "ok");
    assert.equal(syncedOf("p.f  Function\nsynced: commit 0123456789ab\n"), "0123456789ab");
    assert.equal(syncedOf("synced: working tree (no commit)"), null);
  });

  test("the only code plane is the default; several are listed; none says how to build one", () => {
    assert.deepEqual(codePlanes(["shop", "shop_git", "shop_ops", "lonely_git"]), ["shop", "lonely_git"]);
    assert.equal(soleCodePlane(["shop", "shop_git"], "drsg x"), "shop");
    assert.equal(code(() => soleCodePlane(["a", "a_git", "b"], "drsg x")), "BAD_INPUT");
    assert.equal(code(() => soleCodePlane([], "drsg x")), "PLANE_NOT_FOUND");
  });

  test("list_planes' answer gives the plane rows", () => {
    const text = [
      "2 plane(s):",
      "shop  7 node(s), 7 edge(s)",
      "  synced: commit 0123456789ab",
      "  tree: /r — readable",
      "shop_git  3 node(s), 3 edge(s)",
      "  being rebuilt — a miss may mean not yet",
    ].join("\n");
    assert.deepEqual(planeRows(text), [
      { name: "shop", nodes: 7, edges: 7, synced: "0123456789ab" },
      { name: "shop_git", nodes: 3, edges: 3, synced: null },
    ]);
  });

  test("exit codes are distinct, and a message never repeats its code", () => {
    const codes = [EXIT.ok, EXIT.error, EXIT.usage, EXIT.notFound, EXIT.ambiguous];
    assert.equal(new Set(codes).size, codes.length);
    assert.equal(exitCodeOf("BAD_INPUT"), EXIT.usage);
    assert.equal(exitCodeOf("NAME_NOT_FOUND"), EXIT.notFound);
    assert.equal(exitCodeOf("AMBIGUOUS_NAME"), EXIT.ambiguous);
    assert.equal(exitCodeOf("DB_LOCKED"), EXIT.error);
    assert.equal(bareMessage("PLANE_NOT_FOUND", "context failed [PLANE_NOT_FOUND]: no plane 'x'"), "no plane 'x'");
    assert.equal(bareMessage("BAD_ENV", "BAD_ENV: DRSG_DB is empty"), "DRSG_DB is empty");
    assert.equal(bareMessage("BAD_ENV", "DRSG_DB is empty"), "DRSG_DB is empty");
  });
});
