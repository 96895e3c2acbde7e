// Expression evaluation over one row, with openCypher's three-valued logic (null propagates
// through comparisons, AND/OR decide when one side does). `=~` runs on re2js — linear time,
// the engine grep uses — never on JS RegExp, which backtracks on an agent's pattern.
import { RE2JS } from "re2js";
import { DrsgError } from "../model/errors.js";
import type { Expr, PathPattern } from "./ast.js";
import { compare, equals, isMap, NodeV, propOf, RelV, type Row, typeName, type Value } from "./values.js";

export const AGGREGATES = new Set(["count", "collect", "min", "max", "sum", "avg"]);

/** Where a projection keeps the row it was made from (ORDER BY may read its variables). */
export const PREV = "\u0000prev";

export interface EvalEnv {
  params: Record<string, Value>;
  /** Whether the pattern has a match given the row's bindings. */
  exists(p: PathPattern, row: Row): boolean;
  node(id: number): NodeV | null;
}

export function cypherError(message: string, data: Record<string, unknown> = {}): DrsgError {
  return new DrsgError("CYPHER_ERROR", message, data);
}

const regexCache = new Map<string, RE2JS>();

function regex(pattern: string): RE2JS {
  let re = regexCache.get(pattern);
  if (re) return re;
  try {
    re = RE2JS.compile(pattern);
  } catch (e) {
    throw new DrsgError("BAD_REGEX", `=~: ${JSON.stringify(pattern)} is not a valid RE2 expression: ${(e as Error).message}`);
  }
  if (regexCache.size > 256) regexCache.clear();
  regexCache.set(pattern, re);
  return re;
}

export function lookup(row: Row, name: string): Value {
  const v = row[name];
  if (v !== undefined) return v;
  const prev = row[PREV] as unknown as Row | undefined;
  if (prev !== undefined) return lookup(prev, name);
  throw cypherError(`variable \`${name}\` is not defined here`);
}

function truth(v: Value, what: string): boolean | null {
  if (v === null || typeof v === "boolean") return v;
  throw cypherError(`${what} needs a boolean, got a ${typeName(v)}`);
}

function num(v: Value, what: string): number | null {
  if (v === null) return null;
  if (typeof v === "number") return v;
  throw cypherError(`${what} needs a number, got a ${typeName(v)}`);
}

function str(v: Value, what: string): string | null {
  if (v === null) return null;
  if (typeof v === "string") return v;
  throw cypherError(`${what} needs a string, got a ${typeName(v)}`);
}

export function evaluate(e: Expr, row: Row, env: EvalEnv): Value {
  switch (e.k) {
    case "lit":
      return e.v;
    case "param": {
      const v = env.params[e.name];
      if (v === undefined) throw cypherError(`parameter $${e.name} is not given — pass it in params`, { param: e.name });
      return v;
    }
    case "var":
      return lookup(row, e.name);
    case "prop": {
      const of = evaluate(e.of, row, env);
      const v = propOf(of, e.key);
      if (v === undefined) throw cypherError(`.${e.key}: a ${typeName(of)} has no properties`);
      return v;
    }
    case "index": {
      const of = evaluate(e.of, row, env);
      const idx = evaluate(e.idx, row, env);
      if (of === null || idx === null) return null;
      if (Array.isArray(of)) {
        const i = num(idx, "a list index");
        if (i === null || !Number.isInteger(i)) throw cypherError("a list index must be an integer");
        return of[i < 0 ? of.length + i : i] ?? null;
      }
      if (typeof idx === "string") return propOf(of, idx) ?? null;
      throw cypherError(`[…] on a ${typeName(of)}`);
    }
    case "list":
      return e.items.map((x) => evaluate(x, row, env));
    case "map": {
      const o: { [k: string]: Value } = {};
      for (const [k, x] of e.entries) o[k] = evaluate(x, row, env);
      return o;
    }
    case "not": {
      const v = truth(evaluate(e.e, row, env), "NOT");
      return v === null ? null : !v;
    }
    case "neg": {
      const v = num(evaluate(e.e, row, env), "unary -");
      return v === null ? null : -v;
    }
    case "isnull": {
      const v = evaluate(e.e, row, env);
      return e.not ? v !== null : v === null;
    }
    case "haslabel": {
      const v = evaluate(e.e, row, env);
      if (v === null) return null;
      if (!(v instanceof NodeV)) throw cypherError(`:Label tests a node, got a ${typeName(v)}`);
      return e.labels.every((l) => v.labels.includes(l));
    }
    case "exists":
      return env.exists(e.pattern, row);
    case "case": {
      if (e.subject) {
        const s = evaluate(e.subject, row, env);
        for (const [w, t] of e.whens) if (equals(s, evaluate(w, row, env)) === true) return evaluate(t, row, env);
      } else {
        for (const [w, t] of e.whens) if (truth(evaluate(w, row, env), "WHEN") === true) return evaluate(t, row, env);
      }
      return e.else ? evaluate(e.else, row, env) : null;
    }
    case "bin":
      return binary(e.op, e.l, e.r, row, env);
    case "call":
      return call(e, row, env);
  }
}

function binary(op: string, le: Expr, re: Expr, row: Row, env: EvalEnv): Value {
  if (op === "AND" || op === "OR" || op === "XOR") {
    const l = truth(evaluate(le, row, env), op);
    if (op === "AND" && l === false) return false;
    if (op === "OR" && l === true) return true;
    const r = truth(evaluate(re, row, env), op);
    if (op === "AND") return r === false ? false : l === null || r === null ? null : true;
    if (op === "OR") return r === true ? true : l === null || r === null ? null : false;
    return l === null || r === null ? null : l !== r;
  }
  const l = evaluate(le, row, env);
  const r = evaluate(re, row, env);
  switch (op) {
    case "=":
      return equals(l, r);
    case "<>": {
      const x = equals(l, r);
      return x === null ? null : !x;
    }
    case "<":
    case ">":
    case "<=":
    case ">=": {
      const c = compare(l, r);
      if (c === null) return null;
      return op === "<" ? c < 0 : op === ">" ? c > 0 : op === "<=" ? c <= 0 : c >= 0;
    }
    case "IN": {
      if (r === null) return null;
      if (!Array.isArray(r)) throw cypherError(`IN needs a list on its right, got a ${typeName(r)}`);
      let sawNull = false;
      for (const x of r) {
        const q = equals(l, x);
        if (q === true) return true;
        if (q === null) sawNull = true;
      }
      return sawNull ? null : false;
    }
    case "STARTS WITH":
    case "ENDS WITH":
    case "CONTAINS": {
      if (typeof l !== "string" || typeof r !== "string") return null;
      return op === "STARTS WITH" ? l.startsWith(r) : op === "ENDS WITH" ? l.endsWith(r) : l.includes(r);
    }
    case "=~": {
      if (typeof l !== "string" || typeof r !== "string") return null;
      return regex(r).matches(l);
    }
    case "+": {
      if (l === null || r === null) return null;
      if (Array.isArray(l)) return Array.isArray(r) ? [...l, ...r] : [...l, r];
      if (Array.isArray(r)) return [l, ...r];
      if (typeof l === "string" || typeof r === "string") {
        if (typeof l === "object" || typeof r === "object") throw cypherError(`+ cannot join a ${typeName(l)} and a ${typeName(r)}`);
        return String(l) + String(r);
      }
      return num(l, "+")! + num(r, "+")!;
    }
    default: {
      const a = num(l, op);
      const b = num(r, op);
      if (a === null || b === null) return null;
      switch (op) {
        case "-":
          return a - b;
        case "*":
          return a * b;
        case "/":
          if (Number.isInteger(a) && Number.isInteger(b) && !floatTyped(le) && !floatTyped(re)) {
            if (b === 0) throw cypherError("/ by zero");
            return Math.trunc(a / b);
          }
          return a / b;
        case "%":
          if (Number.isInteger(a) && Number.isInteger(b) && b === 0 && !floatTyped(le) && !floatTyped(re)) throw cypherError("% by zero");
          return a % b;
        case "^":
          return a ** b;
      }
      throw cypherError(`unknown operator ${op}`);
    }
  }
}

/**
 * Whether an expression is a float by its form (a float literal, toFloat(), avg(), or arithmetic
 * on one). Values are JS numbers, so 7.0 and 7 look alike at run time; this keeps 7.0 / 2 = 3.5
 * where the statement says so. A float read from a property that happens to be whole is not seen.
 */
function floatTyped(e: Expr): boolean {
  switch (e.k) {
    case "lit":
      return e.float === true;
    case "neg":
      return floatTyped(e.e);
    case "call":
      return e.name === "tofloat" || e.name === "avg" || e.name === "sqrt";
    case "bin":
      return ["+", "-", "*", "/", "%", "^"].includes(e.op) && (e.op === "^" || floatTyped(e.l) || floatTyped(e.r));
    default:
      return false;
  }
}

function call(e: Expr & { k: "call" }, row: Row, env: EvalEnv): Value {
  if (AGGREGATES.has(e.name)) throw cypherError(`${e.name}() is an aggregate: use it in RETURN or WITH`);
  const args = e.args.map((a) => evaluate(a, row, env));
  const want = (n: number) => {
    if (args.length !== n) throw cypherError(`${e.name}() takes ${n} argument(s), got ${args.length}`);
  };
  const a0 = args[0] ?? null;
  switch (e.name) {
    case "labels":
      want(1);
      if (a0 === null) return null;
      if (!(a0 instanceof NodeV)) throw cypherError(`labels() takes a node, got a ${typeName(a0)}`);
      return [...a0.labels];
    case "type":
      want(1);
      if (a0 === null) return null;
      if (!(a0 instanceof RelV)) throw cypherError(`type() takes a relationship, got a ${typeName(a0)}`);
      return a0.type;
    case "id":
      want(1);
      if (a0 === null) return null;
      if (a0 instanceof NodeV || a0 instanceof RelV) return a0.id;
      throw cypherError(`id() takes a node or relationship, got a ${typeName(a0)}`);
    case "keys":
      want(1);
      if (a0 === null) return null;
      if (a0 instanceof NodeV || a0 instanceof RelV) return Object.keys(a0.props).sort();
      if (isMap(a0)) return Object.keys(a0).sort();
      throw cypherError(`keys() takes a node, relationship or map, got a ${typeName(a0)}`);
    case "properties":
      want(1);
      if (a0 === null) return null;
      if (a0 instanceof NodeV || a0 instanceof RelV) return { ...(a0.props as { [k: string]: Value }) };
      if (isMap(a0)) return a0;
      throw cypherError(`properties() takes a node, relationship or map, got a ${typeName(a0)}`);
    case "size":
    case "length":
      want(1);
      if (a0 === null) return null;
      if (typeof a0 === "string" || Array.isArray(a0)) return a0.length;
      throw cypherError(`${e.name}() takes a string or list, got a ${typeName(a0)}`);
    case "tolower":
    case "toupper": {
      want(1);
      const s = str(a0, `${e.name}()`);
      return s === null ? null : e.name === "tolower" ? s.toLowerCase() : s.toUpperCase();
    }
    case "trim":
    case "ltrim":
    case "rtrim": {
      want(1);
      const s = str(a0, `${e.name}()`);
      if (s === null) return null;
      return e.name === "trim" ? s.trim() : e.name === "ltrim" ? s.trimStart() : s.trimEnd();
    }
    case "reverse":
      want(1);
      if (a0 === null) return null;
      if (typeof a0 === "string") return [...a0].reverse().join("");
      if (Array.isArray(a0)) return [...a0].reverse();
      throw cypherError(`reverse() takes a string or list, got a ${typeName(a0)}`);
    case "substring": {
      if (args.length < 2 || args.length > 3) throw cypherError("substring() takes 2 or 3 arguments");
      const s = str(a0, "substring()");
      const from = num(args[1]!, "substring()");
      const len = args.length === 3 ? num(args[2]!, "substring()") : undefined;
      if (s === null || from === null || len === null) return null;
      return len === undefined ? s.slice(from) : s.slice(from, from + len);
    }
    case "replace": {
      want(3);
      const [s, f, t] = [str(a0, "replace()"), str(args[1]!, "replace()"), str(args[2]!, "replace()")];
      if (s === null || f === null || t === null) return null;
      return s.split(f).join(t);
    }
    case "split": {
      want(2);
      const [s, d] = [str(a0, "split()"), str(args[1]!, "split()")];
      if (s === null || d === null) return null;
      return s.split(d);
    }
    case "coalesce":
      for (const a of args) if (a !== null) return a;
      return null;
    case "tostring":
      want(1);
      if (a0 === null) return null;
      if (typeof a0 === "object") throw cypherError(`toString() takes a number, boolean or string, got a ${typeName(a0)}`);
      return String(a0);
    case "tointeger":
    case "tofloat": {
      want(1);
      if (a0 === null) return null;
      const n = typeof a0 === "number" ? a0 : typeof a0 === "string" ? Number(a0) : Number.NaN;
      if (typeof a0 !== "number" && typeof a0 !== "string") throw cypherError(`${e.name}() takes a number or string, got a ${typeName(a0)}`);
      if (Number.isNaN(n) || (typeof a0 === "string" && a0.trim() === "")) return null;
      return e.name === "tointeger" ? Math.trunc(n) : n;
    }
    case "abs":
    case "floor":
    case "ceil":
    case "round":
    case "sqrt":
    case "sign": {
      want(1);
      const n = num(a0, `${e.name}()`);
      if (n === null) return null;
      return e.name === "abs" ? Math.abs(n) : e.name === "floor" ? Math.floor(n) : e.name === "ceil" ? Math.ceil(n) : e.name === "round" ? Math.round(n) : e.name === "sqrt" ? Math.sqrt(n) : Math.sign(n);
    }
    case "head":
    case "last":
    case "tail":
      want(1);
      if (a0 === null) return null;
      if (!Array.isArray(a0)) throw cypherError(`${e.name}() takes a list, got a ${typeName(a0)}`);
      return e.name === "head" ? (a0[0] ?? null) : e.name === "last" ? (a0[a0.length - 1] ?? null) : a0.slice(1);
    case "range": {
      if (args.length < 2 || args.length > 3) throw cypherError("range() takes 2 or 3 arguments");
      const [a, b] = [num(a0, "range()"), num(args[1]!, "range()")];
      const step = args.length === 3 ? num(args[2]!, "range()") : 1;
      if (a === null || b === null || step === null) return null;
      if (step === 0) throw cypherError("range(): step 0");
      if (Math.abs((b - a) / step) > 100_000) throw cypherError("range(): more than 100000 elements");
      const out: number[] = [];
      for (let i = a; step > 0 ? i <= b : i >= b; i += step) out.push(i);
      return out;
    }
    case "startnode":
    case "endnode":
      want(1);
      if (a0 === null) return null;
      if (!(a0 instanceof RelV)) throw cypherError(`${e.name}() takes a relationship, got a ${typeName(a0)}`);
      return env.node(e.name === "startnode" ? a0.src : a0.dst);
    case "exists":
      // exists(n.prop): whether the value is there.
      want(1);
      return a0 !== null;
    default:
      throw cypherError(
        `unknown function ${e.name}() — functions: labels type id keys properties size length toLower toUpper trim substring replace split coalesce toString toInteger toFloat abs round floor ceil sqrt head last tail range startNode endNode exists; aggregates: count collect min max sum avg`,
      );
  }
}

/** Whether an expression holds an aggregate call (outside nested patterns). */
export function hasAggregate(e: Expr): boolean {
  let found = false;
  walkExpr(e, (x) => {
    if (x.k === "call" && AGGREGATES.has(x.name)) found = true;
  });
  return found;
}

/** Visit every sub-expression (not the inside of exists patterns' property maps). */
export function walkExpr(e: Expr, f: (x: Expr) => void): void {
  f(e);
  switch (e.k) {
    case "prop":
      walkExpr(e.of, f);
      break;
    case "index":
      walkExpr(e.of, f);
      walkExpr(e.idx, f);
      break;
    case "list":
      for (const x of e.items) walkExpr(x, f);
      break;
    case "map":
      for (const [, x] of e.entries) walkExpr(x, f);
      break;
    case "bin":
      walkExpr(e.l, f);
      walkExpr(e.r, f);
      break;
    case "not":
    case "neg":
    case "isnull":
    case "haslabel":
      walkExpr(e.e, f);
      break;
    case "call":
      for (const x of e.args) walkExpr(x, f);
      break;
    case "case":
      if (e.subject) walkExpr(e.subject, f);
      for (const [w, t] of e.whens) {
        walkExpr(w, f);
        walkExpr(t, f);
      }
      if (e.else) walkExpr(e.else, f);
      break;
    default:
  }
}
