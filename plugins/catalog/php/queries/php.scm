; PHP, for the generic resolver.
; Emits: @definition.class, .interface, .trait, .function, .method, .field;
;        @reference.call (functions, methods, static calls), @reference.new; @import.use.
(class_declaration name: (name) @name body: (declaration_list) @body) @definition.class
(interface_declaration name: (name) @name body: (declaration_list) @body) @definition.interface
(trait_declaration name: (name) @name body: (declaration_list) @body) @definition.trait
(function_definition name: (name) @name parameters: (formal_parameters) @params body: (compound_statement) @body) @definition.function
(method_declaration name: (name) @name parameters: (formal_parameters) @params body: (compound_statement)? @body) @definition.method
(property_declaration (property_element (variable_name (name) @name))) @definition.field
(function_call_expression function: (name) @name arguments: (arguments) @arguments) @reference.call
(function_call_expression function: (qualified_name (name) @name) arguments: (arguments) @arguments) @reference.call
(member_call_expression object: (_) @receiver name: (name) @name arguments: (arguments) @arguments) @reference.call
(scoped_call_expression scope: (_) @receiver name: (name) @name arguments: (arguments) @arguments) @reference.call
(object_creation_expression (name) @name) @reference.new
(namespace_use_clause (qualified_name) @source) @import.use
