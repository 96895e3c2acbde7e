use std::io;

pub type Result<T> = std::result::Result<T, io::Error>;

pub struct User {
    pub name: String,
}

impl User {
    pub fn new(name: &str) -> User {
        User { name: name.to_string() }
    }
    pub fn load(id: u32) -> Result<Self> {
        Ok(User::new("x"))
    }
    pub fn find(id: u32) -> Option<User> {
        None
    }
    pub fn greet(&self) -> String {
        self.name.clone()
    }
    pub fn rename(&mut self, to: &str) -> &mut Self {
        self
    }
}

pub struct Repo {
    pub users: Vec<User>,
}

impl Repo {
    pub fn first(&self) -> &User {
        &self.users[0]
    }
    pub fn push(&mut self, u: User) {
        self.users.push(u);
    }
}

pub struct Stack;

impl Stack {
    pub fn push(&mut self, x: u32) {}
}
