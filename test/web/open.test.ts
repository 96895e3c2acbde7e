// `drsg serve --open`: the dashboard URL is handed to xdg-open when there is one (a stand-in on
// PATH records what it was given), and printed with a hint when there is none.
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { openStore } from "../../src/store/store.js";
import { serveDashboard } from "./support.js";

function emptyDb(): string {
  const db = join(mkdtempSync(join(tmpdir(), "drsg-open-db-")), "g.drsg");
  openStore(db, { create: true }).close();
  return db;
}

async function until(p: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!p()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("drsg serve --open", () => {
  test("hands the dashboard URL to xdg-open", async () => {
    const bin = mkdtempSync(join(tmpdir(), "drsg-open-bin-"));
    const got = join(bin, "opened.txt");
    writeFileSync(join(bin, "xdg-open"), `#!/bin/sh\nprintf '%s' "$1" > '${got}'\n`);
    chmodSync(join(bin, "xdg-open"), 0o755);
    const served = await serveDashboard(["--db", emptyDb(), "--open"], { PATH: `${bin}:${process.env.PATH ?? ""}` });
    try {
      await until(() => existsSync(got) && readFileSync(got, "utf8").length > 0);
      assert.equal(readFileSync(got, "utf8"), served.url);
      assert.match(served.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    } finally {
      await served.stop();
    }
  });

  test("prints the URL when there is no opener", async () => {
    const empty = mkdtempSync(join(tmpdir(), "drsg-open-nopath-"));
    const served = await serveDashboard(["--db", emptyDb(), "--open"], { PATH: empty });
    try {
      await until(() => /open http:\/\/\S+ in a browser/.test(served.stderr()));
      assert.match(served.stderr(), new RegExp(`no xdg-open here — open ${served.url.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} in a browser`));
    } finally {
      await served.stop();
    }
  });
});
