using System.Collections.Generic;

namespace Shop {
  /// A cart.
  // @fact node Cart.cs::Shop.Cart Class
  public class Cart {
    public void Add(int x) {
      Check(x); // @fact edge CALLS Cart.cs::Shop.Cart.Add -> Cart.cs::Shop.Cart.Check by=scope
      items.Add(x); // @fact edge CALLS Cart.cs::Shop.Cart.Add -> ?::Cart.cs::items.Add reason="receiver type unknown"
    }
    void Check(int x) { }
  }
}
// @fact edge IMPORTS Cart.cs -> c_sharp:System.Collections.Generic
