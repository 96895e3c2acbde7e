pub fn lonely() {}
