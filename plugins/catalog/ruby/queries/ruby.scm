; Ruby, for the generic resolver.
; Emits: @definition.method (def, def self.x, alias), @definition.class, @definition.module,
;        @reference.call (method calls with and without a receiver),
;        @import.require (require / require_relative "x").

(method name: (_) @name parameters: (method_parameters)? @params) @definition.method
(singleton_method name: (_) @name parameters: (method_parameters)? @params) @definition.method
(alias name: (_) @name) @definition.method

(class name: [(constant) @name (scope_resolution name: (_) @name)] superclass: (superclass (_) @extends)?) @definition.class
(singleton_class value: [(constant) @name (scope_resolution name: (_) @name)]) @definition.class
(module name: [(constant) @name (scope_resolution name: (_) @name)]) @definition.module

; a call with a receiver: recv.m(...)
(call receiver: (_) @receiver method: (identifier) @name arguments: (argument_list)? @arguments) @reference.call
; a call without a receiver: m(...) / m arg
((call !receiver method: (identifier) @name arguments: (argument_list)? @arguments) @reference.call
  (#not-match? @name "^(require|require_relative|load|attr_accessor|attr_reader|attr_writer|include|extend|private|public|protected)$"))

((call method: (identifier) @_req arguments: (argument_list (string (string_content) @source))) @import.require
  (#match? @_req "^(require|require_relative|load)$"))
