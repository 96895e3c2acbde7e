package internal

// @fact node example.com/acme/server/internal Module

// Same name as the root package's run: never bound by bare name across packages.
func run() {} // @fact node example.com/acme/server/internal.run Function

func Open() {
	run() // @fact edge CALLS example.com/acme/server/internal.Open -> example.com/acme/server/internal.run by=package
}
// @fact no-edge CALLS example.com/acme/server/internal.Open -> example.com/acme.run
