package api

import (
	"net/http"
	"os"

	"example.com/shop/store"
	h "example.com/shop/util"
	chi "github.com/go-chi/chi/v5"
	"github.com/mattn/go-isatty"
	"gopkg.in/yaml.v3"
	_ "github.com/lib/pq"
	"example.com/shop/missing"
)

// @fact edge IMPORTS example.com/shop/api/api.go -> example.com/shop/store by=import line=7
// @fact edge IMPORTS example.com/shop/api/api.go -> go:net/http by=import
// @fact edge IMPORTS example.com/shop/api/api.go -> go:github.com/lib/pq
// @fact node go:net/http External
// @fact no-edge IMPORTS example.com/shop/api/api.go -> go:example.com/shop/missing

func Serve() {
	db := store.Open("x") // @fact edge CALLS example.com/shop/api.Serve -> example.com/shop/store.Open by=import confidence=high
	db.Query("q")        // @fact edge CALLS example.com/shop/api.Serve -> example.com/shop/store.DB.Query by=receiver
	store.Default.Query("") // @fact edge CALLS example.com/shop/api.Serve -> example.com/shop/store.DB.Query
	_ = store.Version    // @fact edge REFERENCES example.com/shop/api.Serve -> example.com/shop/store.Version by=import
	h.Slug("a")          // @fact edge CALLS example.com/shop/api.Serve -> example.com/shop/util.Slug by=import
	http.Get("/x")       // @fact edge CALLS example.com/shop/api.Serve -> go:net/http.Get by=import confidence=high
	// @fact no-edge CALLS example.com/shop/api.Serve -> example.com/shop/util.Get
	os.Exit(1)           // @fact edge CALLS example.com/shop/api.Serve -> go:os.Exit by=import
	r := chi.NewRouter() // @fact edge CALLS example.com/shop/api.Serve -> go:github.com/go-chi/chi/v5.NewRouter by=import confidence=high
	r.Get("/", nil)      // @fact edge CALLS example.com/shop/api.Serve -> ?::api/api.go::r.Get reason="receiver type unknown"
	isatty.IsTerminal(0) // @fact edge CALLS example.com/shop/api.Serve -> go:github.com/mattn/go-isatty.IsTerminal confidence=medium
	yaml.Marshal(nil)    // @fact edge CALLS example.com/shop/api.Serve -> go:gopkg.in/yaml.v3.Marshal confidence=medium
	missing.Do()         // @fact edge CALLS example.com/shop/api.Serve -> ?::api/api.go::missing.Do reason="unresolved import example.com/shop/missing"
	store.Nope()         // @fact edge CALLS example.com/shop/api.Serve -> ?::api/api.go::store.Nope reason="not defined in scope"
	var c http.Client
	c.Do(nil)            // @fact edge CALLS example.com/shop/api.Serve -> go:net/http.Client.Do by=receiver
	srv := &http.Server{} // @fact edge INSTANTIATES example.com/shop/api.Serve -> go:net/http.Server by=import
	srv.ListenAndServe() // @fact edge CALLS example.com/shop/api.Serve -> go:net/http.Server.ListenAndServe by=receiver
}

// A local named like an import shadows it.
func Shadow() {
	http := store.Open("")
	http.Query("") // @fact edge CALLS example.com/shop/api.Shadow -> example.com/shop/store.DB.Query by=receiver
	// @fact no-edge CALLS example.com/shop/api.Shadow -> go:net/http.Query
}
