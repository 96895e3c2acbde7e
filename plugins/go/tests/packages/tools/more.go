package tools

func check() {
	Version() // @fact edge CALLS example.com/acme/tools.check -> example.com/acme/tools.Version by=package
	generate() // @fact edge CALLS example.com/acme/tools.check -> ?::tools/more.go::generate reason="not defined in scope"
}
