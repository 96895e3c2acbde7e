package server

// An internal test file belongs to the package itself.
func TestStart() { // @fact node example.com/acme/server.TestStart Function
	listen("") // @fact edge CALLS example.com/acme/server.TestStart -> example.com/acme/server.listen by=package
}
