package handler

import (
	"encoding/json"
	"net/http"

	"example.com/fm/svc"
)

// Row "Go calls through struct-field receivers" (GitNexus#2766), and the dependency-injection
// row (codebase-memory-mcp#514): a field with a declared type is a proof.
type Handler struct {
	svc   *svc.Service
	cache svc.Cache
}

type Box[T interface{ Find(int) }] struct{ v T }

func (h *Handler) Serve() {
	h.svc.Find(1)   // @fact edge CALLS example.com/fm/handler.Handler.Serve -> example.com/fm/svc.Service.Find by=receiver confidence=high
	h.cache.Find(2) // @fact edge CALLS example.com/fm/handler.Handler.Serve -> example.com/fm/svc.Cache.Find by=receiver
}

// A field whose type is a type parameter: not proven, stated.
func (b *Box[T]) Use() {
	b.v.Find(3) // @fact edge CALLS example.com/fm/handler.Box.Use -> ?::handler/handler.go::b.v.Find reason="receiver type unknown"
	// @fact no-edge CALLS example.com/fm/handler.Box.Use -> example.com/fm/svc.Service.Find
}

// Row "a fuzzy name match answered for a different symbol" (codegraph#1473): Find is never FindAll.
func Exact(s *svc.Service) {
	s.Find(1) // @fact edge CALLS example.com/fm/handler.Exact -> example.com/fm/svc.Service.Find
	// @fact no-edge CALLS example.com/fm/handler.Exact -> example.com/fm/svc.Service.FindAll
	// @fact no-edge CALLS example.com/fm/handler.Exact -> example.com/fm/svc.Cache.Find
}

// Rows "methods named append / update" (codegraph#1681) and "member calls bound by suffix"
// (codebase-memory-mcp#1276): an untyped receiver is unresolved even though exactly one repo
// type declares Append.
func Untyped(list interface{ Append(int) }, xs []int) {
	list.Append(1) // @fact edge CALLS example.com/fm/handler.Untyped -> ?::handler/handler.go::list.Append reason="receiver type unknown"
	xs = append(xs, 1)
	// @fact no-edge CALLS example.com/fm/handler.Untyped -> example.com/fm/svc.Service.Append
	// @fact no-edge CALLS example.com/fm/handler.Untyped -> ?::handler/handler.go::append
}

// Rows "global fetch() bound to a repo method" (GitNexus#2545) and "z.record() bound to a repo
// record" (GitNexus#1499): a dependency's function is External, never the repo's same-named one.
func Deps() {
	json.Marshal(nil) // @fact edge CALLS example.com/fm/handler.Deps -> go:encoding/json.Marshal by=import
	http.Get("/")     // @fact edge CALLS example.com/fm/handler.Deps -> go:net/http.Get by=import
	// @fact no-edge CALLS example.com/fm/handler.Deps -> example.com/fm/jsonx.Marshal
	// @fact no-edge CALLS example.com/fm/handler.Deps -> example.com/fm/jsonx.Get
}

// Row "directly imported functions with no CALLS" (codebase-memory-mcp#1682).
func Direct() {
	s := svc.New() // @fact edge CALLS example.com/fm/handler.Direct -> example.com/fm/svc.New by=import
	s.FindAll()    // @fact edge CALLS example.com/fm/handler.Direct -> example.com/fm/svc.Service.FindAll by=receiver
}

// Row "callbacks and higher-order functions" (GitNexus#1166): a function passed as a value is a
// REFERENCES edge; calls inside callbacks belong to the enclosing function.
func Callbacks(s *svc.Service) {
	http.HandleFunc("/", index) // @fact edge REFERENCES example.com/fm/handler.Callbacks -> example.com/fm/handler.index by=package
	each([]int{1}, func(i int) {
		s.Find(i) // @fact edge CALLS example.com/fm/handler.Callbacks -> example.com/fm/svc.Service.Find
	})
	each(nil, s.Append) // @fact edge REFERENCES example.com/fm/handler.Callbacks -> example.com/fm/svc.Service.Append by=receiver
}

func index(w http.ResponseWriter, r *http.Request) {}

func each(xs []int, f func(int)) {
	for _, x := range xs {
		f(x) // @fact edge CALLS example.com/fm/handler.each -> ?::handler/handler.go::f reason="dynamic call"
	}
}

// Row "functions assigned to properties" (seen measuring a TS/JS indexer): Go's counterpart is a
// package variable holding a function literal: a definition; calls inside belong to it.
var OnStart = func() {
	svc.New() // @fact edge CALLS example.com/fm/handler.OnStart -> example.com/fm/svc.New
}

// Row "calls attributed to the module" (codebase-memory-mcp#220): the caller is the innermost
// enclosing definition, also for deferred and goroutine calls.
func (h *Handler) Close() {
	defer h.svc.FindAll() // @fact edge CALLS example.com/fm/handler.Handler.Close -> example.com/fm/svc.Service.FindAll
	go func() { h.cache.Find(0) }() // @fact edge CALLS example.com/fm/handler.Handler.Close -> example.com/fm/svc.Cache.Find
}

// @fact no-edge CALLS example.com/fm/handler/handler.go -> *
