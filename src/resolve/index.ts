// Resolver families by name (a plugin's `resolver` field).
import { DrsgError } from "../model/errors.js";
import { resolveC } from "./c/index.js";
import { resolveGeneric } from "./generic.js";
import { resolveGo } from "./go/index.js";
import { resolveJava } from "./java/index.js";
import { resolvePython } from "./python/index.js";
import { resolveRust } from "./rust/index.js";
import { resolveTs } from "./ts/index.js";
import type { Resolver } from "./types.js";

const FAMILIES: Record<string, Resolver> = {
  generic: resolveGeneric,
  ts: resolveTs,
  python: resolvePython,
  go: resolveGo,
  rust: resolveRust,
  java: resolveJava,
  c: resolveC,
};

export function resolverFamily(name: string): Resolver {
  const r = FAMILIES[name];
  if (!r) throw new DrsgError("PLUGIN_INVALID", `resolver family "${name}" does not exist (known: ${Object.keys(FAMILIES).join(", ")})`);
  return r;
}

export function isResolverFamily(name: string): boolean {
  return name in FAMILIES;
}
