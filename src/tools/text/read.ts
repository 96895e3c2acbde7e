// Reading one confined file: opened without following a final symlink (the caller passes the
// canonical path confine() produced), refused when it is not a regular file, and measured before
// it is read so an oversized file costs one fstat.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

export type ReadResult = { kind: "ok"; bytes: Buffer } | { kind: "big"; size: number } | { kind: "not-file" } | { kind: "unreadable"; code: string };

const FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);

/** The bytes of the regular file at `abs` when it is at most `max` bytes. */
export function readCapped(abs: string, max: number): ReadResult {
  let fd: number;
  try {
    fd = openSync(abs, FLAGS);
  } catch (e) {
    return { kind: "unreadable", code: (e as NodeJS.ErrnoException).code ?? "error" };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { kind: "not-file" };
    if (st.size > max) return { kind: "big", size: st.size };
    const buf = Buffer.allocUnsafe(st.size);
    let n = 0;
    while (n < st.size) {
      const r = readSync(fd, buf, n, st.size - n, n);
      if (r === 0) break;
      n += r;
    }
    return { kind: "ok", bytes: n === st.size ? buf : buf.subarray(0, n) };
  } catch (e) {
    return { kind: "unreadable", code: (e as NodeJS.ErrnoException).code ?? "error" };
  } finally {
    closeSync(fd);
  }
}

const NB_FLAGS = FLAGS | (constants.O_NONBLOCK ?? 0);
let scratch: Buffer | undefined;

/**
 * Like readCapped, for a walk that reads thousands of files and keeps none of them: the bytes are
 * a view of one shared buffer, valid only until the next call (use them before any await). No
 * fstat: the file is read until EOF, and one byte over `max` makes it "big".
 */
export function readShared(abs: string, max: number): ReadResult {
  if (!scratch || scratch.length < max + 1) scratch = Buffer.allocUnsafe(max + 1);
  const buf = scratch;
  let fd: number;
  try {
    fd = openSync(abs, NB_FLAGS);
  } catch (e) {
    return { kind: "unreadable", code: (e as NodeJS.ErrnoException).code ?? "error" };
  }
  try {
    let n = 0;
    for (;;) {
      const r = readSync(fd, buf, n, max + 1 - n, null);
      if (r === 0) break;
      n += r;
      if (n > max) return { kind: "big", size: n };
    }
    return { kind: "ok", bytes: buf.subarray(0, n) };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? "error";
    return code === "EISDIR" ? { kind: "not-file" } : { kind: "unreadable", code };
  } finally {
    closeSync(fd);
  }
}

/** A NUL byte in the first 8 KiB: git's test for binary content. */
export function looksBinary(bytes: Buffer): boolean {
  const head = bytes.length > 8192 ? bytes.subarray(0, 8192) : bytes;
  return head.indexOf(0) !== -1;
}

/** A file's lines: split on \n, a trailing \r dropped, no phantom empty line after a final newline. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.endsWith("\r")) lines[i] = l.slice(0, -1);
  }
  return lines;
}
