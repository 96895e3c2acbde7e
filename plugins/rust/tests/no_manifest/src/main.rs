// No Cargo.toml: the crate is named after the tree's directory.
// @fact node no_manifest Module file=src/main.rs
// @fact node no_manifest::main Function
// @fact edge CALLS no_manifest::main -> no_manifest::util::twice by=package
mod util;

fn main() {
    util::twice(2);
}
