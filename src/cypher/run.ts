// One statement end to end: the confirm scan, parse, plan, the mirrored-plane refusal, AS OF
// resolution, and execution — a read on the store (or a past state of it), a write inside one
// store.write transaction (all or nothing).
import { DrsgError } from "../model/errors.js";
import type { PlaneInfo, Reader, Store, Writer } from "../store/types.js";
import type { Statement } from "./ast.js";
import { DEFAULT_LIMITS, type ExecResult, Executor, type Limits } from "./executor.js";
import { parse } from "./parser.js";
import type { Plan } from "./plan.js";
import { plan as planStatement } from "./planner.js";
import type { Value } from "./values.js";

/**
 * Whether a statement may destroy (DELETE, DETACH DELETE, REMOVE): a keyword scan, not the
 * parse tree, so a statement that does not parse is judged too. Skips string literals (with
 * `\` escapes), backticked names, comments and words right after `.` (property names); an
 * unterminated string or name is scanned as code — when unsure, ask.
 */
export function destroys(src: string): boolean {
  let i = 0;
  let afterDot = false;
  while (i < src.length) {
    const c = src[i]!;
    if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < src.length && src[j] !== c) j += src[j] === "\\" ? 2 : 1;
      if (j >= src.length) {
        i++;
        continue;
      }
      i = j + 1;
      afterDot = false;
      continue;
    }
    if (c === "`") {
      const e = src.indexOf("`", i + 1);
      if (e < 0) {
        i++;
        continue;
      }
      i = e + 1;
      afterDot = false;
      continue;
    }
    if (c === "/" && src[i + 1] === "/") {
      const e = src.indexOf("\n", i);
      i = e < 0 ? src.length : e;
      continue;
    }
    if (c === "/" && src[i + 1] === "*") {
      const e = src.indexOf("*/", i + 2);
      if (e < 0) {
        i += 2;
        continue;
      }
      i = e + 2;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < src.length && /[A-Za-z0-9_]/.test(src[j]!)) j++;
      const w = src.slice(i, j).toUpperCase();
      if (!afterDot && (w === "DELETE" || w === "REMOVE")) return true;
      afterDot = false;
      i = j;
      continue;
    }
    if (c === ".") afterDot = true;
    else if (!/\s/.test(c)) afterDot = false;
    i++;
  }
  return false;
}

export interface StatementInput {
  plane: string;
  statement: string;
  params?: Record<string, unknown>;
  confirm?: boolean;
  limits?: Partial<Limits>;
  /** False on a server serving reads only: a statement that writes is READ_ONLY (default true). */
  allowWrites?: boolean;
}

export interface StatementAnswer {
  plane: PlaneInfo;
  plan: Plan;
  result: ExecResult;
  /** The commit read, for an AS OF statement. */
  asOf?: number;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** The commit an AS OF suffix names (the newest at or before a time). */
export function resolveAsOf(store: Store, asOf: NonNullable<Statement["asOf"]>): number {
  if ("seq" in asOf) return asOf.seq;
  if (!RFC3339.test(asOf.time)) throw new DrsgError("BAD_INPUT", `AS OF "${asOf.time}": not an RFC 3339 time (write e.g. "2026-01-02T10:00:00Z"), or give a commit sequence`);
  return store.seqAt(Date.parse(asOf.time));
}

/** Parameters as executor values (JSON in, JSON-like out). */
export function paramValues(params: Record<string, unknown> | undefined): Record<string, Value> {
  return JSON.parse(JSON.stringify(params ?? {})) as Record<string, Value>;
}

/** The refusal of a write on a plane that mirrors a repository. */
export function mirroredRefusal(p: PlaneInfo, what: string): DrsgError {
  const sha = String(p.props.synced_commit).slice(0, 12);
  return new DrsgError(
    "MIRRORED_PLANE",
    `${what}: plane '${p.name}' mirrors a repository (synced at commit ${sha}); its facts belong to the parser and the next fold would overwrite or re-create what this writes. ` +
      "Add your own nodes and edges with write_nodes / write_edges (they survive folds), or create_plane a plane of your own and write there.",
    { plane: p.name, synced_commit: p.props.synced_commit },
  );
}

function writeTo<T>(store: Store, plane: string, fn: (w: Writer) => T): T {
  const routed = store as Store & { writeTo?: (p: string, f: (w: Writer) => T) => T };
  return routed.writeTo ? routed.writeTo(plane, fn) : store.write(fn);
}

/** Run a statement against plane `input.plane` of `store`; `reader` overrides the store for reads (tests count its calls). */
export function runStatement(store: Store, input: StatementInput, reader?: Reader): StatementAnswer {
  // A server that runs no write refuses a deleting statement as a write (below), not by asking to confirm.
  if (input.allowWrites !== false && destroys(input.statement) && input.confirm !== true)
    throw new DrsgError("CONFIRM_REQUIRED", "cypher: this statement may DELETE or REMOVE — it destroys facts; call again with confirm: true", {
      flag: "confirm",
    });
  const st = parse(input.statement);
  const plan = planStatement(st);
  const limits: Limits = { ...DEFAULT_LIMITS, ...input.limits };
  const params = paramValues(input.params);
  const base = reader ?? store;
  if (plan.writes) {
    if (input.allowWrites === false)
      throw new DrsgError("READ_ONLY", "cypher: this server serves reads only; a statement with CREATE, MERGE, SET, REMOVE or DELETE cannot run here");
    if (st.asOf) throw new DrsgError("BAD_INPUT", "cypher: AS OF reads the past; a statement that writes cannot use it");
    const p = base.getPlane(input.plane);
    if (!p) throw planeMissing(base, input.plane);
    if (typeof p.props.synced_commit === "string" && p.props.synced_commit.length > 0) throw mirroredRefusal(p, "cypher");
    const result = writeTo(store, input.plane, (w) => {
      const r = new Executor(w, input.plane, params, limits, w).execute(plan);
      if (r.stopped)
        throw new DrsgError(
          "TIMEOUT",
          `cypher: the write stopped at its ${r.stopped === "time" ? `time budget (${limits.budgetMs} ms)` : `work cap (${limits.maxWork} rows)`} — nothing was written; narrow the MATCH (a label or key)`,
        );
      return r;
    });
    return { plane: p, plan, result };
  }
  let r: Reader = base;
  let asOf: number | undefined;
  if (st.asOf) {
    asOf = resolveAsOf(store, st.asOf);
    r = store.asOf(asOf);
  }
  const p = r.getPlane(input.plane);
  if (!p) throw planeMissing(r, input.plane, asOf);
  const result = new Executor(r, input.plane, params, limits).execute(plan);
  return { plane: p, plan, result, ...(asOf !== undefined ? { asOf } : {}) };
}

function planeMissing(r: Reader, name: string, asOf?: number): DrsgError {
  const names = r.listPlanes().map((x) => x.name);
  return new DrsgError("PLANE_NOT_FOUND", `no plane '${name}' in this database${asOf !== undefined ? ` as of commit ${asOf}` : ""} — planes: ${names.join(", ") || "none"}`, {
    plane: name,
    planes: names,
  });
}
