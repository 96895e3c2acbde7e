<?php
// @fact node cart.php::Cart Class
class Cart {
    public function add($x) {
        helper($x); // @fact edge CALLS cart.php::Cart.add -> cart.php::helper by=scope
        $this->check($x); // @fact edge CALLS cart.php::Cart.add -> ?::cart.php::$this->check reason="receiver type unknown"
    }
    private function check($x) {}
}
// @fact node cart.php::helper Function
function helper($x) { return $x; }
