; Rust definitions.
; Emits:
;   @definition.method    fn / fn signature directly inside an impl or trait body
;   @definition.function  any other fn (module level, nested in a body, extern block)
;   @definition.struct / .enum / .union / .trait / .type (type alias)
;   @definition.constant  const items (incl. associated consts)
;   @definition.variable  static items
;   @definition.module    inline `mod a { ... }` (a `mod a;` declaration is an @import.mod, see imports.scm)
;   @definition.macro     macro_rules! definitions
;   @definition.field     named struct / union fields (@type) and enum variants (@type = a tuple variant's fields)
;   @impl                 impl blocks: @owner (the Self type) and @trait; definitions inside inherit them
; Detail: @name, @body (signature ends there), @visibility, @async, @returns, @params, @type, @extends (supertraits).

(impl_item trait: (_)? @trait type: (_) @owner) @impl

; methods: fns directly in impl / trait bodies
(impl_item body: (declaration_list
  (function_item
    (visibility_modifier)? @visibility
    (function_modifiers) @async
    name: (identifier) @name
    parameters: (parameters) @params
    return_type: (_)? @returns
    body: (block) @body) @definition.method)
  (#match? @async "async"))
(impl_item body: (declaration_list
  (function_item
    (visibility_modifier)? @visibility
    name: (identifier) @name
    parameters: (parameters) @params
    return_type: (_)? @returns
    body: (block) @body) @definition.method))
(trait_item body: (declaration_list
  (function_item
    (function_modifiers) @async
    name: (identifier) @name
    parameters: (parameters) @params
    return_type: (_)? @returns
    body: (block) @body) @definition.method)
  (#match? @async "async"))
(trait_item body: (declaration_list
  (function_item
    name: (identifier) @name
    parameters: (parameters) @params
    return_type: (_)? @returns
    body: (block) @body) @definition.method))
(trait_item body: (declaration_list
  (function_signature_item
    name: (identifier) @name
    parameters: (parameters) @params
    return_type: (_)? @returns) @definition.method))

; associated consts and types in impl / trait bodies
(impl_item body: (declaration_list
  (const_item (visibility_modifier)? @visibility name: (identifier) @name type: (_) @type) @definition.constant))
(impl_item body: (declaration_list
  (type_item name: (type_identifier) @name type: (_) @type) @definition.type))
(trait_item body: (declaration_list
  (const_item name: (identifier) @name type: (_) @type) @definition.constant))

; functions
(function_item
  (visibility_modifier)? @visibility
  (function_modifiers) @async
  name: (identifier) @name
  parameters: (parameters) @params
  return_type: (_)? @returns
  body: (block) @body
  (#match? @async "async")) @definition.function
(function_item
  (visibility_modifier)? @visibility
  name: (identifier) @name
  parameters: (parameters) @params
  return_type: (_)? @returns
  body: (block) @body) @definition.function
(function_signature_item
  (visibility_modifier)? @visibility
  name: (identifier) @name
  parameters: (parameters) @params
  return_type: (_)? @returns) @definition.function

; types
(struct_item (visibility_modifier)? @visibility name: (type_identifier) @name body: (_) @body) @definition.struct
(struct_item (visibility_modifier)? @visibility name: (type_identifier) @name !body) @definition.struct
(enum_item (visibility_modifier)? @visibility name: (type_identifier) @name body: (_) @body) @definition.enum
(union_item (visibility_modifier)? @visibility name: (type_identifier) @name body: (_) @body) @definition.union
(trait_item (visibility_modifier)? @visibility name: (type_identifier) @name bounds: (trait_bounds) @extends body: (_) @body) @definition.trait
(trait_item (visibility_modifier)? @visibility name: (type_identifier) @name !bounds body: (_) @body) @definition.trait
(type_item (visibility_modifier)? @visibility name: (type_identifier) @name type: (_) @type) @definition.type

; fields and variants
(field_declaration (visibility_modifier)? @visibility name: (field_identifier) @name type: (_) @type) @definition.field
(enum_variant (visibility_modifier)? @visibility name: (identifier) @name body: (ordered_field_declaration_list)? @type) @definition.field

; consts, statics
(const_item (visibility_modifier)? @visibility name: (identifier) @name type: (_) @type) @definition.constant
(static_item (visibility_modifier)? @visibility name: (identifier) @name type: (_) @type) @definition.variable

; modules, macros
(mod_item (visibility_modifier)? @visibility name: (identifier) @name body: (declaration_list) @body) @definition.module
(macro_definition name: (identifier) @name) @definition.macro
