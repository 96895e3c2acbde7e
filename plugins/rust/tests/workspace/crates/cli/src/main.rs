// Another crate of the workspace keyed by its own Cargo.toml: `shop_cli`.
// A dependency renamed in Cargo.toml (`engine = { package = "shop-core" }`) is the in-tree crate.
use engine::Cart;
mod commands;

// @fact node shop_cli::main Function
// @fact edge CALLS shop_cli::main -> shop_core::Cart::new by=class
// @fact edge CALLS shop_cli::main -> shop_cli::commands::run by=package
// @fact edge CALLS shop_cli::main -> shop_core::util::helper by=package
fn main() {
    let c = Cart::new();
    commands::run(&c);
    engine::util::helper();
}
