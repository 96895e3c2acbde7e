// Typed errors with stable codes. Messages start with the operation, quote the offending
// value and name the flag that would change the outcome; tests assert codes, not wording.

export const ERROR_CODES = [
  "BAD_INPUT",
  "DB_LOCKED",
  "DB_MISSING",
  "DB_OPEN_FAILED",
  "DB_SCHEMA",
  "BAD_ENV",
  "PLANE_NOT_FOUND",
  "PLANE_EXISTS",
  "BAD_PLANE_NAME",
  "NODE_NOT_FOUND",
  "KEY_TAKEN",
  "AS_OF_OUT_OF_RANGE",
  "AMBIGUOUS_NAME",
  "NAME_NOT_FOUND",
  "PATH_OUTSIDE_TREE",
  "PATH_NOT_FOUND",
  "NO_TREE",
  "CONFIRM_REQUIRED",
  "MIRRORED_PLANE",
  "PLUGIN_HASH_MISMATCH",
  "PLUGIN_INVALID",
  "PLUGIN_CONFLICT",
  "PLUGIN_NOT_FOUND",
  "QUERY_COMPILE_FAILED",
  "GRAMMAR_LOAD_FAILED",
  "DIR_NOT_FOUND",
  "GIT_ERROR",
  "REV_NOT_FOUND",
  "BAD_REGEX",
  "TIMEOUT",
  "BUSY",
  "UNAUTHORIZED",
  "FORBIDDEN",
  "UNTRUSTED_STATE",
  "URL_NOT_ALLOWED",
  "PARSER_OWNED",
  "READ_ONLY",
  "CYPHER_SYNTAX",
  "CYPHER_ERROR",
  "PLAN_INVALID",
  "UPGRADE_REQUIRED",
  "SERVER_UNAVAILABLE",
  "TOO_LARGE",
  "INTERNAL",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export class DrsgError extends Error {
  readonly code: ErrorCode;
  readonly data: Record<string, unknown>;
  constructor(code: ErrorCode, message: string, data: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DrsgError";
    this.code = code;
    this.data = data;
  }
}

export function isDrsgError(e: unknown, code?: ErrorCode): e is DrsgError {
  return e instanceof DrsgError && (code === undefined || e.code === code);
}

/** The message of any thrown value, for logs and tool errors. */
export function errorText(e: unknown): string {
  if (e instanceof DrsgError) return `${e.code}: ${e.message}`;
  if (e instanceof Error) return e.message;
  return String(e);
}
