use crate::model::{Repo, User};

pub struct Service {
    repo: Repo,
    admin: Option<User>,
}

impl Service {
    pub fn run(&mut self) -> crate::model::Result<()> {
        // a field with a declared type (the struct-field receiver case)
        // @fact edge CALLS recv::service::Service::run -> recv::model::Repo::first by=receiver confidence=high
        // @fact edge CALLS recv::service::Service::run -> recv::model::User::greet by=receiver
        self.repo.first().greet();
        // `?` on a declared `Result<Self>` (through the crate's `Result` alias)
        let u = User::load(1)?;
        // @fact edge CALLS recv::service::Service::run -> recv::model::User::rename by=receiver
        u.rename("a");
        // `.unwrap()` on a declared `Option<User>`
        // @fact edge CALLS recv::service::Service::run -> recv::model::Repo::push by=receiver
        self.repo.push(User::find(2).unwrap());
        Ok(())
    }
}

pub fn annotated(repo: &mut Repo, other: Repo) {
    // a parameter `&mut T` / `T`
    // @fact edge CALLS recv::service::annotated -> recv::model::Repo::push by=receiver line=28
    repo.push(User::new("a"));
    // @fact edge CALLS recv::service::annotated -> recv::model::Repo::first by=receiver line=30
    other.first();
    // `let x: T`
    let u: User = User::new("b");
    // @fact edge CALLS recv::service::annotated -> recv::model::User::greet by=receiver line=34
    u.greet();
}

pub fn constructed() {
    // `let x = T::new()` where `new` declares `-> User`
    let u = User::new("c");
    // @fact edge CALLS recv::service::constructed -> recv::model::User::greet by=receiver
    u.greet();
    // a struct literal
    // @fact edge INSTANTIATES recv::service::constructed -> recv::model::Repo by=import
    let r = Repo { users: vec![] };
    // @fact edge CALLS recv::service::constructed -> recv::model::Repo::first by=receiver
    r.first();
    // a chain through a declared return type
    // @fact edge CALLS recv::service::constructed -> recv::model::User::rename by=receiver
    User::new("d").rename("e");
}

pub fn untyped(items: Vec<u32>, data: &[u8]) {
    // `push` exists on two repo types; `items` is a Vec: never bound to either
    // @fact no-edge CALLS recv::service::untyped -> recv::model::Stack::push
    // @fact no-edge CALLS recv::service::untyped -> recv::model::Repo::push
    // @fact edge CALLS recv::service::untyped -> rust:Vec::push by=receiver confidence=medium
    let mut items = items;
    items.push(1);
    // a receiver nothing declares
    // @fact edge CALLS recv::service::untyped -> ?::src/service.rs::thing.greet reason="receiver type unknown"
    // @fact no-edge CALLS recv::service::untyped -> recv::model::User::greet
    let thing = Default::default();
    thing.greet();
}

fn make_any() -> impl Sized {
    0
}

pub fn shadowed(u: User) {
    // the latest binding of `u` is untyped: unknown, not the parameter's type
    let u = u.greet().len();
    // @fact edge CALLS recv::service::shadowed -> ?::src/service.rs::u.greet reason="receiver type unknown"
    u.greet();
}

pub fn in_closure(users: Vec<User>) {
    // calls inside a closure belong to the enclosing function; a typed closure parameter binds
    // @fact edge CALLS recv::service::in_closure -> recv::model::User::greet by=receiver
    users.iter().for_each(|x: &User| {
        x.greet();
    });
    // an untyped closure parameter does not
    // @fact edge CALLS recv::service::in_closure -> ?::src/service.rs::y.rename reason="receiver type unknown"
    users.into_iter().for_each(|y| {
        y.rename("z");
    });
}

pub fn missing(u: User) {
    // the type is known, the method is not in the tree (a derived or external trait)
    // @fact edge CALLS recv::service::missing -> ?::src/service.rs::u.frobnicate reason="method not found on type"
    u.frobnicate();
}

pub struct Users {
    all: Vec<User>,
}

pub struct UserIter;

impl Iterator for UserIter {
    type Item = User;
    fn next(&mut self) -> Option<User> {
        None
    }
}

impl Users {
    pub fn each_item(it: UserIter) {
        // an in-tree iterator's `type Item`
        // @fact edge CALLS recv::service::Users::each_item -> recv::model::User::greet by=receiver
        for w in it {
            w.greet();
        }
    }

    pub fn each(&self) {
        // `for x in` a declared collection binds x to its element type
        // @fact edge CALLS recv::service::Users::each -> recv::model::User::greet by=receiver
        for u in &self.all {
            u.greet();
        }
        // through `.iter()`
        // @fact edge CALLS recv::service::Users::each -> recv::model::User::rename by=receiver
        for v in self.all.iter() {
            v.rename("x");
        }
        // `if let Some(x)` on a declared `Option<User>`
        // @fact edge CALLS recv::service::Users::each -> ?::src/service.rs::z.nope reason="method not found on type"
        if let Some(z) = User::find(1) {
            z.nope();
        }
        // an adapter the resolver does not model: unknown
        // @fact edge CALLS recv::service::Users::each -> ?::src/service.rs::r.greet reason="receiver type unknown"
        for r in self.all.iter().rev() {
            r.greet();
        }
    }
}

pub fn shadowing(r: Repo) {
    // a later `let` shadows an earlier one in the same block: the later type
    let x = User::new("a");
    let x = Repo { users: vec![] };
    // @fact edge CALLS recv::service::shadowing -> recv::model::Repo::first by=receiver
    // @fact no-edge CALLS recv::service::shadowing -> ?::src/service.rs::x.first
    x.first();
    {
        // an inner block's binding ends with the block
        let r = User::new("b");
        // @fact edge CALLS recv::service::shadowing -> recv::model::User::greet by=receiver
        r.greet();
    }
    // @fact edge CALLS recv::service::shadowing -> recv::model::Repo::push by=receiver
    r.push(User::new("c"));
}

pub enum Event {
    Joined(User),
    Left(Repo),
    Nothing,
}

pub fn next_event() -> Event {
    Event::Nothing
}

pub fn on_event() {
    // a match arm's tuple variant binds its field's declared type; a catch-all binds the scrutinee's type
    match next_event() {
        // @fact edge CALLS recv::service::on_event -> recv::model::User::greet by=receiver
        Event::Joined(u) => {
            u.greet();
        }
        // @fact edge CALLS recv::service::on_event -> recv::model::Repo::first by=receiver
        Event::Left(r) => {
            r.first();
        }
        // @fact edge CALLS recv::service::on_event -> ?::src/service.rs::other.first reason="method not found on type"
        other => {
            other.first();
        }
    }
    // `if let` with an in-tree variant
    // @fact edge CALLS recv::service::on_event -> recv::model::User::rename by=receiver
    if let Event::Joined(v) = next_event() {
        v.rename("x");
    }
}
