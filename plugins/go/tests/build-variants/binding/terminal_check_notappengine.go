//go:build !appengine && (linux || darwin)

package binding

func isTerminal() bool { return true }

// @fact node example.com/bv/binding.isTerminal Function file=binding/terminal_check_notappengine.go
// @fact node example.com/bv/binding.isTerminal(terminal_check_appengine.go) Function file=binding/terminal_check_appengine.go
