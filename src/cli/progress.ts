// Progress on stderr, only when stderr is a terminal: a bar for one counted phase, and a line
// naming the phase a longer job is in (drsg init's digest: walk → extract n/N → resolve and write).
export function progressBar(label: string, enabled: boolean): ((done: number, total: number) => void) & { end(): void } {
  let last = 0;
  const fn = ((done: number, total: number) => {
    if (!enabled || total === 0) return;
    const now = Date.now();
    if (done < total && now - last < 80) return;
    last = now;
    const width = 30;
    const fill = Math.round((done / total) * width);
    process.stderr.write(`\r${label} [${"#".repeat(fill)}${" ".repeat(width - fill)}] ${done}/${total}`);
  }) as ((done: number, total: number) => void) & { end(): void };
  fn.end = () => {
    if (enabled) process.stderr.write("\r\u001b[2K");
  };
  return fn;
}

export interface PhaseLine {
  /** Enter a phase (shown at once). */
  phase(name: string): void;
  /** Progress within the current phase. */
  progress(done: number, total: number): void;
  /** Clear the line. */
  end(): void;
}

/** One self-rewriting line `label: phase [bar] n/N` on stderr when `enabled` (a TTY); silent otherwise. */
export function phaseLine(label: string, enabled: boolean, write: (s: string) => void = (s) => process.stderr.write(s)): PhaseLine {
  let current = "";
  let last = 0;
  let shown = false;
  const draw = (tail: string) => {
    if (!enabled) return;
    const cols = process.stderr.columns || 100;
    write(`\r\u001b[2K${`${label}: ${current}${tail}`.slice(0, cols - 1)}`);
    shown = true;
  };
  return {
    phase(name) {
      current = name;
      draw("");
    },
    progress(done, total) {
      const now = Date.now();
      if (done < total && now - last < 80) return;
      last = now;
      const width = 24;
      const fill = total > 0 ? Math.round((done / total) * width) : 0;
      draw(` [${"#".repeat(fill)}${" ".repeat(width - fill)}] ${done}/${total}`);
    },
    end() {
      if (enabled && shown) write("\r\u001b[2K");
      shown = false;
    },
  };
}
