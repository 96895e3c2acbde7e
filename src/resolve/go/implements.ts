// Implicit interface satisfaction: a named type of the tree IMPLEMENTS an interface of the tree
// when its method set (own methods plus those promoted through embedding) holds every method
// of the interface, compared by name and parameter count. Interfaces whose method set is not
// fully known (embedding an interface outside the tree, constraint interfaces) and empty
// interfaces are skipped. Near-linear: each interface is indexed under its rarest method name.
import type { FactBuilder } from "../common.js";
import type { GoIndex, Member, TypeInfo } from "./model.js";
import { isExported, paramCount } from "./text.js";
import type { GoTypes } from "./types.js";

type MethodSet = Map<string, number | undefined>;

function arityOf(m: Member): number | undefined {
  return paramCount(m.def.signature, m.def.name);
}

export function implementsEdges(ix: GoIndex, ty: GoTypes, fb: FactBuilder): void {
  const ifaces: { t: TypeInfo; methods: [string, number | undefined][] }[] = [];
  const concrete: { t: TypeInfo; set: MethodSet }[] = [];
  for (const t of ix.types.values()) {
    if (t.kind === "alias") continue;
    const body = ty.bodyOf(t);
    if (t.kind === "interface") {
      const fl = ty.flatInterface(t);
      if (fl.ext.length > 0 || fl.constraint || fl.methods.size + fl.std.size === 0) continue;
      const methods: [string, number | undefined][] = [...fl.methods].map(([n, m]) => [n, arityOf(m)]);
      for (const [n, m] of fl.std) if (!fl.methods.has(n)) methods.push([n, m.arity]);
      ifaces.push({ t, methods });
      continue;
    }
    if (body?.kind === "interface" || !t.topLevel) continue;
    const set = methodSet(ty, t);
    if (set.size > 0) concrete.push({ t, set });
  }
  if (ifaces.length === 0 || concrete.length === 0) return;

  const freq = new Map<string, number>();
  for (const c of concrete) for (const n of c.set.keys()) freq.set(n, (freq.get(n) ?? 0) + 1);
  const bucket = new Map<string, (typeof ifaces)[number][]>();
  for (const i of ifaces) {
    let best: string | undefined;
    let bestF = Number.POSITIVE_INFINITY;
    for (const [n] of i.methods) {
      const fq = freq.get(n) ?? 0;
      if (fq < bestF || (fq === bestF && best !== undefined && n < best)) {
        best = n;
        bestF = fq;
      }
    }
    if (best === undefined || bestF === 0) continue;
    const list = bucket.get(best) ?? [];
    list.push(i);
    bucket.set(best, list);
  }

  for (const c of concrete) {
    for (const name of c.set.keys()) {
      const cands = bucket.get(name);
      if (!cands) continue;
      for (const i of cands) {
        if (satisfies(c, i)) {
          fb.edge("IMPLEMENTS", c.t.key, i.t.key, {
            line: c.t.def.line,
            _ref: i.t.name,
            _resolved_by: "method-set",
            _confidence: "medium",
          });
        }
      }
    }
  }
}

function satisfies(c: { t: TypeInfo; set: MethodSet }, i: { t: TypeInfo; methods: [string, number | undefined][] }): boolean {
  for (const [n, arity] of i.methods) {
    if (!c.set.has(n)) return false;
    if (!isExported(n) && c.t.pkg !== i.t.pkg) return false;
    const have = c.set.get(n);
    if (arity !== undefined && have !== undefined && arity !== have) return false;
  }
  return true;
}

/** Method names (with parameter counts) of a named type: its own, then promoted through embedded fields of the tree. */
function methodSet(ty: GoTypes, t0: TypeInfo): MethodSet {
  const set: MethodSet = new Map();
  const seen = new Set<string>();
  let level: TypeInfo[] = [t0];
  for (let depth = 0; depth <= 6 && level.length > 0; depth++) {
    const next: TypeInfo[] = [];
    for (const t of level) {
      if (seen.has(t.key)) continue;
      seen.add(t.key);
      const own = ty.methodsOf(t);
      if (own) for (const [n, m] of own) if (!set.has(n)) set.set(n, arityOf(m));
      const body = ty.bodyOf(t);
      if (!body) continue;
      if (body.kind === "interface") {
        if (depth === 0) continue;
        const fl = ty.flatInterface(body);
        for (const [n, m] of fl.methods) if (!set.has(n)) set.set(n, arityOf(m));
        for (const [n, m] of fl.std) if (!set.has(n)) set.set(n, m.arity);
        continue;
      }
      for (const e of body.embeds) {
        const r0 = ty.resolveType(ty.ownTExpr(body, e.text));
        const r = r0 ? ty.unalias(r0) : undefined;
        if (r?.k === "tree") next.push(r.t);
      }
    }
    level = next;
  }
  return set;
}
