use super::cache::{self, Cache as C};
use super::flush;

pub struct Repo {
    pub cache: C,
}

pub fn open() -> Repo {
    // `super::` path and group `self`
    // @fact edge CALLS paths::store::repo::open -> paths::store::flush by=import
    // @fact edge CALLS paths::store::repo::open -> paths::store::cache::warm by=import
    // @fact edge CALLS paths::store::repo::open -> paths::store::cache::Cache::new by=class
    // @fact edge INSTANTIATES paths::store::repo::open -> paths::store::repo::Repo by=scope
    flush();
    cache::warm();
    Repo { cache: C::new() }
}

pub fn sync() {
    // @fact edge CALLS paths::store::repo::sync -> paths::store::flush by=super
    // @fact edge CALLS paths::store::repo::sync -> paths::root_fn by=package
    super::flush();
    crate::root_fn();
}
