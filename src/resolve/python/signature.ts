// Signatures and argument lists as written, for choosing among a function's `@overload`s by the
// shape of a call (how many positional arguments, which keywords) before any type is read, and
// for reading `Callable[[P…], R]`. Anything not understood yields undefined: no overload chosen.
import { splitTop } from "./text.js";

/** One parameter of a `def`, as written. */
export interface Param {
  name: string;
  /** The annotation as written. */
  type?: string;
  hasDefault: boolean;
  /** Before a `/`: never passed by keyword. */
  positionalOnly: boolean;
  /** After `*` or `*args`: only passed by keyword. */
  keywordOnly: boolean;
}

export interface Signature {
  params: Param[];
  /** `*args` (its annotation: each extra positional argument's type). */
  varargs?: { type?: string };
  /** `**kwargs`. */
  varkw?: { type?: string };
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Split `x: T = d` into its name, annotation and whether it has a default. */
function param(text: string): { name: string; type?: string; hasDefault: boolean } | undefined {
  const eq = splitTop(text, "=");
  // `splitTop` drops empty parts: a default that is itself `=`-free is the second part.
  if (eq.length > 2) return undefined;
  const head = eq[0]!;
  const colon = splitTop(head, ":");
  if (colon.length > 2) return undefined;
  const name = colon[0]!.trim();
  if (!NAME.test(name)) return undefined;
  const out: { name: string; type?: string; hasDefault: boolean } = { name, hasDefault: eq.length === 2 };
  if (colon.length === 2) out.type = colon[1]!.trim();
  return out;
}

/** A `def`'s parameter list as written (`(self, name: str | None = None, *, cls: type[C], **kw)`). */
export function parseParams(text: string): Signature | undefined {
  let t = text.trim();
  if (!t.startsWith("(") || !t.endsWith(")")) return undefined;
  t = t.slice(1, -1);
  // A capped list (`…`) or a default holding a lambda (its `:`) is not read.
  if (t.includes("…") || /\blambda\b/.test(t)) return undefined;
  const sig: Signature = { params: [] };
  let keywordOnly = false;
  for (const part of splitTop(t)) {
    if (part === "/") {
      for (const p of sig.params) p.positionalOnly = true;
      continue;
    }
    if (part === "*") {
      keywordOnly = true;
      continue;
    }
    if (part.startsWith("**")) {
      const p = param(part.slice(2));
      if (!p) return undefined;
      sig.varkw = p.type !== undefined ? { type: p.type } : {};
      continue;
    }
    if (part.startsWith("*")) {
      const p = param(part.slice(1));
      if (!p) return undefined;
      sig.varargs = p.type !== undefined ? { type: p.type } : {};
      keywordOnly = true;
      continue;
    }
    const p = param(part);
    if (!p) return undefined;
    sig.params.push({ ...p, positionalOnly: false, keywordOnly });
  }
  return sig;
}

/** A call's arguments as written: positional ones in order, keyword ones by name. */
export interface Args {
  positional: string[];
  keywords: Map<string, string>;
}

/** The argument texts of a call (`parsePath`'s call step); undefined when one is `*x` / `**x`. */
export function parseArgs(texts: string[]): Args | undefined {
  const out: Args = { positional: [], keywords: new Map() };
  for (const a of texts) {
    if (a.startsWith("*")) return undefined;
    const kw = /^([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)([\s\S]*)$/.exec(a);
    if (kw) {
      if (out.keywords.has(kw[1]!)) return undefined;
      out.keywords.set(kw[1]!, kw[2]!.trim());
    } else if (out.keywords.size > 0) return undefined;
    else out.positional.push(a);
  }
  return out;
}

/** An argument and what takes it: a named parameter, or `*args` / `**kwargs` (their annotation as `varType`). */
export interface Bound {
  param: Param | undefined;
  varType?: string;
  arg: string;
}

/**
 * Which parameter each argument fills, by Python's binding rules; undefined when the call
 * cannot bind (too many positional arguments, an unknown or repeated keyword, a required
 * parameter left empty). Arguments taken by `*args` / `**kwargs` fill no named parameter.
 */
export function bindArgs(sig: Signature, args: Args, skipFirst: boolean): Bound[] | undefined {
  const params = skipFirst ? sig.params.slice(1) : sig.params;
  if (skipFirst && (sig.params.length === 0 || sig.params[0]!.keywordOnly)) return undefined;
  const positional = params.filter((p) => !p.keywordOnly);
  const filled = new Set<Param>();
  const out: Bound[] = [];
  args.positional.forEach((a, i) => {
    const p = positional[i];
    if (p) {
      filled.add(p);
      out.push({ param: p, arg: a });
    } else out.push({ param: undefined, ...(sig.varargs?.type !== undefined ? { varType: sig.varargs.type } : {}), arg: a });
  });
  if (args.positional.length > positional.length && !sig.varargs) return undefined;
  for (const [k, a] of args.keywords) {
    const p = params.find((x) => x.name === k && !x.positionalOnly);
    if (p) {
      if (filled.has(p)) return undefined;
      filled.add(p);
      out.push({ param: p, arg: a });
    } else if (sig.varkw) out.push({ param: undefined, ...(sig.varkw.type !== undefined ? { varType: sig.varkw.type } : {}), arg: a });
    else return undefined;
  }
  if (params.some((p) => !p.hasDefault && !filled.has(p))) return undefined;
  return out;
}

/**
 * `Callable[[A, B], R]` (any module's `Callable`) as written: its parameters' texts (undefined
 * for `...` or a ParamSpec) and its result's. Undefined for anything else.
 */
export function callableParts(text: string): { params: string[] | undefined; result: string } | undefined {
  const t = text.trim();
  const m = /^(?:[A-Za-z_][A-Za-z0-9_]*\s*\.\s*)*Callable\s*\[([\s\S]*)\]$/.exec(t);
  if (!m) return undefined;
  const parts = splitTop(m[1]!);
  if (parts.length !== 2) return undefined;
  const ps = parts[0]!;
  const params = ps.startsWith("[") && ps.endsWith("]") ? splitTop(ps.slice(1, -1)) : undefined;
  return { params, result: parts[1]! };
}
