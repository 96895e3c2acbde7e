pub fn open() {}
