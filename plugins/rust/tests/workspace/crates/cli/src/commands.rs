use engine::Cart;

// @fact edge CALLS shop_cli::commands::run -> shop_core::Cart::total by=receiver
// @fact edge USES_TYPE shop_cli::commands::run -> shop_core::Cart by=import
pub fn run(c: &Cart) {
    c.total();
    // a crate that is neither in the tree nor a dependency: unresolved, never External
    // @fact edge CALLS shop_cli::commands::run -> ?::crates/cli/src/commands.rs::serde_json::to_string reason="not defined in scope"
    serde_json::to_string(&1);
}
