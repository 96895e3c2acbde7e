// @fact node shop_core::cart::item::Item Struct
pub struct Item {
    pub price: u32,
}
