; Bash, for the generic resolver.
; Emits: @definition.function; @reference.call (every command: a function of the script binds,
;        an external program stays unresolved); @import.source (source / . FILE).
(function_definition name: (word) @name body: (_) @body) @definition.function
(command name: (command_name (word) @name) @callee) @reference.call
((command name: (command_name (word) @_cmd) argument: (word) @source) @import.source
  (#match? @_cmd "^(source|\\.)$"))
