// A pool of extraction worker threads. Files are handed out as they come; each worker keeps
// its grammars and compiled queries for its lifetime.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { DrsgError } from "../model/errors.js";
import type { Partial } from "../model/partial.js";
import type { GrammarJob } from "../plugin/host.js";
import type { ExtractReply, ExtractTask, WarmTask } from "./worker.js";

/** A follower's workers collect their garbage once idle this long (src/extract/worker.ts). */
export const IDLE_GC_MS = 200;

/** One file's partial; `json` is its JSON text (what the partial cache stores). */
export interface Extracted {
  partial: Partial;
  json: string;
  /** `json` packed for the partial cache (src/model/packed.ts), when asked for. */
  packed?: Uint8Array;
  parseMs: number;
}

interface Pending {
  resolve(p: Extracted): void;
  reject(e: Error): void;
}

export class ExtractPool {
  private readonly workers: Worker[] = [];
  /** Bytes handed to each worker and not yet answered: files go to the least loaded. */
  private readonly load: number[] = [];
  private readonly pending = new Map<number, Pending & { worker: number; bytes: number }>();
  private seq = 0;
  private closed = false;
  /** Jobs whose files all go to one worker (see plan), and the worker each went to. */
  private readonly pinnable = new Set<string>();
  private readonly pinnedTo = new Map<string, number>();

  constructor(jobs: GrammarJob[], size = Math.max(1, Math.min(availableParallelism(), 4))) {
    for (let i = 0; i < size; i++) {
      const w = new Worker(new URL("./worker.js", import.meta.url), { workerData: { jobs } });
      w.unref();
      w.on("message", (r: ExtractReply) => this.settle(i, r));
      w.on("error", (e) => this.failWorker(i, e));
      this.workers.push(w);
      this.load.push(0);
    }
  }

  get size(): number {
    return this.workers.length;
  }

  private settle(worker: number, r: ExtractReply): void {
    const p = this.pending.get(r.seq);
    if (!p) return;
    this.pending.delete(r.seq);
    this.load[worker]! -= p.bytes;
    if (r.ok) p.resolve({ partial: JSON.parse(r.json) as Partial, json: r.json, packed: r.packed, parseMs: r.parseMs });
    else {
      const code = r.code;
      p.reject(
        code ? new DrsgError(code as "INTERNAL", r.error) : new Error(r.error),
      );
    }
  }

  private failWorker(worker: number, e: Error): void {
    for (const [seq, p] of this.pending) {
      if (p.worker !== worker) continue;
      this.pending.delete(seq);
      p.reject(e);
    }
  }

  /**
   * Extract one file; `bytes` is transferred to the worker (do not reuse it: the ArrayBuffer is
   * detached when `bytes` spans all of it — and a Buffer's `slice()` is a view, not a copy, so pass
   * `new Uint8Array(bytes)` to keep yours). With `pack`, the
   * worker also packs the partial for the partial cache (Extracted.packed).
   */
  extract(path: string, job: string, bytes: Uint8Array, opts: { pack?: boolean } = {}): Promise<Extracted> {
    if (this.closed) return Promise.reject(new Error("extract pool is closed"));
    let best = this.pinnedTo.get(job) ?? -1;
    if (best < 0) {
      best = 0;
      for (let i = 1; i < this.load.length; i++) if (this.load[i]! < this.load[best]!) best = i;
      if (this.pinnable.has(job)) this.pinnedTo.set(job, best);
    }
    const seq = ++this.seq;
    // At least 1, so empty files count too.
    const weight = Math.max(1, bytes.byteLength);
    this.load[best]! += weight;
    return new Promise((resolve, reject) => {
      this.pending.set(seq, { resolve, reject, worker: best, bytes: weight });
      const task: ExtractTask = { seq, path, job, bytes, ...(opts.pack ? { pack: true } : {}) };
      const transfer = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? [bytes.buffer as ArrayBuffer] : [];
      this.workers[best]!.postMessage(task, transfer);
    });
  }

  /**
   * Have every worker load (compile) these grammar jobs now — a follower does this at start-up
   * so the first commit it folds pays no query compile. Resolves when all are loaded; a job
   * that fails to load fails here as it would on its first file. Answers, per worker, the jobs
   * it holds loaded (unknown ids are ignored).
   */
  warm(jobIds: string[]): Promise<string[][]> {
    if (this.closed) return Promise.reject(new Error("extract pool is closed"));
    return Promise.all(
      this.workers.map(
        (w, i) =>
          new Promise<string[]>((resolve, reject) => {
            const seq = ++this.seq;
            this.pending.set(seq, { resolve: (x) => resolve(x.partial as unknown as string[]), reject, worker: i, bytes: 0 });
            w.postMessage({ seq, warm: jobIds } satisfies WarmTask);
          }),
      ),
    );
  }

  /**
   * Plan a batch by its files per grammar job. A job with at least a tenth of the files (and
   * the largest one always) is loaded on every worker now, as warm() does. A rarer job is
   * loaded by one worker only — the first handed one of its files, which then gets all of them —
   * so a tree of .ts files with a handful of .js beside them compiles the JavaScript query once,
   * not once per worker. Answers what warm() answers; never rejects (a grammar that fails to load
   * fails its first file the same way).
   */
  plan(filesPerJob: ReadonlyMap<string, number>): Promise<string[][] | undefined> {
    let total = 0;
    let top = "";
    for (const [job, n] of filesPerJob) {
      total += n;
      if (top === "" || n > filesPerJob.get(top)!) top = job;
    }
    const everywhere: string[] = [];
    for (const [job, n] of filesPerJob) {
      if (job === top || n * 10 >= total) {
        everywhere.push(job);
        this.pinnable.delete(job);
        this.pinnedTo.delete(job);
      } else if (!this.pinnedTo.has(job)) this.pinnable.add(job);
    }
    if (everywhere.length === 0) return Promise.resolve(undefined);
    return this.warm(everywhere).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
