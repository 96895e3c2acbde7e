// A chain of 4+ hops through a re-export, methods, a trait and a field.
pub mod facade;
pub mod engine;
