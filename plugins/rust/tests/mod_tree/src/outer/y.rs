pub fn why() {}
