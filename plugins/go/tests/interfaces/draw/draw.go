package draw

import "example.com/geo/shape"

type Circle struct{ r float64 }

func (c Circle) Area() float64          { return 0 }
func (c Circle) Scale(a, b float64)     {}
func (c Circle) seal()                  {}

// Across packages: exported methods match; the unexported seal() does not.
// @fact edge IMPLEMENTS example.com/geo/draw.Circle -> example.com/geo/shape.Shape by=method-set
// @fact no-edge IMPLEMENTS example.com/geo/draw.Circle -> example.com/geo/shape.sealed
// @fact no-edge IMPLEMENTS example.com/geo/draw.Circle -> example.com/geo/shape.Named

// Calls on an interface-typed receiver bind to the interface's method, medium.
func Total(s shape.Shape, n shape.Named) float64 {
	n.Name()        // @fact edge CALLS example.com/geo/draw.Total -> example.com/geo/shape.Named.Name by=receiver confidence=medium
	n.Area()        // through interface embedding: @fact edge CALLS example.com/geo/draw.Total -> example.com/geo/shape.Shape.Area confidence=medium
	return s.Area() // @fact edge USES_TYPE example.com/geo/draw.Total -> example.com/geo/shape.Shape by=import
}

// @fact no-edge CALLS example.com/geo/draw.Total -> example.com/geo/shape.Square.Area
// @fact no-edge CALLS example.com/geo/draw.Total -> example.com/geo/draw.Circle.Area
