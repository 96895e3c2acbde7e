use std::fmt;
use std::ops::Deref;

// `#[derive]`d std traits: IMPLEMENTS the External trait; their methods are External.
// @fact edge IMPLEMENTS dd::Point -> rust:Clone by=derive
// @fact edge IMPLEMENTS dd::Point -> rust:Default by=derive
// @fact edge IMPLEMENTS dd::Point -> rust:Debug by=derive
/// A point.
#[derive(Clone, Default, Debug)]
#[allow(dead_code)]
pub struct Point {
    pub x: i32,
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        Ok(())
    }
}

pub fn derived(p: &Point, f: &mut fmt::Formatter) {
    // @fact edge CALLS dd::derived -> rust:Clone::clone by=receiver confidence=medium
    // @fact edge CALLS dd::derived -> rust:Default::default by=class confidence=medium
    let q = p.clone();
    let _d = Point::default();
    // `fmt` from the derived Debug and from the in-tree Display: ambiguous
    // @fact edge CALLS dd::derived -> ?::src/lib.rs::q.fmt reason="ambiguous: 2 candidates"
    q.fmt(f);
}

pub struct Names(Vec<String>);

pub struct Inner;

impl Inner {
    pub fn poke(&self) {}
}

pub struct Wrapper {
    inner: Inner,
}

// An in-tree `impl Deref`: method calls look through to its Target.
impl Deref for Wrapper {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.inner
    }
}

pub fn through_deref(w: Wrapper) {
    // @fact edge CALLS dd::through_deref -> dd::Inner::poke by=receiver confidence=medium
    w.poke();
    // no Deref on Names: not guessed
    // @fact edge CALLS dd::through_deref -> ?::src/lib.rs::n.poke reason="method not found on type"
    let n = Names(vec![]);
    n.poke();
}
