// Shared helpers of the store tests: temp databases and assertions on error codes.

import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ErrorCode, isDrsgError } from "../../src/model/errors.js";
import { openStore } from "../../src/store/store.js";
import type { OpenOptions, Store } from "../../src/store/types.js";

/** A fresh temp directory, removed by `cleanup`. */
export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "drsg-store-"));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A new database in a temp dir; `done` closes it and removes the dir. */
export function tempStore(opts: OpenOptions = {}): { store: Store; file: string; dir: string; done: () => void } {
  const { dir, cleanup } = tempDir();
  const file = join(dir, "graph.drsg");
  const store = openStore(file, { create: true, ...opts });
  return {
    store,
    file,
    dir,
    done: () => {
      store.close();
      cleanup();
    },
  };
}

/** Asserts `fn` throws a DrsgError with `code`; returns it. */
export function throwsCode(fn: () => unknown, code: ErrorCode): { message: string; data: Record<string, unknown> } {
  try {
    fn();
  } catch (e) {
    assert.ok(isDrsgError(e), `expected DrsgError ${code}, got ${String(e)}`);
    assert.equal(e.code, code, `expected ${code}, got ${e.code}: ${e.message}`);
    return e;
  }
  assert.fail(`expected DrsgError ${code}, nothing was thrown`);
}
