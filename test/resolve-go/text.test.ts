// Unit tests for the go resolver's text helpers: they read types and expressions as written and
// must answer `undefined` rather than guess.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  elementType,
  firstResult,
  funcTypeResult,
  goModModule,
  importName,
  namedType,
  nthResult,
  paramCount,
  parseChain,
  parseDecl,
  rangeType,
  receiverTypeName,
  receiverTypeParams,
} from "../../src/resolve/go/text.js";

test("namedType reduces pointers, parentheses and type arguments; refuses composite types", () => {
  assert.deepEqual(namedType("*Server"), { name: "Server" });
  assert.deepEqual(namedType("*pkg.List[int, string]"), { qual: "pkg", name: "List" });
  assert.deepEqual(namedType("(*T)"), { name: "T" });
  for (const t of ["[]Server", "map[string]*T", "func() T", "chan T", "struct{}", "a.b.c", "interface{ M() }"])
    assert.equal(namedType(t), undefined, t);
});

test("element, range and result types", () => {
  assert.equal(elementType("[]*db.Conn"), "*db.Conn");
  assert.equal(elementType("[4]T"), "T");
  assert.equal(elementType("map[string][]T"), "[]T");
  assert.equal(elementType("T"), undefined);
  assert.equal(rangeType("map[K]V", 0), "K");
  assert.equal(rangeType("map[K]V", 1), "V");
  assert.equal(rangeType("[]T", 0), undefined);
  assert.equal(rangeType("<-chan *T", 0), "*T");
  assert.equal(firstResult("(*Server, error)"), "*Server");
  assert.equal(firstResult("(a, b *T, err error)"), "*T");
  assert.equal(firstResult("*T"), "*T");
  assert.equal(nthResult("(int, error, *W)", 2), "*W");
  assert.equal(nthResult("(s *Server, err error)", 1), "error");
  assert.equal(nthResult("(int, error)", 5), undefined);
  assert.equal(funcTypeResult("func(x int) (*T, error)"), "*T");
  assert.equal(funcTypeResult("func()"), undefined);
});

test("paramCount counts grouped names and skips receivers and type parameters", () => {
  assert.equal(paramCount("func (s *S) Scale(x, y float64)", "Scale"), 2);
  assert.equal(paramCount("Scale(f float64) error", "Scale"), 1);
  assert.equal(paramCount("func Map[T, U any](xs []T, f func(T) U) []U", "Map"), 2);
  assert.equal(paramCount("func F()", "F"), 0);
  assert.equal(paramCount("func F(a int, b …", "F"), undefined);
});

test("parseChain reads receiver expressions and refuses anything else", () => {
  assert.deepEqual(parseChain("s.db.items[i].Run()"), [
    { k: "id", name: "s" },
    { k: "sel", name: "db" },
    { k: "sel", name: "items" },
    { k: "index" },
    { k: "sel", name: "Run" },
    { k: "call" },
  ]);
  assert.deepEqual(parseChain("v.(*T)"), [{ k: "id", name: "v" }, { k: "assert", type: "*T" }]);
  assert.deepEqual(parseChain("T{a: f(\")\")}"), [{ k: "id", name: "T" }, { k: "lit" }]);
  assert.deepEqual(parseChain("(*Server)"), [{ k: "paren", inner: "*Server" }]);
  for (const t of ["a + b", "\"x\".Len", "f(", "x…"]) assert.equal(parseChain(t), undefined, t);
  assert.deepEqual(parseDecl("a, err := f(x)"), { names: ["a", "err"], rhs: "f(x)", range: false });
  assert.deepEqual(parseDecl("_, v := range m[k]"), { names: ["_", "v"], rhs: "m[k]", range: true });
  assert.equal(parseDecl("x = y"), undefined);
});

test("go.mod, import names and receivers", () => {
  assert.equal(goModModule("// c\nmodule example.com/acme // x\n\ngo 1.22\n"), "example.com/acme");
  assert.equal(goModModule('module "example.com/q"'), "example.com/q");
  assert.deepEqual(importName("net/http"), { name: "http", exact: true });
  assert.deepEqual(importName("github.com/go-chi/chi/v5"), { name: "chi", exact: false });
  assert.deepEqual(importName("gopkg.in/yaml.v3"), { name: "yaml", exact: false });
  assert.deepEqual(importName("github.com/mattn/go-isatty"), { name: "isatty", exact: false });
  assert.equal(importName("github.com/json-iterator/go"), undefined);
  assert.equal(receiverTypeName("*List[K, V]"), "List");
  assert.deepEqual(receiverTypeParams("*List[K, V]"), ["K", "V"]);
});
