package api

import (
	. "example.com/shop/dotb"
	. "github.com/onsi/gomega"
)

// Two dot imports (one outside the tree): a bare exported name has two possible sources.
func UseDots() {
	Render() // @fact edge CALLS example.com/shop/api.UseDots -> ?::api/dots.go::Render reason="ambiguous: 2 candidates"
	// @fact no-edge CALLS example.com/shop/api.UseDots -> example.com/shop/dotb.Render
	Expect(1) // @fact edge CALLS example.com/shop/api.UseDots -> go:github.com/onsi/gomega.Expect by=import confidence=medium
	len("x") // builtins stay builtins: no edge
	// @fact no-edge CALLS example.com/shop/api.UseDots -> ?::api/dots.go::len
}
