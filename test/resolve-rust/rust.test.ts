// The rust resolver beyond the annotated fixtures: its text readers (use trees, types, receiver
// chains, generics, Cargo.toml), order independence, and linear cost on a generated tree.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { resolveRust } from "../../src/resolve/rust/index.js";
import { crateRoots, parseCargo } from "../../src/resolve/rust/cargo.js";
import { parseChain, parseGenerics, parseType, parseUse, pathSegments } from "../../src/resolve/rust/text.js";
import { factsOfFiles } from "../support/facts.js";

describe("rust text readers", () => {
  test("use trees: groups, aliases, self, globs, visibility, comments", () => {
    const d = parseUse("pub(crate) use a::{b, c as d, e::{self, f::*}, /* x */ g::h};");
    assert.equal(d?.visibility, "pub(crate)");
    assert.deepEqual(d?.leaves, [
      { path: ["a", "b"], glob: false },
      { path: ["a", "c"], alias: "d", glob: false },
      { path: ["a", "e"], glob: false },
      { path: ["a", "e", "f"], glob: true },
      { path: ["a", "g", "h"], glob: false },
    ]);
    assert.deepEqual(parseUse("use std::fmt::Write as _;")?.leaves, [{ path: ["std", "fmt", "Write"], alias: "_", glob: false }]);
    assert.deepEqual(parseUse("use ::std::io;")?.leaves, [{ path: ["", "std", "io"], glob: false }]);
    assert.equal(parseUse("mod x;"), undefined);
  });

  test("types: references, dyn / impl, generics read at the top level", () => {
    assert.deepEqual(parseType("&'a mut Vec<crate::Item>"), { path: ["Vec"], args: ["crate::Item"] });
    assert.deepEqual(parseType("std::result::Result<T, io::Error>"), { path: ["std", "result", "Result"], args: ["T", "io::Error"] });
    assert.deepEqual(parseType("&(dyn Area + Send + 'static)"), { path: ["Area"], args: [], traitObject: true });
    assert.equal(parseType("fn(u32) -> u32"), undefined);
    assert.equal(parseType("[u8; 4]"), undefined);
    assert.deepEqual(pathSegments("Vec::<u8>::new"), ["Vec", "new"]);
    assert.equal(pathSegments("<T as X>::y"), undefined);
  });

  test("receiver chains: calls, fields, ?, casts; derefs, operators and macros refused", () => {
    assert.deepEqual(parseChain("User::load(1)?.rename(\"a\").name"), {
      head: { head: "path", text: "User::load" },
      ops: [{ op: "call" }, { op: "try" }, { op: "method", name: "rename" }, { op: "field", name: "name" }],
    });
    assert.deepEqual(parseChain("&mut self .repo"), { head: { head: "path", text: "self" }, ops: [{ op: "field", name: "repo" }] });
    assert.deepEqual(parseChain("Point { x: 1 }"), { head: { head: "struct", text: "Point" }, ops: [] });
    assert.equal(parseChain("*self"), undefined);
    assert.equal(parseChain("a + b"), undefined);
    assert.equal(parseChain("vec![1]"), undefined);
    assert.equal(parseChain("x[0]"), undefined);
  });

  test("generics: bounds inline and in where clauses, lifetimes and consts left out", () => {
    const g = parseGenerics("pub fn f<'a, T: A + Clone, U, const N: usize>(t: T) where U: B<T> + 'a", "f");
    assert.deepEqual([...g], [
      ["T", ["A", "Clone"]],
      ["U", ["B<T>"]],
    ]);
    assert.deepEqual([...parseGenerics("impl<M: Matcher> where M: Send", "")], [["M", ["Matcher", "Send"]]]);
  });

  test("Cargo.toml: package, lib name, dependency tables and renames, targets", () => {
    const pkg = parseCargo(
      "crates/cli/Cargo.toml",
      `[package]\nname = "shop-cli" # the cli\nautotests = false\n\n[lib]\nname = "shopcli"\n\n[dependencies]\nserde = { version = "1", features = [\n  "derive",\n] }\nengine = { package = "shop-core", path = "../core" }\n\n[target.'cfg(unix)'.dependencies]\nlibc = "0.2"\n\n[dev-dependencies.tokio-test]\nversion = "1"\n\n[[test]]\nname = "it"\npath = "tests/all.rs"\n`,
    );
    assert.ok(pkg);
    assert.equal(pkg.libName, "shopcli");
    assert.deepEqual([...pkg.deps!], [
      ["serde", "serde"],
      ["engine", "shop-core"],
      ["libc", "libc"],
      ["tokio_test", "tokio-test"],
    ]);
    const roots = crateRoots(pkg, new Set(["crates/cli/src/lib.rs", "crates/cli/tests/all.rs", "crates/cli/tests/other.rs"]));
    assert.deepEqual(
      roots.map((r) => [r.file, r.name, r.kind]),
      [
        ["crates/cli/src/lib.rs", "shopcli", "lib"],
        ["crates/cli/tests/all.rs", "it", "test"],
      ],
    );
    assert.equal(parseCargo("Cargo.toml", "[workspace]\nmembers = []\n"), undefined);
  });
});

const TREE: Record<string, string> = {
  "Cargo.toml": '[package]\nname = "order"\n',
  "src/lib.rs": "pub mod a;\npub mod b;\npub use a::A;\nfn top() { a::f(); b::g(); }\n",
  "src/a.rs": "pub struct A;\nimpl A { pub fn new() -> A { A } pub fn m(&self) {} }\npub fn f() { let x = A::new(); x.m(); super::b::g(); }\n",
  "src/b.rs": "use crate::A;\npub fn g() { A::new().m(); unknown(); }\n",
};

describe("rust resolver", () => {
  test("facts do not depend on the order of partials or manifests", async () => {
    const { partials } = await factsOfFiles(TREE, { treeName: "order" });
    const ps = [...partials.values()].map((x) => x.partial).filter((p) => p.path.endsWith(".rs"));
    const manifests = new Map([["Cargo.toml", TREE["Cargo.toml"]!]]);
    const a = resolveRust({ partials: ps, manifests, treeName: "order" });
    const b = resolveRust({ partials: [...ps].reverse(), manifests, treeName: "order" });
    assert.deepEqual(b.facts, a.facts);
    assert.deepEqual(b.stats, a.stats);
    assert.ok(a.facts.edges.some((e) => e.type === "CALLS" && e.src === "order::b::g" && e.dst === "order::a::A::m"));
  });

  test("cost grows linearly with the tree", async () => {
    const tree = (n: number) => {
      const files: Record<string, string> = { "Cargo.toml": '[package]\nname = "big"\n' };
      const mods: string[] = [];
      for (let i = 0; i < n; i++) {
        mods.push(`pub mod m${i};`);
        files[`src/m${i}.rs`] =
          `use crate::*;\nuse super::m0::T0;\npub struct T${i};\nimpl T${i} { pub fn new() -> Self { T${i} } pub fn run(&self) { helper${i}(); } }\n` +
          `pub fn helper${i}() { let t = T${i}::new(); t.run(); T0::new().run(); println!("{}", ${i}); }\n`;
      }
      files["src/lib.rs"] = `${mods.join("\n")}\n`;
      return files;
    };
    const time = async (n: number) => {
      const { partials } = await factsOfFiles(tree(n), { treeName: "big" });
      const ps = [...partials.values()].map((x) => x.partial).filter((p) => p.path.endsWith(".rs"));
      const manifests = new Map([["Cargo.toml", '[package]\nname = "big"\n']]);
      resolveRust({ partials: ps, manifests, treeName: "big" });
      const t0 = performance.now();
      const out = resolveRust({ partials: ps, manifests, treeName: "big" });
      return { ms: performance.now() - t0, out };
    };
    const small = await time(200);
    const large = await time(800);
    assert.equal(large.out.stats.unresolved, 0);
    // 4x the files: well under 16x the time (a quadratic pass would show).
    assert.ok(large.ms < small.ms * 10 + 50, `200 files ${small.ms.toFixed(0)} ms, 800 files ${large.ms.toFixed(0)} ms`);
  });
});
