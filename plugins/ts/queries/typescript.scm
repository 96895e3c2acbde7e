; starter query (to be completed)
(function_declaration name: (identifier) @name parameters: (formal_parameters) @params body: (statement_block) @body) @definition.function
(class_declaration name: (type_identifier) @name body: (class_body) @body) @definition.class
(method_definition name: (property_identifier) @name parameters: (formal_parameters) @params body: (statement_block) @body) @definition.method
(call_expression function: (identifier) @name arguments: (arguments) @arguments) @reference.call
(call_expression function: (member_expression object: (_) @receiver property: (property_identifier) @name) arguments: (arguments) @arguments) @reference.call
(new_expression constructor: (identifier) @name) @reference.new
(import_statement (import_clause (named_imports (import_specifier name: (identifier) @name alias: (identifier)? @alias))) source: (string (string_fragment) @source)) @import.esm
