// Rows of /work/shared/reference/failure-modes.md that apply to Rust.
pub mod client;
pub mod chain;
pub use chain::facade::entry;

pub fn foo_bar() {}

pub fn fuzzy() {
    // a fuzzy name match must never answer for a different symbol (codegraph#1473)
    // @fact edge CALLS fm::fuzzy -> ?::src/lib.rs::foo reason="not defined in scope"
    // @fact no-edge CALLS fm::fuzzy -> fm::foo_bar
    foo();
}

pub struct List {
    items: Vec<u32>,
}

impl List {
    pub fn append(&mut self, x: u32) {}
    pub fn update(&mut self) {}
    pub fn run(&self) {}
}

pub struct Job;

impl Job {
    pub fn run(&self) {}
}

pub fn untyped_receivers(data: impl Iterator<Item = u32>) {
    // Python-style `append` / `update` on an untyped receiver (codegraph#1681, codebase-memory-mcp#1276):
    // unresolved, even though the repo has exactly one `append`
    let mut items = data.collect();
    // @fact edge CALLS fm::untyped_receivers -> ?::src/lib.rs::items.append reason="receiver type unknown"
    // @fact no-edge CALLS fm::untyped_receivers -> fm::List::append
    // @fact no-edge CALLS fm::untyped_receivers -> fm::List::update
    items.append(1);
    items.update();
}

pub fn same_named(l: &List, j: &Job) {
    // same-named methods of different types stay apart (GitNexus#150)
    // @fact node fm::List::run Method
    // @fact node fm::Job::run Method
    // @fact edge CALLS fm::same_named -> fm::List::run by=receiver line=48
    // @fact edge CALLS fm::same_named -> fm::Job::run by=receiver line=49
    l.run();
    j.run();
}

pub fn from_str(s: &str) {}

pub fn dependency_namesake() {
    // a dependency's function is External, never the repo's namesake (GitNexus#1499, #2545)
    // @fact edge CALLS fm::dependency_namesake -> rust:serde_json::from_str by=extern
    // @fact no-edge CALLS fm::dependency_namesake -> fm::from_str
    serde_json::from_str::<u32>("1");
}

pub fn fetch_global() {
    // a bare call never binds to a method of the same name (GitNexus#2545)
    // @fact edge CALLS fm::fetch_global -> ?::src/lib.rs::fetch reason="not defined in scope"
    // @fact no-edge CALLS fm::fetch_global -> fm::client::Client::fetch
    fetch();
}

fn double(x: u32) -> u32 {
    x * 2
}

pub fn callbacks(v: Vec<u32>) {
    // a function passed as a value is REFERENCES; calls inside closures belong to this function (GitNexus#1166)
    // @fact edge REFERENCES fm::callbacks -> fm::double by=scope
    // @fact edge CALLS fm::callbacks -> fm::double by=scope
    // @fact edge REFERENCES fm::callbacks -> fm::Job::run by=class
    let _a: Vec<u32> = v.iter().map(|x| double(*x)).collect();
    let _b: Vec<u32> = v.into_iter().map(double).collect();
    let jobs: Vec<Job> = Vec::new();
    jobs.iter().for_each(Job::run);
}

// A call in a const initializer belongs to the const, not to the module (codebase-memory-mcp#220).
// @fact edge CALLS fm::LIMIT -> fm::limit by=scope
pub const LIMIT: u32 = limit();
const fn limit() -> u32 {
    3
}

pub fn outer() {
    // the caller is the innermost enclosing definition
    // @fact edge CALLS fm::outer::inner -> fm::foo_bar by=scope
    // @fact no-edge CALLS fm::outer -> fm::foo_bar
    fn inner() {
        foo_bar();
    }
    inner();
}

pub fn imported_through_reexport() {
    // an import through a `pub use` re-export resolves (codebase-memory-mcp#1682)
    // @fact edge CALLS fm::imported_through_reexport -> fm::chain::facade::entry by=import
    entry();
}
