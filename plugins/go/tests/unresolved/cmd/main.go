package main

import (
	"fmt"
	"strings"

	"example.com/un/lib"
)

func len(s string) int { return 0 } // a package-level len shadows the builtin

func main() {
	xs := []int{}
	xs = append(xs, 1) // builtin: no edge
	// @fact no-edge CALLS example.com/un/cmd.main -> example.com/un/lib.Append
	// @fact no-edge CALLS example.com/un/cmd.main -> example.com/un/lib.List.append
	copy(xs, xs)
	_ = len("x") // @fact edge CALLS example.com/un/cmd.main -> example.com/un/cmd.len by=package

	fmt.Println("hi") // @fact edge CALLS example.com/un/cmd.main -> go:fmt.Println by=import
	// @fact no-edge CALLS example.com/un/cmd.main -> example.com/un/lib.Println

	// An untyped receiver is unresolved even when one repo type declares Add.
	list := build()
	list.Add(1) // @fact edge CALLS example.com/un/cmd.main -> ?::cmd/main.go::list.Add reason="receiver type unknown"
	// @fact no-edge CALLS example.com/un/cmd.main -> example.com/un/lib.List.Add

	b := strings.Builder{}
	b.WriteString("x") // @fact edge CALLS example.com/un/cmd.main -> go:strings.Builder.WriteString by=receiver

	r := strings.NewReader("x") // result type of a function outside the tree is not known
	r.Len() // @fact edge CALLS example.com/un/cmd.main -> ?::cmd/main.go::r.Len reason="receiver type unknown"

	var err error
	err.Error() // @fact edge CALLS example.com/un/cmd.main -> go:builtin.error.Error by=receiver
}

func build() any { return nil }

func Dynamic(f func(), h lib.Handler, table map[string]func(), key string) {
	f()                 // @fact edge CALLS example.com/un/cmd.Dynamic -> ?::cmd/main.go::f reason="dynamic call"
	h.OnEvent("x")      // a function-typed field: @fact edge CALLS example.com/un/cmd.Dynamic -> ?::cmd/main.go::h.OnEvent reason="dynamic call"
	table[key]()        // @fact edge CALLS example.com/un/cmd.Dynamic -> ?::cmd/main.go::table[key] reason="dynamic call"
	makeFn()()          // @fact edge CALLS example.com/un/cmd.Dynamic -> ?::cmd/main.go::makeFn() reason="dynamic call"
	func() {}()         // an immediately called literal: its body belongs here, no edge for the literal
	undefinedThing()    // @fact edge CALLS example.com/un/cmd.Dynamic -> ?::cmd/main.go::undefinedThing reason="not defined in scope"
}

func makeFn() func() { return nil }

func Members(l *lib.List) {
	l.Remove(1) // @fact edge CALLS example.com/un/cmd.Members -> ?::cmd/main.go::l.Remove reason="member not found"
	l.Close()   // @fact edge CALLS example.com/un/cmd.Members -> example.com/un/lib.List.Close by=receiver
}
