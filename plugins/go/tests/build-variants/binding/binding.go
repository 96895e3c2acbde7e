//go:build !nomsgpack

package binding

type Codec struct{}

func (c Codec) Name() string { return "msgpack" }

func helper() string { return "" }

func Default() Codec {
	helper() // @fact edge CALLS example.com/bv/binding.Default -> example.com/bv/binding.helper line=12
	return Codec{}
}
