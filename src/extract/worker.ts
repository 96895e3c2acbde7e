// Worker thread: parses files and extracts their partials. Grammars and queries are loaded
// lazily, once per thread; every Tree is freed after use (wasm memory is not the JS heap).
import { parentPort, workerData } from "node:worker_threads";
import type { GrammarJob } from "../plugin/host.js";
import { packPartial } from "../model/packed.js";
import { extractTree, recoverParse } from "./extract.js";
import { type CompiledRule, compileRules } from "./recover.js";
import { IDLE_GC_MS } from "./pool.js";
import { initParser, type LoadedGrammar, loadGrammar } from "./parser.js";

export interface ExtractTask {
  seq: number;
  path: string;
  job: string;
  bytes: Uint8Array;
  /** Pack the partial for the partial cache too (only a caller that caches asks). */
  pack?: boolean;
}

/** Load (compile) these grammar jobs now, so the first file of each pays no start-up. */
export interface WarmTask {
  seq: number;
  warm: string[];
}

export type ExtractReply =
  | {
      seq: number;
      ok: true;
      /** The partial as JSON: cheaper to send than a structured clone. */
      json: string;
      /** `json` packed for the partial cache (packPartial) when the task asks, here rather than on the main thread. */
      packed?: Uint8Array;
      parseMs: number;
    }
  | { seq: number; ok: false; error: string; code?: string };

const jobs = new Map<string, GrammarJob>((workerData as { jobs: GrammarJob[] }).jobs.map((j) => [j.id, j]));
const loaded = new Map<string, Promise<LoadedGrammar>>();
const decoder = new TextDecoder("utf-8");
// The runtime starts at once (while the caller still walks the tree); a failure surfaces with the first task.
initParser().catch(() => undefined);

const compiled = new Map<string, CompiledRule[]>();

function rulesOf(job: GrammarJob): CompiledRule[] {
  let r = compiled.get(job.id);
  if (!r) {
    r = compileRules(job.recover ?? [], job.id);
    compiled.set(job.id, r);
  }
  return r;
}

function grammarOf(job: GrammarJob): Promise<LoadedGrammar> {
  let g = loaded.get(job.id);
  if (!g) {
    g = loadGrammar(job);
    loaded.set(job.id, g);
  }
  return g;
}

async function warm(task: WarmTask): Promise<ExtractReply> {
  for (const id of task.warm) {
    const job = jobs.get(id);
    if (job) await grammarOf(job);
  }
  // The answer names every job this worker holds loaded.
  return { seq: task.seq, ok: true, json: JSON.stringify([...loaded.keys()]), parseMs: 0 };
}

async function handle(task: ExtractTask): Promise<ExtractReply> {
  const job = jobs.get(task.job);
  if (!job) return { seq: task.seq, ok: false, error: `no grammar job ${task.job}` };
  const grammar = await grammarOf(job);
  const source = decoder.decode(task.bytes);
  const t0 = performance.now();
  let tree = grammar.parser.parse(source);
  if (!tree) return { seq: task.seq, ok: false, error: "parser returned no tree" };
  let recovered = 0;
  if (tree.rootNode.hasError && job.recover) {
    const better = recoverParse(grammar.parser, tree, source, rulesOf(job));
    if (better) {
      tree.delete();
      tree = better.tree;
      recovered = better.rewrites;
    }
  }
  try {
    const parseMs = performance.now() - t0;
    // Text is always sliced from the file itself: a recovered tree's positions are the file's.
    const partial = extractTree(tree, grammar.query, source, task.path, job.grammar, job.doc ?? {});
    if (recovered > 0) partial.recovered = recovered;
    const json = JSON.stringify(partial);
    return { seq: task.seq, ok: true, json, ...(task.pack ? { packed: packPartial(json) } : {}), parseMs };
  } finally {
    tree.delete();
  }
}

// A follower's workers (the process set --expose-gc before they started: boundHeapGrowth) collect
// once they have been idle a moment, so a heap returns to its live size between commits instead
// of growing to V8's next threshold; a digest's workers never see gc and never pause for it.
const gc = (globalThis as { gc?: () => void }).gc;
let inFlight = 0;
let idleTimer: NodeJS.Timeout | undefined;

function taskStarted(): void {
  inFlight++;
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = undefined;
}

function taskDone(): void {
  if (--inFlight > 0 || typeof gc !== "function") return;
  idleTimer = setTimeout(() => {
    idleTimer = undefined;
    if (inFlight === 0) gc();
  }, IDLE_GC_MS);
  idleTimer.unref();
}

parentPort!.on("message", (task: ExtractTask | WarmTask) => {
  taskStarted();
  ("warm" in task ? warm(task) : handle(task)).finally(taskDone).then(
    (reply) => parentPort!.postMessage(reply),
    (e: unknown) =>
      parentPort!.postMessage({
        seq: task.seq,
        ok: false,
        error: e instanceof Error ? e.message : String(e),
        code: (e as { code?: string }).code,
      } satisfies ExtractReply),
  );
});
