package server

// @fact node example.com/acme/server Module name=server path=server import_path=example.com/acme/server
// @fact node example.com/acme/server/server.go File
// @fact edge CONTAINS example.com/acme/server -> example.com/acme/server/server.go
// @fact edge CONTAINS example.com/acme/server/server.go -> example.com/acme/server.Server
// @fact edge CONTAINS example.com/acme/server.Server -> example.com/acme/server.Server.Start
// @fact edge CONTAINS example.com/acme/server.Server -> example.com/acme/server.Server.addr
// @fact node example.com/acme/server.Server.addr Field visibility=unexported signature="addr string"

// Server serves requests.
type Server struct { // @fact node example.com/acme/server.Server Struct visibility=exported doc_comment="// Server serves requests." line=12 end_line=14
	addr string
}

// Start starts the server.
func (s *Server) Start() error { // @fact node example.com/acme/server.Server.Start Method signature="func (s *Server) Start() error" receiver=*Server doc_comment="// Start starts the server."
	listen(s.addr) // @fact edge CALLS example.com/acme/server.Server.Start -> example.com/acme/server.listen by=package
	return nil
}

func init() {} // @fact node example.com/acme/server/server.go.init Function

// Grouped declarations: every name is a definition.
var (
	DefaultAddr = ":8080" // @fact node example.com/acme/server.DefaultAddr Var visibility=exported
	a, b        int       // @fact node example.com/acme/server.b Var type=int
)

const MaxConns, minConns = 10, 1 // @fact node example.com/acme/server.minConns Const

type Port int // @fact node example.com/acme/server.Port TypeAlias signature="Port int"
type Addr = string // @fact node example.com/acme/server.Addr TypeAlias
