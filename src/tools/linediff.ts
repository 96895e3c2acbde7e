// A small line diff (Myers' O(ND) algorithm) rendered as unified-diff hunks, for `recall … vs`.
// Common prefix and suffix are trimmed first; past a bound on the edit distance the middle is
// reported as one replaced block rather than spending unbounded time on it.

export type DiffOp = { kind: "same" | "del" | "add"; text: string; a: number; b: number };

const MAX_D = 4000;

/** The edit script turning `a` into `b`, line by line (a/b: 1-based line numbers, 0 when n/a). */
export function diffLines(a: string[], b: string[]): DiffOp[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const ops: DiffOp[] = [];
  for (let i = 0; i < pre; i++) ops.push({ kind: "same", text: a[i]!, a: i + 1, b: i + 1 });
  const am = a.slice(pre, a.length - suf);
  const bm = b.slice(pre, b.length - suf);
  for (const op of myers(am, bm)) ops.push({ ...op, a: op.a ? op.a + pre : 0, b: op.b ? op.b + pre : 0 });
  for (let i = suf; i > 0; i--) ops.push({ kind: "same", text: a[a.length - i]!, a: a.length - i + 1, b: b.length - i + 1 });
  return ops;
}

function myers(a: string[], b: string[]): DiffOp[] {
  const n = a.length;
  const m = b.length;
  if (n === 0) return b.map((t, j) => ({ kind: "add" as const, text: t, a: 0, b: j + 1 }));
  if (m === 0) return a.map((t, i) => ({ kind: "del" as const, text: t, a: i + 1, b: 0 }));
  const max = Math.min(n + m, MAX_D);
  const off = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1]! < v[off + k + 1]!) ? v[off + k + 1]! : v[off + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      next[off + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
    v = next;
  }
  if (found < 0) {
    // Too different to be worth the time: one block replaced by another.
    return [
      ...a.map((t, i) => ({ kind: "del" as const, text: t, a: i + 1, b: 0 })),
      ...b.map((t, j) => ({ kind: "add" as const, text: t, a: 0, b: j + 1 })),
    ];
  }
  // Walk back through the saved frontiers.
  const out: DiffOp[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const pv = trace[d]!;
    const k = x - y;
    const down = k === -d || (k !== d && pv[off + k - 1]! < pv[off + k + 1]!);
    const pk = down ? k + 1 : k - 1;
    const px = pv[off + pk]!;
    const py = px - pk;
    while (x > (down ? px : px + 1) && y > (down ? py + 1 : py)) {
      out.push({ kind: "same", text: a[x - 1]!, a: x, b: y });
      x--;
      y--;
    }
    if (down) {
      out.push({ kind: "add", text: b[y - 1]!, a: 0, b: y });
      y--;
    } else {
      out.push({ kind: "del", text: a[x - 1]!, a: x, b: 0 });
      x--;
    }
  }
  while (x > 0 && y > 0) {
    out.push({ kind: "same", text: a[x - 1]!, a: x, b: y });
    x--;
    y--;
  }
  return out.reverse();
}

/** Unified-diff hunks (`@@ -a,n +b,m @@`) with `context` lines around each change; [] when equal. */
export function unifiedHunks(ops: DiffOp[], context = 3): string[] {
  const changed = ops.map((o, i) => (o.kind === "same" ? -1 : i)).filter((i) => i >= 0);
  if (changed.length === 0) return [];
  const out: string[] = [];
  let i = 0;
  while (i < changed.length) {
    const start = Math.max(0, changed[i]! - context);
    let end = Math.min(ops.length - 1, changed[i]! + context);
    while (i + 1 < changed.length && changed[i + 1]! - context <= end + 1) {
      i++;
      end = Math.min(ops.length - 1, changed[i]! + context);
    }
    i++;
    const slice = ops.slice(start, end + 1);
    let aStart = 0;
    let bStart = 0;
    // First line numbers of the hunk: from the first op carrying one, counting back.
    let aSeen = 0;
    let bSeen = 0;
    for (const o of slice) {
      if (o.a && !aStart) aStart = o.a - aSeen;
      if (o.b && !bStart) bStart = o.b - bSeen;
      if (o.kind !== "add") aSeen++;
      if (o.kind !== "del") bSeen++;
    }
    const aLen = slice.filter((o) => o.kind !== "add").length;
    const bLen = slice.filter((o) => o.kind !== "del").length;
    out.push(`@@ -${aLen ? aStart : Math.max(0, aStart - 1)},${aLen} +${bLen ? bStart : Math.max(0, bStart - 1)},${bLen} @@`);
    for (const o of slice) out.push(`${o.kind === "same" ? " " : o.kind === "del" ? "-" : "+"}${o.text}`);
  }
  return out;
}
