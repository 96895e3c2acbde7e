use log::warn;

pub fn later() {
    // a macro imported from a dependency by `use`
    // @fact edge INVOKES_MACRO macs::late::later -> rust:log::warn! by=import
    warn!("w");
    // defined in a sibling module (crate-unique, reached through #[macro_use]): medium
    // @fact edge INVOKES_MACRO macs::late::later -> macs::late::helpers::twice! by=macro_use confidence=medium
    twice!();
    // an unknown macro: External, medium
    // @fact edge INVOKES_MACRO macs::late::later -> rust:mystery! by=extern confidence=medium
    mystery!();
}

#[macro_use]
mod helpers {
    macro_rules! twice {
        () => {};
    }
}
