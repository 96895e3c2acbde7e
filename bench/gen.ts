// Deterministic source corpora for benchmarks: N modules per language, each with classes or
// types, methods and functions that import and call each other (so resolution has work to do).
// Same seed, same bytes.

import { rng } from "../test/support/random.js";

/** The seeded PRNG the corpora are drawn from (mulberry32; the tests' own). */
export { rng };

export type Lang = "ts" | "python" | "go" | "rust" | "java" | "c";

const BODY_LINES = 6;

function pick(r: () => number, n: number): number {
  return Math.floor(r() * n);
}

function tsModule(i: number, n: number, r: () => number): string {
  const a = pick(r, n);
  const b = pick(r, n);
  const out: string[] = [];
  out.push(`import { Service${a}, helper${a} } from "./mod${a}.js";`);
  out.push(`import { helper${b} } from "./mod${b}.js";`);
  out.push("");
  out.push(`/** Service ${i}: holds state and calls its neighbours. */`);
  out.push(`export class Service${i} {`);
  out.push(`  private readonly peer: Service${a};`);
  out.push(`  constructor(private count: number) {`);
  out.push(`    this.peer = new Service${a}(count + 1);`);
  out.push("  }");
  for (let m = 0; m < 8; m++) {
    out.push(`  /** Method ${m} of service ${i}. */`);
    out.push(`  method${m}(x: number, label: string): number {`);
    for (let k = 0; k < BODY_LINES; k++) out.push(`    const v${k} = x * ${k + 1} + label.length + this.count;`);
    out.push(`    if (x > ${m}) return this.method${(m + 1) % 8}(x - 1, label) + helper${i}(v0);`);
    out.push(`    return this.peer.method${m}(v1, label) + helper${b}(v2);`);
    out.push("  }");
  }
  out.push("}");
  out.push("");
  for (let f = 0; f < 6; f++) {
    const name = f === 0 ? `helper${i}` : `fn${i}_${f}`;
    out.push(`export function ${name}(x: number): number {`);
    for (let k = 0; k < BODY_LINES; k++) out.push(`  const y${k} = Math.max(x, ${k}) + ${f};`);
    out.push(`  return y0 + y1 + ${f === 5 ? `helper${a}(x)` : `fn${i}_${f + 1}(x)`};`);
    out.push("}");
    out.push("");
  }
  out.push(`export const handler${i} = async (req: { n: number }): Promise<number> => new Service${i}(req.n).method0(req.n, "h");`);
  return `${out.join("\n")}\n`;
}

function pyModule(i: number, n: number, r: () => number): string {
  const a = pick(r, n);
  const out: string[] = [`from pkg.mod${a} import Service${a}, helper${a}`, "", ""];
  out.push(`class Service${i}:`);
  out.push(`    """Service ${i}."""`);
  out.push("");
  out.push("    def __init__(self, count: int):");
  out.push("        self.count = count");
  out.push(`        self.peer = Service${a}(count + 1)`);
  for (let m = 0; m < 8; m++) {
    out.push("");
    out.push(`    def method${m}(self, x: int, label: str) -> int:`);
    for (let k = 0; k < BODY_LINES; k++) out.push(`        v${k} = x * ${k + 1} + len(label) + self.count`);
    out.push(`        if x > ${m}:`);
    out.push(`            return self.method${(m + 1) % 8}(x - 1, label) + helper${i}(v0)`);
    out.push(`        return self.peer.method${m}(v1, label) + helper${a}(v2)`);
  }
  for (let f = 0; f < 6; f++) {
    const name = f === 0 ? `helper${i}` : `fn${i}_${f}`;
    out.push("", "");
    out.push(`def ${name}(x: int) -> int:`);
    for (let k = 0; k < BODY_LINES; k++) out.push(`    y${k} = max(x, ${k}) + ${f}`);
    out.push(`    return y0 + y1 + ${f === 5 ? `helper${a}(x)` : `fn${i}_${f + 1}(x)`}`);
  }
  return `${out.join("\n")}\n`;
}

function goModule(i: number, n: number, r: () => number): string {
  const a = pick(r, n);
  const out: string[] = ["package pkg", ""];
  out.push(`// Service${i} holds state.`);
  out.push(`type Service${i} struct {`, "\tcount int", `\tpeer  *Service${a}`, "}", "");
  out.push(`// NewService${i} builds one.`);
  out.push(`func NewService${i}(count int) *Service${i} {`, `\treturn &Service${i}{count: count}`, "}", "");
  for (let m = 0; m < 8; m++) {
    out.push(`func (s *Service${i}) Method${m}(x int, label string) int {`);
    for (let k = 0; k < BODY_LINES; k++) out.push(`\tv${k} := x*${k + 1} + len(label) + s.count`);
    out.push(`\t_ = v3 + v4 + v5`);
    out.push(`\tif x > ${m} {`, `\t\treturn s.Method${(m + 1) % 8}(x-1, label) + Helper${i}(v0)`, "\t}");
    out.push(`\treturn s.peer.Method${m}(v1, label) + Helper${a}(v2)`, "}", "");
  }
  for (let f = 0; f < 6; f++) {
    const name = f === 0 ? `Helper${i}` : `fn${i}x${f}`;
    out.push(`func ${name}(x int) int {`);
    for (let k = 0; k < BODY_LINES; k++) out.push(`\ty${k} := x + ${k * (f + 1)}`);
    out.push(`\t_ = y2 + y3 + y4 + y5`);
    out.push(`\treturn y0 + y1 + ${f === 5 ? `Helper${a}(x)` : `fn${i}x${f + 1}(x)`}`, "}", "");
  }
  return `${out.join("\n")}\n`;
}

function rustModule(i: number, n: number, r: () => number): string {
  const a = pick(r, n);
  const out: string[] = [`use crate::mod${a}::{Service${a}, helper${a}};`, ""];
  out.push(`/// Service ${i}.`, `pub struct Service${i} {`, "    count: i64,", "}", "");
  out.push(`impl Service${i} {`);
  out.push("    pub fn new(count: i64) -> Self {", `        Service${i} { count }`, "    }");
  for (let m = 0; m < 8; m++) {
    out.push("", `    pub fn method${m}(&self, x: i64, label: &str) -> i64 {`);
    for (let k = 0; k < BODY_LINES; k++) out.push(`        let v${k} = x * ${k + 1} + label.len() as i64 + self.count;`);
    out.push(`        if x > ${m} {`, `            return self.method${(m + 1) % 8}(x - 1, label) + helper${i}(v0);`, "        }");
    out.push(`        Service${a}::new(v1).method${m}(v2, label) + helper${a}(v3 + v4 + v5)`, "    }");
  }
  out.push("}", "");
  for (let f = 0; f < 6; f++) {
    const name = f === 0 ? `helper${i}` : `fn${i}_${f}`;
    out.push(`pub fn ${name}(x: i64) -> i64 {`);
    for (let k = 0; k < BODY_LINES; k++) out.push(`    let y${k} = x.max(${k}) + ${f};`);
    out.push(`    y0 + y1 + y2 + y3 + y4 + y5 + ${f === 5 ? `helper${a}(x)` : `fn${i}_${f + 1}(x)`}`, "}", "");
  }
  return `${out.join("\n")}\n`;
}

function javaModule(i: number, n: number, r: () => number): string {
  const a = pick(r, n);
  const out: string[] = ["package com.bench;", ""];
  out.push(`/** Service ${i}. */`, `public class Service${i} {`);
  out.push("  private final int count;", `  private final Service${a} peer;`, "");
  out.push(`  public Service${i}(int count) {`, "    this.count = count;", `    this.peer = new Service${a}(count + 1);`, "  }");
  for (let m = 0; m < 8; m++) {
    out.push("", `  public int method${m}(int x, String label) {`);
    for (let k = 0; k < BODY_LINES; k++) out.push(`    int v${k} = x * ${k + 1} + label.length() + this.count;`);
    out.push(`    if (x > ${m}) {`, `      return this.method${(m + 1) % 8}(x - 1, label) + helper${i}(v0);`, "    }");
    out.push(`    return peer.method${m}(v1, label) + Service${a}.helper${a}(v2);`, "  }");
  }
  for (let f = 0; f < 6; f++) {
    const name = f === 0 ? `helper${i}` : `fn${f}`;
    out.push("", `  public static int ${name}(int x) {`);
    for (let k = 0; k < BODY_LINES; k++) out.push(`    int y${k} = Math.max(x, ${k}) + ${f};`);
    out.push(`    return y0 + y1 + ${f === 5 ? `Service${a}.helper${a}(x)` : `fn${f + 1}(x)`};`, "  }");
  }
  out.push("}");
  return `${out.join("\n")}\n`;
}

function cModule(i: number, n: number, r: () => number): string {
  const a = pick(r, n);
  const out: string[] = [`#include "mod${a}.h"`, `#include "mod${i}.h"`, "#include <stdio.h>", ""];
  out.push(`struct service${i} {`, "  int count;", "};", "");
  for (let f = 0; f < 14; f++) {
    const name = f === 0 ? `helper${i}` : `fn${i}_${f}`;
    out.push(`/* ${name}: step ${f}. */`, `${f === 0 ? "" : "static "}int ${name}(int x) {`);
    for (let k = 0; k < BODY_LINES; k++) out.push(`  int y${k} = x * ${k + 1} + ${f};`);
    out.push(`  if (x > ${f}) printf("%d", y2 + y3 + y4 + y5);`);
    out.push(`  return y0 + y1 + ${f === 13 ? `helper${a}(x)` : `fn${i}_${f + 1}(x)`};`, "}", "");
  }
  return `${out.join("\n")}\n`;
}

export interface Corpus {
  files: Record<string, string>;
  lines: number;
}

/** A corpus of at least `minLines` lines in `lang`, deterministic for a seed. */
export function generate(lang: Lang, minLines: number, seed = 42): Corpus {
  const r = rng(seed);
  const files: Record<string, string> = {};
  let lines = 0;
  const perModule = { ts: 120, python: 120, go: 150, rust: 130, java: 130, c: 150 }[lang];
  const n = Math.max(2, Math.ceil(minLines / perModule));
  for (let i = 0; i < n; i++) {
    let path: string;
    let text: string;
    switch (lang) {
      case "ts":
        path = `src/mod${i}.ts`;
        text = tsModule(i, n, r);
        break;
      case "python":
        path = `pkg/mod${i}.py`;
        text = pyModule(i, n, r);
        break;
      case "go":
        path = `pkg/mod${i}.go`;
        text = goModule(i, n, r);
        break;
      case "rust":
        path = `src/mod${i}.rs`;
        text = rustModule(i, n, r);
        break;
      case "java":
        path = `src/main/java/com/bench/Service${i}.java`;
        text = javaModule(i, n, r);
        break;
      case "c":
        path = `src/mod${i}.c`;
        text = cModule(i, n, r);
        files[`src/mod${i}.h`] = `#ifndef MOD${i}_H\n#define MOD${i}_H\nint helper${i}(int x);\n#endif\n`;
        lines += 4;
        break;
    }
    files[path] = text;
    lines += text.split("\n").length - 1;
  }
  if (lang === "ts") files["package.json"] = `${JSON.stringify({ name: "bench-ts", version: "1.0.0" })}\n`;
  if (lang === "python") files["pkg/__init__.py"] = "";
  if (lang === "go") files["go.mod"] = "module example.com/bench\n\ngo 1.21\n";
  if (lang === "rust") {
    files["Cargo.toml"] = '[package]\nname = "bench"\nversion = "0.1.0"\n';
    const mods = Object.keys(files)
      .filter((p) => p.startsWith("src/mod"))
      .map((p) => `pub mod ${p.slice(4, -3)};`)
      .sort();
    files["src/lib.rs"] = `${mods.join("\n")}\n`;
  }
  return { files, lines };
}
