#include <vector>
// @fact edge IMPORTS cart.cpp -> cpp:vector

namespace shop {
// @fact node cart.cpp::shop.Cart Class
class Cart {
 public:
  int total() { return sum(1); } // @fact edge CALLS cart.cpp::shop.Cart.total -> cart.cpp::shop.sum by=scope
};
int sum(int x) { return x; }
}
