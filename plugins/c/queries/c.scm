; C (tree-sitter-c 0.24) — what this query emits
;
;   @definition.function   a function definition (captures @value = its body: that is how the
;                          resolver tells a definition from a prototype) or a prototype (no @value:
;                          not a node; it declares the name for the translation unit and yields
;                          `declared_in` on the definition). Primary node: the function_definition
;                          or the prototype's declaration.
;   @definition.variable   one per declarator of a `declaration` (so `int a, b;` yields two). At file
;                          scope: a global variable (an `extern` one without initialiser is only a
;                          declaration); inside a function: a local (not a node; it shadows globals).
;   @definition.struct / .union / .enum   a tag type with a body; `typedef struct {…} N;` names an
;                          anonymous one N.
;   @definition.type       a typedef (any declarator shape).
;   @definition.macro      `#define F(x) …` (function-like).
;   @definition.constant   `#define N value` (object-like, with a value; bare `#define GUARD` is skipped).
;   @visibility            the storage class when it is `static` or `extern` (patterns that require it
;                          come first, so they win for the same node).
;   @reference.call        `f(…)` with @name; `s.f(…)` / `p->f(…)` with @receiver and @name (a call
;                          through a function-pointer field); any other callee expression without
;                          @name (a dynamic call).
;   @reference.type        a type name in a `type:` position (@name), or `struct/union/enum N` without a
;                          body (@receiver is the keyword, so the resolver looks in the tag namespace).
;   @reference.value       an identifier used as a value where a function or global is typically
;                          passed: call arguments, assignment right-hand sides, initialisers, `return`,
;                          `&x`, conditional branches.
;   @local.param           a parameter name (shadows globals inside its function).
;   @import.include        `#include "x.h"` (@source without quotes).
;   @import.system         `#include <x.h>` (@source without brackets).
;   @definition.module     an ERROR region with statements (not a node; variables inside are not globals).

; ---------------------------------------------------------------- parse errors
; An ERROR region holding statements or declarations (macros with unbalanced braces flatten a
; function body into one) is captured so the resolver can tell that declarations inside it are not
; file-scope globals. Not a node.
(ERROR [(declaration) (expression_statement)] @name) @definition.module

; ---------------------------------------------------------------- includes
(preproc_include path: (string_literal (string_content) @source)) @import.include
(preproc_include path: (system_lib_string) @source) @import.system

; ---------------------------------------------------------------- macros
(preproc_function_def name: (identifier) @name parameters: (preproc_params)) @definition.macro
(preproc_def name: (identifier) @name value: (preproc_arg) @value) @definition.constant
; A comment inside a continued function-like macro (`… /* c */ \`) breaks the grammar: the real
; name and parameters land in an ERROR node and `name:` takes a word from a later line. The ERROR
; node is the macro; the resolver drops the enclosing bogus definition (a macro holds no definition).
(preproc_def (ERROR . (identifier) @name @definition.macro . (preproc_params)))

; ---------------------------------------------------------------- function definitions
(function_definition
  (storage_class_specifier) @visibility (#any-of? @visibility "static" "extern")
  declarator: [
    (function_declarator declarator: (identifier) @name parameters: (parameter_list))
    (function_declarator declarator: (parenthesized_declarator (identifier) @name) parameters: (parameter_list))
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name parameters: (parameter_list)))
    (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (identifier) @name) parameters: (parameter_list)))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name parameters: (parameter_list))))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (identifier) @name) parameters: (parameter_list))))
    (pointer_declarator declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name parameters: (parameter_list)))))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (function_declarator declarator: (identifier) @name parameters: (parameter_list)))))
  ]
  body: (compound_statement) @body @value) @definition.function

(function_definition
  declarator: [
    (function_declarator declarator: (identifier) @name parameters: (parameter_list))
    (function_declarator declarator: (parenthesized_declarator (identifier) @name) parameters: (parameter_list))
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name parameters: (parameter_list)))
    (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (identifier) @name) parameters: (parameter_list)))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name parameters: (parameter_list))))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (identifier) @name) parameters: (parameter_list))))
    (pointer_declarator declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name parameters: (parameter_list)))))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (function_declarator declarator: (identifier) @name parameters: (parameter_list)))))
  ]
  body: (compound_statement) @body @value) @definition.function

;
; `T CALLCONV name(void) {…}` (a calling-convention macro such as CJSON_CDECL / WINAPI) parses as a
; declaration `T CALLCONV` with a MISSING ";" and a definition whose "type" is the name and whose
; declarator is `(void)`; valid C has no definition with a parenthesised non-function declarator.
((declaration (storage_class_specifier) @visibility (#eq? @visibility "static") declarator: (identifier) (MISSING ";"))
  .
  (function_definition type: (type_identifier) @name declarator: (parenthesized_declarator) body: (compound_statement) @body @value) @definition.function)
(function_definition type: (type_identifier) @name declarator: (parenthesized_declarator) body: (compound_statement) @body @value) @definition.function
; … and its bogus declaration `T CALLCONV` becomes a prototype of the name (its variable is dropped).
((declaration declarator: (identifier) (MISSING ";")) @definition.function
  .
  (function_definition type: (type_identifier) @name declarator: (parenthesized_declarator)))

; ---------------------------------------------------------------- prototypes (no @value)
; Primary node: the declaration (so a doc comment above it is found).
(declaration
  (storage_class_specifier) @visibility (#any-of? @visibility "static" "extern")
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (function_declarator declarator: (parenthesized_declarator (identifier) @name))
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (identifier) @name)))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (identifier) @name))))
    (pointer_declarator declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))))
  ]) @definition.function

(declaration
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (function_declarator declarator: (parenthesized_declarator (identifier) @name))
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (identifier) @name)))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (identifier) @name))))
    (pointer_declarator declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))))
  ]) @definition.function

; `API_MACRO type (name) (params);` (Lua, zlib style) parses as a function declarator nested in a
; function declarator whose only "parameter" is the name; valid C has no such shape, so it is this.
(declaration
  declarator: (function_declarator
    declarator: (function_declarator
      declarator: (identifier)
      parameters: (parameter_list . (parameter_declaration type: (type_identifier) @name !declarator) .)))) @definition.function

(function_definition
  declarator: (function_declarator
    declarator: (function_declarator
      declarator: (identifier)
      parameters: (parameter_list . (parameter_declaration type: (type_identifier) @name !declarator) .)))
  body: (compound_statement) @body @value) @definition.function

;
; `API_MACRO typedef_name f (params);` parses as a declaration `API_MACRO typedef_name` with a MISSING
; ";" followed by a call at file scope (which valid C never has): a prototype of f. Listed before the
; variable patterns, so the declaration is not also read as a variable.
((declaration type: (type_identifier) declarator: (identifier) (MISSING ";")) @definition.function
  .
  (expression_statement [
    (call_expression function: [(identifier) @name (parenthesized_expression (identifier) @name)])
    (pointer_expression argument: (call_expression function: [(identifier) @name (parenthesized_expression (identifier) @name)]))
    (pointer_expression argument: (pointer_expression argument: (call_expression function: [(identifier) @name (parenthesized_expression (identifier) @name)])))
  ]))
((declaration type: (type_identifier) (type_qualifier) declarator: (identifier) (MISSING ";")) @definition.function
  .
  (expression_statement [
    (call_expression function: [(identifier) @name (parenthesized_expression (identifier) @name)])
    (pointer_expression argument: (call_expression function: [(identifier) @name (parenthesized_expression (identifier) @name)]))
    (pointer_expression argument: (pointer_expression argument: (call_expression function: [(identifier) @name (parenthesized_expression (identifier) @name)])))
  ]))

; `API_DATA T name;` reads the same way with a lone identifier after the MISSING ";": an
; `extern`-style global declaration of name (the resolver treats a variable holding a variable so).
((declaration type: (type_identifier) declarator: (identifier) (MISSING ";")) @definition.variable
  .
  [(expression_statement (identifier) @name) (type_identifier) @name])
((declaration type: (type_identifier) (type_qualifier) declarator: (identifier) (MISSING ";")) @definition.variable
  .
  [(expression_statement (identifier) @name) (type_identifier) @name])

; ---------------------------------------------------------------- variables (globals and locals)
(declaration
  (storage_class_specifier) @visibility (#any-of? @visibility "static" "extern")
  type: (_) @type
  declarator: [
    (identifier) @name
    (pointer_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name))
    (array_declarator declarator: (identifier) @name)
    (array_declarator declarator: (array_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (array_declarator declarator: (identifier) @name))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (array_declarator declarator: (identifier) @name))))
    (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))
    (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (array_declarator declarator: (identifier) @name)))))
    (init_declarator
      declarator: [
        (identifier) @name
        (pointer_declarator declarator: (identifier) @name)
        (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name))
        (array_declarator declarator: (identifier) @name)
        (array_declarator declarator: (array_declarator declarator: (identifier) @name))
        (pointer_declarator declarator: (array_declarator declarator: (identifier) @name))
        (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
        (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (array_declarator declarator: (identifier) @name))))
        (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))
        (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (array_declarator declarator: (identifier) @name)))))
      ]
      value: (_) @value)
  ] @definition.variable)

(declaration
  type: (_) @type
  declarator: [
    (identifier) @name
    (pointer_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name))
    (array_declarator declarator: (identifier) @name)
    (array_declarator declarator: (array_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (array_declarator declarator: (identifier) @name))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (array_declarator declarator: (identifier) @name))))
    (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))
    (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (array_declarator declarator: (identifier) @name)))))
    (init_declarator
      declarator: [
        (identifier) @name
        (pointer_declarator declarator: (identifier) @name)
        (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name))
        (array_declarator declarator: (identifier) @name)
        (array_declarator declarator: (array_declarator declarator: (identifier) @name))
        (pointer_declarator declarator: (array_declarator declarator: (identifier) @name))
        (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
        (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (array_declarator declarator: (identifier) @name))))
        (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))
        (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (array_declarator declarator: (identifier) @name)))))
      ]
      value: (_) @value)
  ] @definition.variable)

; `API_MACRO int (*name)(params) ATTR;` (Redis module API): the grammar nests two function declarators
; with the `*` in an ERROR and the name as the only "parameter" type: a function-pointer global.
(function_declarator
  declarator: (function_declarator
    declarator: (identifier)
    parameters: (parameter_list . (ERROR) . (parameter_declaration type: (type_identifier) @name !declarator) .))) @definition.variable

; ---------------------------------------------------------------- parameters
(parameter_declaration
  declarator: [
    (identifier) @name
    (pointer_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @name)))
    (array_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (array_declarator declarator: (identifier) @name))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
    (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))
    (function_declarator declarator: (identifier) @name)
  ]) @local.param

; ---------------------------------------------------------------- tag types and typedefs
(struct_specifier name: (type_identifier) @name body: (field_declaration_list) @body) @definition.struct
(union_specifier name: (type_identifier) @name body: (field_declaration_list) @body) @definition.union
(enum_specifier name: (type_identifier) @name body: (enumerator_list) @body) @definition.enum

(type_definition type: (struct_specifier !name body: (field_declaration_list)) declarator: (type_identifier) @name) @definition.struct
(type_definition type: (union_specifier !name body: (field_declaration_list)) declarator: (type_identifier) @name) @definition.union
(type_definition type: (enum_specifier !name body: (enumerator_list)) declarator: (type_identifier) @name) @definition.enum

(type_definition
  declarator: [
    (type_identifier) @name
    (pointer_declarator declarator: (type_identifier) @name)
    (pointer_declarator declarator: (pointer_declarator declarator: (type_identifier) @name))
    (array_declarator declarator: (type_identifier) @name)
    (function_declarator declarator: (type_identifier) @name)
    (function_declarator declarator: (parenthesized_declarator (type_identifier) @name))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (pointer_declarator declarator: (type_identifier) @name))))
  ]) @definition.type

; ---------------------------------------------------------------- calls
(call_expression function: (identifier) @name arguments: (argument_list)) @reference.call
(call_expression
  function: (field_expression argument: (_) @receiver field: (field_identifier) @name)
  arguments: (argument_list)) @reference.call
(call_expression
  function: (parenthesized_expression (identifier) @name) @callee
  arguments: (argument_list)) @reference.call
(call_expression
  function: [(parenthesized_expression) (subscript_expression) (call_expression) (pointer_expression) (cast_expression)] @callee
  arguments: (argument_list)) @reference.call

; ---------------------------------------------------------------- type uses
(_ type: (type_identifier) @reference.type @name)
(struct_specifier "struct" @receiver name: (type_identifier) @reference.type @name !body)
(union_specifier "union" @receiver name: (type_identifier) @reference.type @name !body)
(enum_specifier "enum" @receiver name: (type_identifier) @reference.type @name !body)

; ---------------------------------------------------------------- functions and globals used as values
(argument_list (identifier) @reference.value @name)
(assignment_expression right: (identifier) @reference.value @name)
(init_declarator value: (identifier) @reference.value @name)
(initializer_list (identifier) @reference.value @name)
(initializer_pair value: (identifier) @reference.value @name)
(return_statement (identifier) @reference.value @name)
(pointer_expression operator: "&" argument: (identifier) @reference.value @name)
(conditional_expression consequence: (identifier) @reference.value @name)
(conditional_expression alternative: (identifier) @reference.value @name)
