pub fn twice(x: u32) -> u32 {
    x * 2
}
