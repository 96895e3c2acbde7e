// A binary target: its own crate `tool`, using the package's library by name.
// @fact node tool Module file=crates/core/src/bin/tool.rs
// @fact node tool::main Function
// @fact edge CALLS tool::main -> shop_core::util::helper by=package
fn main() {
    shop_core::util::helper();
}
