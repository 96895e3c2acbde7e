// `[lib] name` names the crate: `treelib`.
// `mod net;` → src/net.rs, whose `mod tcp;` → src/net/tcp.rs
pub mod net;
// `#[path]` picks the file
#[path = "platform/unix_impl.rs"]
pub mod sys;
// an inline module whose `mod y;` lives in src/outer/y.rs
pub mod outer {
    pub mod y;
}
// a declared module whose file is absent (generated, cfg'd away): calls into it stay unresolved
mod gen;

// @fact node treelib Module file=src/lib.rs
// @fact node treelib::net Module file=src/net.rs
// @fact node treelib::net::tcp Module file=src/net/tcp.rs
// @fact node treelib::sys Module file=src/platform/unix_impl.rs
// @fact node treelib::outer::y Module file=src/outer/y.rs
// @fact edge CONTAINS treelib::outer -> treelib::outer::y
// @fact edge CONTAINS treelib::net -> treelib::net::tcp
// @fact no-node treelib::platform::unix_impl
// A file no `mod` reaches is still keyed, by its path.
// @fact node treelib::orphan Module file=src/orphan.rs
// @fact node treelib::orphan::lonely Function
pub fn start() {
    // @fact edge CALLS treelib::start -> treelib::net::tcp::connect by=package
    // @fact edge CALLS treelib::start -> treelib::sys::open by=package
    // @fact edge CALLS treelib::start -> treelib::outer::y::why by=package
    // @fact edge CALLS treelib::start -> ?::src/lib.rs::gen::make reason="not defined in module"
    net::tcp::connect();
    sys::open();
    outer::y::why();
    gen::make();
}
