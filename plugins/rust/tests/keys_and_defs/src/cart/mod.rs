pub mod item;

// @fact node shop_core::cart::Cart Struct visibility=pub line=7 signature="pub struct Cart"

/// A shopping cart.
#[derive(Debug, Default)]
pub struct Cart { // @fact node shop_core::cart::Cart Struct doc_comment="/// A shopping cart."

    // @fact node shop_core::cart::Cart.items Field visibility=pub type=Vec<item::Item>
    pub items: Vec<item::Item>,
}

// @fact edge CONTAINS shop_core::cart::Cart -> shop_core::cart::Cart::add_item
// @fact edge CONTAINS shop_core::cart::Cart -> shop_core::cart::Cart::len
impl Cart {
    // @fact node shop_core::cart::Cart::add_item Method visibility=pub signature="pub fn add_item(&mut self, it: item::Item)" doc_comment="/// Adds an item."

    /// Adds an item.
    pub fn add_item(&mut self, it: item::Item) {
        self.items.push(it);
    }

    // @fact node shop_core::cart::Cart::len Method
    fn len(&self) -> usize {
        self.items.len()
    }
}
