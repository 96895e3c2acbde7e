// The per-file partial: what one file yields through one plugin, before any other file is
// looked at. Pure data (JSON), cached by git blob id + plugin build, input to the resolvers.
// Capture vocabulary that produces each field: plugins/README.md.

/**
 * The shape of a partial, beyond what a plugin's queries decide: part of the partial cache's
 * key, so a partial an older extractor wrote (refs without columns, say) is never read back.
 */
export const PARTIAL_FORMAT = "#p3";

/** Definition kinds, named after the `@definition.<kind>` capture that made them. */
export type DefKind =
  | "function"
  | "method"
  | "constructor"
  | "getter"
  | "setter"
  | "class"
  | "interface"
  | "struct"
  | "enum"
  | "trait"
  | "type"
  | "constant"
  | "variable"
  | "field"
  | "module"
  | "macro"
  | "union";

export interface Def {
  /** Index of this definition in `defs`. */
  id: number;
  kind: DefKind;
  name: string;
  /** Index of the innermost enclosing definition, or -1 for the file. */
  parent: number;
  line: number;
  endLine: number;
  /** Byte offsets in the file (UTF-8), for containment of later captures. */
  start: number;
  end: number;
  /** Declaration as written, up to its body (`@body`), whitespace collapsed, capped. */
  signature?: string;
  /** Doc comment text (`@doc`), comment markers kept as written. */
  doc?: string;
  /** `@visibility` text, or "exported" when `@exported` was captured. */
  visibility?: string;
  isAsync?: boolean;
  isStatic?: boolean;
  /** Declared return type as written (`@returns`). */
  returns?: string;
  /** Declared type as written (`@type`), for fields, consts, variables. */
  type?: string;
  /** Owner type name as written (`@owner`): Go method receivers, Rust impl blocks. */
  owner?: string;
  /** Trait being implemented (`@trait`, from an enclosing `@impl`). */
  trait?: string;
  /** Parameter count (named children of `@params`), when captured. */
  arity?: number;
  /** The parameter list as written (`@params`), whitespace collapsed, capped. */
  params?: string;
  /** A function or method declared without a body (an overload signature, an ambient or interface declaration). */
  bodyless?: boolean;
  /**
   * Inside a region only a type checker reads (`@type_only`: Python's `if TYPE_CHECKING:`): a
   * declaration of what the name's type is, never what runs when it is called.
   */
  typeOnly?: boolean;
  /** A generator: a `@yield` falls directly in it (calling it gives an iterator, not what it returns). */
  generator?: boolean;
  /** Supertypes as written (`@extends`, `@implements`). */
  extends?: string[];
  implements?: string[];
  /** Decorators / annotations as written (`@decorator`). */
  decorators?: string[];
  /** For property-assigned definitions (`res.send = function () {}`): the object path as written (`@object`). */
  object?: string;
  /** The value node's grammar type (`@value`), e.g. `arrow_function`, `object`, `call_expression`. */
  valueKind?: string;
  /** For `@value` of a call or `new`: the callee as written (e.g. `express.Router`, `Foo`). */
  valueCallee?: string;
}

export type RefKind = "call" | "new" | "value" | "type" | "macro";

export interface Ref {
  kind: RefKind;
  /** The referenced name (`@name`); empty for a dynamic callee. */
  name: string;
  /** The receiver / qualifier expression as written (`@receiver`), whitespace collapsed. */
  receiver?: string;
  /** Grammar type of the receiver node (`identifier`, `this`, `member_expression`, `call_expression`, ...). */
  receiverKind?: string;
  /** The whole callee / reference text as written (`_ref`). */
  text: string;
  line: number;
  /** 1-based column of the reference's name (or of the reference when it has none). */
  col?: number;
  /** Index of the innermost enclosing definition, or -1 for module-level code. */
  scope: number;
  /** Argument count (named children of `@arguments`), when captured. */
  arity?: number;
  /** Byte offset of the reference, to order references and locals within a scope. */
  at: number;
}

export interface Import {
  /** Module specifier / path as written, quotes removed (`@import.source`). */
  source: string;
  /** Imported name; "default" for a default import, "*" for a namespace / whole-module import. */
  imported: string;
  /** The local binding name ("" for a side-effect import or a wildcard with no binding). */
  local: string;
  /** `@import.wildcard`: Java `.*`, Go dot import, Python `from x import *`. */
  wildcard?: boolean;
  /** `@import.static` (Java static imports). */
  isStatic?: boolean;
  /** Import statement kind: the capture suffix, e.g. "esm", "require", "use", "include". */
  form: string;
  line: number;
  /** Scope of the import: -1 for the file, else the enclosing definition (Rust `use` in a fn). */
  scope: number;
}

export interface Export {
  /** Name the module exports ("default" for the default export). */
  name: string;
  /** Local binding exported (`export { a as b }` → local "a"); absent for a re-export. */
  local?: string;
  /** For a re-export: the specifier (`export ... from "x"`). */
  source?: string;
  /** For a re-export: the name in the source module ("*" for `export * as ns`). */
  imported?: string;
  /** `export * from "x"`. */
  star?: boolean;
  line: number;
}

/** A local binding whose type the source declares: a parameter, variable or field annotation, or an initialiser. */
export interface Local {
  name: string;
  /** Innermost enclosing definition, or -1 for module level. */
  scope: number;
  /** Declared type as written (`@local.type`). */
  type?: string;
  /** Initialised by `new C(...)`: C as written (`@local.new`). */
  newOf?: string;
  /** Initialised by a call: the callee's name (`@local.call`) and receiver as written (`@local.call.receiver`). */
  callOf?: string;
  callReceiver?: string;
  /** Initialised by another name (`@local.alias`): `const x = y`. */
  aliasOf?: string;
  /** `@local.param`: a parameter rather than a variable. */
  isParam?: boolean;
  /** `@const`: a `const` binding, never reassigned. */
  isConst?: boolean;
  line: number;
  at: number;
  /** End (byte offset) of the block the binding is visible in (`@scope` on a local), when captured: Java block scoping. */
  end?: number;
  /** Start of visibility (byte offset): the end of the `@after` node, when captured (Go: a variable is visible after its declaration ends). */
  from?: number;
  /**
   * `@callback`: an unannotated parameter of a function passed as an argument — the call's callee
   * as written, the argument's position, the call's argument count, the parameter's position.
   */
  argOf?: string;
  argIndex?: number;
  argCount?: number;
  paramIndex?: number;
  /** `@prop`: a name destructured from the value the other fields describe (`const { a } = f()`): that member of it. */
  prop?: string;
  /** `@import_of`: what a dynamic `import("…")` loads (its source as written), a function's result. */
  importOf?: string;
  /**
   * `@iter_of`: an element of the named value — a loop variable over it, or over what its
   * `@iter_method` (`values`, `keys`) returns; `[]` for an item read by subscript (`items[0]`).
   */
  iterOf?: string;
  iterMethod?: string;
  /** `@bound`: a type variable's bound as written (`T = TypeVar("T", bound=Base)`): what an annotation `T` stands for. */
  bound?: string;
  /** `@enter`: a context manager's target (`with f() as x`) — x holds what the `__enter__` of the value the other fields describe returns. */
  enter?: boolean;
}

export interface Partial {
  /** Repository-relative POSIX path. */
  path: string;
  /** Grammar id the file was parsed with (a key of the plugin's `grammars`). */
  grammar: string;
  defs: Def[];
  refs: Ref[];
  imports: Import[];
  exports: Export[];
  locals: Local[];
  /** Number of ERROR / MISSING nodes: facts come from what parsed. */
  syntaxErrors: number;
  /** Set when the parse kept is of the plugin's recovery rewrites (their number; src/extract/recover.ts). */
  recovered?: number;
  lines: number;
}
