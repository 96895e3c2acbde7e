package lib

import "crypto/tls"

// Repo symbols named like builtins and standard-library members.
func Append(x int) {}

type List struct{}

func (l *List) Add(x int)     {}
func (l *List) append(x int)  {}
func (l *List) Close() error  { return nil }

func Println(a ...any) {}

type Handler struct {
	OnEvent func(string)
}

// A type defined over a type outside the tree: its fields are that type's, not visible here.
type ConnState tls.ConnectionState

func Peer(t *ConnState) {
	t.PeerCertificates[0].Verify() // @fact edge CALLS example.com/un/lib.Peer -> ?::lib/lib.go::t.PeerCertificates[0].Verify reason="receiver type unknown"
}
