; Rust imports. The resolver parses the text of each declaration itself (use trees nest).
; Emits:
;   @import.use       one per `use` declaration; @source = the whole declaration as written
;                     (`pub(crate) use a::{b, c as d, e::*};`)
;   @import.extern    `extern crate a as b;` (@name, @alias)
;   @import.mod       `mod a;` (@source = the module name): the child module lives in `a.rs` or `a/mod.rs`
;   @import.mod_path  `#[path = "x.rs"] mod a;` (@source = the module name, @name = the path literal)

(use_declaration) @import.use @source
(extern_crate_declaration name: (identifier) @name alias: (identifier)? @alias) @import.extern
(mod_item name: (identifier) @source !body) @import.mod
((attribute_item (attribute (identifier) @_attr value: (string_literal) @name))
  .
  (mod_item name: (identifier) @source !body) @import.mod_path
  (#eq? @_attr "path"))
