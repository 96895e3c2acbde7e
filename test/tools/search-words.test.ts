// Keyword search finds acronym-cased names (issue 18 §3): `search HTTP` answers parseHTTPHeader
// and createHTTPServer even in a plane full of `http.*` stand-ins (left out before the limit, not
// after it), identifiers in signatures and doc comments are split into words too, a database
// indexed by the older tokenisation is re-indexed when it is opened, and results page by offset.
import assert from "node:assert/strict";
import { test } from "node:test";
import Database from "better-sqlite3";
import { GraphViews } from "../../src/graph/view.js";
import { PluginSet } from "../../src/plugin/host.js";
import { openStore } from "../../src/store/store.js";
import type { Store } from "../../src/store/types.js";
import { search } from "../../src/tools/search.js";
import type { ToolContext } from "../../src/tools/tool.js";
import { tempStore } from "../store/helpers.js";

function ctxOf(store: Store): ToolContext {
  return { store, transport: "stdio", plugins: () => new PluginSet([]), views: new GraphViews(store) };
}

async function ask(store: Store, args: Record<string, unknown>): Promise<string> {
  return (await search.run(ctxOf(store), search.input.parse({ plane: "p", ...args }))) as string;
}

function fill(store: Store): void {
  store.write((w) => {
    w.createPlane("p", { synced_commit: "0123456789abcdef0123456789abcdef01234567" });
    const fn = (key: string, props: Record<string, string> = {}) => w.createNode("p", { key, labels: ["Function"], props });
    fn("app/src/http.parseHTTPHeader");
    fn("app/src/server.createHTTPServer");
    fn("app/src/wire.handler", { signature: "function handler(s: XMLHttpRequestUpload): void" });
    fn("app/src/misc.unrelated");
    // Many stand-ins named like the query: an unbound call is not an answer, and must not crowd them out.
    for (let i = 0; i < 80; i++) w.createNode("p", { key: `app/src/use${i}.http.Get${i}`, labels: ["UnresolvedRef"], props: {} });
  });
}

test("search HTTP finds parseHTTPHeader and createHTTPServer among many http stand-ins", async () => {
  const t = tempStore();
  try {
    fill(t.store);
    const text = await ask(t.store, { query: "HTTP" });
    assert.match(text, /^synced: commit 0123456789ab$/m);
    assert.match(text, /app\/src\/http\.parseHTTPHeader/);
    assert.match(text, /app\/src\/server\.createHTTPServer/);
    assert.doesNotMatch(text, /UnresolvedRef/);
    // An identifier inside a signature is split too: `Upload` is one of XMLHttpRequestUpload's words.
    assert.match(await ask(t.store, { query: "upload" }), /app\/src\/wire\.handler/);
  } finally {
    t.done();
  }
});

test("results page by offset; the elision names the next offset", async () => {
  const t = tempStore();
  try {
    fill(t.store);
    const first = await ask(t.store, { query: "HTTP", k: 1 });
    assert.match(first, /1 best match\(es\) — more match: offset: 1 reads the next page/);
    const second = await ask(t.store, { query: "HTTP", k: 1, offset: 1 });
    assert.match(second, /^matches 2–2/m);
    const a = /^ {2} 1\. (\S+)/m.exec(first)?.[1];
    const b = /^ {2} 2\. (\S+)/m.exec(second)?.[1];
    assert.ok(a && b && a !== b, `${a} then ${b}`);
    assert.match(await ask(t.store, { query: "HTTP", offset: 50 }), /offset 50 is past them/);
  } finally {
    t.done();
  }
});

test("a database indexed by the older tokenisation is re-indexed when opened", async () => {
  const t = tempStore();
  fill(t.store);
  t.store.close();
  // As the previous drsg wrote it: signatures indexed as plain text, and no tokenisation version.
  const db = new Database(t.file);
  db.prepare("DELETE FROM meta WHERE key = 'fts_tokens'").run();
  const id = (db.prepare("SELECT id FROM nodes WHERE key = 'app/src/wire.handler'").get() as { id: number }).id;
  db.prepare("DELETE FROM nodes_fts WHERE rowid = ?").run(id);
  db.prepare("INSERT INTO nodes_fts (rowid, name, key, signature, doc_comment) VALUES (?, 'handler', 'app/src/wire.handler', ?, NULL)").run(
    id,
    "function handler(s: XMLHttpRequestUpload): void",
  );
  db.close();
  const before = new Database(t.file, { readonly: true });
  const stale = before.prepare("SELECT count(*) AS n FROM nodes_fts WHERE nodes_fts MATCH 'upload'").get() as { n: number };
  before.close();
  assert.equal(stale.n, 0, "the old row does not hold the split words");
  const store = openStore(t.file);
  try {
    assert.match(await ask(store, { query: "upload" }), /app\/src\/wire\.handler/);
    assert.match(await ask(store, { query: "HTTP" }), /app\/src\/http\.parseHTTPHeader/);
  } finally {
    store.close();
    t.done();
  }
});
