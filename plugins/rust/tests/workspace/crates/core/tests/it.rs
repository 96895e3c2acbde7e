use shop_core::Cart;

// An integration test: crate `it`.
// @fact node it::smoke Function
// @fact edge CALLS it::smoke -> shop_core::Cart::new by=class
// @fact edge CALLS it::smoke -> shop_core::Cart::total by=receiver
fn smoke() {
    let c = Cart::new();
    c.total();
}
