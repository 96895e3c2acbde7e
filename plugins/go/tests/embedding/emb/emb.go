package emb

import (
	"io"
	"sync"
)

type Logger struct{ prefix string }

func (l *Logger) Log(msg string) {}

func (l *Logger) Close() error { return nil }

type Base struct{ Logger } // @fact edge EXTENDS example.com/emb/emb.Base -> example.com/emb/emb.Logger by=package confidence=high

func (b Base) ID() string { return "" }

type Server struct {
	*Base        // embedded pointer
	sync.Mutex   // embedded type outside the tree
	name  string
}

// @fact node example.com/emb/emb.Server.Base Field embedded=true
// @fact edge EXTENDS example.com/emb/emb.Server -> example.com/emb/emb.Base by=package
// @fact edge EXTENDS example.com/emb/emb.Server -> go:sync.Mutex by=import

// Server's own Close shadows the promoted Logger.Close.
func (s *Server) Close() error { return nil }

func Use(s *Server) {
	s.ID()         // @fact edge CALLS example.com/emb/emb.Use -> example.com/emb/emb.Base.ID by=embedding confidence=high
	s.Close()      // @fact edge CALLS example.com/emb/emb.Use -> example.com/emb/emb.Server.Close by=receiver
	// @fact no-edge CALLS example.com/emb/emb.Use -> example.com/emb/emb.Logger.Close
	s.Base.Log("") // @fact edge CALLS example.com/emb/emb.Use -> example.com/emb/emb.Logger.Log by=embedding
	s.Lock()       // @fact edge CALLS example.com/emb/emb.Use -> go:sync.Mutex.Lock by=embedding confidence=medium
	_ = s.name     // @fact edge REFERENCES example.com/emb/emb.Use -> example.com/emb/emb.Server.name by=receiver
}

// Log is promoted from Logger at depth 2, but sync.Mutex sits at depth 1 and its members
// are not visible here: it could declare a Log that shadows Logger's. Not proven.
func Shadowed(s *Server) {
	s.Log("") // @fact edge CALLS example.com/emb/emb.Shadowed -> ?::emb/emb.go::s.Log reason="ambiguous: 2 candidates"
	// @fact no-edge CALLS example.com/emb/emb.Shadowed -> example.com/emb/emb.Logger.Log
}

type Plain struct{ Base }

func Deep(p Plain) {
	p.Log("") // two levels down, nothing unknown on the way: @fact edge CALLS example.com/emb/emb.Deep -> example.com/emb/emb.Logger.Log by=embedding
	_ = p.prefix // promoted field: @fact edge REFERENCES example.com/emb/emb.Deep -> example.com/emb/emb.Logger.prefix by=embedding
}

// Two embedded types at the same depth both declare Close: a Go compile error if selected.
type A struct{}

func (A) Close() {}

type B struct{}

func (B) Close() {}

type AB struct {
	A
	B
}

func Both(x AB) {
	x.Close() // @fact edge CALLS example.com/emb/emb.Both -> ?::emb/emb.go::x.Close reason="ambiguous: 2 candidates"
}

// A struct embedding an interface gets its methods.
type ReadCounter struct {
	io.Reader
	n int
}

func Count(r ReadCounter) {
	r.Read(nil) // @fact edge CALLS example.com/emb/emb.Count -> go:io.Reader.Read by=embedding confidence=medium
	r.Missing() // the only embedded type is outside the tree: attributed to it, medium
}

// @fact edge CALLS example.com/emb/emb.Count -> go:io.Reader.Missing confidence=medium

type Named struct{ name string }

func NoSuch(n Named) {
	n.Frobnicate() // @fact edge CALLS example.com/emb/emb.NoSuch -> ?::emb/emb.go::n.Frobnicate reason="member not found"
}

// Interface embedding.
type Reader interface{ Read() string }

type ReadCloser interface {
	Reader // @fact edge EXTENDS example.com/emb/emb.ReadCloser -> example.com/emb/emb.Reader by=package
	Close() error
}

func UseRC(rc ReadCloser) {
	rc.Read()  // @fact edge CALLS example.com/emb/emb.UseRC -> example.com/emb/emb.Reader.Read by=receiver confidence=medium
	rc.Close() // @fact edge CALLS example.com/emb/emb.UseRC -> example.com/emb/emb.ReadCloser.Close confidence=medium
}
