// Answers kept per database state: a read verb whose tool says it is pure (its text is a
// function of the database's current state, the installed plugins and its arguments alone)
// is answered once per state, and the same question from any session reuses that answer.
// A small LRU, emptied whenever the stamp moves — any store commit (a fold, a write, a
// rebuild), a mount or unmount, a change of the installed plugins.

export interface AnswerStats {
  hits: number;
  misses: number;
  entries: number;
  chars: number;
}

export class AnswerCache {
  private stamp: string | undefined;
  private readonly map = new Map<string, string>();
  private chars = 0;
  hits = 0;
  misses = 0;

  constructor(
    readonly maxEntries = 2048,
    /** Total characters of answer text kept (an answer is at most ~24k characters). */
    readonly maxChars = 8 * 1024 * 1024,
  ) {}

  /** The answer to `key` in state `stamp`, if one was kept; a new stamp empties the cache. */
  get(stamp: string, key: string): string | undefined {
    if (stamp !== this.stamp) {
      this.map.clear();
      this.chars = 0;
      this.stamp = stamp;
    }
    const v = this.map.get(key);
    if (v === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Most recently used last.
    this.map.delete(key);
    this.map.set(key, v);
    return v;
  }

  /** Keep `text` as the answer to `key`, unless the state moved since `stamp` was taken. */
  set(stamp: string, key: string, text: string): void {
    if (stamp !== this.stamp || text.length > this.maxChars / 4) return;
    const old = this.map.get(key);
    if (old !== undefined) {
      this.chars -= old.length;
      this.map.delete(key);
    }
    this.map.set(key, text);
    this.chars += text.length;
    while (this.map.size > this.maxEntries || this.chars > this.maxChars) {
      const [k, v] = this.map.entries().next().value as [string, string];
      this.map.delete(k);
      this.chars -= v.length;
    }
  }

  stats(): AnswerStats {
    return { hits: this.hits, misses: this.misses, entries: this.map.size, chars: this.chars };
  }
}
