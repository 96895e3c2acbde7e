; TypeScript (.ts .mts .cts; .tsx adds jsx.scm) for the `ts` resolver family.
;
; Glossary of what this file emits (plugins/README.md has the capture vocabulary):
;   @definition.function     function declarations; consts holding arrows / function expressions;
;                            module-level property-assigned functions (`a.b = function () {}`, with @object);
;                            `export default function () {}` (named "default")
;   @definition.function "{" hidden scopes, named "{" (not an identifier, never a fact): the body of
;                            every function expression and object-literal method. The resolver uses them
;                            to know where `this` is rebound; their references belong to the enclosing definition.
;   @definition.class / .interface / .type / .enum / .module (namespace)
;   @definition.constructor / .getter / .setter / .method   class and interface members; methods of
;                            object literals held by consts (`const svc = { m() {} }`); class fields holding functions
;   @definition.field        class fields, constructor parameter properties, interface properties (@type)
;   @definition.constant     consts holding an object literal with function members (their container)
;   @reference.call / .new   call and `new` sites (@receiver for `a.b()`); no @name = dynamic callee
;   @reference.value         identifiers passed as values (arguments, object values): functions as callbacks
;   @reference.type          type names in annotations (params, returns, fields, type arguments)
;   @import.esm / .require / .dynamic      one binding per match
;   @export                  ESM exports and re-exports; CommonJS `module.exports` / `exports.x`
;   @local / @local.param    every binding (for shadowing) and what the source declares about its type;
;                            `this.x = ...` assignments as locals named "this.x"

; ---------------------------------------------------------------- hidden scopes (`this` boundaries)
(function_expression body: (statement_block "{" @name) @definition.function)
(generator_function body: (statement_block "{" @name) @definition.function)
(object (method_definition body: (statement_block "{" @name) @definition.function))

; ---------------------------------------------------------------- functions
(function_declaration "async"? @async name: (identifier) @name parameters: (formal_parameters) @params
  return_type: (type_annotation)? @returns body: (statement_block) @body) @definition.function
(generator_function_declaration "async"? @async name: (identifier) @name parameters: (formal_parameters) @params
  return_type: (type_annotation)? @returns body: (statement_block) @body) @definition.function
(ambient_declaration (function_signature name: (identifier) @name parameters: (formal_parameters) @params
  return_type: (type_annotation)? @returns) @definition.function)
; overload signatures of a function (`export function f(a: A): X;` before its implementation): one node with it
(function_signature name: (identifier) @name parameters: (formal_parameters) @params
  return_type: (type_annotation)? @returns) @definition.function

; const f = (...) => {} / function () {} (any depth: nested ones are keyed under their container)
(variable_declarator name: (identifier) @name type: (type_annotation)? @type
  value: (arrow_function "async"? @async parameters: (formal_parameters)? @params return_type: (type_annotation)? @returns body: (_) @body) @value) @definition.function
(variable_declarator name: (identifier) @name type: (type_annotation)? @type
  value: [(function_expression "async"? @async parameters: (formal_parameters) @params return_type: (type_annotation)? @returns body: (_) @body)
          (generator_function "async"? @async parameters: (formal_parameters) @params return_type: (type_annotation)? @returns body: (_) @body)] @value) @definition.function
(variable_declarator name: (identifier) @name
  value: (class (class_heritage (extends_clause value: (_) @extends)?)? body: (class_body) @body) @value) @definition.class

; export default function () {} / export default () => {} / export default class {}
(export_statement "default" @name value: [(function_expression "async"? @async return_type: (type_annotation)? @returns body: (_) @body)
                                            (arrow_function "async"? @async return_type: (type_annotation)? @returns body: (_) @body)] @value) @definition.function
(export_statement "default" @name value: (class (class_heritage (extends_clause value: (_) @extends)?)? body: (class_body) @body)) @definition.class

; export default { m() {}, n: () => {} }: an object named "default" and its members
(export_statement "default" @name
  value: (object [(method_definition) (pair value: [(arrow_function) (function_expression)])]) @value) @definition.constant
(export_statement "default" value: (object (method_definition "async"? @async name: (property_identifier) @name
  parameters: (formal_parameters) @params body: (statement_block) @body) @definition.method))
(export_statement "default" value: (object (pair key: (property_identifier) @name
  value: [(arrow_function "async"? @async body: (_) @body) (function_expression "async"? @async body: (_) @body)] @value) @definition.method))

; CommonJS and prototype style, module level: exports.x = ..., module.exports.y = ..., res.send = function send () {},
; View.prototype.lookup = function () {}; also the inner target of `a.b = c.d = function () {}`
((expression_statement (assignment_expression
  left: (member_expression object: [(identifier) (member_expression)] @object property: (property_identifier) @name)
  right: [(function_expression "async"? @async return_type: (type_annotation)? @returns body: (_) @body)
          (arrow_function "async"? @async return_type: (type_annotation)? @returns body: (_) @body)
          (generator_function body: (_) @body)] @value) @definition.function) @_top (#parent-is? @_top "program"))
((expression_statement (assignment_expression
  left: (member_expression object: [(identifier) (member_expression)] @object property: (property_identifier) @name)
  right: (assignment_expression right: [(function_expression) (arrow_function)]) @value) @definition.function) @_top (#parent-is? @_top "program"))
((expression_statement (assignment_expression right: (assignment_expression
  left: (member_expression object: [(identifier) (member_expression)] @object property: (property_identifier) @name)
  right: [(function_expression "async"? @async body: (_) @body) (arrow_function "async"? @async body: (_) @body)] @value) @definition.function)) @_top (#parent-is? @_top "program"))
; module.exports = { m() {}, n: () => {} }: members of the module itself
((expression_statement (assignment_expression
  left: (member_expression) @object (#eq? @object "module.exports")
  right: (object (method_definition "async"? @async name: (property_identifier) @name parameters: (formal_parameters) @params body: (statement_block) @body) @definition.function))) @_top (#parent-is? @_top "program"))
((expression_statement (assignment_expression
  left: (member_expression) @object (#eq? @object "module.exports")
  right: (object (pair key: (property_identifier) @name value: [(function_expression "async"? @async body: (_) @body) (arrow_function "async"? @async body: (_) @body)] @value) @definition.function))) @_top (#parent-is? @_top "program"))

; ---------------------------------------------------------------- classes, interfaces, types
(class_declaration name: (type_identifier) @name
  (class_heritage (extends_clause value: (_) @extends)? (implements_clause (_) @implements ("," (_) @implements)*)?)?
  body: (class_body) @body) @definition.class
(abstract_class_declaration name: (type_identifier) @name
  (class_heritage (extends_clause value: (_) @extends)? (implements_clause (_) @implements ("," (_) @implements)*)?)?
  body: (class_body) @body) @definition.class
(interface_declaration name: (type_identifier) @name
  (extends_type_clause type: (_) @extends ("," type: (_) @extends)*)?
  body: (interface_body) @body) @definition.interface
(type_alias_declaration name: (type_identifier) @name value: (_) @type) @definition.type
(enum_declaration name: (identifier) @name body: (enum_body) @body) @definition.enum
(internal_module name: (identifier) @name body: (statement_block) @body) @definition.module
(module name: (identifier) @name body: (statement_block) @body) @definition.module

; class members (children of a class_body; for one node, the first pattern here wins)
((method_definition (accessibility_modifier)? @visibility "static"? @static "async"? @async
  name: (property_identifier) @name (#eq? @name "constructor") parameters: (formal_parameters) @params body: (statement_block) @body) @_top @definition.constructor (#parent-is? @_top "class_body"))
((method_definition (accessibility_modifier)? @visibility "static"? @static "get"
  name: [(property_identifier) (private_property_identifier)] @name parameters: (formal_parameters) @params
  return_type: (type_annotation)? @returns body: (statement_block) @body) @_top @definition.getter (#parent-is? @_top "class_body"))
((method_definition (accessibility_modifier)? @visibility "static"? @static "set"
  name: [(property_identifier) (private_property_identifier)] @name parameters: (formal_parameters) @params body: (statement_block) @body) @_top @definition.setter (#parent-is? @_top "class_body"))
((method_definition (accessibility_modifier)? @visibility "static"? @static "async"? @async
  name: [(property_identifier) (private_property_identifier)] @name parameters: (formal_parameters) @params
  return_type: (type_annotation)? @returns body: (statement_block) @body) @_top @definition.method (#parent-is? @_top "class_body"))
([(method_signature (accessibility_modifier)? @visibility "static"? @static
               name: [(property_identifier) (private_property_identifier)] @name parameters: (formal_parameters) @params return_type: (type_annotation)? @returns)
             (abstract_method_signature (accessibility_modifier)? @visibility
               name: [(property_identifier) (private_property_identifier)] @name parameters: (formal_parameters) @params return_type: (type_annotation)? @returns)] @_top @definition.method (#parent-is? @_top "class_body"))
((public_field_definition (accessibility_modifier)? @visibility "static"? @static
  name: [(property_identifier) (private_property_identifier)] @name type: (type_annotation)? @type
  value: [(arrow_function "async"? @async parameters: (formal_parameters)? @params return_type: (type_annotation)? @returns body: (_) @body)
          (function_expression "async"? @async parameters: (formal_parameters) @params return_type: (type_annotation)? @returns body: (_) @body)] @value) @_top @definition.method (#parent-is? @_top "class_body"))
((public_field_definition (accessibility_modifier)? @visibility "static"? @static
  name: [(property_identifier) (private_property_identifier)] @name type: (type_annotation)? @type value: (_)? @value
  (#not-match? @value "^(async[ \t]|function[ \t(*]|[(<]|[A-Za-z_$][A-Za-z0-9_$]*[ \t]*=>)")) @_top @definition.field (#parent-is? @_top "class_body"))
; constructor parameter properties: constructor(private readonly svc: Svc)
(required_parameter (accessibility_modifier) @visibility pattern: (identifier) @name type: (type_annotation)? @type) @definition.field
(required_parameter "readonly" pattern: (identifier) @name type: (type_annotation)? @type) @definition.field
(optional_parameter (accessibility_modifier) @visibility pattern: (identifier) @name type: (type_annotation)? @type) @definition.field
(optional_parameter "readonly" pattern: (identifier) @name type: (type_annotation)? @type) @definition.field

; interface members
((method_signature name: (property_identifier) @name parameters: (formal_parameters) @params
  return_type: (type_annotation)? @returns) @_top @definition.method (#parent-is? @_top "interface_body"))
((property_signature name: (property_identifier) @name type: (type_annotation)? @type) @_top @definition.field (#parent-is? @_top "interface_body"))

; object literals held by consts: `const svc = { m() {}, n: () => {} }` (the const, then its members)
(variable_declarator name: (identifier) @name type: (type_annotation)? @type
  value: (object [(method_definition) (pair value: [(arrow_function) (function_expression)])]) @value) @definition.constant
(variable_declarator value: (object (method_definition "async"? @async name: (property_identifier) @name
  parameters: (formal_parameters) @params return_type: (type_annotation)? @returns body: (statement_block) @body) @definition.method))
(variable_declarator value: (object (pair key: (property_identifier) @name
  value: [(arrow_function "async"? @async return_type: (type_annotation)? @returns body: (_) @body)
          (function_expression "async"? @async return_type: (type_annotation)? @returns body: (_) @body)] @value) @definition.method))

; ---------------------------------------------------------------- references
(call_expression function: (identifier) @name (#not-eq? @name "require") arguments: (arguments) @arguments) @reference.call
(call_expression function: (member_expression object: (_) @receiver
  property: [(property_identifier) (private_property_identifier)] @name) arguments: (arguments) @arguments) @reference.call
(call_expression function: (super) @name arguments: (arguments) @arguments) @reference.call
; tagged templates are calls of their tag (`html`<p>${x}</p>``, `sql.raw`...``)
(call_expression function: (identifier) @name arguments: (template_string)) @reference.call
(call_expression function: (member_expression object: (_) @receiver
  property: [(property_identifier) (private_property_identifier)] @name) arguments: (template_string)) @reference.call
; tree-sitter-typescript reads `await a.b<T>(x)` as a call of `await a.b`: the callee is the member inside
(call_expression function: (await_expression (identifier) @name @callee) arguments: (arguments) @arguments) @reference.call
(call_expression function: (await_expression (member_expression object: (_) @receiver
  property: [(property_identifier) (private_property_identifier)] @name) @callee) arguments: (arguments) @arguments) @reference.call
(call_expression function: [(subscript_expression) (call_expression) (non_null_expression)
  (parenthesized_expression [(identifier) (member_expression) (sequence_expression) (ternary_expression)
    (binary_expression) (as_expression) (non_null_expression) (call_expression) (subscript_expression) (await_expression)])]
  arguments: (arguments) @arguments) @reference.call
(new_expression constructor: (identifier) @name arguments: (arguments)? @arguments) @reference.new
(new_expression constructor: (this) @name arguments: (arguments)? @arguments) @reference.new
(new_expression constructor: (member_expression object: (_) @receiver property: (property_identifier) @name)
  arguments: (arguments)? @arguments) @reference.new
(new_expression constructor: [(subscript_expression) (call_expression) (parenthesized_expression)] arguments: (arguments)? @arguments) @reference.new

; functions passed as values
(arguments (identifier) @name @reference.value)
(arguments (member_expression object: [(this) (identifier)] @receiver property: (property_identifier) @name) @reference.value)
(pair value: (identifier) @name @reference.value)
(object (shorthand_property_identifier) @name @reference.value)

; types used in annotations
(type_annotation (type_identifier) @name @reference.type)
(type_annotation (generic_type name: (type_identifier) @name) @reference.type)
(type_annotation (nested_type_identifier module: (identifier) @receiver name: (type_identifier) @name) @reference.type)
(type_arguments (type_identifier) @name @reference.type)
(array_type (type_identifier) @name @reference.type)
(union_type (type_identifier) @name @reference.type)
(intersection_type (type_identifier) @name @reference.type)
(function_type return_type: (type_identifier) @name @reference.type)

; ---------------------------------------------------------------- imports
(import_statement (import_clause (named_imports (import_specifier name: (identifier) @name alias: (identifier)? @alias)))
  source: (string (string_fragment) @source)) @import.esm
(import_statement (import_clause (identifier) @default) source: (string (string_fragment) @source)) @import.esm
(import_statement (import_clause (namespace_import (identifier) @namespace)) source: (string (string_fragment) @source)) @import.esm
(import_statement source: (string (string_fragment) @source)) @import.module
(import_statement (import_require_clause (identifier) @namespace source: (string (string_fragment) @source))) @import.require
(variable_declarator name: (identifier) @namespace
  value: (call_expression function: (identifier) @_req (#eq? @_req "require") arguments: (arguments . (string (string_fragment) @source)))) @import.require
(variable_declarator name: (object_pattern (shorthand_property_identifier_pattern) @name)
  value: (call_expression function: (identifier) @_req (#eq? @_req "require") arguments: (arguments . (string (string_fragment) @source)))) @import.require
(variable_declarator name: (object_pattern (pair_pattern key: (property_identifier) @name value: (identifier) @alias))
  value: (call_expression function: (identifier) @_req (#eq? @_req "require") arguments: (arguments . (string (string_fragment) @source)))) @import.require
(variable_declarator name: (identifier) @alias
  value: (member_expression object: (call_expression function: (identifier) @_req (#eq? @_req "require")
    arguments: (arguments . (string (string_fragment) @source))) property: (property_identifier) @name)) @import.require
(call_expression function: (identifier) @_req (#eq? @_req "require") arguments: (arguments . (string (string_fragment) @source))) @import.require
(call_expression function: (import) arguments: (arguments . (string (string_fragment) @source))) @import.dynamic

; ---------------------------------------------------------------- exports
(export_statement declaration: [(function_declaration name: (identifier) @name)
                                (generator_function_declaration name: (identifier) @name)
                                (class_declaration name: (type_identifier) @name)
                                (abstract_class_declaration name: (type_identifier) @name)
                                (interface_declaration name: (type_identifier) @name)
                                (type_alias_declaration name: (type_identifier) @name)
                                (enum_declaration name: (identifier) @name)
                                (internal_module name: (identifier) @name)
                                (ambient_declaration [(function_signature name: (identifier) @name)
                                                      (class_declaration name: (type_identifier) @name)
                                                      (abstract_class_declaration name: (type_identifier) @name)])]) @export
(export_statement declaration: [(lexical_declaration (variable_declarator name: (identifier) @name))
                                (variable_declaration (variable_declarator name: (identifier) @name))]) @export
(export_statement (export_clause (export_specifier name: (identifier) @name alias: (identifier)? @alias)) !source) @export
(export_statement (export_clause (export_specifier name: (identifier) @name alias: (identifier)? @alias))
  source: (string (string_fragment) @source)) @export
(export_statement "*" @star source: (string (string_fragment) @source)) @export
(export_statement (namespace_export (identifier) @namespace) source: (string (string_fragment) @source)) @export
(export_statement "default" value: (identifier) @default) @export
(export_statement "default" declaration: [(function_declaration name: (identifier) @default)
                                          (generator_function_declaration name: (identifier) @default)
                                          (class_declaration name: (type_identifier) @default)
                                          (abstract_class_declaration name: (type_identifier) @default)]) @export
(export_statement "=" (identifier) @default) @export
; CommonJS
((expression_statement (assignment_expression left: (member_expression) @_me (#eq? @_me "module.exports")
  right: (identifier) @default) @export) @_top (#parent-is? @_top "program"))
((expression_statement (assignment_expression right: (assignment_expression left: (member_expression) @_me (#eq? @_me "module.exports")
  right: (identifier) @default)) @export) @_top (#parent-is? @_top "program"))
; var app = exports = module.exports = {}: `app` is what the module exports
([(variable_declaration (variable_declarator name: (identifier) @default
            value: (assignment_expression left: (member_expression) @_me (#eq? @_me "module.exports"))) @export)
          (variable_declaration (variable_declarator name: (identifier) @default
            value: (assignment_expression right: (assignment_expression left: (member_expression) @_me (#eq? @_me "module.exports")))) @export)
          (lexical_declaration (variable_declarator name: (identifier) @default
            value: (assignment_expression left: (member_expression) @_me (#eq? @_me "module.exports"))) @export)] @_top (#parent-is? @_top "program"))
((expression_statement (assignment_expression left: (member_expression) @_me (#eq? @_me "module.exports")
  right: (object (shorthand_property_identifier) @name)) @export) @_top (#parent-is? @_top "program"))
((expression_statement (assignment_expression left: (member_expression) @_me (#eq? @_me "module.exports")
  right: (object (pair key: (property_identifier) @alias value: (identifier) @name))) @export) @_top (#parent-is? @_top "program"))
((expression_statement (assignment_expression left: (member_expression object: (_) @_ex (#match? @_ex "^(module\\.)?exports$")
  property: (property_identifier) @alias) right: (identifier) @name) @export) @_top (#parent-is? @_top "program"))
; exports.json = bodyParser.json (a path as the local); exports.static = require("serve-static") (a namespace)
((expression_statement (assignment_expression left: (member_expression object: (_) @_ex (#match? @_ex "^(module\\.)?exports$")
  property: (property_identifier) @alias) right: (member_expression) @name) @export) @_top (#parent-is? @_top "program"))
((expression_statement (assignment_expression left: (member_expression object: (_) @_ex (#match? @_ex "^(module\\.)?exports$")
  property: (property_identifier) @namespace)
  right: (call_expression function: (identifier) @_req (#eq? @_req "require") arguments: (arguments . (string (string_fragment) @source)))) @export) @_top (#parent-is? @_top "program"))
; module.exports = require("./x"): this module is that one (recorded as a re-export named "module.exports")
((expression_statement (assignment_expression left: (member_expression) @namespace (#eq? @namespace "module.exports")
  right: (call_expression function: (identifier) @_req (#eq? @_req "require") arguments: (arguments . (string (string_fragment) @source)))) @export) @_top (#parent-is? @_top "program"))

; ---------------------------------------------------------------- locals (bindings and declared types)
(variable_declarator name: (identifier) @name) @local
(variable_declarator name: (identifier) @name type: (type_annotation (_) @type)) @local
(variable_declarator name: (identifier) @name value: (new_expression constructor: (_) @new)) @local
(variable_declarator name: (identifier) @name value: (await_expression (new_expression constructor: (_) @new))) @local
(variable_declarator name: (identifier) @name value: (call_expression function: (identifier) @call)) @local
(variable_declarator name: (identifier) @name
  value: (call_expression function: (member_expression object: (_) @call_receiver property: (property_identifier) @call))) @local
(variable_declarator name: (identifier) @name value: (await_expression (call_expression function: (identifier) @call))) @local
(variable_declarator name: (identifier) @name
  value: (await_expression (call_expression function: (member_expression object: (_) @call_receiver property: (property_identifier) @call)))) @local
(variable_declarator name: (identifier) @name value: [(identifier) (member_expression) (this)] @alias_of) @local

; const bindings (never reassigned): `const create = ZodObject.create` may be called as its target
(lexical_declaration kind: "const" (variable_declarator name: (identifier) @name) @local) @const
;   an object held by a const, used as a namespace (`export const Jwt = { sign, verify }`,
;   `const z = { ...schemas, iso: isoSchemas }`): each shorthand, name- or path-valued property and
;   each spread is a local `Jwt.sign` / `z.*` whose alias is what it holds (a later one overrides)
(lexical_declaration kind: "const" (variable_declarator name: (identifier) @member_of
  value: (object (shorthand_property_identifier) @name @alias_of @local)))
(lexical_declaration kind: "const" (variable_declarator name: (identifier) @member_of
  value: (object (pair key: (property_identifier) @name value: [(identifier) (member_expression)] @alias_of) @local)))
(lexical_declaration kind: "const" (variable_declarator name: (identifier) @member_of
  value: (object (spread_element [(identifier) (member_expression)] @alias_of) @spread @local)))
(lexical_declaration kind: "const" (variable_declarator name: (object_pattern (shorthand_property_identifier_pattern) @name)) @local) @const
(lexical_declaration kind: "const" (variable_declarator name: (object_pattern (pair_pattern value: (identifier) @name @local)))) @const
; return statements, as locals named "return" in their function: a function whose every return
; proves one class has that return type (the resolver infers it only then); a return inside an
; arrow function's block body (a `{` local spanning the arrow) is the arrow's, dropped
(return_statement "return" @name) @local
(return_statement "return" @name (new_expression constructor: (_) @new)) @local
(return_statement "return" @name (call_expression function: (identifier) @call)) @local
(return_statement "return" @name (call_expression function: (member_expression object: (_) @call_receiver property: (property_identifier) @call))) @local
(return_statement "return" @name [(identifier) (member_expression) (this)] @alias_of) @local
(return_statement "return" @name (call_expression function: (import) arguments: (arguments . (string (string_fragment) @import_of)))) @local
(arrow_function body: (statement_block "{" @name)) @local @scope
; an arrow function's expression body is its return (`static create = (s) => new ZodObject(s)`),
; recorded as a local named "=>" for the definition the arrow is the value of
(variable_declarator value: (arrow_function "=>" @name body: (new_expression constructor: (_) @new)) @local)
(variable_declarator value: (arrow_function "=>" @name body: (call_expression function: (identifier) @call)) @local)
(variable_declarator value: (arrow_function "=>" @name body: (call_expression function: (member_expression object: (_) @call_receiver property: (property_identifier) @call))) @local)
(variable_declarator value: (arrow_function "=>" @name
  body: (call_expression function: (import) arguments: (arguments . (string (string_fragment) @import_of)))) @local)
(variable_declarator value: (arrow_function "=>" @name body: (_)) @local)
(variable_declarator value: (arrow_function "=>" @name body: (statement_block) @scope) @local)
(public_field_definition value: (arrow_function "=>" @name body: (new_expression constructor: (_) @new)) @local)
(public_field_definition value: (arrow_function "=>" @name body: (call_expression function: (identifier) @call)) @local)
(public_field_definition value: (arrow_function "=>" @name body: (call_expression function: (member_expression object: (_) @call_receiver property: (property_identifier) @call))) @local)
(public_field_definition value: (arrow_function "=>" @name body: (_)) @local)
(public_field_definition value: (arrow_function "=>" @name body: (statement_block) @scope) @local)
(variable_declarator name: (identifier) @name value: (as_expression (_) (type_identifier) @type)) @local
(variable_declarator name: (object_pattern (shorthand_property_identifier_pattern) @name)) @local
;   destructured from a call, an awaited call or a name (`const { a, b: c } = await load()`,
;   `const { sign } = Jwt`): each name is that member (@prop) of the value
(variable_declarator name: (object_pattern (shorthand_property_identifier_pattern) @name @prop)
  value: [(call_expression function: (identifier) @call) (await_expression (call_expression function: (identifier) @call))]) @local
(variable_declarator name: (object_pattern (shorthand_property_identifier_pattern) @name @prop)
  value: [(call_expression function: (member_expression object: (_) @call_receiver property: (property_identifier) @call))
          (await_expression (call_expression function: (member_expression object: (_) @call_receiver property: (property_identifier) @call)))]) @local
(variable_declarator name: (object_pattern (shorthand_property_identifier_pattern) @name @prop)
  value: [(identifier) (member_expression) (this)] @alias_of) @local
(variable_declarator name: (object_pattern (shorthand_property_identifier_pattern) @name @prop)
  value: (await_expression (call_expression function: (import) arguments: (arguments . (string (string_fragment) @import_of))))) @local
(variable_declarator name: (object_pattern (pair_pattern key: (property_identifier) @prop value: (identifier) @name @local))
  value: (await_expression (call_expression function: (import) arguments: (arguments . (string (string_fragment) @import_of)))))
(variable_declarator name: (identifier) @name
  value: (await_expression (call_expression function: (import) arguments: (arguments . (string (string_fragment) @import_of))))) @local
(variable_declarator name: (object_pattern (pair_pattern key: (property_identifier) @prop value: (identifier) @name @local))
  value: [(call_expression function: (identifier) @call) (await_expression (call_expression function: (identifier) @call))])
(variable_declarator name: (object_pattern (pair_pattern key: (property_identifier) @prop value: (identifier) @name @local))
  value: [(call_expression function: (member_expression object: (_) @call_receiver property: (property_identifier) @call))
          (await_expression (call_expression function: (member_expression object: (_) @call_receiver property: (property_identifier) @call)))])
(variable_declarator name: (object_pattern (pair_pattern key: (property_identifier) @prop value: (identifier) @name @local))
  value: [(identifier) (member_expression) (this)] @alias_of)
(object_pattern (pair_pattern value: (identifier) @name @local))
(object_pattern (object_assignment_pattern left: (shorthand_property_identifier_pattern) @name @local))
(array_pattern (identifier) @name @local)
(array_pattern (assignment_pattern left: (identifier) @name @local))
(rest_pattern (identifier) @name @local)
(required_parameter pattern: (identifier) @name) @local.param
(required_parameter pattern: (identifier) @name type: (type_annotation (_) @type)) @local.param
(optional_parameter pattern: (identifier) @name) @local.param
(optional_parameter pattern: (identifier) @name type: (type_annotation (_) @type)) @local.param
(required_parameter pattern: (object_pattern (shorthand_property_identifier_pattern) @name)) @local.param
(arrow_function parameter: (identifier) @name) @local.param @scope @callback
; narrowing: an expression passed to a type guard (`isFoo(x)`, `assertFoo(this.a)`) or tested with
; `instanceof` has another type inside the guarded code; recorded as a local named after the expression
; whose @alias_of is the parenthesised guard, and read as "type unknown in this scope"
(call_expression function: [(identifier) @_guard (member_expression property: (property_identifier) @_guard)] (#match? @_guard "^(is|assert)[A-Z_]")
  arguments: (arguments . [(identifier) (member_expression)] @name) @alias_of) @local
(parenthesized_expression (binary_expression left: [(identifier) (member_expression)] @name "instanceof")) @local @alias_of
(parenthesized_expression (binary_expression (binary_expression left: [(identifier) (member_expression)] @name "instanceof"))) @local @alias_of
; `this.x = ...` (named "this.x", never an identifier): the scope assigns properties of `this`
; (JS: a constructor), and what a `new` initialiser makes of the property
(assignment_expression left: (member_expression object: (this) property: [(property_identifier) (private_property_identifier)]) @name) @local
(assignment_expression left: (member_expression object: (this) property: [(property_identifier) (private_property_identifier)]) @name
  right: (new_expression constructor: (_) @new)) @local
(catch_clause parameter: (identifier) @name) @local @scope
(for_in_statement left: (identifier) @name) @local
(for_in_statement kind: ["let" "const"] left: (identifier) @name) @local @scope
; block scope: `let` / `const` in a block, parameters of arrows and function expressions are visible
; only inside them (@scope ends the range, @after starts it at the block's `{`)
(statement_block "{" @after (lexical_declaration (variable_declarator name: (identifier) @name) @local)) @scope
(statement_block "{" @after (function_declaration name: (identifier) @name) @local) @scope
; @callback: when the function is an argument of a call, the parameter records the call (contextual typing)
(arrow_function parameters: (formal_parameters [(required_parameter pattern: (identifier) @name) (optional_parameter pattern: (identifier) @name)] @local.param)) @scope @callback
(function_expression parameters: (formal_parameters [(required_parameter pattern: (identifier) @name) (optional_parameter pattern: (identifier) @name)] @local.param)) @scope @callback
; an interface's call signatures, whole (a local named "(" of the interface; @call_signature its text)
(interface_body (call_signature parameters: (formal_parameters "(" @name)) @call_signature @local)
(type_parameter name: (type_identifier) @name) @local
