package cart

import "testing"

func TestTotal(t *testing.T) {
	tests := []struct {
		name string
		cart *Cart
		line Line
		err  error
	}{
		{name: "empty", cart: New()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.cart.Total() // @fact edge CALLS example.com/tt/cart.TestTotal -> example.com/tt/cart.Cart.Total by=receiver
			tt.line.Price() // @fact edge CALLS example.com/tt/cart.TestTotal -> example.com/tt/cart.Line.Price by=receiver
			if tt.err != nil {
				_ = tt.err.Error() // @fact edge CALLS example.com/tt/cart.TestTotal -> go:builtin.error.Error
			}
		})
	}
}

// Two anonymous structs of one function with a field of the same name: not told apart.
func TestTwo(t *testing.T) {
	a := []struct{ item *Cart }{{item: New()}}
	b := []struct{ item Line }{{}}
	for _, x := range a {
		x.item.Total() // @fact no-edge CALLS example.com/tt/cart.TestTwo -> example.com/tt/cart.Cart.Total
	}
	for _, y := range b {
		y.item.Price() // @fact no-edge CALLS example.com/tt/cart.TestTwo -> example.com/tt/cart.Line.Price
	}
}

// A variadic parameter is a slice of its type; a range over a slice literal yields its element.
func applyAll(carts ...*Cart) {
	for _, c := range carts {
		c.Total() // @fact edge CALLS example.com/tt/cart.applyAll -> example.com/tt/cart.Cart.Total by=receiver
	}
	for _, l := range []Line{{}, {}} {
		l.Price() // @fact edge CALLS example.com/tt/cart.applyAll -> example.com/tt/cart.Line.Price by=receiver
	}
	first := carts[0]
	first.Total()
}
