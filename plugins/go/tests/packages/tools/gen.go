//go:build ignore

// A stray package clause in a directory of another package is keyed apart.
package main

// @fact node example.com/acme/tools#main Module name=main
func generate() {} // @fact node example.com/acme/tools#main.generate Function
