package main

// A second file of the root package: its top-level names are visible from main.go.
func run() {} // @fact node example.com/acme.run Function file=run.go line=4

func init() {} // @fact node example.com/acme/run.go.init Function
