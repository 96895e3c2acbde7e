// Fuzz: thousands of random and malformed tool calls over ONE real stdio session (the SDK's
// Client, a spawned drsg-mcp on a checkout-backed plane): wrong types, unknown fields, huge and
// negative numbers, 100k-character strings, odd unicode (lone surrogates, RTL marks, NUL), unknown
// tool names, missing and non-object arguments, deep objects. Every call must come back as a
// well-formed result or a JSON-RPC error — also when 100 arrive at once — and the server must
// answer a normal call afterwards.
// Seeded: DRSG_FUZZ_SEED reproduces a run (the seed is printed), DRSG_FUZZ_RUNS sets how many calls.
// Tools with effects outside the database are tamed (never rebuild the real plane, never confirm a
// drop, never probe or attach a real URL, never mount a real file); everything else runs as drawn.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { type GrepFixture, grepFixture } from "../tools/text-fixture.js";
import { type Sandbox, type Session, connect, sandbox } from "./helpers.js";
import { rng as prng } from "../support/random.js";

const SEED = process.env.DRSG_FUZZ_SEED ? Number(process.env.DRSG_FUZZ_SEED) : Date.now() % 2 ** 31;
const RUNS = process.env.DRSG_FUZZ_RUNS ? Number(process.env.DRSG_FUZZ_RUNS) : 2500;
/** The whole fuzz loop stops drawing new calls after this long (the test must finish in < 60 s). */
const TIME_BOX_MS = 40_000;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

interface PropSchema {
  type?: string | string[];
  enum?: unknown[];
  items?: PropSchema;
  properties?: Record<string, PropSchema>;
  anyOf?: PropSchema[];
}

interface ToolSchema {
  name: string;
  properties: Record<string, PropSchema>;
  required: string[];
}

const ODD_STRINGS = [
  "",
  " ",
  "a",
  "p",
  "p_git",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udc00x",
  "x\ud83d",
  "\u202eevil\u202c",
  "مرحبا بالعالم",
  "😀".repeat(50),
  "e\u0301\u0301\u0301",
  "\ufeff",
  "\n\r\t\v\f",
  "\u2028\u2029",
  "../../../etc/passwd",
  "/etc/passwd",
  "C:\\Windows\\win.ini",
  "~/.ssh/id_rsa",
  "src/../../x",
  "link-out.txt",
  "linkdir/more.ts",
  "src/lib.ts",
  "src/lib.ts:1-3",
  "src/lib.ts:0",
  "src/lib.ts:99999999999999999999",
  "src/lib.ts:3-1",
  ".ts",
  "*.py",
  "Box.open",
  "app/src/lib",
  "app/evil",
  "needle",
  "(a+)+$",
  "(((",
  "[",
  "\\",
  "*",
  "a{99999}",
  "(?P<x>a)",
  "%s%n%x",
  "$" + "{process.exit()}",
  "'; DROP TABLE nodes; --",
  "MATCH (n) DETACH DELETE n",
  "null",
  "NaN",
  "Infinity",
  "-1",
  "1e309",
  "__proto__",
  "constructor",
  "HEAD~99999",
  "http://127.0.0.1:1/",
];
/** Plausible values, to reach past the schemas into the tools' own code. */
const SANE_STRINGS = ["p", "needle", "needle(", "Box.open", "app/src/lib.alpha", "app/src/lib", "alpha", "src", "src/lib.ts", "src/lib.ts:2-4", ".ts", "HEAD", "main", "CALLS", "out", "in", "both", "lib", "x"];
const ODD_NUMBERS = [0, -0, 1, -1, 2, 3, 6, 7, 10, 11, 50, 200, 201, 400, 401, 1.5, -1.5, 1e308, -1e308, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 5e-324, 1e21, 2 ** 31, -(2 ** 31)];

class Gen {
  /** Draw plausible values (for this call). */
  sane = false;
  constructor(readonly r: () => number) {}
  int(n: number): number {
    return Math.floor(this.r() * n);
  }
  chance(p: number): boolean {
    return this.r() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
  /** Random UTF-16 code units, lone surrogates and controls included. */
  noise(len: number): string {
    let s = "";
    for (let i = 0; i < len; i++) {
      const k = this.int(4);
      s += String.fromCharCode(k === 0 ? this.int(32) : k === 1 ? 0xd800 + this.int(0x800) : k === 2 ? 32 + this.int(95) : this.int(0x10000));
    }
    return s;
  }
  string(): string {
    if (this.sane && this.chance(0.9)) return this.pick(SANE_STRINGS);
    const k = this.int(10);
    if (k < 6) return this.pick(ODD_STRINGS);
    if (k < 8) return this.noise(1 + this.int(64));
    if (k < 9) return this.pick(["x", "é", "\ud800", "a\u0000"]).repeat(100_000);
    return this.noise(1 + this.int(2000));
  }
  number(): number {
    return this.chance(0.7) ? this.pick(ODD_NUMBERS) : (this.r() - 0.5) * 10 ** this.int(20);
  }
  deep(depth: number): Json {
    let v: Json = this.chance(0.5) ? "bottom" : 1;
    for (let i = 0; i < depth; i++) v = this.chance(0.5) ? { a: v } : [v];
    return v;
  }
  /** Any JSON value at all. */
  any(level = 0): Json {
    const k = this.int(level > 2 ? 5 : 8);
    switch (k) {
      case 0:
        return null;
      case 1:
        return this.chance(0.5);
      case 2:
        return this.number();
      case 3:
      case 4:
        return this.string();
      case 5:
        return Array.from({ length: this.int(5) }, () => this.any(level + 1));
      case 6: {
        const o: { [k: string]: Json } = {};
        for (let i = this.int(5); i > 0; i--) o[this.string().slice(0, 40)] = this.any(level + 1);
        return o;
      }
      default:
        return this.deep(1 + this.int(this.chance(0.1) ? 2000 : 60));
    }
  }
  /** A value of the type the schema declares (still drawn from the odd pools). */
  typed(s: PropSchema | undefined): Json {
    if (!s) return this.any();
    if (s.enum && s.enum.length > 0 && this.chance(0.8)) return this.pick(s.enum) as Json;
    if (s.anyOf && s.anyOf.length > 0) return this.typed(this.pick(s.anyOf));
    const t = Array.isArray(s.type) ? this.pick(s.type) : s.type;
    switch (t) {
      case "string":
        return this.string();
      case "integer":
        if (this.sane) return 1 + this.int(6);
        return this.chance(0.8) ? this.pick(ODD_NUMBERS.filter(Number.isInteger)) : this.int(1000);
      case "number":
        return this.number();
      case "boolean":
        return this.chance(0.5);
      case "array":
        return Array.from({ length: this.int(4) }, () => this.typed(s.items));
      case "object": {
        const o: { [k: string]: Json } = {};
        for (const [k, v] of Object.entries(s.properties ?? {})) if (this.chance(0.7)) o[k] = this.typed(v);
        if (!s.properties && this.chance(0.8)) for (let i = this.int(3); i > 0; i--) o[this.pick(["name", "file", "line", "x"])] = this.any(2);
        return o;
      }
      default:
        return this.any();
    }
  }
}

/** One random call: mostly aimed at a real tool with plausible fields, then broken in one way. */
function drawCall(g: Gen, tools: ToolSchema[]): { name: string; args: unknown } {
  const roll = g.int(100);
  g.sane = false;
  if (roll < 4) return { name: g.string().slice(0, g.chance(0.5) ? 50 : 10_000) || "x", args: g.any() };
  const t = g.pick(tools);
  g.sane = roll >= 8 && roll < 30;
  if (roll < 8) return { name: t.name, args: g.pick([undefined, null, [], "args", 42, true, [g.any()]]) };
  const args: { [k: string]: Json } = {};
  for (const [k, s] of Object.entries(t.properties)) {
    if (!t.required.includes(k) && g.chance(0.5)) continue;
    args[k] = k === "plane" && g.chance(0.6) ? g.pick(["p", "p", "p_git"]) : g.typed(s);
  }
  if (roll < 40) return { name: t.name, args };
  const keys = Object.keys(t.properties);
  const mut = g.int(5);
  if (mut === 0 && t.required.length > 0) delete args[g.pick(t.required)];
  else if (mut === 1 && keys.length > 0) args[g.pick(keys)] = g.any();
  else if (mut === 2) args[g.chance(0.5) ? g.string().slice(0, 30) : "unknown_field"] = g.any();
  else if (mut === 3 && keys.length > 0) args[g.pick(keys)] = g.chance(0.5) ? g.deep(g.int(500)) : "y".repeat(100_000);
  else if (keys.length > 0) args[g.pick(keys)] = g.pick([null, Number.NaN, Number.POSITIVE_INFINITY, -1, 1e308, [], {}, "", true]) as Json;
  return { name: t.name, args };
}

/** Effects outside the database stay off: see the header. */
function tame(call: { name: string; args: unknown }): void {
  const a = call.args;
  if (typeof a !== "object" || a === null || Array.isArray(a)) return;
  const o = a as Record<string, unknown>;
  if (call.name === "rebuild" && (o.plane === "p" || o.plane === "p_git")) o.plane = "not-the-real-plane";
  if (call.name === "drop_plane" && o.confirm === true) o.confirm = false;
  if (call.name === "attachments" && o.probe === true) o.probe = false;
  if (call.name === "attach" && typeof o.url === "string") o.url = "not a url";
  if (call.name === "mount" && typeof o.path === "string") o.path = `no-such-dir/${o.path.length}.drsg`;
}

function wellFormed(r: unknown): string | undefined {
  if (typeof r !== "object" || r === null) return "result is not an object";
  const x = r as { content?: unknown; isError?: unknown };
  if (!Array.isArray(x.content)) return "result has no content array";
  for (const c of x.content as { type?: unknown; text?: unknown }[]) {
    if (c.type !== "text" || typeof c.text !== "string") return `content item ${JSON.stringify(c).slice(0, 200)}`;
  }
  if (x.isError !== undefined && typeof x.isError !== "boolean") return "isError is not a boolean";
  return undefined;
}

function show(call: { name: string; args: unknown }): string {
  const s = JSON.stringify(call, (_k, v) => (typeof v === "string" && v.length > 200 ? `${v.slice(0, 200)}…(${v.length})` : v));
  return s.length > 2000 ? `${s.slice(0, 2000)}…` : s;
}

describe(`fuzz over one stdio session (seed ${SEED}; DRSG_FUZZ_SEED=${SEED} reproduces it)`, () => {
  let fx: GrepFixture;
  let sb: Sandbox;
  let s: Session;
  before(async () => {
    fx = grepFixture();
    fx.close();
    sb = sandbox();
    // No provider keys: no tool reaches a network service from here.
    for (const k of Object.keys(sb.env)) if (/_API_KEY$|^DRSG_TOKEN$/.test(k)) delete sb.env[k];
    s = await connect(sb, ["--db", fx.db]);
  });
  after(async () => {
    await s?.close();
    sb?.cleanup();
    fx?.done();
  });

  test("every call gets a well-formed answer, and the server answers afterwards", { timeout: 58_000 }, async (t) => {
    t.diagnostic(`seed ${SEED}, up to ${RUNS} calls`);
    process.stderr.write(`fuzz seed ${SEED} (DRSG_FUZZ_SEED=${SEED} reproduces it)\n`);
    const { tools } = await s.client.listTools();
    const schemas: ToolSchema[] = tools.map((x) => ({
      name: x.name,
      properties: (x.inputSchema.properties ?? {}) as Record<string, PropSchema>,
      required: (x.inputSchema.required ?? []) as string[],
    }));
    const g = new Gen(prng(SEED));
    const start = Date.now();
    let answered = 0;
    let errors = 0;
    let refused = 0;
    let i = 0;
    const kinds = new Map<string, number>();
    for (; i < RUNS && Date.now() - start < TIME_BOX_MS; i++) {
      const call = drawCall(g, schemas);
      tame(call);
      try {
        const r = await s.client.callTool({ name: call.name, arguments: call.args as Record<string, unknown> }, undefined, { timeout: 15_000 });
        const bad = wellFormed(r);
        assert.equal(bad, undefined, `call #${i} (seed ${SEED}) answered malformed: ${bad}\n${show(call)}`);
        if (r.isError) {
          errors++;
          const text = (r.content as { text: string }[]).map((c) => c.text).join("\n");
          const kind = /-32602/.test(text) ? "invalid params" : (/ failed \[([A-Z_]+)\]/.exec(text)?.[1] ?? "other");
          kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
          assert.doesNotMatch(text, /\[INTERNAL\]/, `call #${i} (seed ${SEED}) crashed a tool:\n${show(call)}\n${text}`);
        } else answered++;
      } catch (e) {
        assert.ok(e instanceof McpError, `call #${i} (seed ${SEED}) failed outside the protocol: ${String(e)}\n${show(call)}`);
        assert.notEqual(e.code, -32001, `call #${i} (seed ${SEED}) timed out:\n${show(call)}`);
        assert.notEqual(e.code, -32000, `call #${i} (seed ${SEED}): the connection closed:\n${show(call)}`);
        refused++;
      }
    }
    // A burst of calls at once: answers must still come back whole, each to its own request.
    const burst = Array.from({ length: 100 }, () => {
      const call = drawCall(g, schemas);
      tame(call);
      return call;
    });
    const settled = await Promise.allSettled(
      burst.map((call) => s.client.callTool({ name: call.name, arguments: call.args as Record<string, unknown> }, undefined, { timeout: 30_000 })),
    );
    settled.forEach((r, k) => {
      if (r.status === "fulfilled") assert.equal(wellFormed(r.value), undefined, `burst call ${k} (seed ${SEED}): ${show(burst[k]!)}`);
      else {
        assert.ok(r.reason instanceof McpError, `burst call ${k} (seed ${SEED}) failed outside the protocol: ${String(r.reason)}\n${show(burst[k]!)}`);
        assert.ok(![-32000, -32001].includes(r.reason.code), `burst call ${k} (seed ${SEED}): ${String(r.reason)}`);
      }
    });
    t.diagnostic(`${i} calls in ${Date.now() - start} ms: ${answered} answered, ${errors} tool errors, ${refused} JSON-RPC errors`);
    t.diagnostic(`tool errors: ${[...kinds].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(", ")}`);
    assert.ok(i >= Math.min(RUNS, 1000), `only ${i} calls fitted in the time box`);
    // Alive and still right: a normal call answers as before.
    const planes = await s.call("list_planes", {});
    assert.ok(!planes.isError, planes.text);
    const grep = await s.call("grep", { plane: "p", pattern: "needle(", path: "src/lib.ts" });
    assert.ok(!grep.isError, grep.text);
    assert.match(grep.text, /^4 match\(es\) for "needle\(" in 1 file/m);
  });
});
