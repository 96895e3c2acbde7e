pub fn cube(x: u32) -> u32 {
    // defined in the parent file before `mod shapes;`
    // @fact edge INVOKES_MACRO macs::shapes::cube -> macs::square! by=scope
    // an exported macro by crate path
    // @fact edge INVOKES_MACRO macs::shapes::cube -> macs::exported! by=package
    crate::exported!();
    square!(x) * x
}
