; Scala, for the generic resolver.
; Emits: @definition.class (class, object, case class), .trait, .enum, .function (def), .type,
;        .constant (val); @reference.call, @reference.new; @import.
(class_definition name: (identifier) @name body: (template_body)? @body) @definition.class
(object_definition name: (identifier) @name body: (template_body)? @body) @definition.class
(trait_definition name: (identifier) @name body: (template_body)? @body) @definition.trait
(enum_definition name: (identifier) @name) @definition.enum
(function_definition name: (identifier) @name parameters: (parameters)? @params body: (_) @body) @definition.function
(type_definition name: (type_identifier) @name) @definition.type
(call_expression function: (identifier) @name arguments: (arguments) @arguments) @reference.call
(call_expression function: (field_expression value: (_) @receiver field: (identifier) @name) arguments: (arguments) @arguments) @reference.call
(instance_expression (type_identifier) @name) @reference.new
(import_declaration path: (_) @source) @import
