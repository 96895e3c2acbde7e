; Go imports. One import binding per import spec.
; Emits:
;   @import   import "net/http"        @source                 local name = the package's own name (resolver)
;   @import   import h "net/http"      @source @alias          local name h; `_` is a side-effect import
;   @import   import . "x/y"           @source @wildcard       a dot import: y's names are bare names here

(import_spec
  !name
  path: (_) @source) @import

(import_spec
  name: [(package_identifier) (blank_identifier)] @alias
  path: (_) @source) @import

(import_spec
  name: (dot) @wildcard
  path: (_) @source) @import
