package app

import (
	"os"

	"example.com/rx/db"
)

var load = os.Environ

type Server struct {
	conn  *db.Conn
	pool  []*db.Conn
	byKey map[string]*Worker
	next  *Server
}

type Worker struct{}

func (w *Worker) Close() error { return nil }

func (w Worker) Run() {}

func (s *Server) Close() error { return nil }

func (s *Server) Run() {}

func (s *Server) Clone() *Server { return s }

func NewServer() *Server { return &Server{} }

func NewPair() (srv *Server, err error) { return nil, nil }

// Same-named methods of different types are distinct symbols.
// @fact node example.com/rx/app.Server.Close Method
// @fact node example.com/rx/app.Worker.Close Method
// @fact node example.com/rx/db.Conn.Close Method

func (s *Server) Stop() {
	s.Run()          // @fact edge CALLS example.com/rx/app.Server.Stop -> example.com/rx/app.Server.Run by=receiver confidence=high
	s.conn.Exec("")  // @fact edge CALLS example.com/rx/app.Server.Stop -> example.com/rx/db.Conn.Exec by=receiver
	s.conn.Close()   // @fact edge CALLS example.com/rx/app.Server.Stop -> example.com/rx/db.Conn.Close
	s.pool[0].Close() // (slice element of a declared field type)
	s.byKey["a"].Run() // @fact edge CALLS example.com/rx/app.Server.Stop -> example.com/rx/app.Worker.Run
	// @fact no-edge CALLS example.com/rx/app.Server.Stop -> example.com/rx/app.Worker.Close
	// @fact no-edge CALLS example.com/rx/app.Server.Stop -> example.com/rx/app.Server.Close
}

func Chains(s *Server) {
	s.next.next.Close()        // @fact edge CALLS example.com/rx/app.Chains -> example.com/rx/app.Server.Close by=receiver
	NewServer().Clone().Run()  // @fact edge CALLS example.com/rx/app.Chains -> example.com/rx/app.Server.Run by=receiver
	s.pool[1].Exec("")         // @fact edge CALLS example.com/rx/app.Chains -> example.com/rx/db.Conn.Exec
	(&Worker{}).Close()        // @fact edge CALLS example.com/rx/app.Chains -> example.com/rx/app.Worker.Close
	(*Server).Run(s)           // @fact edge CALLS example.com/rx/app.Chains -> example.com/rx/app.Server.Run
}

func Declared(w Worker, ws []Worker) {
	var s Server
	s.Close() // @fact edge CALLS example.com/rx/app.Declared -> example.com/rx/app.Server.Close by=receiver
	w.Close() // @fact edge CALLS example.com/rx/app.Declared -> example.com/rx/app.Worker.Close by=receiver
	ws[0].Run() // @fact edge CALLS example.com/rx/app.Declared -> example.com/rx/app.Worker.Run
	var p *Worker = nil
	p.Run() // @fact edge CALLS example.com/rx/app.Declared -> example.com/rx/app.Worker.Run
}

func Literals() {
	a := &Server{} // @fact edge INSTANTIATES example.com/rx/app.Literals -> example.com/rx/app.Server by=package
	a.Run()        // @fact edge CALLS example.com/rx/app.Literals -> example.com/rx/app.Server.Run by=receiver
	b := Worker{}  // @fact edge INSTANTIATES example.com/rx/app.Literals -> example.com/rx/app.Worker
	b.Close()      // @fact edge CALLS example.com/rx/app.Literals -> example.com/rx/app.Worker.Close by=receiver
	var d = &db.Conn{} // @fact edge INSTANTIATES example.com/rx/app.Literals -> example.com/rx/db.Conn by=import
	d.Exec("")         // @fact edge CALLS example.com/rx/app.Literals -> example.com/rx/db.Conn.Exec
}

func Builtin() {
	c := new(Worker) // @fact edge INSTANTIATES example.com/rx/app.Builtin -> example.com/rx/app.Worker by=package
	c.Run()          // @fact edge CALLS example.com/rx/app.Builtin -> example.com/rx/app.Worker.Run by=receiver
}

func Constructors() {
	s := NewServer() // @fact edge CALLS example.com/rx/app.Constructors -> example.com/rx/app.NewServer by=package
	s.Close()        // @fact edge CALLS example.com/rx/app.Constructors -> example.com/rx/app.Server.Close by=receiver
	conn, err := db.Dial() // (*Conn, error): the first name holds the first result
	conn.Exec("")          // @fact edge CALLS example.com/rx/app.Constructors -> example.com/rx/db.Conn.Exec by=receiver
	_ = err
	p, _ := NewPair() // named results
	p.Run()           // @fact edge CALLS example.com/rx/app.Constructors -> example.com/rx/app.Server.Run
	if x, err := db.Dial(); err == nil {
		x.Close() // @fact edge CALLS example.com/rx/app.Constructors -> example.com/rx/db.Conn.Close
	}
}

func Asserted(v any) {
	w := v.(*Worker)
	w.Close() // @fact edge CALLS example.com/rx/app.Asserted -> example.com/rx/app.Worker.Close
	switch t := v.(type) {
	case *Server:
		t.Close() // one variable, a different type per case: not proven
	}
	// @fact edge CALLS example.com/rx/app.Asserted -> ?::app/server.go::t.Close reason="receiver type unknown"
	// @fact no-edge CALLS example.com/rx/app.Asserted -> example.com/rx/app.Server.Close
}

func Typed(items []Worker, byName map[string]*Server, fetch func() *Worker, ch chan *Server) {
	for _, it := range items {
		it.Close() // range over a declared slice: @fact edge CALLS example.com/rx/app.Typed -> example.com/rx/app.Worker.Close by=receiver
	}
	for name, s := range byName {
		s.Run() // @fact edge CALLS example.com/rx/app.Typed -> example.com/rx/app.Server.Run
		_ = name
	}
	for s := range ch {
		s.Close() // @fact edge CALLS example.com/rx/app.Typed -> example.com/rx/app.Server.Close
	}
	x := fetch()
	x.Run() // a declared function type's result: @fact edge CALLS example.com/rx/app.Typed -> example.com/rx/app.Worker.Run
	_, _, w := triple()
	w.Clone2() // the third result: @fact edge CALLS example.com/rx/app.Typed -> example.com/rx/app.Worker.Clone2 by=receiver
	sv, ok := fetch().unknown().(*Server) // the asserted type, whatever the operand
	_ = ok
	sv.Clone() // @fact edge CALLS example.com/rx/app.Typed -> example.com/rx/app.Server.Clone
}

func triple() (int, error, *Worker) { return 0, nil, nil }

func Untyped(v any, names []string) {
	y := v
	y.Run() // any: @fact edge CALLS example.com/rx/app.Untyped -> ?::app/server.go::y.Run reason="receiver type unknown"
	for _, n := range load() {
		n.Close() // @fact edge CALLS example.com/rx/app.Untyped -> ?::app/server.go::n.Close reason="receiver type unknown"
	}
	for i := range names {
		i.Close() // an index: @fact edge CALLS example.com/rx/app.Untyped -> ?::app/server.go::i.Close reason="receiver type unknown"
	}
	// @fact no-edge CALLS example.com/rx/app.Untyped -> example.com/rx/app.Worker.Run
	// @fact no-edge CALLS example.com/rx/app.Untyped -> example.com/rx/app.Server.Run
	// @fact no-edge CALLS example.com/rx/app.Untyped -> example.com/rx/app.Worker.Close
	// @fact no-edge CALLS example.com/rx/app.Untyped -> example.com/rx/app.Server.Close
	// @fact no-edge CALLS example.com/rx/app.Untyped -> example.com/rx/db.Conn.Close
}

// Block scoping: the inner s is a Worker only inside its block.
func Scopes(s *Server) {
	{
		s := Worker{}
		s.Close() // @fact edge CALLS example.com/rx/app.Scopes -> example.com/rx/app.Worker.Close
	}
	s.Close() // @fact edge CALLS example.com/rx/app.Scopes -> example.com/rx/app.Server.Close
}

// A declaration is visible only after it ends: the s in the initialiser is the parameter.
func Redeclare(s *Worker) {
	s := s.Clone2()
	_ = s
}

func (w *Worker) Clone2() *Server { return nil }

// @fact edge CALLS example.com/rx/app.Redeclare -> example.com/rx/app.Worker.Clone2 by=receiver

func init() {
	go func(w *Worker) {
		w.Run() // calls inside a function literal belong to the enclosing function
	}(nil)
}

// @fact edge CALLS example.com/rx/app/server.go.init -> example.com/rx/app.Worker.Run by=receiver
