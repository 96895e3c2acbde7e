// Every request drsg sends on an agent's behalf (attach probes, cross-plane calls to a remote
// drsg) goes through here. An agent chooses the URL, so: only loopback addresses and the origins
// the operator lists in DRSG_ATTACH_ALLOW are contacted, never a link-local or cloud-metadata
// address; names are resolved first and the connection is pinned to the address checked (a name
// re-pointed between check and connect — DNS rebinding — cannot move it); no redirect is
// followed; and a token is sent only to an origin the operator gave one for. A refusal reads the
// same whatever listens at the refused address, so the answer is no port scanner.
import { lookup } from "node:dns/promises";
import { type IncomingMessage, request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { DrsgError } from "../model/errors.js";

/** An origin the operator allows, and the environment variable holding the token sent to it (if any). */
export interface AllowedOrigin {
  origin: string;
  tokenEnv?: string;
}

const ENV_NAME = /^[A-Z_][A-Z0-9_]{0,63}$/;

/**
 * DRSG_ATTACH_ALLOW, parsed: a comma list of `origin` or `origin=TOKEN_VAR`, e.g.
 * `https://drsg.example:7700=TEAM_DRSG_TOKEN,http://10.0.0.5:7700`. A malformed entry is
 * BAD_ENV (the server refuses to start), never a silent skip.
 */
export function attachAllowList(env: NodeJS.ProcessEnv = process.env): Map<string, AllowedOrigin> {
  const out = new Map<string, AllowedOrigin>();
  const raw = env.DRSG_ATTACH_ALLOW ?? "";
  for (const part of raw.split(",")) {
    const entry = part.trim();
    if (!entry) continue;
    const eq = entry.indexOf("=");
    const o = eq < 0 ? entry : entry.slice(0, eq);
    const tokenEnv = eq < 0 ? undefined : entry.slice(eq + 1);
    let u: URL | undefined;
    try {
      u = new URL(o);
    } catch {
      u = undefined;
    }
    const bad = (why: string) =>
      new DrsgError("BAD_ENV", `DRSG_ATTACH_ALLOW entry '${entry}' ${why} — entries are origin[=TOKEN_VAR], e.g. https://drsg.example:7700=TEAM_TOKEN`, {
        variable: "DRSG_ATTACH_ALLOW",
      });
    if (!u || (u.protocol !== "http:" && u.protocol !== "https:")) throw bad("is not an http(s) origin");
    if (u.username || u.password || (u.pathname !== "/" && u.pathname !== "") || u.search || u.hash) throw bad("is more than an origin (scheme://host:port)");
    if (tokenEnv !== undefined && !ENV_NAME.test(tokenEnv)) throw bad("names no environment variable after '='");
    out.set(u.origin, { origin: u.origin, ...(tokenEnv ? { tokenEnv } : {}) });
  }
  return out;
}

/** Names that answer with a cloud machine's credentials; refused whatever DNS says. */
const METADATA_NAMES = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "metadata.azure.internal",
  "instance-data",
  "instance-data.ec2.internal",
  "metadata.tencentyun.com",
  "metadata.packet.net",
]);

function v4(a: string): number[] | undefined {
  const m = /^(?:::ffff:)?(\d+)\.(\d+)\.(\d+)\.(\d+)$/i.exec(a);
  return m ? m.slice(1).map(Number) : undefined;
}

export function isLoopbackAddress(a: string): boolean {
  const q = v4(a);
  if (q) return q[0] === 127;
  return a === "::1" || /^0*:(0*:)*0*1$/.test(a) || a === "0:0:0:0:0:0:0:1";
}

/** Link-local (169.254/16, fe80::/10) and the metadata services' own addresses. */
export function isForbiddenAddress(a: string): boolean {
  const q = v4(a);
  if (q) return (q[0] === 169 && q[1] === 254) || (q[0] === 100 && q[1] === 100 && q[2] === 100 && q[3] === 200) || q[0] === 0;
  const low = a.toLowerCase();
  if (/^fe[89ab][0-9a-f]?:/.test(low)) return true;
  return low === "fd00:ec2::254" || low === "::";
}

/** The one refusal, the same words whatever is (or is not) at the address. */
function refused(what: string, url: URL): DrsgError {
  return new DrsgError(
    "URL_NOT_ALLOWED",
    `${what}: ${url.origin} is not allowed — drsg sends requests only to loopback addresses and to the origins the operator lists in DRSG_ATTACH_ALLOW (never link-local or cloud-metadata addresses)`,
  );
}

export interface Target {
  url: URL;
  address: string;
  family: 4 | 6;
  /** The token to send, when the operator gave this origin one. */
  token?: string;
  tokenEnv?: string;
}

/** How names are resolved (the system's resolver; a test passes its own). */
export type Resolver = (name: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (name) => lookup(name, { all: true, verbatim: true });

/** Check `url` against the rules and resolve it; URL_NOT_ALLOWED when any rule refuses. */
export async function outboundTarget(what: string, raw: string | URL, resolve: Resolver = systemResolver): Promise<Target> {
  let url: URL;
  try {
    url = typeof raw === "string" ? new URL(raw) : raw;
  } catch {
    throw new DrsgError("BAD_INPUT", `${what}: '${String(raw).slice(0, 200)}' is not a URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new DrsgError("BAD_INPUT", `${what}: url must be http(s), got ${url.protocol}`);
  if (url.username || url.password) throw refused(what, url);
  const name = url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase();
  if (METADATA_NAMES.has(name)) throw refused(what, url);
  const allowed = attachAllowList().get(url.origin);
  let addrs: { address: string; family: number }[];
  try {
    addrs = isIP(name) ? [{ address: name, family: isIP(name) }] : await resolve(name);
  } catch {
    // An unresolvable name is refused in the same words: the answer says nothing about DNS either.
    throw refused(what, url);
  }
  if (addrs.length === 0 || addrs.some((a) => isForbiddenAddress(a.address))) throw refused(what, url);
  if (!allowed && !addrs.every((a) => isLoopbackAddress(a.address))) throw refused(what, url);
  const first = addrs[0]!;
  const token = allowed?.tokenEnv ? process.env[allowed.tokenEnv]?.trim() || undefined : undefined;
  return {
    url,
    address: first.address,
    family: first.family === 6 ? 6 : 4,
    ...(token ? { token } : {}),
    ...(allowed?.tokenEnv ? { tokenEnv: allowed.tokenEnv } : {}),
  };
}

export interface OutboundAnswer {
  status: number;
  text: string;
}

const MAX_ANSWER = 32 * 1024 * 1024;

/**
 * One request to a checked target, connected to the address that was checked (not resolved
 * again), bounded by `timeoutMs` as a whole; redirects are not followed. Rejects with the
 * transport's error or a timeout.
 */
export function outboundRequest(
  t: Target,
  path: string,
  opts: { method: "GET" | "POST"; body?: string; timeoutMs: number },
): Promise<OutboundAnswer> {
  const u = new URL(path, t.url);
  const headers: Record<string, string> = { accept: "application/json" };
  if (opts.body !== undefined) {
    headers["content-type"] = "application/json";
    headers["content-length"] = String(Buffer.byteLength(opts.body));
  }
  if (t.token) headers.authorization = `Bearer ${t.token}`;
  const request = u.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        protocol: u.protocol,
        hostname: u.hostname.replace(/^\[|\]$/g, ""),
        port: u.port || (u.protocol === "https:" ? 443 : 80),
        path: `${u.pathname}${u.search}`,
        method: opts.method,
        headers,
        // Pinned: the socket goes to the address checked above, whatever DNS says now.
        lookup: ((_h: string, o: { all?: boolean }, cb: (...a: unknown[]) => void) =>
          o?.all ? cb(null, [{ address: t.address, family: t.family }]) : cb(null, t.address, t.family)) as never,
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (b: Buffer) => {
          size += b.length;
          if (size > MAX_ANSWER) {
            req.destroy(new Error(`answer over ${MAX_ANSWER} bytes`));
            return;
          }
          chunks.push(b);
        });
        res.once("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
        res.once("error", reject);
      },
    );
    const timer = setTimeout(() => req.destroy(Object.assign(new Error("timeout"), { name: "TimeoutError" })), opts.timeoutMs);
    timer.unref();
    req.once("close", () => clearTimeout(timer));
    req.once("error", reject);
    req.end(opts.body);
  });
}
