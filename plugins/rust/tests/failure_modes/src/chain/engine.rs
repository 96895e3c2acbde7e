pub trait Step {
    fn step(&self);
}

pub struct Inner;

impl Step for Inner {
    // @fact edge CALLS "<fm::chain::engine::Inner as fm::chain::engine::Step>::step" -> fm::chain::engine::finish by=scope
    fn step(&self) {
        finish();
    }
}

pub fn finish() {}

pub struct Engine {
    inner: Inner,
}

impl Engine {
    pub fn new() -> Engine {
        Engine { inner: Inner }
    }
    // @fact edge CALLS fm::chain::engine::Engine::start -> fm::chain::engine::Engine::run by=self
    pub fn start(&self) {
        self.run();
    }
    // @fact edge CALLS fm::chain::engine::Engine::run -> "<fm::chain::engine::Inner as fm::chain::engine::Step>::step" by=receiver confidence=medium
    fn run(&self) {
        self.inner.step();
    }
}
