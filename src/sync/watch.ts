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
  /**
   * Quiet time after the last event before acting (ms; default 25). A commit moves its ref in one
   * lock-and-rename (events within a millisecond); a rebase or a pull moves it many times, and a
   * fold started meanwhile is followed by one more to where it ended (kick's `again`), so a burst
   * costs at most one fold more than waiting it out would.
   */
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

const DEBOUNCE_MS = 25;

let heapBounded = false;

/** A follower's extraction workers' semi-space (MB; V8's default grows to 16). */
const WORKER_SEMI_SPACE_MB = 2;

/**
 * A follower is a long-lived process whose every fold allocates a resolver's worth of short-lived
 * tables beside ~100 MB of long-lived ones (partials, the fact index, the plane state), a few of
 * which every fold replaces. Two V8 defaults make its RSS climb fold after fold though the live
 * heap stays flat:
 * - the adaptive heap growing factor (up to 4×) lets free slack grow to several times the live
 *   data; a fixed 1.25× keeps it small (measured: +7% RSS over 100 folds instead of +60%);
 * - full collections compact only the emptiest pages, so the replaced objects leave holes all
 *   over the old space and it grows by ~0.1 MB a fold (136 → 174 MB of heap for 106 MB live
 *   after 250 folds). Compacting on every full GC keeps it at the live size (136 → 139 MB), for
 *   no measurable fold CPU time: full GCs are rare at this heap size;
 * - each extraction worker's young generation grows to 2 × 16 MB as its allocation rate does,
 *   and stays there although a fold parses a file or three (+30–40 MB of RSS over the first 50
 *   folds with two workers). A 2 MB semi-space holds it. V8 reads this one when an isolate is
 *   made, so it applies to the workers started after this call, not to the main thread's heap:
 *   call this before the extraction pool starts (followerMode right after PlaneSync.open).
 * Process-wide; Watcher.start() calls it too (followerMode), for workers started later.
 */
export function boundHeapGrowth(percent = 25): void {
  if (heapBounded) return;
  heapBounded = true;
  // --expose-gc: workers started afterwards get `gc` and collect once idle (src/extract/worker.ts),
  // so their heaps stay at their live size between commits.
  for (const flag of [`--heap-growing-percent=${percent}`, "--compact-on-every-full-gc", `--max-semi-space-size=${WORKER_SEMI_SPACE_MB}`, "--expose-gc"]) {
    try {
      setFlagsFromString(flag);
    } catch {
      // an engine without the flag: its default then applies
    }
  }
}

/** What a follower process sets before it folds for hours: V8's heap bounds, the store's page-cache bound. */
export function followerMode(sync: PlaneSync): void {
  boundHeapGrowth();
  sync.boundMemory();
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
    followerMode(this.sync);
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
    }, this.opts.debounceMs ?? DEBOUNCE_MS);
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
