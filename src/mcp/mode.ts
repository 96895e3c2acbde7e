// The serve mode (read-only or read-write), decided once at start-up from --read-only and
// $DRSG_MCP_MODE. Its own module: drsg-mcp decides it before it knows whether it relays, and a
// relayed session loads none of the in-process server.
import { DrsgError } from "../model/errors.js";

/** Who may be served: every tool, or (`read`) only those that never write. */
export type ServeMode = "read" | "write";

/**
 * The mode in force: `--read-only` given, else $DRSG_MCP_MODE (`read` | `write`, empty = unset),
 * else read-write. Any other value is BAD_ENV: a typo must not serve write tools.
 */
export function serveMode(readOnlyFlag = false, env: NodeJS.ProcessEnv = process.env): ServeMode {
  if (readOnlyFlag) return "read";
  const raw = env.DRSG_MCP_MODE?.trim().toLowerCase();
  if (raw === undefined || raw === "") return "write";
  if (raw === "read" || raw === "read-only" || raw === "readonly") return "read";
  if (raw === "write" || raw === "read-write") return "write";
  throw new DrsgError(
    "BAD_ENV",
    `serve: DRSG_MCP_MODE=${JSON.stringify(env.DRSG_MCP_MODE)} is not a mode; set it to "read" (no write tool is listed or served) or "write" (the default), or unset it`,
    { variable: "DRSG_MCP_MODE", value: env.DRSG_MCP_MODE },
  );
}
