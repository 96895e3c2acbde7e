// A progress bar on stderr, only when stderr is a terminal.
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
