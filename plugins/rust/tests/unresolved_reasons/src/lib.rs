// One case per unresolved reason (plugins/rust/README.md).
pub mod store;
mod one {
    pub fn pick() {}
}
mod two {
    pub fn pick() {}
}
use crate::store::missing::thing;

pub struct Widget {
    on_click: fn(),
}

impl Widget {
    pub fn show(&self) {}

    // @fact edge CALLS why::Widget::fire -> ?::src/lib.rs::(self.on_click) reason="dynamic call"
    pub fn fire(&self) {
        (self.on_click)();
    }
}

pub fn reasons(w: Widget, anything: Box<dyn Fn()>) {
    // a closure bound to a local name
    // @fact edge CALLS why::reasons -> ?::src/lib.rs::cb reason="dynamic call"
    let cb = |x: u32| x + 1;
    cb(1);
    // an import whose path does not resolve in the tree
    // @fact edge CALLS why::reasons -> ?::src/lib.rs::thing reason="unresolved import crate::store::missing::thing"
    thing();
    // a module in the tree that has no such item
    // @fact edge CALLS why::reasons -> ?::src/lib.rs::store::nothing reason="not defined in module"
    store::nothing();
    // a name nothing defines
    // @fact edge CALLS why::reasons -> ?::src/lib.rs::nowhere reason="not defined in scope"
    nowhere();
    // a receiver whose type the source does not declare
    // @fact edge CALLS why::reasons -> ?::src/lib.rs::unknown().show reason="receiver type unknown"
    unknown().show();
    // the type is known, the method is not in the tree
    // @fact edge CALLS why::reasons -> ?::src/lib.rs::w.hide reason="method not found on type"
    w.hide();
    // two glob imports provide the name
    // @fact edge CALLS why::reasons -> ?::src/lib.rs::pick reason="ambiguous: 2 candidates"
    {
        use one::*;
        use two::*;
        pick();
    }
    // a path through an extern crate root that is not a dependency
    // @fact edge CALLS why::reasons -> ?::src/lib.rs::::nope::f reason="unresolved import ::nope"
    ::nope::f();
}
