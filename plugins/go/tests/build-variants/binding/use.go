package binding

func Use() {
	Default().Name() // @fact edge CALLS example.com/bv/binding.Use -> example.com/bv/binding.Default line=4
}
