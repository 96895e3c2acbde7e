// The generic runner for plugin tests written as annotated source files: every folder
// plugins/<lang>/tests/<case>/ (and plugins/catalog/<lang>/tests/<case>/) is a small source
// tree; its `@fact` comment lines (and an optional `expect.facts` file) say what it must yield:
//   @fact node KEY LABEL [prop=value ...]      @fact no-node KEY
//   @fact edge TYPE SRC -> DST [by=..] [confidence=..] [reason=".."] [line=N] [ref=".."]
//   @fact no-edge TYPE SRC -> DST [site=N]     (DST may be * for "no edge of TYPE from SRC")
//   site=N: the edge has a call site on line N (every site is kept in `sites`); on no-edge, no
//   such edge has one there.
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { EdgeFact, Facts, NodeFact } from "../../src/model/facts.js";
import { readPluginFolder } from "../../src/plugin/manifest.js";
import { PLUGINS_DIR, CATALOG_DIR } from "../../src/paths.js";
import { describeFacts, factsOfDir, listTree } from "../support/facts.js";

interface Expectation {
  where: string;
  line: string;
  check(f: Facts): string | undefined;
}

/** Split a line into words, keeping "double quoted" runs (with \" escapes) together. */
function words(s: string): string[] {
  const out: string[] = [];
  const re = /(\S*?)"((?:[^"\\]|\\.)*)"|(\S+)/g;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    if (m[3] !== undefined) out.push(m[3]);
    else out.push(`${m[1]}${m[2]!.replace(/\\(.)/g, "$1")}`);
  }
  return out;
}

const EDGE_PROPS: Record<string, string> = {
  by: "_resolved_by",
  confidence: "_confidence",
  reason: "_reason",
  line: "line",
  ref: "_ref",
  site: "sites",
};

/** Whether an edge has a site on `line` (its `sites`, else its first line). */
function hasSite(e: EdgeFact, line: string): boolean {
  const sites = e.props.sites;
  if (!Array.isArray(sites)) return String(e.props.line) === line;
  return sites.some((s) => Array.isArray(s) && String(s[0]) === line);
}

function parseExpectation(spec: string, where: string): Expectation {
  const w = words(spec);
  const kind = w[0];
  const bad = (why: string) => new Error(`${where}: bad @fact line (${why}): ${spec}`);
  if (kind === "node" || kind === "no-node") {
    const key = w[1];
    if (!key) throw bad("no key");
    const label = w[2];
    const props = Object.fromEntries(
      w.slice(3).map((kv) => {
        const i = kv.indexOf("=");
        return [kv.slice(0, i), kv.slice(i + 1)];
      }),
    );
    return {
      where,
      line: spec,
      check(f) {
        const n: NodeFact | undefined = f.nodes.find((x) => x.key === key);
        if (kind === "no-node") return n ? `node ${key} exists but must not` : undefined;
        if (!n) return `no node ${key}`;
        if (label && !n.labels.includes(label)) return `node ${key} has labels ${n.labels.join(",")}, expected ${label}`;
        for (const [k, v] of Object.entries(props)) {
          const got = n.props[k];
          if (String(Array.isArray(got) ? got.join(",") : got) !== v)
            return `node ${key} prop ${k} = ${JSON.stringify(got)}, expected ${v}`;
        }
        return undefined;
      },
    };
  }
  if (kind === "edge" || kind === "no-edge") {
    const [, type, src, arrow, dst, ...rest] = w;
    if (!type || !src || arrow !== "->" || !dst) throw bad("expected TYPE SRC -> DST");
    const props = rest.map((kv) => {
      const i = kv.indexOf("=");
      const k = kv.slice(0, i);
      if (!(k in EDGE_PROPS)) throw bad(`unknown edge property ${k}`);
      return [EDGE_PROPS[k]!, kv.slice(i + 1)] as const;
    });
    return {
      where,
      line: spec,
      check(f) {
        const matches = (e: EdgeFact) => e.type === type && e.src === src && (dst === "*" || e.dst === dst);
        const site = props.find(([k]) => k === "sites")?.[1];
        const found = f.edges.filter((e) => matches(e) && (site === undefined || hasSite(e, site)));
        if (kind === "no-edge")
          return found.length > 0 ? `edge ${type} ${src} -> ${found[0]!.dst} exists but must not` : undefined;
        if (found.length === 0) {
          const near = f.edges.filter((e) => e.src === src && e.type === type).map((e) => e.dst);
          return `no edge ${type} ${src} -> ${dst}${near.length ? ` (${type} from ${src} goes to: ${near.join(", ")})` : ""}`;
        }
        const e = found[0]!;
        for (const [k, v] of props)
          if (k !== "sites" && String(e.props[k]) !== v) return `edge ${type} ${src} -> ${dst}: ${k} = ${JSON.stringify(e.props[k])}, expected ${v}`;
        return undefined;
      },
    };
  }
  throw bad(`unknown kind ${kind}`);
}

function expectationsOf(dir: string): Expectation[] {
  const out: Expectation[] = [];
  for (const rel of listTree(dir)) {
    const text = readFileSync(join(dir, rel), "utf8");
    text.split("\n").forEach((line, i) => {
      const m = rel === "expect.facts" ? /^\s*(?!#)(\S.*)$/.exec(line) : /@fact\s+(.*?)\s*(?:\*\/|-->)?\s*$/.exec(line);
      if (m?.[1]) out.push(parseExpectation(m[1], `${rel}:${i + 1}`));
    });
  }
  return out;
}

function caseDirs(): { plugin: string; dir: string; catalog: boolean }[] {
  const out: { plugin: string; dir: string; catalog: boolean }[] = [];
  for (const [base, catalog] of [
    [PLUGINS_DIR, false],
    [CATALOG_DIR, true],
  ] as const) {
    if (!existsSync(base)) continue;
    for (const plugin of readdirSync(base).sort()) {
      const tests = join(base, plugin, "tests");
      if (plugin === "catalog" || !existsSync(tests)) continue;
      for (const c of readdirSync(tests).sort()) out.push({ plugin, dir: join(tests, c), catalog });
    }
  }
  return out;
}

for (const c of caseDirs()) {
  test(`plugin ${c.plugin}: ${c.dir.slice(c.dir.indexOf("plugins/"))}`, async () => {
    const expectations = expectationsOf(c.dir);
    assert.ok(expectations.length > 0, `${c.dir} has no @fact lines`);
    const extra = c.catalog ? [{ ...readPluginFolder(join(CATALOG_DIR, c.plugin)), source: "test", official: false }] : [];
    const { facts } = await factsOfDir(c.dir, { extraPlugins: extra, only: c.plugin });
    const failures = expectations
      .map((x) => {
        const why = x.check(facts);
        return why ? `${x.where}: ${why}\n    (${x.line})` : undefined;
      })
      .filter((x) => x !== undefined);
    if (failures.length > 0)
      assert.fail(`${failures.length} of ${expectations.length} expectations failed:\n${failures.join("\n")}\n\nfacts:\n${describeFacts(facts)}`);
  });
}
