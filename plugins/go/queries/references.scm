; Go references.
; Emits:
;   @reference.call   f(x)                 @name
;   @reference.call   x.f(y), pkg.F(y)     @name @receiver (operand as written)
;   @reference.call   F[int](x), pkg.F[T](x), fs[i](x)   @name [@receiver]: generic instantiation or an indexed
;                     function value (the grammar parses them alike; the resolver tells them apart)
;   @reference.call   f()(), (s.f)(x), fs[i+1](x)         no @name: a dynamic callee
;   @reference.new    T{...}, &pkg.T{...}, new(T)         @name [@receiver = package]
;   @reference.type   T, pkg.T in type positions          @name [@receiver = package]
;   @reference.value  names used as values: arguments, right-hand sides, returns, operands,
;                     composite literal elements, indexed operands   @name [@receiver]
;                     (a package variable used as a receiver, `cfg.Load()`, is read off the call / selector by the resolver)
; A type or value site also covered by a call / new / qualified reference is dropped by the resolver.

(call_expression
  function: (identifier) @name
  arguments: (argument_list) @arguments) @reference.call

(call_expression
  function: (selector_expression
    operand: (_) @receiver
    field: (field_identifier) @name)
  arguments: (argument_list) @arguments) @reference.call

(type_conversion_expression
  type: (generic_type type: (type_identifier) @name) @callee) @reference.call

(type_conversion_expression
  type: (generic_type type: (qualified_type
    package: (package_identifier) @receiver
    name: (type_identifier) @name)) @callee) @reference.call

; New[int](), pkg.New[T](), fs[i](), s.handlers[k](): instantiation or indexing, told apart by the resolver.
(call_expression
  function: (index_expression operand: (identifier) @name) @callee
  arguments: (argument_list) @arguments) @reference.call

(call_expression
  function: (index_expression operand: (selector_expression
    operand: (_) @receiver
    field: (field_identifier) @name)) @callee
  arguments: (argument_list) @arguments) @reference.call

(call_expression
  function: [(call_expression) (index_expression) (parenthesized_expression) (type_instantiation_expression)] @callee
  arguments: (argument_list) @arguments) @reference.call

; Composite literals and new(T): instantiation of a named type.
(composite_literal
  type: [
    (type_identifier) @name
    (generic_type type: (type_identifier) @name)
  ] @callee) @reference.new

(composite_literal
  type: [
    (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name)
    (generic_type type: (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name))
  ] @callee) @reference.new

(call_expression
  function: (identifier) @_new (#eq? @_new "new")
  arguments: (argument_list . [
    (type_identifier) @name
    (generic_type type: (type_identifier) @name)
    (qualified_type package: (package_identifier) @receiver name: (type_identifier) @name)
  ] @callee .)) @reference.new

; Types (predeclared ones left out).
((type_identifier) @name @reference.type
  (#not-any-of? @name "string" "int" "bool" "error" "byte" "any" "int64" "uint64" "int32" "uint32" "float64" "uint8" "uint" "rune" "uintptr" "float32" "int8" "int16" "uint16" "complex128" "complex64" "comparable"))

(qualified_type
  package: (package_identifier) @receiver
  name: (type_identifier) @name) @reference.type

; Values: identifiers and selectors in expression positions.
(argument_list (identifier) @name @reference.value)
(argument_list (selector_expression operand: (_) @receiver field: (field_identifier) @name) @reference.value)
(argument_list (unary_expression operand: (identifier) @name @reference.value))
(argument_list (unary_expression operand: (selector_expression operand: (_) @receiver field: (field_identifier) @name) @reference.value))

(return_statement (expression_list (identifier) @name @reference.value))
(return_statement (expression_list (selector_expression operand: (_) @receiver field: (field_identifier) @name) @reference.value))

(short_var_declaration right: (expression_list (identifier) @name @reference.value))
(short_var_declaration right: (expression_list (selector_expression operand: (_) @receiver field: (field_identifier) @name) @reference.value))
(assignment_statement (expression_list (identifier) @name @reference.value))
(assignment_statement (expression_list (selector_expression operand: (_) @receiver field: (field_identifier) @name) @reference.value))
(var_spec value: (expression_list (identifier) @name @reference.value))
(var_spec value: (expression_list (selector_expression operand: (_) @receiver field: (field_identifier) @name) @reference.value))
(expression_case value: (expression_list (identifier) @name @reference.value))
(expression_case value: (expression_list (selector_expression operand: (_) @receiver field: (field_identifier) @name) @reference.value))
(send_statement value: (identifier) @name @reference.value)

(binary_expression left: (identifier) @name @reference.value)
(binary_expression right: (identifier) @name @reference.value)
(binary_expression left: (selector_expression operand: (_) @receiver field: (field_identifier) @name) @reference.value)
(binary_expression right: (selector_expression operand: (_) @receiver field: (field_identifier) @name) @reference.value)
(unary_expression operand: (identifier) @name @reference.value)

(keyed_element value: (literal_element (identifier) @name @reference.value))
(keyed_element value: (literal_element (selector_expression operand: (_) @receiver field: (field_identifier) @name) @reference.value))
(literal_value (literal_element (identifier) @name @reference.value))
(literal_value (literal_element (selector_expression operand: (_) @receiver field: (field_identifier) @name) @reference.value))

(index_expression operand: (identifier) @name @reference.value)
