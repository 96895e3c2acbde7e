// @fact node Cart.scala::Cart Class
class Cart {
  def add(x: Int): Int = check(x) // @fact edge CALLS Cart.scala::Cart.add -> Cart.scala::Cart.check by=scope
  def check(x: Int): Int = x
}
