// Modules required on first use rather than imported: a static import makes every process load
// them, though a cold command seldom needs them — Node's crypto, child_process (with net and
// dgram) and http (~9 ms of a cold CLI verb that finds its plugin hashes cached, installs no
// plugin and asks no server), and the CommonJS builds of packages a verb may never touch
// (better-sqlite3, graphology, re2js, yaml), which are also spared the export scan an ES module
// import of them costs.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** A getter of module `name`, which requires it on its first call. */
export function onFirstUse<T>(name: string): () => T {
  let mod: T | undefined;
  return () => (mod ??= require(name) as T);
}

export const nodeCrypto = onFirstUse<typeof import("node:crypto")>("node:crypto");
export const nodeChildProcess = onFirstUse<typeof import("node:child_process")>("node:child_process");
export const nodeHttp = onFirstUse<typeof import("node:http")>("node:http");
