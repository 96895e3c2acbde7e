pub mod repo;
pub mod cache;

pub fn flush() {}
