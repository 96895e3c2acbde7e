// A group with an alias, a nested group and `self`; a glob.
use crate::{
    store::{self, cache::warm as preheat},
    Repo,
};
use crate::store::cache::*;
// @fact edge IMPORTS paths::api -> paths::store::repo::Repo by=import
// @fact edge IMPORTS paths::api -> paths::store by=import
// @fact edge IMPORTS paths::api -> paths::store::cache::warm by=import
// @fact edge IMPORTS paths::api -> paths::store::cache by=import

pub fn handler() {
    // re-exported through `pub use` in lib.rs
    // @fact edge CALLS paths::api::handler -> paths::store::repo::open by=package
    crate::open_repo();
    // @fact edge CALLS paths::api::handler -> paths::store::cache::warm by=import line=17
    preheat();
    // alias of a module, then a path through it
    // @fact edge CALLS paths::api::handler -> paths::store::flush by=import
    store::flush();
    // glob import
    // @fact edge CALLS paths::api::handler -> paths::store::cache::Cache::new by=class
    let _c = Cache::new();
    // the type through a re-export
    // @fact edge USES_TYPE paths::api::handler -> paths::store::repo::Repo by=import
    let _r: Option<Repo> = None;
}

pub fn local_use() {
    // a `use` inside a function body is visible there only
    use crate::store::repo::sync;
    // @fact edge CALLS paths::api::local_use -> paths::store::repo::sync by=import
    sync();
}

pub fn no_local_use() {
    // @fact edge CALLS paths::api::no_local_use -> ?::src/api.rs::sync reason="not defined in scope"
    // @fact no-edge CALLS paths::api::no_local_use -> paths::store::repo::sync
    sync();
}

mod tests {
    use super::*;

    // `use super::*` brings the parent's items and its imports
    // @fact edge CALLS paths::api::tests::t -> paths::api::handler by=import
    // @fact edge CALLS paths::api::tests::t -> paths::store::cache::warm by=import
    fn t() {
        handler();
        preheat();
    }
}

mod private_items {
    fn drop(_x: u32) {}
    pub fn go() {}
}

mod glob_user {
    use super::private_items::*;

    // a glob from a non-ancestor module imports public items only: `drop` is the prelude's
    // @fact edge CALLS paths::api::glob_user::f -> paths::api::private_items::go by=import
    // @fact edge CALLS paths::api::glob_user::f -> rust:drop by=prelude
    // @fact no-edge CALLS paths::api::glob_user::f -> paths::api::private_items::drop
    fn f() {
        go();
        drop(1);
    }
}
