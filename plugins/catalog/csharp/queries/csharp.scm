; C#, for the generic resolver.
; Emits: @definition.module (namespace), .class, .interface, .struct, .enum, .method,
;        .constructor, .field (properties); @reference.call, @reference.new; @import.using.
(namespace_declaration name: (_) @name body: (declaration_list) @body) @definition.module
(class_declaration name: (identifier) @name (base_list (_) @extends)? body: (declaration_list) @body) @definition.class
(interface_declaration name: (identifier) @name body: (declaration_list) @body) @definition.interface
(struct_declaration name: (identifier) @name body: (declaration_list) @body) @definition.struct
(enum_declaration name: (identifier) @name) @definition.enum
(method_declaration name: (identifier) @name parameters: (parameter_list) @params body: (_)? @body) @definition.method
(constructor_declaration name: (identifier) @name parameters: (parameter_list) @params body: (_)? @body) @definition.constructor
(property_declaration name: (identifier) @name) @definition.field
(invocation_expression function: (identifier) @name arguments: (argument_list) @arguments) @reference.call
(invocation_expression function: (member_access_expression expression: (_) @receiver name: (identifier) @name) arguments: (argument_list) @arguments) @reference.call
(object_creation_expression type: (identifier) @name) @reference.new
(using_directive (_) @source) @import.using
