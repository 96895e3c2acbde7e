// Package main is the root package: keyed by the bare module path.
package main

// @fact node example.com/acme Module name=main
// @fact node example.com/acme/main.go File file=main.go
// @fact edge CONTAINS example.com/acme -> example.com/acme/main.go
// @fact edge CONTAINS example.com/acme/main.go -> example.com/acme.main

func main() { // @fact node example.com/acme.main Function visibility=unexported line=9
	run() // @fact edge CALLS example.com/acme.main -> example.com/acme.run by=package confidence=high line=10
}
