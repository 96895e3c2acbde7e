use std::collections::*;

pub fn glob_user() {
    // exactly one external glob could provide `HashMap`: External, medium
    // @fact edge CALLS ext::globs::glob_user -> rust:std::collections::HashMap::new by=import confidence=medium
    let _m: HashMap<u8, u8> = HashMap::new();
    // a std function not in scope at all
    // @fact no-edge CALLS ext::globs::glob_user -> ext::drop
    // @fact edge CALLS ext::globs::glob_user -> rust:drop by=prelude
    drop(1);
}

mod two {
    use std::collections::*;
    use std::io::*;

    fn f() {
        // two external globs: which one provides `Thing` is not known
        // @fact edge CALLS ext::globs::two::f -> ?::src/globs.rs::Thing::new reason="unresolved import std::collections::*"
        Thing::new();
    }
}
