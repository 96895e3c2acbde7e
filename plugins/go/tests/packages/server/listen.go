package server

func listen(addr string) {}

func init() {} // @fact node example.com/acme/server/listen.go.init Function

// A type declared inside a function is keyed under it and bound by scope.
func serveLocal() {
	type conn struct{ id int } // @fact node example.com/acme/server.serveLocal.conn Struct
	c := conn{id: 1}           // @fact edge INSTANTIATES example.com/acme/server.serveLocal -> example.com/acme/server.serveLocal.conn by=scope
	_ = c
}
