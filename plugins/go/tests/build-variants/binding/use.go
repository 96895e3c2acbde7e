package binding

func Use() {
	Default().Name() // @fact edge CALLS example.com/bv/binding.Use -> example.com/bv/binding.Default line=4
}

func Check() bool {
	_ = ttyName() // @fact edge CALLS example.com/bv/binding.Check -> example.com/bv/binding.ttyName line=8
	return isTerminal() // @fact edge CALLS example.com/bv/binding.Check -> example.com/bv/binding.isTerminal line=9
}
