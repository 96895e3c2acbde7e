// BENCHMARKS.md section: drsg serve under 50 concurrent MCP sessions × 20 tool calls each
// (loopback only, bounded): errors, latency, and the server's RSS before, during and after.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { PACKAGE_ROOT } from "../src/paths.js";
import { openStore } from "../src/store/store.js";
import { collectGarbage, commitCorpus, median, pct } from "./common.js";
import { generate } from "./gen.js";
import { LeanHttpTransport } from "./http-transport.js";
import { strongToken } from "../src/server/state.js";

const TOKEN = strongToken(); // drsg serve refuses a token of fewer than 32 random bytes

/** User + system CPU of a process so far, in ms (from /proc/<pid>/stat; clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8");
  const rest = f.slice(f.lastIndexOf(")") + 2).split(" ");
  return (Number(rest[11]) + Number(rest[12])) * 10;
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

interface Drive {
  ms: Record<string, number[]>;
  /** Each session's set-up (connect: initialize, initialized), all 50 opened at once. */
  connectMs: number[];
  errors: number;
  distinct: number;
  wall: number;
  serverCpu: number;
  clientCpu: number;
  before: number;
  during: number;
  after: number;
}

/** One server process, 50 sessions × 20 calls; `env` adds to the server's environment. */
/** The measured round's mix: per 6 calls, context ×2, impact, trace, search, list_planes. */
const MEASURED_MIX = { kinds: ["context", "context", "impact", "trace", "search", "list_planes"], query: "method service" };
/** The warm-up's: the same verbs but list_planes, and another search, so no measured answer is cached by it. */
const WARM_MIX = { kinds: ["context", "context", "impact", "trace", "search", "context"], query: "helper function" };

/**
 * SESSIONS concurrent sessions, each connecting then making `calls` calls in turn (a mix of read
 * verbs over `names`); `record` hears each call. Answers the open sessions.
 */
async function round(
  url: string,
  names: string[],
  calls: number,
  record: (kind: string, question: string, ms: number, ok: boolean) => void,
  mix: { kinds: string[]; query: string } = MEASURED_MIX,
): Promise<{ clients: { c: Client; t: LeanHttpTransport }[]; connectMs: number[] }> {
  // The sessions open together (initialize, initialized, the GET for server messages), then all
  // make their calls: every call runs among 50 open sessions, and no call waits behind the load
  // generator opening another session (set-up is timed apart).
  const connectMs: number[] = [];
  const clients = await Promise.all(
    Array.from({ length: SESSIONS }, async (_, s) => {
      const c = new Client({ name: `bench-${s}`, version: "1" }, { jsonSchemaValidator: validator });
      const t = new LeanHttpTransport(new URL(url), TOKEN);
      const t0 = performance.now();
      await c.connect(t);
      connectMs.push(performance.now() - t0);
      return { c, t };
    }),
  );
  await Promise.all(
    clients.map(async ({ c }, s) => {
      for (let i = 0; i < calls; i++) {
        const name = names[(s * calls + i) % names.length]!;
        const kind = mix.kinds[i % mix.kinds.length]!;
        const args =
          kind === "trace"
            ? { plane: "bench", from: name, to: names[(i + 7) % names.length]! }
            : kind === "search"
              ? { plane: "bench", query: mix.query }
              : kind === "list_planes"
                ? {}
                : { plane: "bench", name };
        const t0 = performance.now();
        let ok = true;
        try {
          const r = await c.callTool({ name: kind, arguments: args });
          if (r.isError) ok = false;
        } catch {
          ok = false;
        }
        record(kind, `${kind} ${JSON.stringify(args)}`, performance.now() - t0, ok);
      }
    }),
  );
  return { clients, connectMs };
}

async function drive(db: string, names: string[], warmNames: string[], env: Record<string, string>): Promise<Drive> {
  // DRSG_BENCH_PROF=<dir>: the server writes a V8 CPU profile there when it stops.
  // DRSG_BENCH_BIN=<drsg.js>: serve with another build (A/B against an older commit).
  const prof = process.env.DRSG_BENCH_PROF;
  const bin = process.env.DRSG_BENCH_BIN ?? join(PACKAGE_ROOT, "bin", "drsg.js");
  const child = spawn(process.execPath, [...(prof ? ["--cpu-prof", "--cpu-prof-dir", prof] : []), bin, "serve", "--db", db, "--addr", "127.0.0.1:0"], {
    env: { ...process.env, ...env, DRSG_TOKEN: TOKEN, DRSG_LOG_DIR: mkdtempSync(join(tmpdir(), "drsg-bench-logs-")) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const url = await new Promise<string>((res, rej) => {
    let err = "";
    child.stderr!.on("data", (d: Buffer) => {
      err += d.toString();
      const m = /drsg serve: (http:\/\/\S+\/mcp)/.exec(err);
      if (m) res(m[1]!);
    });
    child.once("exit", () => rej(new Error(err)));
  });
  try {
    const pid = child.pid!;
    // Warm-up, not counted: every session of a round like the measured one, on other symbols
    // (so no measured question is answered from the cache by it), closed before the measured
    // round starts — the server and the load generator run their code paths hot, as a server
    // that has been up a while does.
    const { clients: warm } = await round(url, warmNames, 6, () => undefined, WARM_MIX);
    await Promise.all(warm.map(({ c, t }) => t.terminateSession().then(() => c.close()).catch(() => undefined)));
    await new Promise((r) => setTimeout(r, 500));
    const before = rssMb(pid);
    const ms: Record<string, number[]> = { context: [], impact: [], trace: [], search: [], list_planes: [] };
    const questions = new Set<string>();
    let errors = 0;
    let during = before;
    const sampler = setInterval(() => {
      during = Math.max(during, rssMb(pid));
    }, 50);
    // The load generator's own garbage (the corpus, the warm-up's clients) collected now, not in
    // the middle of the measured calls.
    collectGarbage();
    const cpu0 = cpuMs(pid);
    const self0 = process.cpuUsage();
    const t0 = performance.now();
    const { clients, connectMs } = await round(url, names, CALLS_EACH, (kind, q, took, ok) => {
      questions.add(q);
      if (!ok) errors++;
      ms[kind]!.push(took);
    });
    const wall = performance.now() - t0;
    const serverCpu = cpuMs(pid) - cpu0;
    const selfCpu = process.cpuUsage(self0);
    clearInterval(sampler);
    // Close the sessions (DELETE /mcp, as a host ending a session does), then the clients.
    await Promise.all(clients.map(({ c, t }) => t.terminateSession().then(() => c.close()).catch(() => undefined)));
    await new Promise((r) => setTimeout(r, 1500));
    const after = rssMb(pid);
    return { ms, connectMs, errors, distinct: questions.size, wall, serverCpu, clientCpu: (selfCpu.user + selfCpu.system) / 1000, before, during, after };
  } finally {
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  }
}

const SESSIONS = 50;
/** One JSON-schema validator for the 50 clients (the SDK builds an Ajv per Client otherwise). */
const validator = new AjvJsonSchemaValidator();
const CALLS_EACH = 20;

export function section(): { name: string; title: string; run(): Promise<string> } {
  return {
    name: "serve",
    title: "drsg serve under concurrent sessions (issue: serve and init)",
    async run() {
      const corpus = generate("ts", 30_000);
      const dir = commitCorpus(corpus.files);
      const db = join(mkdtempSync(join(tmpdir(), "drsg-bench-serve-")), "g.drsg");
      // Digest in a child: the bench process keeps no digest heap to collect during the calls.
      const d = spawnSync(process.execPath, [join(PACKAGE_ROOT, "bin", "drsg.js"), "digest", dir, "--apply", "--plane", "bench", "--db", db], {
        encoding: "utf8",
        env: process.env,
      });
      if (d.status !== 0) throw new Error(`digest failed: ${d.stderr}`);
      const store = openStore(db);
      const names = [...store.nodesByLabel("bench", "Method", 200)].map((n) => n.key);
      // The warm-up's symbols: functions, none of them a measured name.
      const warmNames = [...store.nodesByLabel("bench", "Function", 100)].map((n) => n.key);
      store.close();
      const load = loadavg()[0]!;
      const on = await drive(db, names, warmNames, {});
      const off = await drive(db, names, warmNames, { DRSG_ANSWER_CACHE: "0" });
      const all = (d: Drive) => Object.values(d.ms).flat();
      const n = all(on).length;
      const row = (k: string) => `| ${k} | ${on.ms[k]!.length} | ${median(on.ms[k]!).toFixed(1)} | ${pct(on.ms[k]!, 95).toFixed(1)} | ${median(off.ms[k]!).toFixed(1)} | ${pct(off.ms[k]!, 95).toFixed(1)} |`;
      const cpu = (d: Drive) =>
        `server ${(d.serverCpu / 1000).toFixed(2)} s = **${(d.serverCpu / n).toFixed(2)} ms a call**, the ${SESSIONS} clients (this process) ${(d.clientCpu / 1000).toFixed(2)} s = ${(d.clientCpu / n).toFixed(2)} ms a call`;
      return [
        `${SESSIONS} concurrent MCP sessions over Streamable HTTP (the SDK's \`Client\` over a lean client transport on node:http keep-alive sockets, bench/http-transport.ts): the ${SESSIONS} open together and finish setting up, then each makes ${CALLS_EACH} calls, no think time (${n} calls: context, impact, trace, search, list_planes; ${on.distinct} distinct questions), after a warm-up round that is not counted (the same 50 sessions' worth of calls on other symbols and another search, so it answers none of the measured questions; its sessions are closed first) against a ${corpus.lines}-line TypeScript plane, loopback, one server process. Run twice: with the per-commit answer cache (the default) and with it off (\`DRSG_ANSWER_CACHE=0\`, every call runs its tool). Load average when started: ${load.toFixed(1)} on ${cpus().length} cores.`,
        "",
        `Session set-up (connect: initialize, initialized, then the GET for server messages, answered 405), ${SESSIONS} at once — cache on: p50 ${median(on.connectMs).toFixed(1)} ms, p95 ${pct(on.connectMs, 95).toFixed(1)} ms; cache off: p50 ${median(off.connectMs).toFixed(1)} ms, p95 ${pct(off.connectMs, 95).toFixed(1)} ms. Call latencies below are from each call's start to its answer.`,
        "",
        `errors: **${on.errors}** (cache on), **${off.errors}** (cache off). All calls, cache on: p50 ${median(all(on)).toFixed(1)} ms, p95 ${pct(all(on), 95).toFixed(1)} ms, wall ${(on.wall / 1000).toFixed(1)} s; cache off: p50 ${median(all(off)).toFixed(1)} ms, p95 ${pct(all(off), 95).toFixed(1)} ms, wall ${(off.wall / 1000).toFixed(1)} s. Target: p95 ≤ 50 ms for context.`,
        "",
        "| tool | calls | p50 (ms) | p95 (ms) | p50, cache off | p95, cache off |",
        "|---|---|---|---|---|---|",
        ...Object.keys(on.ms).map(row),
        "",
        `CPU over the calls (session set-up included) — cache on: ${cpu(on)}; cache off: ${cpu(off)}. With ${SESSIONS} calls always in flight and no think time, a call's latency is ${SESSIONS} ÷ throughput, and throughput is bounded by the CPU a call costs the server and the load generator on the same ${cpus().length} cores.`,
        "",
        `server RSS (cache on): before ${on.before.toFixed(0)} MB, peak during ${on.during.toFixed(0)} MB, 1.5 s after the sessions were closed (DELETE) ${on.after.toFixed(0)} MB.`,
      ].join("\n");
    },
  };
}
