; JSX (.tsx, and JSX inside .js/.jsx), appended to typescript.scm / javascript.scm.
;   @reference.value   a component used as an element (`<Button />`: capitalised names only, so
;                      `<div>` is never looked up) and an identifier passed in an attribute (`onClick={go}`)
(jsx_opening_element name: (identifier) @name @reference.value (#match? @name "^[A-Z]"))
(jsx_self_closing_element name: (identifier) @name @reference.value (#match? @name "^[A-Z]"))
(jsx_expression (identifier) @name @reference.value)
