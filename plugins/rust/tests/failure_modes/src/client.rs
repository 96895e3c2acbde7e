pub struct Client;

impl Client {
    pub fn fetch(&self) {}
}

pub struct Store {
    pub db: Db,
}

pub struct Db;

impl Db {
    pub fn query(&self) {}
}

pub struct Handler {
    // an injected dependency with a declared type (codebase-memory-mcp#514, GitNexus#2766)
    store: Store,
    client: Client,
}

impl Handler {
    pub fn new(store: Store, client: Client) -> Self {
        Handler { store, client }
    }
    // @fact edge CALLS fm::client::Handler::handle -> fm::client::Db::query by=receiver
    // @fact edge CALLS fm::client::Handler::handle -> fm::client::Client::fetch by=receiver
    pub fn handle(&self) {
        self.store.db.query();
        self.client.fetch();
    }
}
