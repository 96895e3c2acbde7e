package shape

import (
	"fmt"

	"github.com/spf13/pflag"
)

type Shape interface {
	Area() float64
	Scale(x, y float64) // grouped names: two parameters
}

type Named interface {
	Shape
	Name() string
}

// An interface with an unexported method: only this package's types can satisfy it.
type sealed interface{ seal() }

// A constraint, not a method set: never an IMPLEMENTS target.
type Number interface {
	~int | ~float64
	String() string
}

// Embeds a well-known standard interface: its method set is known (String()).
type Stringish interface {
	fmt.Stringer
	Extra()
}

// Embeds an interface outside the tree whose method set is not known: never a target.
type Flaggy interface {
	pflag.Value
	Extra()
}

type Empty interface{}

type Square struct{ side float64 }

func (s *Square) Area() float64              { return s.side * s.side }
func (s *Square) Scale(dx float64, dy float64) {}
func (s *Square) Name() string               { return "square" }
func (s Square) seal()                       {}
func (s Square) String() string              { return "" }
func (s Square) Extra()                      {}

// @fact edge IMPLEMENTS example.com/geo/shape.Square -> example.com/geo/shape.Shape by=method-set confidence=medium
// @fact edge IMPLEMENTS example.com/geo/shape.Square -> example.com/geo/shape.Named by=method-set confidence=medium
// @fact edge IMPLEMENTS example.com/geo/shape.Square -> example.com/geo/shape.sealed
// @fact no-edge IMPLEMENTS example.com/geo/shape.Square -> example.com/geo/shape.Number
// @fact edge IMPLEMENTS example.com/geo/shape.Square -> example.com/geo/shape.Stringish
// @fact no-edge IMPLEMENTS example.com/geo/shape.Square -> example.com/geo/shape.Flaggy
// @fact no-edge IMPLEMENTS example.com/geo/shape.Square -> example.com/geo/shape.Empty

// Area and Scale, but Scale takes one parameter: not a Shape.
type Line struct{}

func (Line) Area() float64      { return 0 }
func (Line) Scale(f float64)    {}

// @fact no-edge IMPLEMENTS example.com/geo/shape.Line -> *

// Promoted methods count.
type Tile struct{ *Square }

// @fact edge IMPLEMENTS example.com/geo/shape.Tile -> example.com/geo/shape.Shape
