; Java tags for drsg (grammar: tree-sitter-java). Glossary of what this file emits:
;
;   @definition.module      the `package` declaration (name = the dotted package); not a node,
;                           the resolver reads it as the file's package
;   @definition.class       class, record (@type "record"), anonymous class body (@type "new",
;                           name = the instantiated type, primary node = the body)
;   @definition.interface   interface, annotation type (@type "@interface")
;   @definition.enum        enum
;   @definition.type        a type parameter `<T extends B>` (@extends = bound); not a node, the
;                           resolver uses it to tell type variables from class names
;   @definition.method      method, annotation element (@returns = declared return type)
;   @definition.constructor constructor, compact record constructor
;   @definition.field       field (one per declarator; the first declarator's match spans the
;                           whole declaration so docs and signature come with it), record component
;   @definition.constant    enum constant
;   @definition.variable    a method / constructor parameter (@type; name = the parameter as
;                           written, so it never reads as an identifier other files could use);
;                           not a node: it makes the parameter types part of the definitions,
;                           which overload keys need even when a partial comes without locals
;   detail on definitions:  @decorator = every modifier as written (annotations and keywords; the
;                           resolver splits them into `decorators`, `visibility`, static, abstract),
;                           @extends / @implements (supertypes as written), @params (arity),
;                           @type (declared type of a field; the keyword of a type declaration)
;
;   @reference.call         `m(..)`, `recv.m(..)` (@receiver), `this(..)` / `super(..)` (name = this|super)
;   @reference.new          `new T(..)` (name = T as written)
;   @reference.value        `recv.field` (@receiver), method references `T::m`, `this::m`
;   @reference.type         casts, `instanceof`, class literals `T.class`, `throws`
;
;   @import                 one per import declaration: @source = the dotted name, @wildcard for
;                           `.*`, @static for `import static`
;
;   @local.param            method / constructor parameters (@type)
;   @local                  local variables (@type; `var` with @new / @call + @call_receiver),
;                           enhanced-for, catch, resource, pattern and lambda bindings; @scope is
;                           the block (statement, lambda) outside which the binding is not visible

; ---------------------------------------------------------------- package
(package_declaration [(scoped_identifier) (identifier)] @name) @definition.module

; ---------------------------------------------------------------- types
(class_declaration
  (modifiers _* @decorator)?
  "class" @type
  name: (identifier) @name
  superclass: (superclass (_) @extends)?
  interfaces: (super_interfaces (type_list (_) @implements ("," (_) @implements)*))?
  body: (class_body) @body) @definition.class

(record_declaration
  (modifiers _* @decorator)?
  "record" @type
  name: (identifier) @name
  parameters: (formal_parameters) @params
  interfaces: (super_interfaces (type_list (_) @implements ("," (_) @implements)*))?
  body: (class_body) @body) @definition.class

(interface_declaration
  (modifiers _* @decorator)?
  "interface" @type
  name: (identifier) @name
  (extends_interfaces (type_list (_) @extends ("," (_) @extends)*))?
  body: (interface_body) @body) @definition.interface

(annotation_type_declaration
  (modifiers _* @decorator)?
  "@interface" @type
  name: (identifier) @name
  body: (annotation_type_body) @body) @definition.interface

(enum_declaration
  (modifiers _* @decorator)?
  "enum" @type
  name: (identifier) @name
  interfaces: (super_interfaces (type_list (_) @implements ("," (_) @implements)*))?
  body: (enum_body) @body) @definition.enum

; anonymous class: the body is the definition, so the `new` site and its arguments stay with the
; enclosing method
(object_creation_expression
  "new" @type
  type: (_) @name @extends
  (class_body) @definition.class)

(type_parameter
  (type_identifier) @name
  (type_bound (_) @extends)?) @definition.type

; ---------------------------------------------------------------- members
(method_declaration
  (modifiers _* @decorator)?
  type: (_) @returns
  name: (identifier) @name
  parameters: (formal_parameters) @params
  [(block) ";"] @body) @definition.method

(annotation_type_element_declaration
  (modifiers _* @decorator)?
  type: (_) @returns
  name: (identifier) @name) @definition.method

(constructor_declaration
  (modifiers _* @decorator)?
  name: (identifier) @name
  parameters: (formal_parameters) @params
  body: (constructor_body) @body) @definition.constructor

(compact_constructor_declaration
  (modifiers _* @decorator)?
  name: (identifier) @name
  body: (block) @body) @definition.constructor

; first declarator: the whole declaration is the definition (docs, modifiers, signature)
(field_declaration
  (modifiers _* @decorator)?
  type: (_) @type
  .
  declarator: (variable_declarator name: (identifier) @name value: (_)? @body)) @definition.field

; further declarators of `int a, b;`
(field_declaration
  (modifiers _* @decorator)?
  type: (_) @type
  (variable_declarator)
  .
  declarator: (variable_declarator name: (identifier) @name) @definition.field)

(constant_declaration
  (modifiers _* @decorator)?
  type: (_) @type
  .
  declarator: (variable_declarator name: (identifier) @name value: (_)? @body)) @definition.field

(constant_declaration
  (modifiers _* @decorator)?
  type: (_) @type
  (variable_declarator)
  .
  declarator: (variable_declarator name: (identifier) @name) @definition.field)

(record_declaration
  parameters: (formal_parameters
    (formal_parameter (modifiers _* @decorator)? type: (_) @type name: (identifier) @name) @definition.field))

(enum_constant
  (modifiers _* @decorator)?
  name: (identifier) @name
  arguments: (argument_list)? @params) @definition.constant

(method_declaration
  parameters: (formal_parameters
    (formal_parameter type: (_) @type) @name @definition.variable))

(method_declaration
  parameters: (formal_parameters
    (spread_parameter) @type @name @definition.variable))

(constructor_declaration
  parameters: (formal_parameters
    (formal_parameter type: (_) @type) @name @definition.variable))

(constructor_declaration
  parameters: (formal_parameters
    (spread_parameter) @type @name @definition.variable))

; ---------------------------------------------------------------- references
(method_invocation
  object: (_) @receiver
  name: (identifier) @name
  arguments: (argument_list) @arguments) @reference.call

(method_invocation
  !object
  name: (identifier) @name
  arguments: (argument_list) @arguments) @reference.call

(explicit_constructor_invocation
  constructor: [(this) (super)] @name
  arguments: (argument_list) @arguments) @reference.call

(object_creation_expression
  type: (_) @name
  arguments: (argument_list) @arguments) @reference.new

(field_access
  object: (_) @receiver
  field: (identifier) @name) @reference.value

(method_reference
  .
  (_) @receiver
  .
  (identifier) @name) @reference.value

(cast_expression type: (_) @name) @reference.type
(instanceof_expression right: (_) @name) @reference.type
(class_literal (_) @name) @reference.type
(throws (_) @name @reference.type)

; ---------------------------------------------------------------- imports
(import_declaration
  "static"? @static
  [(scoped_identifier) (identifier)] @source
  (asterisk)? @wildcard) @import

; ---------------------------------------------------------------- locals
(method_declaration
  parameters: (formal_parameters
    (formal_parameter type: (_) @type name: (identifier) @name) @local.param))

(method_declaration
  parameters: (formal_parameters
    (spread_parameter (variable_declarator name: (identifier) @name)) @type @local.param))

(constructor_declaration
  parameters: (formal_parameters
    (formal_parameter type: (_) @type name: (identifier) @name) @local.param))

(constructor_declaration
  parameters: (formal_parameters
    (spread_parameter (variable_declarator name: (identifier) @name)) @type @local.param))

(_
  (local_variable_declaration
    type: (_) @type
    declarator: (variable_declarator name: (identifier) @name) @local)) @scope

; `var x = new T(..)`, `var x = recv.m(..)`, `var x = (T) e`
(_
  (local_variable_declaration
    declarator: (variable_declarator
      name: (identifier) @name
      value: (object_creation_expression type: (_) @new)) @local)) @scope

(_
  (local_variable_declaration
    declarator: (variable_declarator
      name: (identifier) @name
      value: (method_invocation object: (_)? @call_receiver name: (identifier) @call)) @local)) @scope

(_
  (local_variable_declaration
    declarator: (variable_declarator
      name: (identifier) @name
      value: (cast_expression type: (_) @type)) @local)) @scope

(enhanced_for_statement
  type: (_) @type
  name: (identifier) @name @local) @scope

(catch_clause
  (catch_formal_parameter
    (catch_type) @type
    name: (identifier) @name) @local) @scope

(try_with_resources_statement
  (resource_specification
    (resource type: (_) @type name: (identifier) @name) @local)) @scope

(try_with_resources_statement
  (resource_specification
    (resource name: (identifier) @name value: (object_creation_expression type: (_) @new)) @local)) @scope

(lambda_expression
  parameters: (identifier) @name @local) @scope

(lambda_expression
  parameters: (inferred_parameters (identifier) @name @local)) @scope

(lambda_expression
  parameters: (formal_parameters
    (formal_parameter type: (_) @type name: (identifier) @name) @local)) @scope

(instanceof_expression
  right: (_) @type
  name: (identifier) @name) @local

(type_pattern (_) @type (identifier) @name) @local
