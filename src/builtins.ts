// Node's built-in modules a cold command seldom needs, required on first use. A static import
// makes every process load them and what they pull in (crypto, child_process with net and dgram,
// http: ~9 ms of a cold CLI verb), though a verb that finds its plugin hashes cached, installs
// no plugin and asks no server uses none of them.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

export const nodeCrypto = (): typeof import("node:crypto") => require("node:crypto");
export const nodeChildProcess = (): typeof import("node:child_process") => require("node:child_process");
export const nodeHttp = (): typeof import("node:http") => require("node:http");
