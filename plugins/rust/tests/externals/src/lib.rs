pub mod globs;
use std::mem;
use serde::Serialize;

// Repo functions named like std ones.
pub fn swap(a: &mut u32, b: &mut u32) {}
pub fn drop(x: u32) {}
pub fn from(x: u32) {}

pub fn std_calls(mut a: u32, mut b: u32) {
    // a std path: External, never the repo's `swap`
    // @fact edge CALLS ext::std_calls -> rust:std::mem::swap by=extern
    std::mem::swap(&mut a, &mut b);
    // through `use std::mem`
    // @fact edge CALLS ext::std_calls -> rust:std::mem::take by=import
    mem::take(&mut a);
    // prelude types and primitives: External
    // @fact edge CALLS ext::std_calls -> rust:String::from by=prelude
    // @fact edge CALLS ext::std_calls -> rust:Vec::with_capacity by=prelude
    // @fact edge CALLS ext::std_calls -> rust:u64::from by=prelude
    // @fact no-edge CALLS ext::std_calls -> ext::from
    let _s = String::from("x");
    let _v: Vec<u8> = Vec::<u8>::with_capacity(3);
    let _n = u64::from(a);
    // prelude variants construct: INSTANTIATES
    // @fact edge INSTANTIATES ext::std_calls -> rust:Option::Some by=prelude
    let _o = Some(1);
    // a dev-dependency
    // @fact edge CALLS ext::std_calls -> rust:tokio::spawn by=extern
    tokio::spawn(async {});
}

pub fn local_wins() {
    // the module's own `swap` shadows nothing in std: a bare call binds to the module's item
    // @fact edge CALLS ext::local_wins -> ext::swap by=scope
    let (mut a, mut b) = (1, 2);
    swap(&mut a, &mut b);
    // and the repo's `drop` shadows the prelude's
    // @fact edge CALLS ext::local_wins -> ext::drop by=scope
    // @fact no-edge CALLS ext::local_wins -> rust:drop
    drop(1);
}

// An external derive-able trait implemented by hand.
// @fact edge IMPLEMENTS ext::Thing -> rust:serde::Serialize by=import
pub struct Thing;
impl Serialize for Thing {
    fn serialize(&self) {}
}
