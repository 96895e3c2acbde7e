//go:build appengine

package binding

func isTerminal() bool { return false }
