package binding

func ttyName() string { return "/dev/tty" }

// @fact node example.com/bv/binding.ttyName Function file=binding/tty_linux.go
