package main

import "github.com/json-iterator/go"

// The package clause of github.com/json-iterator/go is not visible; its last element "go" is
// not an identifier a file could use, so a name nothing else defines points at that import.
func Guess() {
	jsoniter.Marshal(nil) // @fact edge CALLS example.com/un/cmd.Guess -> ?::cmd/guess.go::jsoniter.Marshal reason="unresolved import github.com/json-iterator/go"
}
