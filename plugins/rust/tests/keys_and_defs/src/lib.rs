//! The crate root: key `shop_core` (package name, `-` → `_`).
// @fact node shop_core Module file=src/lib.rs
// @fact node shop_core::cart Module file=src/cart/mod.rs
// @fact node shop_core::cart::item Module file=src/cart/item.rs
// @fact node shop_core::pricing Module file=src/lib.rs
// @fact edge CONTAINS shop_core -> shop_core::cart
// @fact edge CONTAINS shop_core::cart -> shop_core::cart::item
// @fact edge CONTAINS shop_core -> shop_core::pricing
pub mod cart;

/// Prices, inline module.
pub mod pricing {
    // @fact node shop_core::pricing::TAX Const visibility=pub type=u32
    pub const TAX: u32 = 20;
    // @fact node shop_core::pricing::LIMIT Var type=u64
    static LIMIT: u64 = 100;

    // @fact node shop_core::pricing::with_tax Function visibility=pub signature="pub fn with_tax(p: u32) -> u32"
    // @fact edge CONTAINS shop_core::pricing -> shop_core::pricing::with_tax
    pub fn with_tax(p: u32) -> u32 {
        p + p * TAX / 100
    }
}

// @fact node shop_core::Money TypeAlias type=u64
pub type Money = u64;

// @fact node shop_core::fetch Function is_async=true
pub async fn fetch() {}

// @fact node shop_core::Shape Enum
// @fact node shop_core::Shape::Circle Field kind=variant
// @fact node shop_core::Shape::Rect Field kind=variant
// @fact node shop_core::Shape::Rect.w Field type=f64
// @fact edge CONTAINS shop_core::Shape -> shop_core::Shape::Circle
pub enum Shape {
    Circle(f64),
    Rect { w: f64 },
}

// @fact node shop_core::Raw Struct
// @fact node shop_core::Raw.a Field
pub union Raw {
    a: u8,
}

// @fact node shop_core::Named Trait
// @fact node shop_core::Named::name Method
// @fact node shop_core::Named::shout Method
// @fact edge CONTAINS shop_core::Named -> shop_core::Named::name
pub trait Named {
    fn name(&self) -> String;
    fn shout(&self) -> String {
        self.name()
    }
}

// @fact node shop_core::helper Function
// @fact node shop_core::helper::inner Function
// @fact edge CONTAINS shop_core::helper -> shop_core::helper::inner
// @fact edge CALLS shop_core::helper -> shop_core::helper::inner by=scope confidence=high
fn helper() {
    fn inner() {}
    inner();
}

// @fact node shop_core::square! Function kind=macro
macro_rules! square {
    ($x:expr) => {
        $x * $x
    };
}
