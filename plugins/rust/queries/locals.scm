; Rust local bindings (what a receiver's type may be read from).
; Emits:
;   Bindings carry where they are visible: from the primary node (or the end of @after) to the end
;   of @scope (the enclosing block, loop body, closure, `if let` branch); a binding with no @scope
;   is visible to the end of its function.
;   @local        `let x: T = ..` (@type; the primary node is the closing `;`, where the binding starts), `let x = <expr>` (@alias_of = the initialiser as written,
;                 typed by the resolver: `T::new()`, `T { .. }`, `f()?`, `y`, `a.b()` ...), and every
;                 other binding a pattern introduces (`for x in`, `if let Some(x)`, match arms,
;                 closure parameters ...) with no type, so a shadowing binding is never mistaken for
;                 an earlier typed one
;                 `for x in <expr>` (@call = the `for` keyword, @alias_of = the iterable),
;                 `if let Some(x) = <expr>` / `while let Ok(x) = ..` / a match arm `E::V(x) =>`
;                 (@call = the variant, @alias_of = the scrutinee) and a match arm `x =>` are typed by
;                 the resolver from what they unpack
;   @local.param  fn and closure parameters `x: T` / `mut x: &T` (@type)
;   @local named `impl` (a keyword, so never a real binding): an `impl Trait for Type` header,
;                 @type = the trait as written, @alias_of = the Self type as written, @new = its
;                 generic parameters, @call_receiver = its where clause; it records impls that define
;                 no methods (marker traits) for IMPLEMENTS, and the bounds of the impl's generics
;                 (a generic inherent impl is recorded too, without @type)
;   @local named `derive`: a `#[derive(..)]` list (see the last pattern)

(block (let_declaration pattern: (identifier) @name type: (_)? @type value: (_)? @alias_of ";" @local)) @scope
(impl_item "impl" @name type_parameters: (_)? @new trait: (_) @type type: (_) @alias_of (where_clause)? @call_receiver) @local
(impl_item "impl" @name type_parameters: (_) @new !trait type: (_) @alias_of (where_clause)? @call_receiver) @local
(parameters (parameter pattern: (identifier) @name type: (_) @type) @local.param)
(parameters (parameter pattern: (mut_pattern (identifier) @name) type: (_) @type) @local.param)
(closure_expression parameters: (closure_parameters (parameter pattern: (identifier) @name type: (_) @type) @local.param)) @scope
(closure_expression parameters: (closure_parameters (identifier) @name) @local.param) @scope

(for_expression "for" @call pattern: (identifier) @name value: (_) @alias_of body: (block) @local @scope)
(let_condition pattern: (identifier) @name) @local
(if_expression condition: (let_condition pattern: (tuple_struct_pattern type: (_) @call . (identifier) @name .) @local value: (_) @alias_of @after) consequence: (block) @scope)
(while_expression condition: (let_condition pattern: (tuple_struct_pattern type: (_) @call . (identifier) @name .) @local value: (_) @alias_of @after) body: (block) @scope)
(match_expression value: (_) @alias_of body: (match_block (match_arm pattern: (match_pattern (tuple_struct_pattern type: (_) @call . (identifier) @name .) @local .)) @scope))
(match_expression value: (_) @alias_of body: (match_block (match_arm pattern: (match_pattern . (identifier) @name .) @local) @scope))
(tuple_pattern (identifier) @name) @local
(tuple_struct_pattern (identifier) @name) @local
(slice_pattern (identifier) @name) @local
(ref_pattern (identifier) @name) @local
(mut_pattern (identifier) @name) @local
(reference_pattern (identifier) @name) @local
(captured_pattern (identifier) @name) @local
(or_pattern (identifier) @name) @local
(match_pattern (identifier) @name) @local
(field_pattern name: (shorthand_field_identifier) @name) @local
(field_pattern pattern: (identifier) @name) @local

; `#[derive(Trait, ..)]` on a struct / enum / union: a binding named `derive` whose scope is the
; type itself (never a real binding: those live in functions), @type = the derive list as written,
; @alias_of = the type's name. Derived impls are IMPLEMENTS and provide the derived methods.
((attribute_item (attribute (identifier) @name arguments: (token_tree) @type) (#eq? @name "derive"))
  .
  [(attribute_item) (line_comment) (block_comment)]*
  .
  [(struct_item name: (type_identifier) @alias_of) (enum_item name: (type_identifier) @alias_of) (union_item name: (type_identifier) @alias_of)] @local)
