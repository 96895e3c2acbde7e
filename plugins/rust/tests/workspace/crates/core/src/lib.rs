pub mod util;

// @fact node shop_core::Cart Struct file=crates/core/src/lib.rs
pub struct Cart {
    pub n: u32,
}

impl Cart {
    pub fn new() -> Cart {
        Cart { n: 0 }
    }
    pub fn total(&self) -> u32 {
        // a dependency from [dependencies]: External
        // @fact edge CALLS shop_core::Cart::total -> rust:serde_json::to_string by=extern
        serde_json::to_string(&self.n);
        self.n
    }
}
