// Shared shapes of the rust resolver: crates, modules, files, use bindings and resolution results.
import type { Def, DefKind, Local, Partial } from "../../model/partial.js";
import type { Package, RootKind } from "./cargo.js";
import type { UseLeaf } from "./text.js";

export type Ns = "type" | "value" | "macro";

export interface Crate {
  name: string;
  kind: RootKind;
  pkg: Package;
  root: Mod;
  /** macro_rules definitions anywhere in the crate, by name. */
  macros: Map<string, DefRef[]>;
  /** `extern crate a as b;` at the crate root: b → a. */
  externAliases: Map<string, string>;
}

export interface Mod {
  id: number;
  key: string;
  crate: Crate;
  /** The file holding the module (its own file, or the file of an inline `mod a { }`); undefined for a declared module whose file is absent. */
  file?: FileInfo;
  /** Inline module definition id in `file`, -1 for a file module. */
  defId: number;
  parent?: Mod;
  /** Directory where `mod x;` declared here looks for `x.rs` / `x/mod.rs`. */
  dir: string;
  /** Line of the `mod x;` declaration in the parent's file (file modules), for textual macro scope. */
  declLine?: number;
  items: Map<string, Item[]>;
  uses: Map<string, UseBinding[]>;
  globs: UseBinding[];
}

export type DefRef = { f: FileInfo; id: number };
export type Item = { def: DefRef } | { mod: Mod };

export interface UseBinding {
  id: number;
  /** Local name; "" for a glob or `as _`. */
  name: string;
  leaf: UseLeaf;
  /** `extern crate` (path = ["", crate]). */
  externCrate?: boolean;
  visibility?: string;
  line: number;
  /** Where the use is written: its file, scope (definition id or -1) and module. */
  ctx: Ctx;
}

/** A place in the source names are resolved from. */
export interface Ctx {
  f: FileInfo;
  /** Innermost definition id, -1 for the file's top level. */
  scope: number;
  mod: Mod;
  /** Definition whose generic parameters are in scope, when not `scope` (an impl's Self type is read where the impl's generics are). */
  gscope?: number;
}

export interface LocalB extends Local {
  /** Pattern binding (`for x`, `Some(x)`, ...) rather than a `let` or a parameter. */
  pattern: boolean;
  /** Index in the file's locals, for memoisation. */
  idx: number;
}

export interface ImplHeader {
  scope: number;
  /** The trait as written; absent for an inherent impl. */
  trait?: string;
  owner: string;
  line: number;
  at: number;
  /** `<T: Bound, ..>` and `where ..` as written. */
  generics?: string;
  where?: string;
}

export interface FileInfo {
  idx: number;
  p: Partial;
  /** The file's own module (the crate root, a `mod x;` target, or a fallback keyed by path). */
  mod: Mod;
  /** Per definition: the module it is written in (for an inline module: the enclosing one). */
  defMod: Mod[];
  /** Inline module definitions → their modules. */
  inlineMods: Map<number, Mod>;
  /** Per definition: a member of an impl block (method, associated const / type). */
  implMember: boolean[];
  /** Per definition: child definitions by name (fields, variants, trait members, items local to a fn). */
  children: Map<number, Map<string, number[]>>;
  /** `use` declarations inside function bodies: fn id → name → bindings, and globs. */
  fnUses: Map<number, Map<string, UseBinding[]>>;
  fnGlobs: Map<number, UseBinding[]>;
  /** Local bindings: fn id → name → bindings in source order. */
  locals: Map<number, Map<string, LocalB[]>>;
  impls: ImplHeader[];
  /** Every impl header with generics (trait or inherent), for the bounds of its parameters. */
  implHeaders: ImplHeader[];
  /** `#[derive(..)]` lists: the type definition and the trait paths as written. */
  derives: { typeId: number; traits: string[]; line: number }[];
  keys: (string | undefined)[];
}

export type Target =
  | { t: "def"; d: DefRef }
  | { t: "mod"; m: Mod }
  | { t: "ext"; path: string; prelude?: boolean; unverified?: boolean };

/** What a name or path resolved to, by which rule; `reason` when nothing was found. */
export interface Res {
  targets: Target[];
  by: string;
  medium?: boolean;
  reason?: string;
}

export function def(d: DefRef): Def {
  return d.f.p.defs[d.id]!;
}

export const TYPE_KINDS: ReadonlySet<DefKind> = new Set<DefKind>(["struct", "enum", "union", "trait", "type"]);
export const FN_KINDS: ReadonlySet<DefKind> = new Set<DefKind>(["function", "method", "constructor", "getter", "setter"]);

/** The namespaces a definition occupies. */
export function defInNs(d: Def, ns: Ns, parentKind?: DefKind): boolean {
  switch (d.kind) {
    case "macro":
      return ns === "macro";
    case "struct":
      return ns !== "macro";
    case "field":
      // Enum variants live in both namespaces; struct fields are never reached by path.
      return parentKind === "enum" && ns !== "macro";
    case "enum":
    case "union":
    case "trait":
    case "type":
    case "module":
    case "interface":
    case "class":
      return ns === "type";
    default:
      return ns === "value";
  }
}

export function targetInNs(t: Target, ns: Ns): boolean {
  if (t.t === "ext") return true;
  if (t.t === "mod") return ns === "type";
  const d = def(t.d);
  const parent = d.parent >= 0 ? t.d.f.p.defs[d.parent] : undefined;
  return defInNs(d, ns, parent?.kind);
}
