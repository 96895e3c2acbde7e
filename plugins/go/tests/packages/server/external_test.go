package server_test

import "example.com/acme/server"

// An external test package is a package of its own: <import path>_test.
// @fact node example.com/acme/server_test Module name=server_test
func TestExternal() { // @fact node example.com/acme/server_test.TestExternal Function
	s := &server.Server{}
	s.Start() // @fact edge CALLS example.com/acme/server_test.TestExternal -> example.com/acme/server.Server.Start by=receiver
	listen("") // @fact edge CALLS example.com/acme/server_test.TestExternal -> ?::server/external_test.go::listen reason="not defined in scope"
}
