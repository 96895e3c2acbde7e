; C++, for the generic resolver.
; Emits: @definition.module (namespace), .class, .struct, .enum, .type, .function, .method
;        (in-class and out-of-line Class::m, owner recorded); @reference.call, @reference.new;
;        @import.include.
(namespace_definition name: (_) @name body: (declaration_list) @body) @definition.module
(class_specifier name: (type_identifier) @name body: (field_declaration_list) @body) @definition.class
(struct_specifier name: (type_identifier) @name body: (field_declaration_list) @body) @definition.struct
(enum_specifier name: (type_identifier) @name) @definition.enum
(type_definition declarator: (type_identifier) @name) @definition.type
(function_definition declarator: (function_declarator declarator: (identifier) @name parameters: (parameter_list) @params) body: (compound_statement) @body) @definition.function
(function_definition declarator: (function_declarator declarator: (field_identifier) @name parameters: (parameter_list) @params) body: (compound_statement) @body) @definition.method
(function_definition declarator: (function_declarator declarator: (qualified_identifier scope: (_) @owner name: (identifier) @name) parameters: (parameter_list) @params) body: (compound_statement) @body) @definition.method
(call_expression function: (identifier) @name arguments: (argument_list) @arguments) @reference.call
(call_expression function: (field_expression argument: (_) @receiver field: (field_identifier) @name) arguments: (argument_list) @arguments) @reference.call
(call_expression function: (qualified_identifier scope: (_) @receiver name: (identifier) @name) arguments: (argument_list) @arguments) @reference.call
(new_expression type: (type_identifier) @name) @reference.new
(preproc_include path: (_) @source) @import.include
