//go:build nomsgpack

package binding

type Codec struct{}

func (c Codec) Name() string { return "plain" }

func Default() Codec {
	helper() // @fact edge CALLS example.com/bv/binding.Default(binding_nomsgpack.go) -> example.com/bv/binding.helper line=10
	// @fact no-edge CALLS example.com/bv/binding.Default -> example.com/bv/binding.helper site=10
	return Codec{}
}
// @fact node example.com/bv/binding.Default(binding_nomsgpack.go) Function file=binding/binding_nomsgpack.go
// @fact node example.com/bv/binding.Codec.Name(binding_nomsgpack.go) Method file=binding/binding_nomsgpack.go
// @fact node example.com/bv/binding.Default Function file=binding/binding.go
