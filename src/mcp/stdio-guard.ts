// stdin as drsg-mcp's stdio transport reads it, with one thing the SDK's transport does not do:
// a message over its limit (10 MiB) is answered instead of going silent. The SDK's ReadBuffer
// throws on such a line, the transport closes, and the host waits forever for a reply. Here the
// stream is split into lines first: a line within the limit passes through whole, one line per
// chunk (so the transport's buffer never holds more than one); a line over it is dropped as it
// streams (nothing of it is kept but a few bytes), its top-level `id` read on the way, and
// answered with a JSON-RPC error. A line whose id cannot be read (not a JSON object) makes the
// server exit with the reason on stderr — a host sees a dead server, never a deaf one. A line
// within the limit whose envelope the SDK would drop silently (src/mcp/envelope.ts) is answered
// here with its id too.
import { PassThrough, type Readable, type Writable } from "node:stream";
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { log } from "../log.js";
import { envelopeReplies } from "./envelope.js";

/**
 * Reads the top level of one JSON object as it streams, keeping only what it needs: whether it
 * is an object, and the raw text of its `id` member (capped) when it has one.
 */
export class TopLevelScanner {
  private depth = 0;
  private inStr = false;
  private esc = false;
  private started = false;
  /** Not a JSON object (judged from its first non-space byte). */
  notObject = false;
  /** The top-level key being read, and whether a string at depth 1 is a key. */
  private key = "";
  private readingKey = false;
  private expectKey = false;
  private lastKey = "";
  /** The raw `id` value text, while and after reading it. */
  private idRaw: string | undefined;
  private readingId = false;

  feed(b: Buffer): void {
    for (let i = 0; i < b.length; i++) {
      const c = b[i]!;
      if (!this.started) {
        if (c === 0x20 || c === 0x09 || c === 0x0d) continue;
        this.started = true;
        if (c !== 0x7b) {
          this.notObject = true;
          return;
        }
        this.depth = 1;
        this.expectKey = true;
        continue;
      }
      if (this.notObject) return;
      if (this.readingId && this.depth === 1 && !this.inStr && (c === 0x2c || c === 0x7d)) {
        this.readingId = false;
      } else if (this.readingId) {
        if (this.idRaw!.length < 300) this.idRaw += String.fromCharCode(c);
      }
      if (this.inStr) {
        if (this.esc) this.esc = false;
        else if (c === 0x5c) this.esc = true;
        else if (c === 0x22) {
          this.inStr = false;
          if (this.readingKey) {
            this.readingKey = false;
            this.lastKey = this.key;
          }
        } else if (this.readingKey && this.key.length < 16) this.key += String.fromCharCode(c);
        continue;
      }
      if (c === 0x22) {
        this.inStr = true;
        if (this.depth === 1 && this.expectKey) {
          this.readingKey = true;
          this.expectKey = false;
          this.key = "";
        }
      } else if (c === 0x7b || c === 0x5b) this.depth++;
      else if (c === 0x7d || c === 0x5d) this.depth--;
      else if (this.depth === 1 && c === 0x3a && this.lastKey === "id" && this.idRaw === undefined) {
        this.idRaw = "";
        this.readingId = true;
      } else if (this.depth === 1 && c === 0x2c) this.expectKey = true;
    }
  }

  /** The id as JSON-RPC allows it (string or integer), when one was read. */
  id(): string | number | undefined {
    if (this.idRaw === undefined) return undefined;
    try {
      const v = JSON.parse(this.idRaw.trim()) as unknown;
      return typeof v === "string" || (typeof v === "number" && Number.isSafeInteger(v)) ? v : undefined;
    } catch {
      return undefined;
    }
  }
}

/**
 * The error replies for a line the SDK's transport would drop without a word (not JSON, a
 * broken envelope, a batch), or undefined when it may pass. Blank lines pass (and are ignored).
 */
function brokenEnvelope(line: Buffer): unknown[] | undefined {
  const text = line.toString("utf8");
  if (text.trim() === "") return undefined;
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    log("warn", "a stdio line is not JSON; answered with a parse error");
    return [{ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error: the line is not JSON" } }];
  }
  const replies = envelopeReplies(msg, true, { batches: false });
  if (replies) log("warn", `a stdio message with a broken envelope; ${replies.length} error repl${replies.length === 1 ? "y" : "ies"} sent`);
  return replies;
}

export interface GuardOptions {
  /** Longest line passed on, newline included (the SDK's ReadBuffer limit). */
  limit?: number;
  /** Called for a line over the limit whose id cannot be read: default writes why and exits 1. */
  onUnanswerable?: (why: string) => void;
}

/**
 * `stdin`, guarded: hand the result to `new StdioServerTransport(guardStdin(...))`. Replies to
 * oversize requests are written to `stdout` whole, one line each, as the transport writes its own.
 */
export function guardStdin(stdin: Readable = process.stdin, stdout: Writable = process.stdout, opts: GuardOptions = {}): Readable {
  const limit = opts.limit ?? STDIO_DEFAULT_MAX_BUFFER_SIZE;
  const unanswerable =
    opts.onUnanswerable ??
    ((why: string) => {
      process.stderr.write(`drsg-mcp: ${why} — stopping so the host does not wait for a reply that cannot come\n`);
      process.exit(1);
    });
  const out = new PassThrough();
  let pending: Buffer[] = [];
  let pendingSize = 0;
  /** Set while the current line is over the limit: it is dropped as it streams. */
  let over: { scanner: TopLevelScanner; size: number } | undefined;

  const overLine = (scanner: TopLevelScanner, size: number): void => {
    const id = scanner.id();
    const what = `a message of ${size} bytes is over the ${limit}-byte stdio limit`;
    if (id !== undefined) {
      log("warn", `${what}; answered id ${JSON.stringify(id)} with an error`);
      stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32600, message: `invalid request: ${what} — send less (narrow the request)` } })}\n`);
    } else if (!scanner.notObject) log("warn", `${what}; it carries no id (a notification), so it is dropped unanswered`);
    else unanswerable(`${what} and is not a JSON object, so no id can be read to answer it`);
  };

  stdin.on("data", (chunk: Buffer) => {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl < 0 ? chunk.length : nl;
      const piece = chunk.subarray(start, end);
      if (over) {
        over.scanner.feed(piece);
        over.size += piece.length;
      } else if (pendingSize + piece.length + 1 > limit) {
        over = { scanner: new TopLevelScanner(), size: pendingSize + piece.length };
        for (const p of pending) over.scanner.feed(p);
        over.scanner.feed(piece);
        pending = [];
        pendingSize = 0;
      } else if (piece.length > 0) {
        pending.push(nl < 0 ? Buffer.from(piece) : piece);
        pendingSize += piece.length;
      }
      if (nl < 0) break;
      if (over) {
        overLine(over.scanner, over.size);
        over = undefined;
      } else {
        pending.push(Buffer.from("\n"));
        const line = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
        pending = [];
        pendingSize = 0;
        const broken = brokenEnvelope(line);
        if (broken) for (const r of broken) stdout.write(`${JSON.stringify(r)}\n`);
        else out.write(line);
      }
      start = nl + 1;
      if (start >= chunk.length) break;
    }
  });
  stdin.once("end", () => out.end());
  stdin.on("error", (e) => out.destroy(e));
  // The transport pauses its stream when it closes; pass that on so stdin stops too.
  out.on("pause", () => stdin.pause());
  out.on("resume", () => stdin.resume());
  return out;
}
