package tools

// @fact node example.com/acme/tools Module name=tools
func Version() string { return "1" } // @fact node example.com/acme/tools.Version Function
