// At most N tool calls run at once across the process; the rest queue. One deadline covers
// the wait and the run; a late call becomes a tool error that says which it was.
export class Gate {
  private running = 0;
  private readonly queue: (() => void)[] = [];
  constructor(
    readonly limit: number,
    /** Deadline in ms for wait + run; 0 = none. */
    readonly deadlineMs: number,
  ) {}

  get active(): number {
    return this.running;
  }

  get waiting(): number {
    return this.queue.length;
  }

  private acquire(): Promise<void> {
    if (this.running < this.limit) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((res) => this.queue.push(res));
  }

  private release(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.running--;
  }

  /** Run `fn` within the limit and the deadline; `late(kind)` builds the value returned when late. */
  async run<T>(fn: () => Promise<T>, late: (kind: "busy" | "slow", secs: number) => T): Promise<T> {
    const secs = this.deadlineMs / 1000;
    let timer: NodeJS.Timeout | undefined;
    let phase: "wait" | "run" = "wait";
    let timedOut = false;
    const deadline =
      this.deadlineMs > 0
        ? new Promise<T>((res) => {
            timer = setTimeout(() => {
              timedOut = true;
              res(late(phase === "wait" ? "busy" : "slow", secs));
            }, this.deadlineMs);
            timer.unref();
          })
        : undefined;
    const work = (async () => {
      await this.acquire();
      if (timedOut) {
        this.release();
        return undefined as T;
      }
      phase = "run";
      try {
        return await fn();
      } finally {
        this.release();
      }
    })();
    try {
      return deadline ? await Promise.race([work, deadline]) : await work;
    } finally {
      if (timer) clearTimeout(timer);
    }
  }
}
