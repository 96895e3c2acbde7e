; Go local bindings, for receiver typing and shadowing.
; Emits:
;   @local.param  parameters, receivers, named results       @name @type (variadic: @variadic, read as a slice of it)
;   @local        type parameters                            @name (no type: a type parameter is not a type)
;   @local        x := T{} / &T{} / new(T) / v.(T) / var x T  @name @type
;   @local        x := f(...) / x := r.f(...)                @name @call [@call_receiver]   (first name only: result 0)
;   @local        x := y / x := a.b / x := a[i]              @name @alias_of
;   @local        a, b := f() / k, v := range xs             @name @alias_of (the whole declaration: below)
;   @local        every name declared by :=, var, const, range, type switch, select receive, with
;                 @scope (visible until the scope node ends) and @after (visible after this node ends)
; Declarations at package level (var) are read the same way: they type package variables.
; The resolver merges the matches of one declaration (same @local node, same name).

; Parameters of functions, methods (receiver, parameters, results) and function literals.
(function_declaration parameters: (parameter_list (parameter_declaration name: (identifier) @name type: (_) @type) @local.param))
(function_declaration parameters: (parameter_list (variadic_parameter_declaration name: (identifier) @name type: (_) @type) @variadic @local.param))
(function_declaration result: (parameter_list (parameter_declaration name: (identifier) @name type: (_) @type) @local.param))
(method_declaration receiver: (parameter_list (parameter_declaration name: (identifier) @name type: (_) @type) @local.param))
(method_declaration parameters: (parameter_list (parameter_declaration name: (identifier) @name type: (_) @type) @local.param))
(method_declaration parameters: (parameter_list (variadic_parameter_declaration name: (identifier) @name type: (_) @type) @variadic @local.param))
(method_declaration result: (parameter_list (parameter_declaration name: (identifier) @name type: (_) @type) @local.param))
(func_literal parameters: (parameter_list (parameter_declaration name: (identifier) @name type: (_) @type) @local.param @after)) @scope
(func_literal parameters: (parameter_list (variadic_parameter_declaration name: (identifier) @name type: (_) @type) @variadic @local.param @after)) @scope
(func_literal result: (parameter_list (parameter_declaration name: (identifier) @name type: (_) @type) @local.param @after)) @scope

(type_parameter_declaration name: (identifier) @name) @local

; Typed initialisers (one name, one value).
(short_var_declaration
  left: (expression_list . (identifier) @name .)
  right: (expression_list . [
    (composite_literal type: (_) @type)
    (unary_expression operator: "&" operand: (composite_literal type: (_) @type))
    (type_assertion_expression type: (_) @type)
    (call_expression function: (identifier) @_new (#eq? @_new "new") arguments: (argument_list . (_) @type .))
  ] .)) @local
(var_spec
  . (identifier) @name
  . value: (expression_list . [
    (composite_literal type: (_) @type)
    (unary_expression operator: "&" operand: (composite_literal type: (_) @type))
    (type_assertion_expression type: (_) @type)
    (call_expression function: (identifier) @_new (#eq? @_new "new") arguments: (argument_list . (_) @type .))
  ] .)) @local

; Initialised by a call: the first name holds the first result.
(short_var_declaration
  left: (expression_list . (identifier) @name)
  right: (expression_list . (call_expression function: (identifier) @call) .)) @local
(short_var_declaration
  left: (expression_list . (identifier) @name)
  right: (expression_list . (call_expression function: (selector_expression operand: (_) @call_receiver field: (field_identifier) @call)) .)) @local
(short_var_declaration
  left: (expression_list . (identifier) @name)
  right: (expression_list . [
    (call_expression function: (index_expression operand: (identifier) @call))
    (type_conversion_expression type: (generic_type type: (type_identifier) @call))
  ] .)) @local
(short_var_declaration
  left: (expression_list . (identifier) @name)
  right: (expression_list . [
    (call_expression function: (index_expression operand: (selector_expression operand: (_) @call_receiver field: (field_identifier) @call)))
    (type_conversion_expression type: (generic_type type: (qualified_type package: (_) @call_receiver name: (type_identifier) @call)))
  ] .)) @local
(var_spec
  . (identifier) @name
  value: (expression_list . (call_expression function: (identifier) @call) .)) @local
(var_spec
  . (identifier) @name
  value: (expression_list . (call_expression function: (selector_expression operand: (_) @call_receiver field: (field_identifier) @call)) .)) @local

; Initialised by another expression.
(short_var_declaration
  left: (expression_list . (identifier) @name .)
  right: (expression_list . [(identifier) (selector_expression) (index_expression)] @alias_of .)) @local
(var_spec
  . (identifier) @name
  . value: (expression_list . [(identifier) (selector_expression) (index_expression)] @alias_of .)) @local

; Declared type: every name.
(var_spec (identifier) @name type: (_) @type) @local

; Every declared name with its scope. A `:=` or range declaration also hands over its whole text
; (@alias_of), which the resolver reads for what the typed patterns above do not cover: the i-th
; name of `a, err := f()` holds the i-th result, `x, ok := v.(T)` a T, a range value variable the
; element type of what it ranges over.
(statement_list (short_var_declaration left: (expression_list (identifier) @name)) @local @after @alias_of) @scope
(statement_list (var_declaration [(var_spec (identifier) @name) (var_spec_list (var_spec (identifier) @name))] @local @after)) @scope
(statement_list (const_declaration (const_spec (identifier) @name) @local @after)) @scope
(if_statement initializer: (short_var_declaration left: (expression_list (identifier) @name)) @local @after @alias_of) @scope
(expression_switch_statement initializer: (short_var_declaration left: (expression_list (identifier) @name)) @local @after @alias_of) @scope
(type_switch_statement initializer: (short_var_declaration left: (expression_list (identifier) @name)) @local @after @alias_of) @scope
(for_statement (for_clause initializer: (short_var_declaration left: (expression_list (identifier) @name)) @local @after @alias_of)) @scope
(for_statement (range_clause left: (expression_list (identifier) @name)) @local @after @alias_of) @scope
(type_switch_statement alias: (expression_list (identifier) @name) @local @after) @scope
(communication_case communication: (receive_statement left: (expression_list (identifier) @name)) @local @after) @scope

; A file's build constraint (`//go:build !nomsgpack`), as a module-level local named by the whole
; comment: the resolver prefers, among a package's build variants, the one a default build selects.
(source_file (comment) @name @local (#match? @name "^//go:build "))
