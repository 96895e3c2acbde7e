// The python resolver proper. Two passes over the partials: index every file (scope.ts), then
// bind every reference. Name lookups follow Python's scoping (function locals, enclosing
// functions, the class body only for code directly in it, module globals, star imports,
// builtins), flow-insensitively: every binding of a name in a scope is a candidate, and the
// candidates must agree, or the answer is unknown / ambiguous. Every lookup is memoised, so the
// cost follows the number of references, not the number of files.
import type { Def, Import, Local, Partial, Ref } from "../../model/partial.js";
import type { Props } from "../../model/facts.js";
import { type Confidence, FactBuilder, defProps } from "../common.js";
import type { ResolveInput, ResolveOutput } from "../types.js";
import {
  BUILTIN_CLASSES,
  STDLIB_MODULES,
  TRANSPARENT_BASES,
  TYPE_WRAPPERS,
  TYPING_ALIASES,
  isBuiltin,
} from "./builtins.js";
import { type ModuleFile, moduleFiles } from "./modules.js";
import {
  type FileInfo,
  buildFileInfo,
  childDefs,
  decorated,
  propertyLike,
  enclosingFunction,
  isMethod,
  normScope,
  parentScope,
} from "./scope.js";
import { type Args, type Bound, type Signature, bindArgs, callableParts, parseArgs, parseParams } from "./signature.js";
import { type Ann, type Step, annotationNames, baseList, literalType, parseAnnotation, parsePath, splitTop } from "./text.js";

/** The rule that proved a binding (`_resolved_by`). */
type By = "scope" | "import" | "self" | "super" | "class" | "receiver" | "builtin" | "alias";

interface ClassRef {
  f: FileInfo;
  d: number;
}

/** What an expression denotes, as far as the source proves it. */
type Val = (
  | { k: "def"; f: FileInfo; d: number; declared?: DefRef } // an in-tree function or class (declared: its type-checking declaration)
  | { k: "mod"; f: FileInfo } // an in-tree module
  | { k: "inst"; cls: ClassRef } // an instance of an in-tree class
  | { k: "ext"; path: string; cls: boolean } // something outside the tree: python:<path>
  | { k: "extinst"; path: string } // an instance of an outside class
  | { k: "super"; cls: ClassRef; self: boolean } // super() inside class cls
  | { k: "none" }
  | { k: "unknown"; reason?: string; declared?: DefRef } // declared: a type-checking declaration of it
  | { k: "ambiguous"; n: number }
) & { by?: By; node?: string };

const UNKNOWN: Val = { k: "unknown" };
/** exportOf's memo of "no such name" (distinct from a name bound to an unknown value). */
const MISSING: Val = { k: "unknown", reason: "missing" };

export const REASONS = {
  receiver: "receiver type unknown",
  dynamic: "dynamic call",
  notDefined: "not defined in scope",
  member: "member not found in class hierarchy",
  externalBase: "external or unknown base",
  star: "star import from external module",
  typeOnly: "declared only for type checkers (if TYPE_CHECKING)",
  classTyped: "attribute declared as a class (Type[X]): what it holds is not proven",
} as const;

/** Members every class has from `object`: found at the end of any MRO. */
const OBJECT_MEMBERS: ReadonlySet<string> = new Set([
  "__init__", "__new__", "__repr__", "__str__", "__eq__", "__ne__", "__hash__", "__setattr__",
  "__getattribute__", "__delattr__", "__dir__", "__format__", "__reduce__", "__reduce_ex__",
  "__sizeof__", "__init_subclass__", "__subclasshook__", "__lt__", "__le__", "__gt__", "__ge__",
  "__getstate__", "__class__", "__doc__", "__dict__", "__module__", "__name__", "__qualname__",
  "__mro__", "__bases__", "__subclasses__", "__annotations__",
]);

/** Outside classes known to define no `__get__`: a class-level instance of a subclass is no descriptor because of them. */
const NO_GET_BASES: ReadonlySet<string> = new Set([
  ...[...BUILTIN_CLASSES].filter((c) => c !== "property" && c !== "classmethod" && c !== "staticmethod").map((c) => `builtins.${c}`),
  ...["typing", "typing_extensions", "collections.abc"].flatMap((m) =>
    [
      "Dict", "List", "Set", "FrozenSet", "Tuple", "Mapping", "MutableMapping", "Sequence", "MutableSequence",
      "Collection", "Iterable", "Iterator", "Container", "Hashable", "Sized", "AbstractSet", "MutableSet",
      "Reversible", "KeysView", "ValuesView", "ItemsView", "NamedTuple", "DefaultDict", "OrderedDict", "Deque",
      "Counter", "ChainMap",
    ].map((c) => `${m}.${c}`),
  ),
  ...["OrderedDict", "defaultdict", "deque", "Counter", "ChainMap", "UserDict", "UserList", "UserString"].map((c) => `collections.${c}`),
  ...["Enum", "IntEnum", "Flag", "IntFlag", "StrEnum"].map((c) => `enum.${c}`),
]);

/** Attributes of every class (and instance) that are strings. */
const TYPE_ATTRS_STR: ReadonlySet<string> = new Set(["__name__", "__qualname__", "__module__", "__doc__"]);

/** Whether an argument fits a parameter's annotation: proven, disproven, or not known. */
type Fit = "yes" | "no" | "maybe";

/** What an argument is, as far as its text proves (for choosing an overload). */
type ArgKind =
  | { k: "lit"; type: string } // a literal of a builtin class
  | { k: "none" }
  | { k: "function" } // a function (the one a bare decorator is applied to)
  | { k: "class"; cls: ClassRef }
  | { k: "inst"; cls: ClassRef }
  | { k: "unknown" };

/** The argument a bare decorator is called with: the function it decorates (no text Python could write). */
const FUNCTION_ARG = "\u0000function";

/** Literal classes a numeric annotation accepts besides its own (typing's numeric tower; bool is an int). */
const NUMERIC_ACCEPTS: Readonly<Record<string, string[]>> = {
  int: ["bool"],
  float: ["int", "bool"],
  complex: ["float", "int", "bool"],
};

/** Whether an argument fits `Callable[…]` (its parameters unread). */
function callableFit(arg: ArgKind): Fit {
  switch (arg.k) {
    case "function":
    case "class":
      return "yes";
    case "lit":
    case "none":
      return "no";
    default:
      return "maybe";
  }
}

/** An entry of a linearised MRO. */
type MroEntry = { k: "cls"; ref: ClassRef; id: string } | { k: "ext"; path: string; id: string } | { k: "unknown"; id: string };

/** A definition: a file's definition index. */
interface DefRef {
  f: FileInfo;
  d: number;
}

/**
 * What a member lookup over an MRO found: what runs, and `declared`, a method only a type checker
 * reads (`if TYPE_CHECKING:`) met first — the name's type, never what a call runs.
 */
type Member = (
  | { k: "def"; f: FileInfo; d: number }
  | { k: "attr"; cls: ClassRef }
  | { k: "object"; path: string }
  | { k: "stop" }
  | { k: "dynamic" }
  | { k: "missing" }
) & { declared?: DefRef };

/** Marks a memo entry being computed: meeting it again is a cycle, answered unknown. */
const IN_PROGRESS: Val = { k: "unknown", reason: "cycle" };

class FileMemo {
  readonly names = new Map<number, Map<string, Val>>();
  readonly locals = new Map<Local, Val>();
  readonly exports = new Map<string, Val>();
  readonly imports = new Map<number, Val>();
  readonly attrs = new Map<number, Map<string, Val>>();
  readonly annotations = new Map<number, Map<string, Val>>();
  readonly paths = new Map<number, Map<string, Val>>();
  readonly members = new Map<number, Map<string, Member>>();
  readonly superMembers = new Map<number, Map<string, Member>>();
  readonly bases = new Map<number, { text: string; entry: MroEntry; val: Val }[]>();
  readonly mro = new Map<number, MroEntry[]>();
  readonly decorated = new Map<number, Val>();
}

function inner<K, V>(m: Map<number, Map<K, V>>, k: number): Map<K, V> {
  let t = m.get(k);
  if (!t) {
    t = new Map();
    m.set(k, t);
  }
  return t;
}

/** How deep evaluations may nest (alias chains, re-export chains): beyond it, unknown. */
const MAX_DEPTH = 300;
let depth = 0;

/** Memoise `compute` under `k` in `m`; re-entering a key in progress yields unknown (a cycle). */
function memoIn<K>(m: Map<K, Val>, k: K, compute: () => Val): Val {
  const hit = m.get(k);
  if (hit !== undefined) return hit === IN_PROGRESS ? UNKNOWN : hit;
  if (depth >= MAX_DEPTH) return UNKNOWN;
  m.set(k, IN_PROGRESS);
  let v: Val = UNKNOWN;
  depth++;
  try {
    v = compute();
  } finally {
    depth--;
    m.set(k, v);
  }
  return v;
}

function valId(v: Val): string {
  switch (v.k) {
    case "def":
      return `d:${v.f.keys[v.d]}`;
    case "mod":
      return `m:${v.f.key}`;
    case "inst":
      return `i:${v.cls.f.keys[v.cls.d]}`;
    case "ext":
      return `e:${v.path}`;
    case "extinst":
      return `x:${v.path}`;
    case "super":
      return `s:${v.cls.f.keys[v.cls.d]}`;
    case "none":
      return "n";
    case "unknown":
      return "u";
    case "ambiguous":
      return "a";
  }
}

/** Candidates that must agree: one value, else unknown (any unknown) or ambiguous (several). */
function combine(vals: Val[]): Val {
  const live = vals.filter((v) => v.k !== "none");
  if (live.length === 0) return vals.length > 0 ? { k: "none" } : UNKNOWN;
  const amb = live.find((v) => v.k === "ambiguous");
  if (amb) return amb;
  const unk = live.find((v) => v.k === "unknown");
  if (unk) return unk;
  const distinct = new Map<string, Val>();
  for (const v of live) if (!distinct.has(valId(v))) distinct.set(valId(v), v);
  if (distinct.size === 1) return live[0]!;
  return { k: "ambiguous", n: distinct.size };
}

function withBy(v: Val, by: By): Val {
  return v.by === by ? v : { ...v, by };
}

function dead(reason: string): Val {
  return { k: "unknown", reason };
}

/**
 * A partial's tables, kept while the partial lives: a fold resolves the family again with the same
 * (stripped) partial objects for the files it did not change, so only the changed files' tables
 * are built again. The tables depend on the partial and its module placement only, and the
 * resolver never writes to them (its memo tables are per run).
 */
const infoCache = new WeakMap<Partial, { m: ModuleFile; info: FileInfo }>();

function fileInfo(idx: number, m: ModuleFile): FileInfo {
  const hit = infoCache.get(m.p);
  if (hit && hit.m.key === m.key && hit.m.dotted === m.dotted && hit.m.root === m.root && hit.m.isPackage === m.isPackage && hit.m.isStub === m.isStub)
    return { ...hit.info, idx, m };
  const info = buildFileInfo(idx, m);
  infoCache.set(m.p, { m, info });
  return info;
}

/**
 * A file's tables built when a lookup first needs them (`built` is told then). A fold's
 * resolution (ResolveInput.emit) binds the refs of a few files and meets only the modules their
 * names lead to, so the other files' partials are never read (the fold defers them, lazy.ts).
 * Their definitions' keys are counted only once read, yet no collision with them goes unseen:
 * every module's key is counted at once, and two files' definitions share a key only when one
 * file's module key is a dotted prefix of the other's — then a definition of one already has
 * the other's module key (a collision in the plane before, which resolves the family in full).
 */
class DeferredInfo implements FileInfo {
  private t: FileInfo | undefined;
  constructor(
    readonly idx: number,
    readonly m: ModuleFile,
    private readonly built: (f: FileInfo) => void,
  ) {}
  get p(): Partial {
    return this.m.p;
  }
  get key(): string {
    return this.m.key;
  }
  private get tables(): FileInfo {
    if (this.t === undefined) {
      this.t = fileInfo(this.idx, this.m);
      this.built(this);
    }
    return this.t;
  }
  get keys() {
    return this.tables.keys;
  }
  get owner() {
    return this.tables.owner;
  }
  get parent() {
    return this.tables.parent;
  }
  get norm() {
    return this.tables.norm;
  }
  get children() {
    return this.tables.children;
  }
  get slots() {
    return this.tables.slots;
  }
  get imports() {
    return this.tables.imports;
  }
  get wildcards() {
    return this.tables.wildcards;
  }
  get locals() {
    return this.tables.locals;
  }
  get ranged() {
    return this.tables.ranged;
  }
  get selfAttrs() {
    return this.tables.selfAttrs;
  }
  get firstParam() {
    return this.tables.firstParam;
  }
  get all() {
    return this.tables.all;
  }
  get doc() {
    return this.tables.doc;
  }
}

export class PythonResolver {
  private readonly fb = new FactBuilder();
  private readonly files: FileInfo[] = [];
  /** dotted module name → files claiming it. */
  private readonly byDotted = new Map<string, FileInfo[]>();
  /** first segment of every in-tree dotted name: an import under it is not a dependency. */
  private readonly topNames = new Set<string>();
  /** Memo tables, per file (by FileInfo.idx), keyed without building strings. */
  private readonly memo: FileMemo[] = [];
  private readonly inProgress = new Set<string>();
  private readonly annotationNamesMemo = new Map<string, string[]>();
  /** package file → the modules directly under it. */
  private readonly submodules = new Map<FileInfo, FileInfo[]>();

  constructor(private readonly input: ResolveInput) {}

  run(): ResolveOutput {
    const mods: ModuleFile[] = moduleFiles(this.input.partials, this.input.treeName);
    // A fold keeps the facts of the files it did not change: theirs are not emitted, their keys
    // still count — a module's at once, its definitions' when a lookup first reads the file.
    const emit = this.input.emit;
    mods.forEach((m, i) => {
      const f = emit ? new DeferredInfo(i, m, (x) => emit.has(x.p.path) || this.assumeDefinitions(x)) : fileInfo(i, m);
      this.files.push(f);
      this.memo.push(new FileMemo());
      const list = this.byDotted.get(m.dotted);
      if (list) list.push(f);
      else this.byDotted.set(m.dotted, [f]);
      if (visibleEverywhere(m)) this.topNames.add(m.dotted.split(".")[0]!);
    });
    // A package contains its submodules: the edge is the package's (its source), so a fold that
    // emits only some files (ResolveInput.emit) emits it with the package's facts.
    for (const f of this.files) {
      const dot = f.m.dotted.lastIndexOf(".");
      if (dot <= 0 || f.key !== f.m.dotted) continue;
      const pkg = this.byDotted.get(f.m.dotted.slice(0, dot))?.find((x) => x.key === x.m.dotted && x.m.isPackage);
      if (!pkg) continue;
      const subs = this.submodules.get(pkg);
      if (subs) subs.push(f);
      else this.submodules.set(pkg, [f]);
    }
    const mine = emit ? this.files.filter((f) => emit.has(f.p.path)) : this.files;
    if (emit) for (const f of this.files) if (!emit.has(f.p.path)) this.fb.assume(f.key);
    for (const f of mine) this.emitDefinitions(f);
    for (const f of mine) this.emitImports(f);
    for (const f of mine) this.emitBases(f);
    for (const f of mine) for (const r of f.p.refs) this.emitRef(f, r);
    return this.fb.finish();
  }

  // ------------------------------------------------------------------ nodes

  private emitDefinitions(f: FileInfo): void {
    const p = f.p;
    const props: Props = { file: p.path, line: 1, end_line: p.lines };
    if (f.doc) props.doc_comment = f.doc;
    if (f.m.key !== f.m.dotted) props.module = f.m.dotted;
    this.fb.node(f.key, ["Module"], props);
    for (const sub of this.submodules.get(f) ?? []) this.fb.edge("CONTAINS", f.key, sub.key);
    p.defs.forEach((d, i) => {
      const key = f.keys[i]!;
      if (!key) return;
      const par = f.parent[i]!;
      if (f.owner[i]) this.fb.node(key, [this.label(f, i)], this.props(f, d));
      this.fb.edge("CONTAINS", par >= 0 ? f.keys[par]! : f.key, key);
    });
  }

  /** The definitions' nodes emitDefinitions would emit for `f`, counted (collisions, edges reaching them) but not emitted. */
  private assumeDefinitions(f: FileInfo): void {
    f.p.defs.forEach((_, i) => {
      const key = f.keys[i];
      if (key && f.owner[i]) this.fb.assume(key);
    });
  }

  private label(f: FileInfo, i: number): string {
    const d = f.p.defs[i]!;
    switch (d.kind) {
      case "class":
        return "Class";
      case "function":
        return isMethod(f, i) ? "Method" : "Function";
      case "field":
        return "Field";
      case "constant":
        return "Const";
      default:
        return "Var";
    }
  }

  private props(f: FileInfo, d: Def): Props {
    const props = defProps(f.p, d);
    // A comment after the colon is not part of the signature.
    const sig = typeof props.signature === "string" ? /^(.*:)\s+#[^"']*$/.exec(props.signature) : null;
    if (sig) props.signature = sig[1]!;
    const n = d.name;
    props.visibility = n.startsWith("__") && n.endsWith("__") ? "public" : n.startsWith("_") ? "private" : "public";
    if (d.kind === "function") {
      if (decorated(d, ["staticmethod"])) props.is_static = true;
      if (decorated(d, ["classmethod"])) props.is_classmethod = true;
      if (propertyLike(d)) props.is_property = true;
    }
    return props;
  }

  // ------------------------------------------------------------------ imports

  private emitImports(f: FileInfo): void {
    f.p.imports.forEach((imp, i) => {
      const scope = normScope(f, imp.scope);
      const src = this.scopeKey(f, scope);
      let target: Val;
      let ref = imp.source;
      if (imp.form === "module") target = this.moduleByName(f, imp.source);
      else if (imp.wildcard) target = this.fromBase(f, imp.source);
      else {
        target = this.importVal(f, i);
        ref = `${imp.source}${imp.source.endsWith(".") ? "" : "."}${imp.imported}`;
      }
      const dst = this.nodeOf(target, true);
      if (!dst) return;
      this.fb.edge("IMPORTS", src, dst, { line: imp.line, _ref: ref, _resolved_by: "import", _confidence: "high" });
    });
  }

  /** The node a value denotes: a definition, a module, a slot (Var / Field), or an External. */
  private nodeOf(v: Val, external: boolean): string | undefined {
    if (v.node) return v.node;
    if (v.k === "def") return v.f.keys[v.d] || undefined;
    if (v.k === "mod") return v.f.key;
    if (v.k === "ext" && external) return this.fb.external(`python:${v.path}`);
    return undefined;
  }

  // ------------------------------------------------------------------ EXTENDS

  private emitBases(f: FileInfo): void {
    f.p.defs.forEach((d, i) => {
      if (d.kind !== "class" || !f.owner[i]) return;
      for (const b of this.bases({ f, d: i })) {
        const v = b.val;
        let dst: string | undefined;
        let by: By = v.by === "builtin" ? "builtin" : v.by === "import" ? "import" : "scope";
        if (b.entry.k === "cls") dst = b.entry.ref.f.keys[b.entry.ref.d];
        else if (v.k === "ext") {
          dst = this.fb.external(`python:${v.path}`);
          by = v.path.startsWith("builtins.") ? "builtin" : "import";
        }
        if (dst) this.fb.edge("EXTENDS", f.keys[i]!, dst, { line: d.line, _ref: b.text, _resolved_by: by, _confidence: "high" });
      }
    });
  }

  // ------------------------------------------------------------------ references

  private scopeKey(f: FileInfo, scope: number): string {
    return scope >= 0 ? f.keys[scope] || f.key : f.key;
  }

  private emitRef(f: FileInfo, r: Ref): void {
    const scope = normScope(f, r.scope);
    if (r.kind === "type") {
      // A field / variable annotation belongs to that field or variable.
      const raw = r.scope;
      const own = raw >= 0 && f.p.defs[raw]!.kind !== "function" && f.p.defs[raw]!.kind !== "class" && f.keys[raw];
      this.emitType(f, scope, own ? f.keys[raw]! : this.scopeKey(f, scope), r);
      return;
    }
    const src = this.scopeKey(f, scope);
    if (r.kind === "value") {
      this.emitValue(f, scope, src, r);
      return;
    }
    if (r.kind !== "call") return;
    if (!r.name) {
      this.fb.unresolved(src, f.p.path, r, REASONS.dynamic);
      return;
    }
    if (r.receiver === undefined) {
      const v = this.nameVal(f, scope, r.name);
      if (v.k === "ext" && v.path === "builtins.super") return; // the receiver of a super().m() call
      this.bindCall(f, src, r, v, v.by ?? "scope", false);
      return;
    }
    const rv = this.rangedVal(f, scope, r) ?? this.exprVal(f, scope, r.receiver, r.receiverKind);
    this.memberCall(f, src, r, rv);
  }

  private memberCall(f: FileInfo, src: string, r: Ref, rv0: Val): void {
    const rv = this.held(rv0);
    switch (rv.k) {
      case "extinst":
        this.fb.bound("CALLS", src, this.fb.external(`python:${rv.path}.${r.name}`), r, rv.path.startsWith("builtins.") ? "builtin" : "receiver", "medium");
        return;
      case "unknown":
        this.fb.unresolved(src, f.p.path, r, rv.reason ?? REASONS.receiver);
        return;
      case "ambiguous":
        this.fb.unresolved(src, f.p.path, r, `ambiguous: ${rv.n} candidates`);
        return;
      default:
        break;
    }
    const by = memberBy(rv);
    if (!by) {
      this.fb.unresolved(src, f.p.path, r, REASONS.receiver);
      return;
    }
    this.bindCall(f, src, r, this.attrVal(rv, r.name), by, true);
  }

  /** Bind a call to what its callee denotes. */
  private bindCall(f: FileInfo, src: string, r: Ref, v: Val, by: By, member: boolean): void {
    const conf: Confidence = by === "alias" ? "medium" : "high";
    switch (v.k) {
      case "def": {
        const key = v.f.keys[v.d]!;
        const d = v.f.p.defs[v.d]!;
        if (d.kind === "class") {
          this.fb.bound("INSTANTIATES", src, key, r, by, conf);
          const init = this.member({ f: v.f, d: v.d }, "__init__", false);
          if (init.k === "def")
            this.fb.edge("CALLS", src, init.f.keys[init.d]!, { line: r.line, col: r.col ?? 0, _ref: r.text, _resolved_by: by, _confidence: conf });
          return;
        }
        if (d.kind === "function") {
          if (member && propertyLike(d)) {
            this.fb.unresolved(src, f.p.path, r, REASONS.dynamic);
            return;
          }
          this.fb.bound("CALLS", src, key, r, by, conf);
          return;
        }
        this.fb.unresolved(src, f.p.path, r, REASONS.dynamic);
        return;
      }
      case "ext":
        this.fb.bound("CALLS", src, this.fb.external(`python:${v.path}`), r, v.path.startsWith("builtins.") ? "builtin" : by, conf);
        return;
      case "unknown":
        // The callee's own value is unknown (a variable, an attribute holding a callable).
        this.fb.unresolved(src, f.p.path, r, v.reason ?? REASONS.dynamic);
        return;
      case "ambiguous":
        this.fb.unresolved(src, f.p.path, r, `ambiguous: ${v.n} candidates`);
        return;
      default:
        // A module, an instance, super(): calling a value the source does not name.
        this.fb.unresolved(src, f.p.path, r, REASONS.dynamic);
    }
  }

  private emitValue(f: FileInfo, scope: number, src: string, r: Ref): void {
    if (!r.name) return;
    let v: Val;
    if (r.receiver === undefined) v = this.nameVal(f, scope, r.name);
    else {
      const rv = this.held(this.exprVal(f, scope, r.receiver, r.receiverKind));
      const by = memberBy(rv);
      if (!by) return;
      v = withBy(this.attrVal(rv, r.name), by);
    }
    // A function's local variable: its own binding site says what it holds.
    if (v.by === "alias" && !v.node) return;
    const dst = this.nodeOf(v, false);
    if (!dst || dst === src) return;
    const by: By = r.receiver === undefined && v.node ? (v.by === "import" ? "import" : "scope") : (v.by ?? "scope");
    this.fb.bound("REFERENCES", src, dst, r, by, "high");
  }

  private emitType(f: FileInfo, scope: number, src: string, r: Ref): void {
    for (const path of this.annotationNamesOf(r.name)) {
      const v = this.pathVal(f, scope, path);
      const isClass = v.k === "def" && v.f.p.defs[v.d]!.kind === "class";
      if (!isClass && !v.node) continue;
      const dst = this.nodeOf(v, false);
      if (!dst || dst === src) continue;
      this.fb.edge("USES_TYPE", src, dst, { line: r.line, col: r.col ?? 0, _ref: path, _resolved_by: v.by === "import" ? "import" : "scope", _confidence: "high" });
    }
  }

  // ------------------------------------------------------------------ evaluation


  /** What a bare name denotes at a (normalised) scope, by Python's scoping rules. */
  private nameVal(f: FileInfo, scope: number, name: string): Val {
    return memoIn(inner(this.memo[f.idx]!.names, scope), name, () => {
      let s = scope;
      while (s >= 0) {
        const d = f.p.defs[s]!;
        // A class body is visible only to code directly in it, not to its methods.
        if (d.kind !== "class" || s === scope) {
          const v = this.bindings(f, s, name);
          if (v) return v;
        }
        s = parentScope(f, s);
      }
      const v = this.bindings(f, -1, name) ?? this.starVal(f, name);
      if (v) return v;
      if (isBuiltin(name)) return { k: "ext", path: `builtins.${name}`, cls: BUILTIN_CLASSES.has(name), by: "builtin" };
      return dead(REASONS.notDefined);
    });
  }

  /** The value of `name` bound in scope `s` (function, class body or module), if it is bound there. */
  private bindings(f: FileInfo, s: number, name: string): Val | undefined {
    const defs = childDefs(f, s, name);
    const imps = f.imports.get(s)?.get(name) ?? [];
    const locals = f.locals.get(s)?.get(name) ?? [];
    if (defs.length === 0 && imps.length === 0 && locals.length === 0) return undefined;
    const slot = s < 0 || f.p.defs[s]!.kind === "class" ? f.slots.get(s)?.get(name) : undefined;
    const node = slot !== undefined ? f.keys[slot] || undefined : undefined;
    // A lambda parameter or comprehension variable of that name: its own scope, not located here.
    if (locals.some(subscope)) return node ? { ...UNKNOWN, node } : UNKNOWN;
    const declared = locals.filter((l) => l.type);
    const vals: Val[] = [];
    for (const d of defs) vals.push({ k: "def", f, d, by: "scope" });
    for (const i of imps) vals.push(withBy(this.importVal(f, i), "import"));
    let v: Val;
    if (declared.length > 0) {
      // An annotated name: its declaration is its type.
      const t = combine(declared.map((l) => this.annotationVal(f, s, l.type!)));
      v = vals.length > 0 ? combine([...vals, t]) : t;
    } else {
      // A variable holds what it was assigned (a parameter: what its position says, for self / cls).
      for (const l of locals) {
        const lv = this.localVal(f, s, l);
        vals.push(l.isParam ? lv : withBy(lv, "alias"));
      }
      v = combine(vals);
    }
    // A name defined more than once (`@click.command() def cli():` twice in one test): one
    // value when its decorators make instances of one class of every definition.
    if (v.k === "ambiguous" && defs.length > 1 && declared.length === 0) {
      const held = combine(vals.map((x) => this.held(x)));
      if (held.k === "inst") v = held;
    }
    return node ? { ...v, node } : v;
  }

  /** The value a local binding holds. */
  private localVal(f: FileInfo, s: number, l: Local): Val {
    return memoIn(this.memo[f.idx]!.locals, l, () => {
      if (l.isParam) {
        const fn = l.scope;
        if (fn >= 0 && isMethod(f, fn) && f.firstParam.get(fn)?.at === l.at) {
          const d = f.p.defs[fn]!;
          const cls: ClassRef = { f, d: f.p.defs[fn]!.parent };
          if (decorated(d, ["staticmethod"])) return UNKNOWN;
          if (decorated(d, ["classmethod"]) || d.name === "__new__" || d.name === "__init_subclass__" || d.name === "__class_getitem__")
            return { k: "def", f, d: cls.d, by: "self" };
          return { k: "inst", cls, by: "self" };
        }
        return UNKNOWN;
      }
      if (l.type) return this.annotationVal(f, s, l.type);
      if (l.enter) {
        // `with m as x`: what m's `__enter__` gives (m as the other fields describe it); `with
        // f() as x` for a `@contextmanager` f: what f declares it yields.
        if (l.callOf !== undefined && !l.prop) {
          const recv = l.callReceiver === undefined ? undefined : this.exprVal(f, s, l.callReceiver, undefined);
          const y = this.yieldedBy(recv ? this.attrVal(recv, l.callOf) : this.nameVal(f, s, l.callOf));
          if (y) return y;
        }
        const { enter: _, ...manager } = l;
        return this.entered(this.localVal(f, s, manager));
      }
      if (l.newOf) {
        if (l.newOf === "None") return { k: "none" };
        const t = literalType(undefined, l.newOf);
        return t ? { k: "extinst", path: `builtins.${t}`, by: "builtin" } : UNKNOWN;
      }
      if (l.callOf) {
        const recv = l.callReceiver === undefined ? undefined : (this.selfBound(f, s, l, l.callReceiver) ?? this.exprVal(f, s, l.callReceiver, undefined));
        const callee = recv ? this.attrVal(recv, l.callOf) : this.nameVal(f, s, l.callOf);
        if (l.prop) return this.unpackedResult(callee, l.prop, l.name);
        return (recv && this.selfResult(recv, callee)) ?? this.callResult(callee, []);
      }
      if (l.iterOf) return this.elementVal(f, s, l.iterOf, l.iterMethod);
      if (l.aliasOf) {
        // `str = str` at module level: the right side is read before the name is bound.
        if (l.aliasOf === l.name && s < 0 && isBuiltin(l.name))
          return { k: "ext", path: `builtins.${l.name}`, cls: BUILTIN_CLASSES.has(l.name), by: "builtin" };
        if (!l.aliasOf.includes(".")) return this.nameVal(f, s, l.aliasOf);
        const self = this.selfBound(f, s, l, l.aliasOf);
        if (self) return self;
        const steps = parsePath(l.aliasOf);
        return steps ? this.stepsVal(f, s, steps) : UNKNOWN;
      }
      return UNKNOWN;
    });
  }

  /**
   * What `with f() as x` binds x to when f is a generator made a context manager by
   * `contextlib.contextmanager`: the element its declared `Iterator[X]` / `Generator[X, …]` states.
   * Undefined when f is not such a function.
   */
  private yieldedBy(callee: Val): Val | undefined {
    if (callee.k !== "def") return undefined;
    const d = callee.f.p.defs[callee.d]!;
    if (d.kind !== "function" || d.isAsync || !d.returns || !d.decorators) return undefined;
    const scope = parentScope(callee.f, callee.d);
    const cm = d.decorators.some((text) => {
      const steps = parsePath(text.replace(/^@\s*/, ""));
      const v = steps ? this.stepsVal(callee.f, scope, steps) : UNKNOWN;
      return v.k === "ext" && v.path === "contextlib.contextmanager";
    });
    if (!cm) return undefined;
    const a = parseAnnotation(d.returns);
    const last = a.kind === "name" ? a.path.slice(a.path.lastIndexOf(".") + 1) : "";
    if (a.kind !== "name" || (last !== "Iterator" && last !== "Generator") || !a.args?.[0]) return UNKNOWN;
    if (this.headsTypeVar(callee.f, callee.d, a.args[0])) return UNKNOWN;
    const v = withBy(this.annVal(callee.f, callee.d, a.args[0]), "receiver");
    return v.k === "inst" || v.k === "extinst" ? v : UNKNOWN;
  }

  /**
   * What `with m as x` binds x to, for a manager m of an in-tree class: what its `__enter__`
   * declares it returns (`Self`, or a body returning only `self`: m itself). Unknown otherwise.
   */
  private entered(m: Val): Val {
    if (m.k !== "inst") return UNKNOWN;
    const e = this.member(m.cls, "__enter__", false);
    if (e.k !== "def" || e.declared) return UNKNOWN;
    const d = e.f.p.defs[e.d]!;
    if (d.isAsync || d.generator) return UNKNOWN;
    const self = e.f.firstParam.get(e.d)?.name;
    if (d.returns !== undefined) {
      const a = parseAnnotation(d.returns);
      if (a.kind === "name" && !a.args && a.path.slice(a.path.lastIndexOf(".") + 1) === "Self") return withBy(m, "receiver");
      return this.returnsOf({ f: e.f, d: e.d });
    }
    const rets = e.f.locals.get(e.d)?.get("return") ?? [];
    if (self !== undefined && rets.length > 0 && rets.every((l) => l.aliasOf === self)) return withBy(m, "receiver");
    return this.returnsOf({ f: e.f, d: e.d });
  }

  /**
   * A receiver whose first name is a comprehension's variable around the reference (`e` in
   * `{e.key() for e in self.elements}`): the element the iterable's annotation declares, read at
   * the reference's position (another comprehension may use the name for something else).
   */
  private rangedVal(f: FileInfo, scope: number, r: Ref): Val | undefined {
    const text = r.receiver;
    if (text === undefined || f.ranged.size === 0) return undefined;
    const steps = parsePath(text);
    const head = steps?.[0];
    if (!steps || head?.kind !== "name") return undefined;
    let inner: Local | undefined;
    for (const l of f.ranged.get(scope)?.get(head.name) ?? [])
      if (l.at <= r.at && r.at < l.end! && (inner === undefined || l.at > inner.at)) inner = l;
    if (!inner?.iterOf) return undefined;
    return this.applySteps(this.elementVal(f, scope, inner.iterOf, inner.iterMethod), steps, 1, f, scope);
  }

  /** Whether the class body assigns the attribute that very class (`formatter_class: type[F] = F`). */
  private assignedClass(c: ClassRef, name: string, cls: Val & { k: "def" }): boolean {
    const vals = (c.f.locals.get(c.d)?.get(name) ?? []).filter((l) => l.aliasOf !== undefined);
    return (
      vals.length > 0 &&
      vals.every((l) => {
        const steps = parsePath(l.aliasOf!);
        const v = steps ? this.stepsVal(c.f, c.d, steps) : UNKNOWN;
        return v.k === "def" && v.f === cls.f && v.d === cls.d;
      })
    );
  }

  /** The annotation a class declares an attribute with (in its body or on `self.x` in a method), when its declarations agree. */
  private declaredAnnotation(c: ClassRef, name: string): { f: FileInfo; s: number; text: string } | undefined {
    const typed = (c.f.locals.get(c.d)?.get(name) ?? []).filter((l) => l.type);
    if (typed.length > 0) return typed.every((l) => l.type === typed[0]!.type) ? { f: c.f, s: c.d, text: typed[0]!.type! } : undefined;
    const selfs = (c.f.selfAttrs.get(c.d)?.get(name) ?? []).filter((a) => a.local.type);
    if (selfs.length > 0 && selfs.every((a) => a.local.type === selfs[0]!.local.type)) return { f: c.f, s: selfs[0]!.fn, text: selfs[0]!.local.type! };
    return undefined;
  }

  /**
   * An element of the value named `name` (a loop variable over it, over its `values()` /
   * `keys()`, or `name[i]`): read off the annotation that name is declared with (`items:
   * list[Item]`, `by: Dict[str, Item]`). Unknown unless the name is an annotated variable or
   * parameter whose declarations agree and the annotation is a container whose element it states.
   */
  private elementVal(f: FileInfo, scope: number, name: string, method: string | undefined): Val {
    if (name.endsWith(")")) {
      // `self.get_params(ctx)`: the element of the return type the callee declares.
      const steps = parsePath(name);
      if (steps?.[steps.length - 1]?.kind !== "call") return UNKNOWN;
      const callee = this.stepsVal(f, scope, steps.slice(0, -1));
      const fn = callee.k === "def" ? (callee.declared ?? callee) : callee.k === "unknown" ? callee.declared : undefined;
      const d = fn && fn.f.p.defs[fn.d]!;
      if (!fn || d?.kind !== "function" || !d.returns || this.namesTypeVar(fn.f, fn.d, d.returns)) return UNKNOWN;
      const el = elementAnnotation(parseAnnotation(d.returns), method);
      return el ? withBy(this.annVal(fn.f, fn.d, el), "receiver") : UNKNOWN;
    }
    if (name.includes(".")) {
      // `self.elements`: the element of the annotation the attribute's class declares it with.
      const steps = parsePath(name);
      const last = steps?.[steps.length - 1];
      if (!steps || steps.length < 2 || last?.kind !== "name") return UNKNOWN;
      const rv = this.stepsVal(f, scope, steps.slice(0, -1));
      if (rv.k !== "inst") return UNKNOWN;
      const m = this.member(rv.cls, last.name, false);
      const ann = m.k === "attr" ? this.declaredAnnotation(m.cls, last.name) : undefined;
      const el = ann && elementAnnotation(parseAnnotation(ann.text), method);
      return el ? withBy(this.annVal(ann.f, ann.s, el), "receiver") : UNKNOWN;
    }
    let s = scope;
    for (;;) {
      const d = s >= 0 ? f.p.defs[s]! : undefined;
      if (d?.kind !== "class" || s === scope) {
        const locals = f.locals.get(s)?.get(name);
        if (childDefs(f, s, name).length > 0 || (f.imports.get(s)?.get(name)?.length ?? 0) > 0) return UNKNOWN;
        if (locals && locals.length > 0) {
          const typed = locals.filter((l) => l.type);
          if (typed.length === 0 || typed.some((l) => l.type !== typed[0]!.type)) return UNKNOWN;
          const el = elementAnnotation(parseAnnotation(typed[0]!.type!), method);
          return el ? withBy(this.annVal(f, s, el), "receiver") : UNKNOWN;
        }
      }
      if (s < 0) return UNKNOWN;
      s = parentScope(f, s);
    }
  }

  /**
   * The bound of the type variable `name` names in scope (`_SB = TypeVar("_SB", bound=SelectBase)`
   * in this file): an annotation `_SB` is read as its bound, as a type checker reads a receiver of
   * that type. Undefined when the name is anything else or bound more than once.
   */
  private typeVarBound(f: FileInfo, scope: number, name: string): { text: string; scope: number } | undefined {
    let s = scope;
    for (;;) {
      const locals = f.locals.get(s)?.get(name);
      if (locals && locals.length > 0) {
        if (locals.length !== 1 || !locals[0]!.bound || childDefs(f, s, name).length > 0) return undefined;
        return { text: locals[0]!.bound, scope: s };
      }
      if (childDefs(f, s, name).length > 0 || (f.imports.get(s)?.get(name)?.length ?? 0) > 0 || s < 0) return undefined;
      s = parentScope(f, s);
    }
  }

  /** Whether an annotation names a bounded type variable (what a function returns of it is its argument's type). */
  private namesTypeVar(f: FileInfo, scope: number, text: string): boolean {
    return this.annotationNamesOf(text).some((p) => !p.includes(".") && this.typeVarBound(f, scope, p) !== undefined);
  }

  /** Whether a type variable is the type an annotation states (`_T`, `Optional[_T]`, `Type[_T]`), not a type argument of it. */
  private headsTypeVar(f: FileInfo, scope: number, a: Ann): boolean {
    if (a.kind === "union") return a.alts.some((x) => this.headsTypeVar(f, scope, x));
    if (a.kind !== "name") return false;
    const last = a.path.slice(a.path.lastIndexOf(".") + 1);
    const args = a.args ?? [];
    if (last === "Optional" || last === "Union" || last === "Type" || last === "type" || TYPE_WRAPPERS.has(last))
      return args.some((x) => this.headsTypeVar(f, scope, x));
    return args.length === 0 && !a.path.includes(".") && this.typeVarBound(f, scope, a.path) !== undefined;
  }

  /** The names an annotation mentions (memoised by its text). */
  private annotationNamesOf(text: string): string[] {
    let names = this.annotationNamesMemo.get(text);
    if (!names) this.annotationNamesMemo.set(text, (names = annotationNames(parseAnnotation(text))));
    return names;
  }

  /** Names bound by `from x import *` at module level. */
  private starVal(f: FileInfo, name: string): Val | undefined {
    if (f.wildcards.length === 0) return undefined;
    const hits: Val[] = [];
    let external = false;
    for (const i of f.wildcards) {
      const base = this.fromBase(f, f.p.imports[i]!.source);
      if (base.k === "mod") {
        const t = base.f;
        if (t.all ? !t.all.has(name) : name.startsWith("_")) continue;
        const v = this.exportOf(t, name);
        if (v) hits.push(withBy(v, "import"));
      } else if (base.k === "ext") external = true;
    }
    if (external) return dead(REASONS.star);
    return hits.length > 0 ? combine(hits) : undefined;
  }

  /** A module attribute: its global binding, a submodule, or a star-imported name. */
  private exportOf(t: FileInfo, name: string): Val | undefined {
    const v = memoIn(this.memo[t.idx]!.exports, name, () => {
      const b = this.bindings(t, -1, name);
      if (b) return withBy(b, "import");
      if (t.m.isPackage) {
        const sub = this.lookupModule(`${t.m.dotted}.${name}`, t.m.root);
        if (sub && !("ambiguous" in sub)) return { k: "mod", f: sub, by: "import" };
      }
      const star = this.starVal(t, name);
      if (star) return withBy(star, "import");
      return MISSING;
    });
    return v === MISSING ? undefined : v;
  }

  /** The files claiming a dotted module name: the importer's own root wins a tie. */
  private lookupModule(dotted: string, fromRoot: string): FileInfo | { ambiguous: number } | undefined {
    let list = this.byDotted.get(dotted)?.filter((x) => x.m.root === fromRoot || visibleEverywhere(x.m));
    if (!list || list.length === 0) return undefined;
    if (list.length === 1) return list[0];
    const real = list.filter((x) => !x.m.isStub);
    if (real.length > 0) list = real;
    if (list.length === 1) return list[0];
    const same = list.filter((x) => x.m.root === fromRoot);
    if (same.length === 1) return same[0];
    return { ambiguous: list.length };
  }

  private moduleByName(f: FileInfo, dotted: string): Val {
    const m = this.lookupModule(dotted, f.m.root);
    if (m && "ambiguous" in m) return { k: "ambiguous", n: m.ambiguous };
    if (m) return { k: "mod", f: m, by: "import" };
    if (this.topNames.has(dotted.split(".")[0]!)) return dead(`unresolved import ${dotted}`);
    return { k: "ext", path: dotted, cls: false, by: "import" };
  }

  /** The module named after `from`: relative to the importer's package, or absolute. */
  private fromBase(f: FileInfo, source: string): Val {
    const m = /^(\.+)(.*)$/.exec(source);
    if (!m) return this.moduleByName(f, source);
    const parts = f.m.dotted.split(".");
    const pkg = f.m.isPackage ? parts : parts.slice(0, -1);
    const up = m[1]!.length - 1;
    if (up > pkg.length) return dead(`unresolved import ${source}`);
    const dotted = [...pkg.slice(0, pkg.length - up), ...(m[2] ? m[2].split(".") : [])].join(".");
    const t = dotted ? this.lookupModule(dotted, f.m.root) : undefined;
    if (t && "ambiguous" in t) return { k: "ambiguous", n: t.ambiguous };
    if (t) return { k: "mod", f: t, by: "import" };
    return dead(`unresolved import ${source}`);
  }

  /** What an import binds its local name to. */
  private importVal(f: FileInfo, i: number): Val {
    return memoIn(this.memo[f.idx]!.imports, i, () => {
      const imp: Import = f.p.imports[i]!;
      if (imp.form === "module") return this.moduleByName(f, imp.local ? imp.source : imp.source.split(".")[0]!);
      const base = this.fromBase(f, imp.source);
      if (base.k === "mod" && base.f === f) {
        // `from . import x` inside the package itself: the submodule x.
        const sub = f.m.isPackage ? this.lookupModule(`${f.m.dotted}.${imp.imported}`, f.m.root) : undefined;
        if (sub && "ambiguous" in sub) return { k: "ambiguous", n: sub.ambiguous };
        return sub ? { k: "mod", f: sub, by: "import" } : dead(`not found in module ${f.m.dotted}`);
      }
      if (base.k === "mod") {
        const v = this.exportOf(base.f, imp.imported);
        return v ? withBy(v, "import") : dead(`not found in module ${base.f.m.dotted}`);
      }
      if (base.k === "ext") return { k: "ext", path: `${base.path}.${imp.imported}`, cls: false, by: "import" };
      return base;
    });
  }

  /** Evaluate a receiver as written. */
  private exprVal(f: FileInfo, scope: number, text: string, kind: string | undefined): Val {
    const lit = kind && kind !== "identifier" && kind !== "attribute" && kind !== "call" ? literalType(kind, text) : undefined;
    if (lit) return { k: "extinst", path: `builtins.${lit}`, by: "builtin" };
    if (kind === "identifier") return this.nameVal(f, scope, text);
    if (kind !== undefined && kind !== "attribute" && kind !== "call") return UNKNOWN;
    return memoIn(inner(this.memo[f.idx]!.paths, scope), text, () => {
      const steps = parsePath(text);
      return steps ? this.stepsVal(f, scope, steps) : UNKNOWN;
    });
  }

  private pathVal(f: FileInfo, scope: number, path: string): Val {
    return this.stepsVal(
      f,
      scope,
      path.split(".").map((name) => ({ kind: "name", name })),
    );
  }

  private stepsVal(f: FileInfo, scope: number, steps: Step[]): Val {
    const head = steps[0];
    if (head?.kind !== "name") return UNKNOWN;
    let v: Val;
    let i = 1;
    const next = steps[1];
    if (head.name === "super" && next?.kind === "call") {
      const sv = this.nameVal(f, scope, "super");
      v = sv.k === "ext" && sv.path === "builtins.super" ? this.superVal(f, scope, next.args) : UNKNOWN;
      i = 2;
    } else v = this.nameVal(f, scope, head.name);
    return this.applySteps(v, steps, i, f, scope);
  }

  /** `v` followed by `steps[i…]`: attributes read, calls made. */
  private applySteps(v: Val, steps: Step[], i: number, f: FileInfo, scope: number): Val {
    let recv: Val | undefined;
    for (; i < steps.length; i++) {
      const st = steps[i]!;
      // A method declared only for type checkers is called for its declared result.
      if ((v.k === "unknown" && !(v.declared && st.kind === "call")) || v.k === "ambiguous") return v;
      if (st.kind === "name") {
        recv = v;
        v = this.attrVal(v, st.name);
      } else if (st.kind === "call") {
        v = (recv && this.selfResult(recv, v)) ?? this.callResult(v, st.args, f, scope);
        recv = undefined;
      }
    }
    return v;
  }

  /** A method declared `-> Self` called on an instance (`self._generate()`): that instance's own type, a subclass's too. */
  private selfResult(recv: Val, callee: Val): Val | undefined {
    if (recv.k !== "inst" || callee.k !== "def") return undefined;
    const d = (callee.declared ?? callee).f.p.defs[(callee.declared ?? callee).d]!;
    if (d.kind !== "function" || !d.returns) return undefined;
    const a = parseAnnotation(d.returns);
    return a.kind === "name" && !a.args && a.path.slice(a.path.lastIndexOf(".") + 1) === "Self" ? withBy(recv, "receiver") : undefined;
  }

  /**
   * A rebinding through the name itself (`u = u.with_plugins()`, `x = x.parent`): evaluated with
   * the name holding what its other bindings in the scope agree on. When it gives that again, the
   * name holds it whichever binding ran last; otherwise the bindings disagree (ambiguous).
   */
  private selfBound(f: FileInfo, s: number, l: Local, text: string): Val | undefined {
    const steps = parsePath(text);
    const head = steps?.[0];
    if (!steps || head?.kind !== "name" || head.name !== l.name) return undefined;
    const others: Val[] = [];
    for (const d of childDefs(f, s, l.name)) others.push({ k: "def", f, d, by: "scope" });
    for (const i of f.imports.get(s)?.get(l.name) ?? []) others.push(withBy(this.importVal(f, i), "import"));
    for (const o of f.locals.get(s)?.get(l.name) ?? []) {
      if (o === l || this.selfRef(o)) continue;
      const ov = this.localVal(f, s, o);
      others.push(o.isParam ? ov : withBy(ov, "alias"));
    }
    const v0 = combine(others);
    if (others.length === 0 || v0.k === "unknown" || v0.k === "ambiguous") return UNKNOWN;
    return this.applySteps(v0, steps, 1, f, s);
  }

  /** Whether a local's initialiser reads the name it binds first (`x = x.m()`). */
  private selfRef(l: Local): boolean {
    const text = l.callReceiver ?? (l.callOf ? undefined : l.aliasOf);
    if (!text) return false;
    const dot = text.search(/[.(\s]/);
    return (dot < 0 ? text : text.slice(0, dot)) === l.name;
  }

  private superVal(f: FileInfo, scope: number, args: string[]): Val {
    if (args.length >= 1) {
      const c = this.exprVal(f, scope, args[0]!, /^[A-Za-z_][A-Za-z0-9_]*$/.test(args[0]!) ? "identifier" : undefined);
      if (c.k === "def" && c.f.p.defs[c.d]!.kind === "class") return { k: "super", cls: { f: c.f, d: c.d }, self: true, by: "super" };
      return UNKNOWN;
    }
    const fn = enclosingFunction(f, scope);
    if (fn < 0 || !isMethod(f, fn)) return UNKNOWN;
    return { k: "super", cls: { f, d: f.p.defs[fn]!.parent }, self: true, by: "super" };
  }

  /** The value of calling `v`. */
  private callResult(v: Val, args: string[], f?: FileInfo, scope?: number): Val {
    switch (v.k) {
      case "def": {
        const d = v.f.p.defs[v.d]!;
        if (d.kind === "class") return { k: "inst", cls: { f: v.f, d: v.d }, by: v.by === "self" ? "receiver" : v.by };
        return this.returnsOf(v.declared ?? v);
      }
      case "unknown":
        // A method declared only for type checkers: what it returns is still declared.
        return v.declared ? this.returnsOf(v.declared) : UNKNOWN;
      case "ext":
        if (v.path === "builtins.type" && args.length === 1 && f && scope !== undefined) {
          const a = this.exprVal(f, scope, args[0]!, /^[A-Za-z_][A-Za-z0-9_]*$/.test(args[0]!) ? "identifier" : undefined);
          if (a.k === "inst") return { k: "def", f: a.cls.f, d: a.cls.d, by: a.by === "self" ? "self" : "receiver" };
          return UNKNOWN;
        }
        return v.cls ? { k: "extinst", path: v.path, by: v.by } : UNKNOWN;
      default:
        return UNKNOWN;
    }
  }

  /**
   * A name unpacked from a call's result (`u, plugins, kw = url._instantiate(kw)`): the element at
   * its position of the tuple the callee declares it returns (`-> Tuple[URL, List[Any], Dict]`),
   * when the targets and the tuple's elements are as many (no starred target, no `...`).
   */
  private unpackedResult(callee: Val, targets: string, name: string): Val {
    const fn = callee.k === "def" ? (callee.declared ?? callee) : callee.k === "unknown" ? callee.declared : undefined;
    const d = fn && fn.f.p.defs[fn.d]!;
    if (!fn || d?.kind !== "function" || !d.returns || this.namesTypeVar(fn.f, fn.d, d.returns)) return UNKNOWN;
    let t = targets.trim();
    if ((t.startsWith("(") && t.endsWith(")")) || (t.startsWith("[") && t.endsWith("]"))) t = t.slice(1, -1);
    const names = splitTop(t);
    const i = names.indexOf(name);
    if (i < 0 || names.some((x) => x.startsWith("*"))) return UNKNOWN;
    const a = parseAnnotation(d.returns);
    const last = a.kind === "name" ? a.path.slice(a.path.lastIndexOf(".") + 1) : "";
    if (a.kind !== "name" || (last !== "Tuple" && last !== "tuple") || a.args?.length !== names.length) return UNKNOWN;
    if (a.args.some((x) => x.kind === "other")) return UNKNOWN;
    const v = withBy(this.annVal(fn.f, fn.d, a.args[i]!), "receiver");
    return v.k === "none" ? UNKNOWN : v;
  }

  /** What calling a function returns, by its declared return type (calling a class: an instance). */
  private returnsOf(fn: DefRef): Val {
    const d = fn.f.p.defs[fn.d]!;
    if (d.kind === "class") return { k: "inst", cls: { f: fn.f, d: fn.d }, by: "receiver" };
    if (d.kind !== "function") return UNKNOWN;
    if (!d.returns) return this.inferredReturn(fn);
    // `def chain(self: _T, …) -> _T`: the result is the argument's type, not the variable's bound
    // (`-> ColumnClause[_T]` is a ColumnClause whatever _T is).
    if (this.headsTypeVar(fn.f, fn.d, parseAnnotation(d.returns))) return UNKNOWN;
    const r = this.annotationVal(fn.f, fn.d, d.returns);
    return r.k === "none" ? UNKNOWN : r;
  }

  /**
   * What a function that declares no return type returns, read off its return statements: all
   * must agree on a class (None aside). Never for a generator, an async function, a body with a
   * bare or unreadable return, or a return of `self` / `cls` (a subclass's instance at run time).
   */
  private inferredReturn(fn: DefRef): Val {
    const d = fn.f.p.defs[fn.d]!;
    const here = fn.f.locals.get(fn.d);
    const rets = here?.get("return");
    if (d.isAsync || d.generator || !rets || rets.length === 0) return UNKNOWN;
    const first = fn.f.firstParam.get(fn.d)?.name;
    const vals: Val[] = [];
    for (const l of rets) {
      if (first !== undefined && isMethod(fn.f, fn.d) && (l.aliasOf === first || (l.callOf === first && !l.callReceiver))) return UNKNOWN;
      // `return f(…)`: f must be a function of this file, a class, or a function that declares
      // its result, so a fold that re-reads the callers of a changed file's functions sees every
      // change the type depends on (incremental.ts touches a function's name when its file's
      // interface changes, and a return is typed through the names it writes).
      if (l.callOf !== undefined && !this.sameFileCallee(fn.f, fn.d, l)) return UNKNOWN;
      const v = this.localVal(fn.f, fn.d, l);
      if (v.k !== "inst" && v.k !== "extinst" && v.k !== "none") return UNKNOWN;
      vals.push(v);
    }
    const v = combine(vals);
    return v.k === "inst" || v.k === "extinst" ? withBy(v, "receiver") : UNKNOWN;
  }

  /** Whether a return statement's call is of a function defined in the same file, of a class, or of a function declaring its result. */
  private sameFileCallee(f: FileInfo, s: number, l: Local): boolean {
    const recv = l.callReceiver === undefined ? undefined : this.exprVal(f, s, l.callReceiver, undefined);
    const callee = recv ? this.attrVal(recv, l.callOf!) : this.nameVal(f, s, l.callOf!);
    if (callee.k !== "def") return false;
    const d = callee.f.p.defs[callee.d]!;
    return callee.f === f || d.kind === "class" || (d.kind === "function" && d.returns !== undefined);
  }

  // ------------------------------------------------------------------ decorators

  /**
   * What a decorated function's name holds: its decorators applied, each as its declaration
   * proves — one declared `-> Callable[[F], F]` (F a type variable) passes the function on; one
   * declared `-> Callable[[…], C]` (or, used bare, `-> C`) gives a C. An overloaded decorator
   * answers by the overload the call's arguments choose. The outermost decorator that changes
   * the value decides it; the function itself when none does; unknown when one is not proven.
   */
  private decoratedVal(fn: DefRef): Val {
    const d = fn.f.p.defs[fn.d]!;
    const self: Val = { k: "def", f: fn.f, d: fn.d, by: "scope" };
    if (d.kind !== "function" || !d.decorators?.length) return self;
    return memoIn(this.memo[fn.f.idx]!.decorated, fn.d, () => {
      const s = parentScope(fn.f, fn.d);
      for (const text of d.decorators!) {
        const r = this.decoratorResult(fn.f, s, text);
        if (r === "same") continue;
        // A method's value is read through its class: a descriptor's instance is not what that gives.
        return isMethod(fn.f, fn.d) ? this.notDescriptor(r) : r;
      }
      return self;
    });
  }

  /** A value read for its attributes: a decorated function's name holds what its decorators made of it. */
  private held(v: Val): Val {
    if (v.k !== "def" || v.f.p.defs[v.d]!.kind !== "function" || !v.f.p.defs[v.d]!.decorators) return v;
    const dv = this.decoratedVal(v);
    return dv.k === "def" ? v : dv;
  }

  /** What applying the decorator written `text` (at scope `s`) to a function gives: "same" when it passes the function on. */
  private decoratorResult(f: FileInfo, s: number, text: string): Val | "same" {
    const steps = parsePath(text.replace(/^@\s*/, ""));
    const last = steps?.[steps.length - 1];
    if (!steps || !last) return UNKNOWN;
    const call = last.kind === "call";
    const callee = this.calleeOf(f, s, call ? steps.slice(0, -1) : steps);
    if (!callee) return UNKNOWN;
    // `@deco(args)` calls deco with args and applies what it returns; `@deco` calls it with the function.
    const args = call ? parseArgs(last.args) : { positional: [FUNCTION_ARG], keywords: new Map<string, string>() };
    const chosen = this.chooseOverloads(callee.fn, args, callee.skipFirst, f, s);
    if (!chosen || chosen.length === 0) return UNKNOWN;
    const results = chosen.map((o): Val | "same" => {
      const od = o.def.f.p.defs[o.def.d]!;
      if (!od.returns) return UNKNOWN;
      let result = od.returns;
      let input: string | undefined;
      if (call) {
        const parts = callableParts(od.returns);
        if (parts?.params?.length !== 1) return UNKNOWN;
        result = parts.result;
        input = parts.params[0];
      } else input = o.bound.find((b) => b.arg === FUNCTION_ARG)?.param?.type;
      if (input !== undefined && input.trim() === result.trim() && this.isTypeVar(o.def.f, o.def.d, result.trim())) return "same";
      if (this.namesTypeVar(o.def.f, o.def.d, result) || callableParts(result)) return UNKNOWN;
      const v = this.annotationVal(o.def.f, o.def.d, result);
      return v.k === "inst" ? v : UNKNOWN;
    });
    if (results.every((r) => r === "same")) return "same";
    if (results.some((r) => r === "same")) return UNKNOWN;
    const v = combine(results as Val[]);
    return v.k === "inst" ? withBy(v, "receiver") : UNKNOWN;
  }

  /**
   * The function a decorator expression's steps name, and whether a call passes its first
   * parameter (a method read off an instance, a classmethod off its class). Undefined for
   * anything else (a class, an outside function, a plain method read off its class).
   */
  private calleeOf(f: FileInfo, s: number, steps: Step[]): { fn: DefRef; skipFirst: boolean } | undefined {
    const lastStep = steps[steps.length - 1];
    if (steps.length === 0 || lastStep?.kind !== "name") return undefined;
    let v: Val;
    let recv: Val | undefined;
    if (steps.length === 1) v = this.nameVal(f, s, lastStep.name);
    else {
      recv = this.held(this.stepsVal(f, s, steps.slice(0, -1)));
      v = this.attrVal(recv, lastStep.name);
    }
    if (v.k !== "def") return undefined;
    const fn = v.declared ?? { f: v.f, d: v.d };
    const d = fn.f.p.defs[fn.d]!;
    if (d.kind !== "function") return undefined;
    if (!isMethod(fn.f, fn.d) || decorated(d, ["staticmethod"])) return { fn, skipFirst: false };
    if (recv === undefined) return undefined;
    const cm = decorated(d, ["classmethod"]);
    if (recv.k === "inst" || recv.k === "super" || (recv.k === "def" && cm)) return { fn, skipFirst: true };
    return undefined;
  }

  /** A function's `@overload` declarations in order; the function itself when it has none. */
  private overloads(fn: DefRef): DefRef[] {
    const d = fn.f.p.defs[fn.d]!;
    const list = childDefs(fn.f, fn.f.parent[fn.d]!, d.name).filter((i) => decorated(fn.f.p.defs[i]!, ["overload"]));
    return list.length === 0 ? [fn] : [...list].sort((a, b) => a - b).map((i) => ({ f: fn.f, d: i }));
  }

  /**
   * The overloads a call may run under, as a type checker picks: the first whose parameters the
   * arguments provably fit, with every earlier one they may fit (their results must then agree).
   * An overload the arguments cannot bind to, or whose annotations they provably miss, is passed
   * over. Undefined when none is left (or the arguments are not read: `*args`).
   */
  private chooseOverloads(fn: DefRef, args: Args | undefined, skipFirst: boolean, f: FileInfo, s: number): { def: DefRef; bound: Bound[] }[] | undefined {
    if (!args) return undefined;
    const out: { def: DefRef; bound: Bound[] }[] = [];
    const list = this.overloads(fn);
    for (const o of list) {
      const od = o.f.p.defs[o.d]!;
      const sig: Signature | undefined = od.params ? parseParams(od.params) : undefined;
      if (!sig) return undefined;
      const bound = bindArgs(sig, args, skipFirst);
      if (!bound) continue;
      let fit: Fit = "yes";
      // A function with one signature: the arguments need not be read.
      if (list.length > 1)
        for (const b of bound) {
          const t = b.param ? b.param.type : b.varType;
          if (t === undefined) continue;
          const x = this.argFits(o.f, o.d, parseAnnotation(t), this.argKind(f, s, b.arg), 0);
          if (x === "no") {
            fit = "no";
            break;
          }
          if (x === "maybe") fit = "maybe";
        }
      if (fit === "no") continue;
      out.push({ def: o, bound });
      if (fit === "yes") return out;
    }
    return out.length > 0 ? out : undefined;
  }

  /** What an argument as written is, as far as its text proves. */
  private argKind(f: FileInfo, s: number, text: string): ArgKind {
    if (text === FUNCTION_ARG) return { k: "function" };
    const t = text.trim();
    if (t === "None") return { k: "none" };
    const lit = literalType(undefined, t);
    if (lit) return { k: "lit", type: lit };
    const steps = parsePath(t);
    const v = steps ? this.stepsVal(f, s, steps) : UNKNOWN;
    if (v.k === "def") return v.f.p.defs[v.d]!.kind === "class" ? { k: "class", cls: { f: v.f, d: v.d } } : v.f.p.defs[v.d]!.kind === "function" ? { k: "function" } : { k: "unknown" };
    if (v.k === "inst") return { k: "inst", cls: v.cls };
    return { k: "unknown" };
  }

  /** Whether an argument fits a parameter's annotation (evaluated at `s` in `f`): proven, disproven, or not known. */
  private argFits(f: FileInfo, s: number, a: Ann, arg: ArgKind, depth: number): Fit {
    if (depth > 8 || arg.k === "unknown") return "maybe";
    const any = (fits: Fit[]): Fit => (fits.includes("yes") ? "yes" : fits.every((x) => x === "no") ? "no" : "maybe");
    switch (a.kind) {
      case "other":
        return "maybe";
      case "none":
        return arg.k === "none" ? "yes" : "no";
      case "union":
        return any(a.alts.map((x) => this.argFits(f, s, x, arg, depth + 1)));
      case "name":
        break;
    }
    const last = a.path.slice(a.path.lastIndexOf(".") + 1);
    const args = a.args ?? [];
    if (last === "Any" || a.path === "object") return "yes";
    if (last === "Optional" && args.length === 1) return any([this.argFits(f, s, args[0]!, arg, depth + 1), arg.k === "none" ? "yes" : "no"]);
    if (last === "Union" && args.length > 0) return any(args.map((x) => this.argFits(f, s, x, arg, depth + 1)));
    if (TYPE_WRAPPERS.has(last) && args.length > 0) return this.argFits(f, s, args[0]!, arg, depth + 1);
    if (last === "Callable") return callableFit(arg);
    if (last === "type" || last === "Type") return arg.k === "class" ? "maybe" : arg.k === "inst" ? "maybe" : "no";
    if (args.length === 0 && !a.path.includes(".")) {
      // A type variable stands for its bound; an alias (`_AnyCallable = t.Callable[..., t.Any]`) for what it names.
      const bound = this.typeVarBound(f, s, a.path);
      if (bound) return this.argFits(f, bound.scope, parseAnnotation(bound.text), arg, depth + 1);
      if (this.isTypeVar(f, s, a.path)) return "yes";
      const alias = this.typeAlias(f, s, a.path);
      if (alias) return this.argFits(f, alias.scope, parseAnnotation(alias.text), arg, depth + 1);
    }
    const v = this.pathVal(f, s, a.path);
    if (v.k === "ext") {
      const dot = v.path.lastIndexOf(".");
      const mod = v.path.slice(0, dot);
      const name = v.path.slice(dot + 1);
      if (name === "Callable" && (mod === "typing" || mod === "typing_extensions" || mod === "collections.abc")) return callableFit(arg);
      // `AnyStr` is str or bytes: only the aliases that are one class say no.
      const alias = (mod === "typing" || mod === "typing_extensions") && name !== "AnyStr" ? TYPING_ALIASES[name] : undefined;
      const builtin = mod === "builtins" ? name : alias?.startsWith("builtins.") ? alias.slice(9) : undefined;
      if (builtin === "object") return "yes";
      if (builtin === undefined || !BUILTIN_CLASSES.has(builtin)) return "maybe";
      switch (arg.k) {
        case "lit":
          return NUMERIC_ACCEPTS[builtin]?.includes(arg.type) || arg.type === builtin ? "yes" : "no";
        case "none":
        case "function":
          return "no";
        case "class":
          return builtin === "type" ? "yes" : "maybe";
        case "inst":
          return this.mro(arg.cls).some((e) => e.k === "ext" && e.path === `builtins.${builtin}`) ? "yes" : "maybe";
      }
    }
    if (v.k === "def" && v.f.p.defs[v.d]!.kind === "class") {
      const cls: ClassRef = { f: v.f, d: v.d };
      // A protocol is met by shape, not by a base: only its own subclasses are proven.
      const protocol = this.mro(cls).some((e) => e.k === "ext" && (e.path.endsWith(".Protocol") || e.path.endsWith(".Callable")));
      switch (arg.k) {
        case "inst":
          return this.mro(arg.cls).some((e) => e.k === "cls" && e.ref.f === cls.f && e.ref.d === cls.d) ? "yes" : "maybe";
        case "lit":
        case "none":
        case "function":
          return protocol ? "maybe" : "no";
        case "class":
          return "maybe";
      }
    }
    return "maybe";
  }

  /** Whether `name` at `s` is a type variable (`T = TypeVar("T", …)`, bound once). */
  private isTypeVar(f: FileInfo, scope: number, name: string): boolean {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return false;
    let s = scope;
    for (;;) {
      const locals = f.locals.get(s)?.get(name);
      if (locals && locals.length > 0)
        return locals.length === 1 && childDefs(f, s, name).length === 0 && (locals[0]!.bound !== undefined || /(^|\.)TypeVar$/.test(`${locals[0]!.callReceiver ?? ""}.${locals[0]!.callOf ?? ""}`));
      if (childDefs(f, s, name).length > 0 || (f.imports.get(s)?.get(name)?.length ?? 0) > 0 || s < 0) return false;
      s = parentScope(f, s);
    }
  }

  /**
   * What a type alias stands for (`_AnyCallable = t.Callable[..., t.Any]`, bound once, read off
   * its definition's text), evaluated where it is bound. Undefined for any other name.
   */
  private typeAlias(f: FileInfo, scope: number, name: string): { text: string; scope: number } | undefined {
    let s = scope;
    for (;;) {
      const locals = f.locals.get(s)?.get(name);
      if (locals && locals.length > 0) {
        const l = locals[0]!;
        // A subscript is read as an item (`iterOf`, `[]`) too: the definition's text says which it is.
        const item = l.iterOf !== undefined && l.iterMethod === "[]";
        if (locals.length !== 1 || l.type || l.newOf || l.callOf || l.aliasOf || (l.iterOf && !item) || l.bound || childDefs(f, s, name).length > 0) return undefined;
        const slot = f.slots.get(s)?.get(name);
        const sig = slot !== undefined ? f.p.defs[slot]!.signature : undefined;
        const m = sig !== undefined ? /^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([^=#][^#]*)$/.exec(sig) : null;
        if (!m || m[1] !== name) return undefined;
        return { text: m[2]!.trim(), scope: s };
      }
      if (childDefs(f, s, name).length > 0 || (f.imports.get(s)?.get(name)?.length ?? 0) > 0 || s < 0) return undefined;
      s = parentScope(f, s);
    }
  }

  /** `v.name`. */
  private attrVal(v: Val, name: string): Val {
    switch (v.k) {
      case "mod": {
        const x = this.exportOf(v.f, name);
        return x ? withBy(x, "import") : dead(`not found in module ${v.f.m.dotted}`);
      }
      case "def": {
        const d = v.f.p.defs[v.d]!;
        if (d.kind === "function") {
          const h = this.held(v);
          return h === v ? UNKNOWN : this.attrVal(h, name);
        }
        if (d.kind !== "class") return UNKNOWN;
        return this.classAttr({ f: v.f, d: v.d }, name, false, false);
      }
      case "inst":
        return this.classAttr(v.cls, name, true, false);
      case "super":
        return this.classAttr(v.cls, name, v.self, true);
      case "ext":
        return { k: "ext", path: `${v.path}.${name}`, cls: false, by: v.by };
      case "none":
      case "extinst":
        return UNKNOWN;
      default:
        return v;
    }
  }

  private classAttr(c: ClassRef, name: string, inst: boolean, skipFirst: boolean): Val {
    const m = this.member(c, name, skipFirst);
    // A property read off an instance is what its getter returns (the type checker's declaration first).
    const typed = m.declared ?? (m.k === "def" ? m : undefined);
    const td = typed?.f.p.defs[typed.d];
    if (inst && typed && td?.kind === "function" && propertyLike(td)) {
      // A property declared `-> Type[X]` is an attribute declared so: X or a subclass, not proven.
      const v = this.returnsOf(typed);
      if (v.k === "def" && v.f.p.defs[v.d]!.kind === "class") return { k: "unknown", reason: REASONS.classTyped, declared: { f: v.f, d: v.d } };
      return v;
    }
    if (m.k !== "def" && m.declared) return { k: "unknown", reason: REASONS.typeOnly, declared: m.declared };
    switch (m.k) {
      case "def":
        return m.declared ? { k: "def", f: m.f, d: m.d, declared: m.declared } : { k: "def", f: m.f, d: m.d };
      case "attr": {
        let v = this.attrType(m.cls, name);
        // An attribute declared `Type[X]` holds X, a subclass or a factory standing for them (a
        // base class may assign `_factory = C.create`): calling it runs what the source does not
        // say; what it gives is declared.
        if (v.k === "def" && v.by === "receiver" && v.f.p.defs[v.d]!.kind === "class" && !this.assignedClass(m.cls, name, v))
          v = { k: "unknown", reason: REASONS.classTyped, declared: { f: v.f, d: v.d } };
        const slot = m.cls.f.slots.get(m.cls.d)?.get(name);
        const node = slot !== undefined ? m.cls.f.keys[slot] || undefined : undefined;
        return node ? { ...v, node } : v;
      }
      case "object":
        if (TYPE_ATTRS_STR.has(name)) return { k: "extinst", path: "builtins.str", by: "builtin" };
        return { k: "ext", path: m.path, cls: false, by: "builtin" };
      case "stop":
        return dead(REASONS.externalBase);
      case "dynamic":
        return dead(REASONS.dynamic);
      case "missing":
        return dead(REASONS.member);
    }
  }

  /** Look a member up along the MRO of class `c` (after `c` itself for super()). */
  private member(c: ClassRef, name: string, skipFirst: boolean): Member {
    const table = inner(skipFirst ? this.memo[c.f.idx]!.superMembers : this.memo[c.f.idx]!.members, c.d);
    let m = table.get(name);
    if (!m) {
      m = this.lookupMember(c, name, skipFirst);
      table.set(name, m);
    }
    return m;
  }

  private lookupMember(c: ClassRef, name: string, skipFirst: boolean): Member {
    const mro = this.mro(c);
    let dynamic = false;
    // A method defined only under `if TYPE_CHECKING:` declares the name's type; the lookup goes on
    // for what runs (TypeEngineMixin's declared `adapt` is not the TypeEngine.adapt a call reaches).
    let declared: DefRef | undefined;
    const found = (m: Member): Member => (declared ? { ...m, declared } : m);
    for (let i = skipFirst ? 1 : 0; i < mro.length; i++) {
      const e = mro[i]!;
      if (e.k === "cls") {
        const f = e.ref.f;
        const defs = childDefs(f, e.ref.d, name);
        const runs = defs.find((d) => !(f.p.defs[d]!.typeOnly && f.p.defs[d]!.kind === "function"));
        if (runs !== undefined) return found({ k: "def", f, d: runs });
        if (defs.length > 0) declared ??= { f, d: defs[0]! };
        if (f.locals.get(e.ref.d)?.has(name) || f.selfAttrs.get(e.ref.d)?.has(name)) return found({ k: "attr", cls: e.ref });
        if (childDefs(f, e.ref.d, "__getattr__").length > 0) dynamic = true;
        continue;
      }
      if (e.k === "ext" && TRANSPARENT_BASES.has(e.path)) continue;
      return found({ k: "stop" });
    }
    if (OBJECT_MEMBERS.has(name)) return found({ k: "object", path: `builtins.object.${name}` });
    // A class with __getattr__ answers any name at run time.
    return found(dynamic ? { k: "dynamic" } : { k: "missing" });
  }

  /** The declared type of a class attribute: an annotation, else the assignments in the class body and `__init__`. */
  private attrType(c: ClassRef, name: string): Val {
    return memoIn(inner(this.memo[c.f.idx]!.attrs, c.d), name, () => {
      const f = c.f;
      const classLocals = f.locals.get(c.d)?.get(name) ?? [];
      const selfs = f.selfAttrs.get(c.d)?.get(name) ?? [];
      // Class-level values pass through metaclasses and descriptors (Enum members, ORM columns):
      // trusted only when the whole MRO is in the tree, and never when the value is a descriptor.
      const known = this.mroKnown(c);
      const declared: Val[] = [];
      for (const l of classLocals) {
        if (!l.type) continue;
        const v = this.annotationVal(f, c.d, l.type);
        declared.push(v.k === "inst" || known ? this.notDescriptor(v) : UNKNOWN);
      }
      for (const a of selfs) if (a.local.type) declared.push(this.annotationVal(f, a.fn, a.local.type));
      if (declared.length > 0) return combine(declared);
      const vals: Val[] = [];
      for (const l of classLocals) vals.push(known ? this.notDescriptor(this.localVal(f, c.d, l)) : UNKNOWN);
      for (const a of selfs) if (a.init) vals.push(this.localVal(f, a.fn, a.local));
      return vals.length > 0 ? combine(vals) : UNKNOWN;
    });
  }

  /** Every class of the MRO is in the tree (or adds nothing, like Generic). */
  private mroKnown(c: ClassRef): boolean {
    return this.mro(c).every((e) => e.k === "cls" || (e.k === "ext" && TRANSPARENT_BASES.has(e.path)));
  }

  /**
   * A class-level instance of a descriptor class (or of a class that may be one) is not what an
   * access yields. Outside bases that define no `__get__` (containers, typing's generics, enums,
   * exceptions) leave the question to the classes of the tree.
   */
  private notDescriptor(v: Val): Val {
    if (v.k !== "inst") return v;
    for (const e of this.mro(v.cls)) {
      if (e.k === "cls") {
        if (childDefs(e.ref.f, e.ref.d, "__get__").length > 0) return UNKNOWN;
        continue;
      }
      if (e.k === "ext" && (TRANSPARENT_BASES.has(e.path) || NO_GET_BASES.has(e.path))) continue;
      return UNKNOWN;
    }
    return v;
  }

  // ------------------------------------------------------------------ classes

  private classKey(c: ClassRef): string {
    return c.f.keys[c.d]!;
  }

  /** The bases of a class, each evaluated where the class is defined. */
  private bases(c: ClassRef): { text: string; entry: MroEntry; val: Val }[] {
    const memo = this.memo[c.f.idx]!.bases;
    const hit = memo.get(c.d);
    if (hit) return hit;
    const d = c.f.p.defs[c.d]!;
    const out: { text: string; entry: MroEntry; val: Val }[] = [];
    const scope = parentScope(c.f, c.d);
    baseList(d.extends?.[0] ?? "").forEach((text, i) => {
      const val = this.pathVal(c.f, scope, text);
      let entry: MroEntry;
      if (val.k === "def" && val.f.p.defs[val.d]!.kind === "class")
        entry = { k: "cls", ref: { f: val.f, d: val.d }, id: `c:${val.f.keys[val.d]}` };
      else if (val.k === "ext") entry = { k: "ext", path: val.path, id: `e:${val.path}` };
      else entry = { k: "unknown", id: `u:${this.classKey(c)}:${i}` };
      out.push({ text, entry, val });
    });
    memo.set(c.d, out);
    return out;
  }

  /** C3 linearisation over in-tree classes; outside bases are opaque entries. */
  private mro(c: ClassRef): MroEntry[] {
    const key = `${c.f.idx}:${c.d}`;
    const memo = this.memo[c.f.idx]!.mro;
    const hit = memo.get(c.d);
    if (hit) return hit;
    const self: MroEntry = { k: "cls", ref: c, id: `c:${this.classKey(c)}` };
    if (this.inProgress.has(`mro${key}`)) return [self, { k: "unknown", id: `u:cycle:${key}` }];
    this.inProgress.add(`mro${key}`);
    let out: MroEntry[];
    try {
      const bases = this.bases(c).map((b) => b.entry);
      const seqs = bases.map((b) => (b.k === "cls" ? [...this.mro(b.ref)] : [b]));
      seqs.push([...bases]);
      out = [self, ...(merge(seqs) ?? dfs(seqs))];
    } finally {
      this.inProgress.delete(`mro${key}`);
    }
    memo.set(c.d, out);
    return out;
  }

  // ------------------------------------------------------------------ annotations

  /** The value an annotation declares (an instance of the named class), evaluated at scope `s`. */
  private annotationVal(f: FileInfo, s: number, text: string): Val {
    return memoIn(inner(this.memo[f.idx]!.annotations, s), text, () =>
      withBy(this.annVal(f, s, parseAnnotation(text)), "receiver"),
    );
  }

  private annVal(f: FileInfo, s: number, a: Ann): Val {
    switch (a.kind) {
      case "none":
        return { k: "none" };
      case "other":
        return UNKNOWN;
      case "union":
        return this.union(a.alts.map((x) => this.annVal(f, s, x)));
      case "name": {
        const last = a.path.slice(a.path.lastIndexOf(".") + 1);
        const args = a.args ?? [];
        if (last === "Optional" && args.length === 1) return this.union([this.annVal(f, s, args[0]!), { k: "none" }]);
        if (last === "Union" && args.length > 0) return this.union(args.map((x) => this.annVal(f, s, x)));
        if (TYPE_WRAPPERS.has(last) && args.length > 0) return this.annVal(f, s, args[0]!);
        if ((last === "Type" || last === "type") && args.length === 1) {
          const inner = this.annVal(f, s, args[0]!);
          if (inner.k === "inst") return { k: "def", f: inner.cls.f, d: inner.cls.d };
          if (inner.k === "extinst") return { k: "ext", path: inner.path, cls: true };
          return UNKNOWN;
        }
        if (last === "Self" && args.length === 0) {
          const fn = enclosingFunction(f, s);
          const cls = fn >= 0 ? f.p.defs[fn]!.parent : s >= 0 && f.p.defs[s]!.kind === "class" ? s : -1;
          if (cls >= 0 && f.p.defs[cls]!.kind === "class") return { k: "inst", cls: { f, d: cls } };
          return UNKNOWN;
        }
        if (a.path === "None") return { k: "none" };
        const bound = args.length === 0 && !a.path.includes(".") ? this.typeVarBound(f, s, a.path) : undefined;
        if (bound) return this.annVal(f, bound.scope, parseAnnotation(bound.text));
        const base = this.pathVal(f, s, a.path);
        return this.instanceOf(base);
      }
    }
  }

  private union(alts: Val[]): Val {
    const live = alts.filter((v) => v.k !== "none");
    if (live.length === 0) return UNKNOWN;
    return combine(live);
  }

  /** Instances of what a type expression names. */
  private instanceOf(v: Val): Val {
    switch (v.k) {
      case "def": {
        const d = v.f.p.defs[v.d]!;
        return d.kind === "class" ? { k: "inst", cls: { f: v.f, d: v.d } } : UNKNOWN;
      }
      case "ext": {
        const dot = v.path.lastIndexOf(".");
        const mod = v.path.slice(0, dot);
        const last = v.path.slice(dot + 1);
        if (mod === "typing" || mod === "typing_extensions") {
          const alias = TYPING_ALIASES[last];
          return alias ? { k: "extinst", path: alias } : UNKNOWN;
        }
        if (mod === "builtins" && !BUILTIN_CLASSES.has(last)) return UNKNOWN;
        return { k: "extinst", path: v.path };
      }
      case "ambiguous":
        return v;
      default:
        return UNKNOWN;
    }
  }
}

/**
 * Whether any importer may reach a module: packages and their modules are importable from any
 * root (installed or on the path); a loose script only from its own directory (sys.path[0]),
 * or from anywhere when it sits at the top of the tree and is not named like a stdlib module.
 */
function visibleEverywhere(m: ModuleFile): boolean {
  if (m.isPackage || m.dotted.includes(".")) return true;
  return m.root === "" && !STDLIB_MODULES.has(m.dotted);
}

/** The rule a member access proves, by what its receiver is; undefined when it proves nothing. */
function memberBy(rv: Val): By | undefined {
  switch (rv.k) {
    case "inst":
      return rv.by === "self" ? "self" : "receiver";
    case "def":
      return rv.f.p.defs[rv.d]!.kind === "class" ? (rv.by === "self" ? "self" : "class") : undefined;
    case "super":
      return "super";
    case "mod":
      return "import";
    case "ext":
      return rv.path.startsWith("builtins.") ? "builtin" : "import";
    default:
      return undefined;
  }
}

const SEQUENCES = new Set(["list", "List", "Sequence", "MutableSequence", "Deque", "deque"]);
const ITERABLES = new Set([
  ...SEQUENCES,
  "Iterable",
  "Iterator",
  "Collection",
  "set",
  "Set",
  "frozenset",
  "FrozenSet",
  "AbstractSet",
  "MutableSet",
  "KeysView",
  "ValuesView",
]);
const MAPPINGS = new Set(["dict", "Dict", "Mapping", "MutableMapping", "OrderedDict", "DefaultDict", "defaultdict"]);

/**
 * The element type a container annotation states: what iterating it yields (a mapping: its keys),
 * what its `values()` / `keys()` yield, what `x[i]` reads (`[]`: a sequence's element, a mapping's
 * value). Undefined for anything else (a union, a tuple, a user class).
 */
export function elementAnnotation(a: Ann, method: string | undefined): Ann | undefined {
  if (a.kind !== "name" || !a.args) return undefined;
  // `for i, x in enumerate(xs)`: x is an element; `for k, v in by.items()`: a key, a value.
  if (method === "enumerate:1") return elementAnnotation(a, undefined);
  if (method === "items:0") return elementAnnotation(a, "keys");
  if (method === "items:1") return elementAnnotation(a, "values");
  if (method?.includes(":")) return undefined;
  const last = a.path.slice(a.path.lastIndexOf(".") + 1);
  const args = a.args;
  if (MAPPINGS.has(last) && args.length === 2) {
    if (method === undefined || method === "keys") return args[0];
    return method === "values" || method === "[]" ? args[1] : undefined;
  }
  if (args.length !== 1) return undefined;
  if (method === undefined) return ITERABLES.has(last) ? args[0] : undefined;
  return method === "[]" && SEQUENCES.has(last) ? args[0] : undefined;
}

/** A lambda parameter or a comprehension variable (marked by the query with the clause text). */
function subscope(l: Local): boolean {
  return l.aliasOf !== undefined && /^(lambda\b|for\b|async\s+for\b)/.test(l.aliasOf);
}

/** C3 merge; undefined when the hierarchy has no consistent order. */
function merge(seqs: MroEntry[][]): MroEntry[] | undefined {
  const out: MroEntry[] = [];
  const lists = seqs.map((s) => [...s]).filter((s) => s.length > 0);
  while (lists.length > 0) {
    let head: MroEntry | undefined;
    for (const l of lists) {
      const cand = l[0]!;
      if (!lists.some((o) => o.slice(1).some((e) => e.id === cand.id))) {
        head = cand;
        break;
      }
    }
    if (!head) return undefined;
    out.push(head);
    for (const l of lists) if (l[0]!.id === head.id) l.shift();
    for (let i = lists.length - 1; i >= 0; i--) if (lists[i]!.length === 0) lists.splice(i, 1);
  }
  return out;
}

/** Fallback order: depth-first, left to right, first occurrence kept. */
function dfs(seqs: MroEntry[][]): MroEntry[] {
  const seen = new Set<string>();
  const out: MroEntry[] = [];
  for (const s of seqs.slice(0, -1))
    for (const e of s)
      if (!seen.has(e.id)) {
        seen.add(e.id);
        out.push(e);
      }
  return out;
}
