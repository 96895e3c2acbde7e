pub fn connect() {
    // `super::super` climbs two modules
    // @fact edge CALLS treelib::net::tcp::connect -> treelib::sys::open by=super
    super::super::sys::open();
}
