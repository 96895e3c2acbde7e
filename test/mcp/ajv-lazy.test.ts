// The SDK's JSON Schema validator behind a lazy stand-in (src/mcp/ajv-lazy.ts, what the bundle
// hands the SDK for its own): constructing it loads no ajv; the first getValidator loads the SDK's
// validator and answers as it does — valid data back, invalid data with ajv's message.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { test } from "node:test";
import { AjvJsonSchemaValidator as Lazy } from "../../src/mcp/ajv-lazy.js";

const loadedAjv = () => Object.keys(createRequire(import.meta.url).cache).filter((k) => /\/node_modules\/ajv\//.test(k));

test("the lazy validator loads ajv on its first use and answers as the SDK's does", async () => {
  assert.deepEqual(loadedAjv(), [], "nothing of ajv loaded yet");
  const lazy = new Lazy();
  assert.deepEqual(loadedAjv(), [], "constructing it loads nothing");
  const schema = { type: "object", properties: { n: { type: "integer", minimum: 1 }, s: { type: "string", format: "email" } }, required: ["n"] } as const;
  const mine = lazy.getValidator<{ n: number }>(schema);
  assert.ok(loadedAjv().length > 0, "the first getValidator loads it");
  const { AjvJsonSchemaValidator: Real } = await import("@modelcontextprotocol/sdk/validation/ajv");
  const theirs = new Real().getValidator<{ n: number }>(schema);
  for (const input of [{ n: 2 }, { n: 0 }, { s: "x@y.z" }, { n: 3, s: "not an email" }, "text", null]) assert.deepEqual(mine(input), theirs(input), JSON.stringify(input));
  assert.equal(mine({ n: 2 }).valid, true);
  assert.match(String(mine({ n: 0 }).errorMessage), /must be >= 1/);
});
