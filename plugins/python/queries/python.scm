; Python: what this query emits (capture vocabulary: plugins/README.md)
;
; definitions
;   @definition.function  every `def` (the resolver labels one directly inside a class a Method)
;                         with @decorator (repeats), @async, @params, @returns, @doc (docstring), @body
;   @definition.class     every `class`, @extends = the whole superclass list as written
;                         (the resolver splits it and drops `metaclass=`), @decorator, @doc
;   @definition.field     class-level assignments (`x = 1`, `x: T`) and `self.x = ...` statements
;                         directly in an `__init__` body; @type when annotated
;   @definition.constant  module-level assignment to an UPPER_CASE name
;   @definition.variable  other module-level assignments to a name
;   @definition.module    the module docstring (a carrier: the resolver moves its @doc onto the
;                         Module node and emits no definition for it)
; references
;   @reference.call       `f(...)` (@name), `recv.f(...)` (@receiver, @name), any other callee
;                         (no @name: a dynamic call); @arguments for arity
;   @reference.value      a name or attribute used as a value: call arguments, keyword values,
;                         assignment right sides, returns, dict values, list elements, bare decorators
;   @reference.type       a whole annotation (@name = its text, parsed by the resolver)
; imports
;   @import.module        `import a.b` (@source) / `import a.b as z` (@source, @alias)
;   @import.from          `from x import y [as z]` (@source = `x`, `.x`, `..`; @name, @alias),
;                         `from x import *` (@wildcard)
; exports
;   @export               each string of a module-level `__all__` list/tuple (@name)
; locals (flow-insensitive: every binding of a name in a function is a candidate)
;   @local.param          every parameter of a `def` (@name, @type when annotated)
;   @local                assignment / for / with-as / except-as / walrus targets (@prop: the
;                         targets of an unpacking, as written); @type for an
;                         annotation, @call (+ @call_receiver) for a call initialiser, @alias_of
;                         for a name or dotted-path initialiser, @new for a literal initialiser ([..] {..} ".." ...)
;                         names may be `self.x` (attribute targets); lambda parameters and
;                         comprehension variables carry @alias_of = the lambda / `for` clause text,
;                         `global x` carries @alias_of = the statement (x is the module's);
;                         `return` statements are locals named `return` (their value as above);
;                         @enter marks a `with` target (it holds what the manager's `__enter__` returns)
;   @yield                a `yield` (its function is a generator: Def.generator)
; regions
;   @type_only            the body of `if TYPE_CHECKING:` (the `else:` of `if not TYPE_CHECKING:`):
;                         definitions there are declarations for a type checker (Def.typeOnly)

; ---------------------------------------------------------------- definitions

(module . (expression_statement (string) @name @doc) @definition.module)
(module . (comment) . (expression_statement (string) @name @doc) @definition.module)
(module . (comment) . (comment) . (expression_statement (string) @name @doc) @definition.module)
(module . (comment) . (comment) . (comment) . (expression_statement (string) @name @doc) @definition.module)

(decorated_definition
  (decorator)+ @decorator
  definition: (function_definition
    "async"? @async
    name: (identifier) @name
    parameters: (parameters) @params
    return_type: (type)? @returns
    body: (block . (expression_statement (string) @doc)?) @body) @definition.function)

(function_definition
  "async"? @async
  name: (identifier) @name
  parameters: (parameters) @params
  return_type: (type)? @returns
  body: (block . (expression_statement (string) @doc)?) @body) @definition.function

(decorated_definition
  (decorator)+ @decorator
  definition: (class_definition
    name: (identifier) @name
    superclasses: (argument_list)? @extends
    body: (block . (expression_statement (string) @doc)?) @body) @definition.class)

(class_definition
  name: (identifier) @name
  superclasses: (argument_list)? @extends
  body: (block . (expression_statement (string) @doc)?) @body) @definition.class

(class_definition
  body: (block
    (expression_statement
      (assignment left: (identifier) @name type: (type)? @type) @definition.field)))

(function_definition
  name: (identifier) @_init (#eq? @_init "__init__")
  body: (block
    (expression_statement
      (assignment
        left: (attribute object: (identifier) attribute: (identifier) @name)
        type: (type)? @type) @definition.field)))

(module
  (expression_statement
    (assignment left: (identifier) @name type: (type)? @type) @definition.constant)
  (#match? @name "^_*[A-Z][A-Z0-9_]*$"))

(module
  (expression_statement
    (assignment left: (identifier) @name type: (type)? @type) @definition.variable))

; ---------------------------------------------------------------- references

(call function: (identifier) @name arguments: (_) @arguments) @reference.call
(call
  function: (attribute object: (_) @receiver attribute: (identifier) @name)
  arguments: (_) @arguments) @reference.call
(call) @reference.call

(decorator (identifier) @name) @reference.value
(decorator (attribute object: (_) @receiver attribute: (identifier) @name)) @reference.value
(call arguments: (argument_list (identifier) @name @reference.value))
(call arguments: (argument_list (attribute object: (_) @receiver attribute: (identifier) @name) @reference.value))
(keyword_argument value: (identifier) @name @reference.value)
(keyword_argument value: (attribute object: (_) @receiver attribute: (identifier) @name) @reference.value)
(assignment right: (identifier) @name @reference.value)
(assignment right: (attribute object: (_) @receiver attribute: (identifier) @name) @reference.value)
(return_statement (identifier) @name @reference.value)
(return_statement (attribute object: (_) @receiver attribute: (identifier) @name) @reference.value)
(pair value: (identifier) @name @reference.value)
(pair value: (attribute object: (_) @receiver attribute: (identifier) @name) @reference.value)
(list (identifier) @name @reference.value)
(list (attribute object: (_) @receiver attribute: (identifier) @name) @reference.value)
(tuple (identifier) @name @reference.value)

(typed_parameter type: (type) @name @reference.type)
(typed_default_parameter type: (type) @name @reference.type)
(function_definition return_type: (type) @name @reference.type)
(assignment type: (type) @name @reference.type)

; ---------------------------------------------------------------- imports

(import_statement name: (dotted_name) @source) @import.module
(import_statement name: (aliased_import name: (dotted_name) @source alias: (identifier) @alias)) @import.module
(import_from_statement module_name: (_) @source name: (dotted_name) @name) @import.from
(import_from_statement
  module_name: (_) @source
  name: (aliased_import name: (dotted_name) @name alias: (identifier) @alias)) @import.from
(import_from_statement module_name: (_) @source (wildcard_import) @wildcard) @import.from

; ---------------------------------------------------------------- exports (__all__)

(module
  (expression_statement
    (assignment
      left: (identifier) @_all (#eq? @_all "__all__")
      right: [(list (string (string_content) @name)) (tuple (string (string_content) @name))])) @export)
(module
  (expression_statement
    (augmented_assignment
      left: (identifier) @_all (#eq? @_all "__all__")
      right: [(list (string (string_content) @name)) (tuple (string (string_content) @name))])) @export)

; ---------------------------------------------------------------- locals

(parameters (identifier) @name @local.param)
(parameters (typed_parameter (identifier) @name type: (type) @type) @local.param)
(parameters (default_parameter name: (identifier) @name) @local.param)
(parameters (typed_default_parameter name: (identifier) @name type: (type) @type) @local.param)
(parameters (list_splat_pattern (identifier) @name) @local.param)
(parameters (dictionary_splat_pattern (identifier) @name) @local.param)
(parameters (typed_parameter [(list_splat_pattern (identifier) @name) (dictionary_splat_pattern (identifier) @name)]) @local.param)
; lambda parameters and comprehension variables live in their own scope: @alias_of = the lambda /
; `for ... in` clause text marks them, and the resolver treats the name as unknown in the function.
(lambda parameters: (lambda_parameters [
  (identifier) @name
  (default_parameter name: (identifier) @name)
  (list_splat_pattern (identifier) @name)
  (dictionary_splat_pattern (identifier) @name)])) @local @alias_of

(assignment left: [(identifier) (attribute object: (identifier) attribute: (identifier))] @name type: (type) @type) @local
(assignment
  left: [(identifier) (attribute object: (identifier) attribute: (identifier))] @name
  right: (call function: (identifier) @call)) @local
(assignment
  left: [(identifier) (attribute object: (identifier) attribute: (identifier))] @name
  right: (call function: (attribute object: (_) @call_receiver attribute: (identifier) @call))) @local
(assignment
  left: [(identifier) (attribute object: (identifier) attribute: (identifier))] @name
  right: [(identifier) (attribute)] @alias_of) @local
(assignment
  left: [(identifier) (attribute object: (identifier) attribute: (identifier))] @name
  right: [(list) (list_comprehension) (dictionary) (dictionary_comprehension) (set) (set_comprehension)
          (string) (concatenated_string) (integer) (float) (tuple) (true) (false) (none)] @new) @local
; `a = b = None`: a is None too (b is by the pattern above)
(assignment
  left: [(identifier) (attribute object: (identifier) attribute: (identifier))] @name
  right: (assignment right: (none) @new)) @local
(assignment left: [(identifier) (attribute object: (identifier) attribute: (identifier))] @name) @local
(assignment left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name) (list_pattern (identifier) @name)]) @local
; a name unpacked from a call's result (`u, plugins, kw = url._instantiate(kw)`): @prop = the targets
; as written (the name's position among them picks the element of the declared tuple)
(assignment left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)] @prop
  right: (call function: (identifier) @call)) @local
(assignment left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)] @prop
  right: (call function: (attribute object: (_) @call_receiver attribute: (identifier) @call))) @local
(assignment left: [(pattern_list (attribute object: (identifier) attribute: (identifier)) @name)
                   (tuple_pattern (attribute object: (identifier) attribute: (identifier)) @name)]) @local
(for_statement left: (identifier) @name) @local
; a type variable's bound (`_SB = TypeVar("_SB", bound=SelectBase)`): an annotation `_SB` reads as it
(assignment left: (identifier) @name
  right: (call function: [(identifier) (attribute attribute: (identifier))] @_tv (#match? @_tv "(^|\\.)TypeVar$")
    arguments: (argument_list (keyword_argument name: (identifier) @_b (#eq? @_b "bound") value: (_) @bound)))) @local
; a loop variable over a name, an attribute, a call, a mapping's keys() / values(), an item read by
; subscript (`for x in items`, `for p in self.get_params(ctx)`, `for v in by.values()`,
; `first = items[0]`): the element its annotation (or the callee's return type) declares
(for_statement left: (identifier) @name right: [(identifier) (attribute) (call)] @iter_of) @local
(for_statement left: (identifier) @name
  right: (call function: (attribute object: (identifier) @iter_of attribute: (identifier) @iter_method) arguments: (argument_list))) @local
(assignment left: (identifier) @name
  right: (subscript value: (identifier) @iter_of subscript: [(integer) (unary_operator) (identifier) (string)] @iter_index)) @local
; a pair target over a mapping's items() or enumerate(xs): the key / value, the index / element
(for_statement left: (pattern_list . (identifier) @name @iter_key . (identifier) .)
  right: (call function: (attribute object: (identifier) @iter_of attribute: (identifier) @iter_method) arguments: (argument_list))) @local
(for_statement left: (pattern_list . (identifier) . (identifier) @name @iter_value .)
  right: (call function: (attribute object: (identifier) @iter_of attribute: (identifier) @iter_method) arguments: (argument_list))) @local
(for_statement left: (pattern_list . (identifier) . (identifier) @name @iter_value .)
  right: (call function: (identifier) @iter_method (#eq? @iter_method "enumerate") arguments: (argument_list . [(identifier) (attribute)] @iter_of .))) @local
(for_statement left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)]) @local
(for_in_clause left: (identifier) @name) @local @alias_of
; a comprehension's variable over a name or attribute, visible in the comprehension only (@scope):
; `{e.key() for e in self.elements}` — the element its annotation declares
(list_comprehension (for_in_clause left: (identifier) @name right: [(identifier) (attribute) (call)] @iter_of)) @local @scope
(set_comprehension (for_in_clause left: (identifier) @name right: [(identifier) (attribute) (call)] @iter_of)) @local @scope
(dictionary_comprehension (for_in_clause left: (identifier) @name right: [(identifier) (attribute) (call)] @iter_of)) @local @scope
(generator_expression (for_in_clause left: (identifier) @name right: [(identifier) (attribute) (call)] @iter_of)) @local @scope
(for_in_clause left: [(pattern_list (identifier) @name) (tuple_pattern (identifier) @name)]) @local @alias_of
(as_pattern_target (identifier) @name) @local
; an exception caught by its class (`except ClickException as e`): an instance of it, the value a
; call of the class gives (@call; a tuple of classes is not read)
(except_clause value: (as_pattern (identifier) @call alias: (as_pattern_target (identifier) @name) @local))
(except_clause value: (as_pattern (attribute object: (_) @call_receiver attribute: (identifier) @call)
  alias: (as_pattern_target (identifier) @name) @local))
; a `with` target over a call or a name (`with engine.connect() as conn`): what the manager's
; `__enter__` returns (@enter; the local is the target, as above, so the two readings merge)
(with_item value: (as_pattern (call function: (identifier) @call) alias: (as_pattern_target (identifier) @name) @local) @enter)
(with_item value: (as_pattern (call function: (attribute object: (_) @call_receiver attribute: (identifier) @call))
  alias: (as_pattern_target (identifier) @name) @local) @enter)
(with_item value: (as_pattern [(identifier) (attribute)] @alias_of alias: (as_pattern_target (identifier) @name) @local) @enter)
; what a function returns (locals named `return`, read when it declares no return type), and
; whether it is a generator (@yield: calling it gives no value of its returns)
(return_statement "return" @name) @local
(return_statement "return" @name (call function: (identifier) @call)) @local
(return_statement "return" @name (call function: (attribute object: (_) @call_receiver attribute: (identifier) @call))) @local
(return_statement "return" @name [(identifier) (attribute)] @alias_of) @local
(return_statement "return" @name
  [(list) (list_comprehension) (dictionary) (dictionary_comprehension) (set) (set_comprehension)
   (string) (concatenated_string) (integer) (float) (tuple) (true) (false) (none)] @new) @local
(yield) @yield
(named_expression name: (identifier) @name) @local
(global_statement (identifier) @name) @local @alias_of
(nonlocal_statement (identifier) @name) @local

; ---------------------------------------------------------------- regions

; `if TYPE_CHECKING:` (and the `else:` of `if not TYPE_CHECKING:`): read by a type checker, never
; run — a definition there declares a name's type; what a call runs is defined elsewhere
(if_statement
  condition: [(identifier) @_tc (attribute attribute: (identifier) @_tc)] (#eq? @_tc "TYPE_CHECKING")
  consequence: (block) @type_only)
(if_statement
  condition: (not_operator argument: [(identifier) @_tc (attribute attribute: (identifier) @_tc)]) (#eq? @_tc "TYPE_CHECKING")
  alternative: (else_clause body: (block) @type_only))
