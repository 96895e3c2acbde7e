// The fold watcher: chokidar on the repository's `.git` — HEAD, refs/** and packed-refs only,
// never the working tree (uncommitted edits must not enter the plane, and a big checkout would
// spend the inotify budget) — debounced; a HEAD move folds the plane, a ref move without one
// updates `<plane>_git`. A slow poll of HEAD backs up missed file events. Reused by
// `drsg watch` and `drsg serve watch`.
import path from "node:path";
import { setFlagsFromString } from "node:v8";
import { type FSWatcher, watch } from "chokidar";
import { log } from "../log.js";
import { errorText } from "../model/errors.js";
import type { FoldResult, PlaneSync } from "./fold.js";

export interface WatcherOptions {
  /** Quiet time after the last event before acting (ms; default 120). */
  debounceMs?: number;
  /** Also compare HEAD with the plane every this many ms (default 5000; 0 = never). */
  pollMs?: number;
  /** Called after each fold or history update (tests and benches observe here). */
  onSync?: (r: FoldResult) => void;
  onError?: (e: unknown) => void;
}

/** The paths under a git dir the watcher cares about: HEAD, packed-refs, and refs/**. */
export function isWatchedGitPath(gitdir: string, commonDir: string, p: string): boolean {
  if (p === gitdir || p === commonDir) return true;
  if (p === path.join(gitdir, "HEAD") || p === path.join(commonDir, "packed-refs")) return true;
  const refs = path.join(commonDir, "refs");
  return p === refs || p.startsWith(refs + path.sep);
}

let heapBounded = false;

/**
 * A follower is a long-lived process whose every fold allocates a resolver's worth of short-lived
 * tables. With V8's adaptive heap growing factor (up to 4×) the free slack of the heap grows to
 * several times the live data and RSS climbs for the first hundred folds; a fixed 1.25× keeps it
 * flat (measured: +7% RSS over 100 folds instead of +60%, for a few percent more GC time).
 * Process-wide; Watcher.start() calls it.
 */
export function boundHeapGrowth(percent = 25): void {
  if (heapBounded) return;
  heapBounded = true;
  try {
    setFlagsFromString(`--heap-growing-percent=${percent}`);
  } catch {
    // an engine without the flag: the default growth then applies
  }
}

export class Watcher {
  private fsw: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private poller: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    readonly sync: PlaneSync,
    private readonly opts: WatcherOptions = {},
  ) {}

  /** Start watching; resolves once chokidar has its watches in place. */
  async start(): Promise<void> {
    boundHeapGrowth();
    const { gitdir, commonDir } = this.sync.repo;
    const roots = [...new Set([gitdir, commonDir])];
    const fsw = watch(roots, {
      ignoreInitial: true,
      ignored: (p: string) => !isWatchedGitPath(gitdir, commonDir, p),
      // A ref file is written whole then renamed into place: no need to wait for writes to finish.
      awaitWriteFinish: false,
    });
    this.fsw = fsw;
    fsw.on("all", () => this.schedule());
    fsw.on("error", (e) => this.fail(e));
    await new Promise<void>((resolve) => fsw.once("ready", () => resolve()));
    const poll = this.opts.pollMs ?? 5000;
    if (poll > 0) {
      this.poller = setInterval(() => {
        void this.sync.repo.head().then(
          (h) => {
            if (h && h !== this.sync.syncedCommit()) this.schedule();
          },
          () => undefined,
        );
      }, poll);
      this.poller.unref();
    }
  }

  /** A git event (or a poll) arrived: act once things have been quiet for the debounce time. */
  schedule(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.kick();
    }, this.opts.debounceMs ?? 120);
  }

  private kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.step()
      .catch((e) => this.fail(e))
      .finally(() => {
        this.running = undefined;
        if (this.again && !this.stopped) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async step(): Promise<void> {
    const head = await this.sync.repo.head();
    if (!head) return; // unborn: wait for the first commit
    const r = await this.sync.foldTo(head);
    if (r.kind !== "noop" || r.history) this.opts.onSync?.(r);
  }

  private fail(e: unknown): void {
    log("error", `watch ${this.sync.plane}: ${errorText(e)} — the plane keeps its last commit; the next HEAD move retries`);
    this.opts.onError?.(e);
  }

  /** Resolves when no fold is pending or running. */
  async idle(): Promise<void> {
    while (this.timer || this.running) {
      if (this.running) await this.running;
      else await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** Stop watching; waits for a running fold to finish (it is one transaction either way). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.poller) clearInterval(this.poller);
    await this.fsw?.close();
    if (this.running) await this.running;
  }
}
