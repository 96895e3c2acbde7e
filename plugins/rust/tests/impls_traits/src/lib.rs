use std::fmt;

pub trait Area {
    fn area(&self) -> f64;
    // a provided method
    fn describe(&self) -> String {
        // @fact edge CALLS shapes::Area::describe -> shapes::Area::area by=self confidence=medium
        self.area();
        String::new()
    }
}

pub trait Perimeter {
    fn area(&self) -> f64; // same name as Area::area
    fn perimeter(&self) -> f64;
}

// A supertrait
// @fact edge EXTENDS shapes::Solid -> shapes::Area by=scope
// @fact edge EXTENDS shapes::Solid -> rust:Clone by=prelude
pub trait Solid: Area + Clone {
    fn volume(&self) -> f64;
}

pub trait Marker {}

#[derive(Clone)]
pub struct Square {
    pub side: f64,
}

// Inherent methods: `shapes::Square::new`, `shapes::Square::scale`.
// @fact node shapes::Square::new Method
// @fact node shapes::Square::scale Method
impl Square {
    pub fn new(side: f64) -> Self {
        Square { side }
    }
    pub fn scale(&mut self, k: f64) {
        self.side *= k;
    }
    pub fn area(&self) -> f64 {
        // inherent wins over the two trait methods of the same name
        // @fact edge CALLS shapes::Square::area -> shapes::Square::side_sq by=self confidence=high
        self.side_sq()
    }
    fn side_sq(&self) -> f64 {
        self.side * self.side
    }
    fn doubled(&self) -> f64 {
        // `Self::f()` and `Self { .. }`
        // @fact edge CALLS shapes::Square::doubled -> shapes::Square::new by=self
        // @fact edge INSTANTIATES shapes::Square::doubled -> shapes::Square by=self
        let s = Self::new(2.0);
        let _t = Self { side: s.side };
        // a trait method through `self`: exactly one in-tree impl of a trait for Square provides `perimeter`
        // @fact edge CALLS shapes::Square::doubled -> "<shapes::Square as shapes::Perimeter>::perimeter" by=self confidence=medium
        self.perimeter()
    }
}

// Trait impls key their methods `<Type as Trait>::method`: the two `area`s never merge.
// @fact node "<shapes::Square as shapes::Area>::area" Method trait=shapes::Area owner=shapes::Square
// @fact node "<shapes::Square as shapes::Perimeter>::area" Method
// @fact edge CONTAINS shapes::Square -> "<shapes::Square as shapes::Area>::area"
// @fact edge IMPLEMENTS shapes::Square -> shapes::Area by=scope
// @fact edge IMPLEMENTS shapes::Square -> shapes::Perimeter by=scope
impl Area for Square {
    fn area(&self) -> f64 {
        self.side * self.side
    }
}

impl Perimeter for Square {
    fn area(&self) -> f64 {
        0.0
    }
    fn perimeter(&self) -> f64 {
        4.0 * self.side
    }
}

// A marker impl with no methods still IMPLEMENTS.
// @fact edge IMPLEMENTS shapes::Square -> shapes::Marker by=scope
impl Marker for Square {}

// An external trait: its path as written in the key; IMPLEMENTS the External trait.
// @fact node "<shapes::Square as fmt::Display>::fmt" Method
// @fact edge IMPLEMENTS shapes::Square -> rust:std::fmt::Display by=import
impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "square")
    }
}

// Generic trait arguments stay in the key, so two `From` impls stay apart.
// @fact node "<shapes::Square as From<f64>>::from" Method
// @fact node "<shapes::Square as From<u32>>::from" Method
impl From<f64> for Square {
    fn from(x: f64) -> Self {
        Square::new(x)
    }
}
impl From<u32> for Square {
    fn from(x: u32) -> Self {
        Square::new(x as f64)
    }
}

pub fn use_them(sq: &Square) {
    // both traits provide `area` and Square has an inherent `area`: the inherent one
    // @fact edge CALLS shapes::use_them -> shapes::Square::area by=receiver confidence=high
    sq.area();
    // UFCS through a trait path: the trait's declaration
    // @fact edge CALLS shapes::use_them -> shapes::Area::area by=class
    Area::area(sq);
    // qualified path: the impl's method
    // @fact edge CALLS shapes::use_them -> "<shapes::Square as shapes::Perimeter>::area" by=class confidence=high
    <Square as Perimeter>::area(sq);
    // a provided method reached through the impl
    // @fact edge CALLS shapes::use_them -> shapes::Area::describe by=receiver confidence=medium
    sq.describe();
    // two `from`s: ambiguous
    // @fact edge CALLS shapes::use_them -> ?::src/lib.rs::Square::from reason="ambiguous: 2 candidates"
    Square::from(1u32);
}

pub fn dyn_area(s: &dyn Area) -> f64 {
    // a trait object: the trait's method, medium
    // @fact edge CALLS shapes::dyn_area -> shapes::Area::area by=receiver confidence=medium
    s.area()
}

pub struct Circle {
    pub r: f64,
}

impl Area for Circle {
    fn area(&self) -> f64 {
        3.14 * self.r * self.r
    }
}

impl Perimeter for Circle {
    fn area(&self) -> f64 {
        0.0
    }
    fn perimeter(&self) -> f64 {
        0.0
    }
}

pub fn circle_area(c: Circle) -> f64 {
    // no inherent `area`, two trait impls provide one: ambiguous, not guessed
    // @fact edge CALLS shapes::circle_area -> ?::src/lib.rs::c.area reason="ambiguous: 2 candidates"
    // @fact no-edge CALLS shapes::circle_area -> "<shapes::Circle as shapes::Area>::area"
    c.area()
}

// Generic parameters are known by their bounds.
pub fn generic_bound<T: Area + Clone>(t: &T) -> f64 {
    // @fact edge CALLS shapes::generic_bound -> shapes::Area::area by=receiver confidence=medium
    t.area()
}

pub fn where_bound<P>(p: P) -> f64
where
    P: Perimeter + Send,
{
    // @fact edge CALLS shapes::where_bound -> shapes::Perimeter::perimeter by=receiver confidence=medium
    p.perimeter()
}

pub fn unbounded<Q>(q: Q) {
    // no bound says anything: unknown (and never the struct `Square`'s methods)
    // @fact edge CALLS shapes::unbounded -> ?::src/lib.rs::q.scale reason="receiver type unknown"
    q.scale(2.0);
}

pub struct Holder<S> {
    pub shape: S,
}

impl<S: Area> Holder<S> {
    // a field of a generic parameter type, bounded by the impl
    // @fact edge CALLS shapes::Holder::measure -> shapes::Area::area by=receiver confidence=medium
    pub fn measure(&self) -> f64 {
        self.shape.area()
    }
}

pub fn concrete_holder(h: Holder<Square>) {
    // the struct's parameter stands for the argument written in the value's type
    // @fact edge CALLS shapes::concrete_holder -> shapes::Square::scale by=receiver
    let mut s = h.shape;
    s.scale(2.0);
}

pub fn generic_path<T: Area>(t: &T) -> f64 {
    // `T::f(..)` on a generic parameter: its bound's method
    // @fact edge CALLS shapes::generic_path -> shapes::Area::area by=class confidence=medium
    T::area(t)
}

pub fn nested_impl() -> Square {
    struct Local;
    // an impl nested in a fn: its associated type is the impl's, not a local item of the fn
    impl Iterator for Local {
        type Item = u32;
        fn next(&mut self) -> Option<u32> {
            None
        }
    }
    // @fact node "<shapes::nested_impl::Local as Iterator>::Item" TypeAlias
    // @fact edge CALLS shapes::nested_impl -> shapes::Square::new by=class
    Square::new(1.0)
}
