pub mod store;
pub mod api;

// `pub use` re-exports: `paths::Repo` is `paths::store::repo::Repo`.
pub use store::repo::Repo;
pub use store::repo::open as open_repo;

pub fn root_fn() {}
