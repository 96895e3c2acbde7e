; Rust references.
; Emits:
;   @reference.call   calls: `f(..)`, `a::b::f(..)` (@receiver = the path before the last `::`),
;                     `recv.m(..)` (@receiver = the receiver expression), the same with turbofish
;                     `f::<T>(..)`; any other callee (`(self.f)(..)`, `f()(..)`) is a dynamic call (no @name)
;   @reference.new    struct literals `T { .. }` / `a::T { .. }` / `Self { .. }` (@callee = the type as written)
;                     inside the arguments of std formatting / assertion macros (`assert_eq!(f(x), y.len())`),
;                     whose token trees are expressions: a call starting an argument, `f(..)`, `x.m(..)`,
;                     `self.m(..)` or `T::f(..)` (the primary node spans the text recorded as `_ref`; the
;                     resolver drops a match whose text shows tokens between the name and its `(`)
;   @reference.macro  macro invocations `m!(..)` / `a::m!(..)`
;   @reference.value  a bare path passed as an argument (`map(parse)`, `map(Self::f)`): a function used as a value
;   @reference.type   type names written in signatures, fields, lets, casts, type arguments and aliases
;                     (`T`, `a::T`; @receiver = the path before the last `::`)

; calls
(call_expression function: (identifier) @name arguments: (arguments) @arguments) @reference.call
(call_expression function: (scoped_identifier path: (_) @receiver name: (identifier) @name) arguments: (arguments) @arguments) @reference.call
(call_expression function: (field_expression value: (_) @receiver field: (field_identifier) @name) arguments: (arguments) @arguments) @reference.call
(call_expression function: (generic_function function: (identifier) @name) arguments: (arguments) @arguments) @reference.call
(call_expression function: (generic_function function: (scoped_identifier path: (_) @receiver name: (identifier) @name)) arguments: (arguments) @arguments) @reference.call
(call_expression function: (generic_function function: (field_expression value: (_) @receiver field: (field_identifier) @name)) arguments: (arguments) @arguments) @reference.call
(call_expression function: (_) arguments: (arguments) @arguments) @reference.call

; calls inside the arguments of expression-taking macros
((macro_invocation macro: [(identifier) @_m (scoped_identifier name: (identifier) @_m)]
  (token_tree . (identifier) @name @reference.call . (token_tree . "(") @arguments))
  (#match? @_m "^(assert|assert_eq|assert_ne|debug_assert|debug_assert_eq|debug_assert_ne|println|print|eprintln|eprint|format|format_args|write|writeln|panic|unreachable|todo|unimplemented|vec|dbg|info|debug|warn|error|trace|anyhow|bail|ensure)$"))
((macro_invocation macro: [(identifier) @_m (scoped_identifier name: (identifier) @_m)]
  (token_tree "," . (identifier) @name @reference.call . (token_tree . "(") @arguments))
  (#match? @_m "^(assert|assert_eq|assert_ne|debug_assert|debug_assert_eq|debug_assert_ne|println|print|eprintln|eprint|format|format_args|write|writeln|panic|unreachable|todo|unimplemented|vec|dbg|info|debug|warn|error|trace|anyhow|bail|ensure)$"))
((macro_invocation macro: [(identifier) @_m (scoped_identifier name: (identifier) @_m)]
  (token_tree . [(identifier) (self)] @receiver @reference.call . ["." "::"] . (identifier) @name . (token_tree . "(") @arguments))
  (#match? @_m "^(assert|assert_eq|assert_ne|debug_assert|debug_assert_eq|debug_assert_ne|println|print|eprintln|eprint|format|format_args|write|writeln|panic|unreachable|todo|unimplemented|vec|dbg|info|debug|warn|error|trace|anyhow|bail|ensure)$"))
((macro_invocation macro: [(identifier) @_m (scoped_identifier name: (identifier) @_m)]
  (token_tree "," . [(identifier) (self)] @receiver @reference.call . ["." "::"] . (identifier) @name . (token_tree . "(") @arguments))
  (#match? @_m "^(assert|assert_eq|assert_ne|debug_assert|debug_assert_eq|debug_assert_ne|println|print|eprintln|eprint|format|format_args|write|writeln|panic|unreachable|todo|unimplemented|vec|dbg|info|debug|warn|error|trace|anyhow|bail|ensure)$"))

; struct literals
(struct_expression name: (type_identifier) @name @callee) @reference.new
(struct_expression name: (scoped_type_identifier path: (_) @receiver name: (type_identifier) @name) @callee) @reference.new
(struct_expression name: (generic_type_with_turbofish type: (type_identifier) @name) @callee) @reference.new
(struct_expression name: (generic_type_with_turbofish type: (scoped_identifier path: (_) @receiver name: (identifier) @name)) @callee) @reference.new

; macros
(macro_invocation macro: (identifier) @name @callee) @reference.macro
(macro_invocation macro: (scoped_identifier path: (_) @receiver name: (identifier) @name) @callee) @reference.macro

; functions passed as values
(arguments (identifier) @name @reference.value)
(arguments (scoped_identifier path: (_) @receiver name: (identifier) @name) @reference.value)

; types
(parameter type: (type_identifier) @name @reference.type)
(parameter type: (scoped_type_identifier path: (_) @receiver name: (type_identifier) @name) @reference.type)
(reference_type type: (type_identifier) @name @reference.type)
(reference_type type: (scoped_type_identifier path: (_) @receiver name: (type_identifier) @name) @reference.type)
(pointer_type type: (type_identifier) @name @reference.type)
(pointer_type type: (scoped_type_identifier path: (_) @receiver name: (type_identifier) @name) @reference.type)
(generic_type type: (type_identifier) @name @reference.type)
(generic_type type: (scoped_type_identifier path: (_) @receiver name: (type_identifier) @name) @reference.type)
(type_arguments (type_identifier) @name @reference.type)
(type_arguments (scoped_type_identifier path: (_) @receiver name: (type_identifier) @name) @reference.type)
(let_declaration type: (type_identifier) @name @reference.type)
(let_declaration type: (scoped_type_identifier path: (_) @receiver name: (type_identifier) @name) @reference.type)
(field_declaration type: (type_identifier) @name @reference.type)
(field_declaration type: (scoped_type_identifier path: (_) @receiver name: (type_identifier) @name) @reference.type)
(ordered_field_declaration_list type: (type_identifier) @name @reference.type)
(ordered_field_declaration_list type: (scoped_type_identifier path: (_) @receiver name: (type_identifier) @name) @reference.type)
(function_item return_type: (type_identifier) @name @reference.type)
(function_item return_type: (scoped_type_identifier path: (_) @receiver name: (type_identifier) @name) @reference.type)
(function_signature_item return_type: (type_identifier) @name @reference.type)
(function_signature_item return_type: (scoped_type_identifier path: (_) @receiver name: (type_identifier) @name) @reference.type)
(array_type element: (type_identifier) @name @reference.type)
(array_type element: (scoped_type_identifier path: (_) @receiver name: (type_identifier) @name) @reference.type)
(tuple_type (type_identifier) @name @reference.type)
(tuple_type (scoped_type_identifier path: (_) @receiver name: (type_identifier) @name) @reference.type)
(const_item type: (type_identifier) @name @reference.type)
(const_item type: (scoped_type_identifier path: (_) @receiver name: (type_identifier) @name) @reference.type)
(static_item type: (type_identifier) @name @reference.type)
(static_item type: (scoped_type_identifier path: (_) @receiver name: (type_identifier) @name) @reference.type)
(type_item type: (type_identifier) @name @reference.type)
(type_item type: (scoped_type_identifier path: (_) @receiver name: (type_identifier) @name) @reference.type)
(type_cast_expression type: (type_identifier) @name @reference.type)
(type_cast_expression type: (scoped_type_identifier path: (_) @receiver name: (type_identifier) @name) @reference.type)
(abstract_type trait: (type_identifier) @name @reference.type)
(abstract_type trait: (scoped_type_identifier path: (_) @receiver name: (type_identifier) @name) @reference.type)
(dynamic_type trait: (type_identifier) @name @reference.type)
(dynamic_type trait: (scoped_type_identifier path: (_) @receiver name: (type_identifier) @name) @reference.type)
