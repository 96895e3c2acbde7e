; Go definitions.
; Emits:
;   @definition.function   func F(...)              @params @returns @body
;   @definition.method     func (r *T) M(...)       @owner (receiver type as written) @params @returns @body
;   @definition.method     interface method M(...)  (parent: the interface) @params @returns
;   @definition.struct     type T struct {...}
;   @definition.interface  type I interface {...}
;   @definition.type       type T U / type T = U    @type (underlying / aliased type as written)
;   @definition.field      struct field             @type; embedded fields also @extends (the embedded type)
;   @definition.field      interface type element   @extends (embedded interface or constraint; the resolver emits EXTENDS, no node)
;   @definition.variable   package-level var        @type (declared) @value (initialiser)
;   @definition.constant   package-level const      @type
;   @definition.module     package clause           (the package name; the resolver emits one Module per package, not this)
; Local (in-function) vars and consts are not definitions: see locals.scm.

(package_clause (package_identifier) @name) @definition.module

(function_declaration
  name: (identifier) @name
  parameters: (parameter_list) @params
  result: (_)? @returns
  body: (block)? @body) @definition.function

(method_declaration
  receiver: (parameter_list (parameter_declaration type: (_) @owner))
  name: (field_identifier) @name
  parameters: (parameter_list) @params
  result: (_)? @returns
  body: (block)? @body) @definition.method

(type_spec
  name: (type_identifier) @name
  type: (struct_type (field_declaration_list) @body)) @definition.struct

(type_spec
  name: (type_identifier) @name
  type: (interface_type "{" @body)) @definition.interface

(type_spec
  name: (type_identifier) @name
  type: [
    (type_identifier) (qualified_type) (generic_type) (pointer_type) (slice_type) (array_type)
    (map_type) (channel_type) (function_type) (parenthesized_type) (negated_type)
  ] @type) @definition.type

(type_alias
  name: (type_identifier) @name
  type: (_) @type) @definition.type

(method_elem
  name: (field_identifier) @name
  parameters: (parameter_list) @params
  result: (_)? @returns) @definition.method

; Struct fields: one definition per name.
(field_declaration
  name: (field_identifier) @name @definition.field
  type: (_) @type)

; Embedded struct fields (`Base`, `*Base`, `pkg.Base`, `Base[T]`): named after the type.
(field_declaration
  !name
  type: [
    (type_identifier) @name
    (qualified_type name: (type_identifier) @name)
    (generic_type type: [(type_identifier) @name (qualified_type name: (type_identifier) @name)])
  ] @type @extends) @definition.field

; Interface type elements: an embedded interface (`io.Reader`, `Base`), or a constraint
; (`~int | ~string`) which makes the interface a constraint. Named by the element's text.
(interface_type
  (type_elem) @name @extends @definition.field)

; Package-level variables. A single-name spec with a value is the definition node itself (so
; calls in its initialiser belong to it); every name also matches the per-identifier pattern
; below, which the resolver folds into the spec (same name, same start). Their types come from
; locals.scm, which reads declarations at every level.
((var_declaration (var_spec
  . (identifier) @name
  . type: (_)? @type
  . value: (expression_list . (_) @value .)) @definition.variable) @_top (#parent-is? @_top "source_file"))
((var_declaration (var_spec_list (var_spec
  . (identifier) @name
  . type: (_)? @type
  . value: (expression_list . (_) @value .)) @definition.variable)) @_top (#parent-is? @_top "source_file"))
((var_declaration (var_spec
  (identifier) @name @definition.variable
  type: (_)? @type)) @_top (#parent-is? @_top "source_file"))
((var_declaration (var_spec_list (var_spec
  (identifier) @name @definition.variable
  type: (_)? @type))) @_top (#parent-is? @_top "source_file"))

((const_declaration (const_spec
  (identifier) @name @definition.constant
  type: (_)? @type)) @_top (#parent-is? @_top "source_file"))
