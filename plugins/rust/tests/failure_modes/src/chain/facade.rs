use super::engine::{Engine, Step};

// @fact edge CALLS fm::chain::facade::entry -> fm::chain::engine::Engine::new by=class
// @fact edge CALLS fm::chain::facade::entry -> fm::chain::engine::Engine::start by=receiver
pub fn entry() {
    let e = Engine::new();
    e.start();
}
