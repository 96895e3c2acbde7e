// A macro defined before `mod` declarations is visible in those modules (textual scope).
macro_rules! square {
    ($x:expr) => {
        $x * $x
    };
}

#[macro_export]
macro_rules! exported {
    () => {};
}

pub mod shapes;
pub mod late;

pub fn area(x: u32) -> u32 {
    // an in-tree macro_rules, defined earlier in this file: INVOKES_MACRO, never CALLS
    // @fact edge INVOKES_MACRO macs::area -> macs::square! by=scope confidence=high
    // @fact no-edge CALLS macs::area -> *
    square!(x)
}

pub fn logs() {
    // std macros: External `rust:<name>!`
    // @fact edge INVOKES_MACRO macs::logs -> rust:println! by=prelude
    // @fact edge INVOKES_MACRO macs::logs -> rust:vec! by=prelude
    println!("hi");
    let _v = vec![1, 2];
    // a dependency's macro by path
    // @fact edge INVOKES_MACRO macs::logs -> rust:log::info! by=extern
    log::info!("x");
}

fn shadow() {
    // a local macro named like a std one, defined before use in this function: the local one
    macro_rules! vec {
        () => {};
    }
    // @fact edge INVOKES_MACRO macs::shadow -> macs::shadow::vec! by=scope
    // @fact no-edge INVOKES_MACRO macs::shadow -> rust:vec!
    vec!();
}

pub struct Counter {
    n: u32,
}

impl Counter {
    pub fn get(&self) -> u32 {
        self.n
    }
    pub fn new() -> Counter {
        Counter { n: 0 }
    }
}

pub fn double(x: u32) -> u32 {
    x * 2
}

pub fn in_macro_args(c: &Counter) {
    // calls written inside the arguments of std formatting / assertion macros
    // @fact edge CALLS macs::in_macro_args -> macs::double by=scope
    // @fact edge CALLS macs::in_macro_args -> macs::Counter::get by=receiver
    // @fact edge CALLS macs::in_macro_args -> macs::Counter::new by=class
    assert_eq!(double(2), c.get());
    println!("{} {}", Counter::new().get(), c.n);
}
