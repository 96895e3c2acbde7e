// Unit tests of the python resolver family beyond the annotated fixtures: its text parsers,
// and that its facts depend only on the set of partials (a fold must equal a digest).
import assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { PLUGINS_DIR } from "../../src/paths.js";
import { resolvePython } from "../../src/resolve/python/index.js";
import { bindArgs, callableParts, parseArgs, parseParams } from "../../src/resolve/python/signature.js";
import { annotationNames, baseList, literalType, parseAnnotation, parsePath } from "../../src/resolve/python/text.js";
import { factsOfDir, factsOfFiles } from "../support/facts.js";

test("python text: receiver paths", () => {
  assert.deepEqual(parsePath("self.svc"), [
    { kind: "name", name: "self" },
    { kind: "name", name: "svc" },
  ]);
  assert.deepEqual(parsePath('Foo(1, ")").bar'), [
    { kind: "name", name: "Foo" },
    { kind: "call", args: ["1", '")"'] },
    { kind: "name", name: "bar" },
  ]);
  assert.equal(parsePath("items[0]"), undefined);
  assert.equal(parsePath("(a or b)"), undefined);
});

test("python text: annotations", () => {
  assert.deepEqual(annotationNames(parseAnnotation('Optional["pkg.Foo"]')), ["Optional", "pkg.Foo"]);
  assert.deepEqual(annotationNames(parseAnnotation("dict[str, list[Bar]] | None")), ["dict", "str", "list", "Bar"]);
  assert.deepEqual(parseAnnotation("None"), { kind: "none" });
  assert.equal(parseAnnotation("Callable[..., int]").kind, "name");
  assert.equal(parseAnnotation("1 + 2").kind, "other");
});

test("python text: superclass lists and literals", () => {
  assert.deepEqual(baseList("(A, b.B, Generic[T], metaclass=M, *extra)"), ["A", "b.B", "Generic"]);
  assert.equal(literalType(undefined, "[]"), "list");
  assert.equal(literalType(undefined, "{}"), "dict");
  assert.equal(literalType(undefined, "{1, 2}"), "set");
  assert.equal(literalType(undefined, "{'a': 1}"), "dict");
  assert.equal(literalType(undefined, "b'x'"), "bytes");
  assert.equal(literalType(undefined, "f'{x}'"), "str");
  assert.equal(literalType(undefined, "3.5"), "float");
  assert.equal(literalType("string", "''"), "str");
});

test("python text: signatures bind a call's arguments as Python does", () => {
  const sig = parseParams("( name: str | None = ..., *, cls: type[C], **attrs: t.Any, )")!;
  assert.deepEqual(
    sig.params.map((p) => [p.name, p.type, p.hasDefault, p.keywordOnly]),
    [
      ["name", "str | None", true, false],
      ["cls", "type[C]", false, true],
    ],
  );
  assert.deepEqual(sig.varkw, { type: "t.Any" });
  // cls is keyword-only and required.
  assert.equal(bindArgs(sig, parseArgs(['"x"'])!, false), undefined);
  assert.deepEqual(
    bindArgs(sig, parseArgs(['"x"', "cls=C", "help='h'"])!, false)?.map((b) => [b.param?.name, b.varType, b.arg]),
    [
      ["name", undefined, '"x"'],
      ["cls", undefined, "C"],
      [undefined, "t.Any", "'h'"],
    ],
  );
  // Positional-only parameters never take a keyword; a bound method skips its first.
  const m = parseParams("(self, fn, /)")!;
  assert.equal(bindArgs(m, parseArgs(["fn=f"])!, true), undefined);
  assert.equal(bindArgs(m, parseArgs(["f"])!, true)?.[0]?.param?.name, "fn");
  assert.equal(bindArgs(m, parseArgs(["f", "g"])!, true), undefined);
  assert.equal(parseArgs(["*args"]), undefined);
  assert.equal(parseArgs(["a == b"])?.positional[0], "a == b");
  assert.equal(parseParams("(f=lambda x: x)"), undefined);
  assert.equal(parseParams("(a, b…"), undefined);
});

test("python text: Callable parts", () => {
  assert.deepEqual(callableParts("t.Callable[[_AnyCallable], Command]"), { params: ["_AnyCallable"], result: "Command" });
  assert.deepEqual(callableParts("Callable[..., R]"), { params: undefined, result: "R" });
  assert.equal(callableParts("Command"), undefined);
  assert.equal(callableParts("Callable[[A], B] | None"), undefined);
});

test("python facts depend only on the set of partials", async () => {
  const base = join(PLUGINS_DIR, "python", "tests");
  assert.ok(existsSync(base));
  for (const c of readdirSync(base).sort()) {
    const { partials } = await factsOfDir(join(base, c));
    const list = [...partials.values()].map((x) => x.partial).filter((p) => /\.pyi?$/.test(p.path));
    const sorted = [...list].sort((a, b) => (a.path < b.path ? -1 : 1));
    const input = { manifests: new Map<string, string>(), treeName: c };
    const a = resolvePython({ ...input, partials: sorted });
    const b = resolvePython({ ...input, partials: [...sorted].reverse() });
    assert.deepEqual(b.facts, a.facts, `case ${c}: facts changed with the order of partials`);
  }
});

test("python: renaming a method unbinds its callers instead of rebinding them", async () => {
  const before = {
    "pkg/__init__.py": "from .a import A\n",
    "pkg/a.py": "class A:\n    def m(self):\n        pass\n\nclass B:\n    def m(self):\n        pass\n",
    "main.py": "from pkg import A\n\ndef f():\n    A().m()\n",
  };
  const after = { ...before, "pkg/a.py": "class A:\n    def n(self):\n        pass\n\nclass B:\n    def m(self):\n        pass\n" };
  const callsOf = async (files: Record<string, string>) =>
    (await factsOfFiles(files)).facts.edges.filter((e) => e.type === "CALLS" && e.src === "main.f");
  assert.ok((await callsOf(before)).some((e) => e.dst === "pkg.a.A.m" && e.props._resolved_by === "receiver"));
  const calls = await callsOf(after);
  assert.ok(calls.some((e) => e.props._reason === "member not found in class hierarchy"));
  assert.ok(!calls.some((e) => e.dst === "pkg.a.B.m"));
});

test("python: long alias chains and import cycles end as unknown, not a crash", async () => {
  const chain = ["a0 = Foo()"];
  for (let i = 1; i < 3000; i++) chain.push(`a${i} = a${i - 1}`);
  const files = {
    "m.py": `class Foo:\n    def go(self):\n        pass\n\n${chain.join("\n")}\n\ndef f():\n    a2999.go()\n    a10.go()\n`,
    "p/__init__.py": "from .q import X\n",
    "p/q.py": "from p import X\n\ndef g():\n    X()\n",
  };
  const { facts } = await factsOfFiles(files);
  const calls = facts.edges.filter((e) => e.type === "CALLS" && e.src === "m.f");
  assert.ok(calls.some((e) => e.dst === "m.Foo.go"), "a short chain still binds");
  assert.ok(facts.edges.some((e) => e.src === "p.q.g" && e.props._reason !== undefined));
});
