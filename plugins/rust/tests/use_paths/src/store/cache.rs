pub struct Cache;

impl Cache {
    pub fn new() -> Cache {
        Cache
    }
}

pub fn warm() {}
