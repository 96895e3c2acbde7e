package web

import (
	"errors"
	"net/http"
)

var ErrNotFound = errors.New("not found") // @fact edge CALLS example.com/val/web.ErrNotFound -> go:errors.New by=import

const DefaultPort = 8080

type App struct{ routes int }

func (a *App) handle(w http.ResponseWriter, r *http.Request) {
	a.audit() // @fact edge CALLS example.com/val/web.App.handle -> example.com/val/web.App.audit by=receiver
}

func (a *App) audit() {}

func index(w http.ResponseWriter, r *http.Request) {}

func helper() error { return nil }

func Routes(a *App) {
	// Functions passed as values: REFERENCES, and calls inside callbacks belong to Routes.
	http.HandleFunc("/", index)    // @fact edge REFERENCES example.com/val/web.Routes -> example.com/val/web.index by=package
	http.HandleFunc("/a", a.handle) // method value: @fact edge REFERENCES example.com/val/web.Routes -> example.com/val/web.App.handle by=receiver
	http.HandleFunc("/b", func(w http.ResponseWriter, r *http.Request) {
		a.audit()   // @fact edge CALLS example.com/val/web.Routes -> example.com/val/web.App.audit by=receiver
		_ = helper() // @fact edge CALLS example.com/val/web.Routes -> example.com/val/web.helper by=package
	})
	port := DefaultPort // @fact edge REFERENCES example.com/val/web.Routes -> example.com/val/web.DefaultPort by=package
	_ = port
	if err := helper(); err == ErrNotFound { // @fact edge REFERENCES example.com/val/web.Routes -> example.com/val/web.ErrNotFound by=package
		return
	}
	handlers := []http.HandlerFunc{index} // @fact edge REFERENCES example.com/val/web.Routes -> example.com/val/web.index
	_ = handlers
	_ = a.routes // @fact edge REFERENCES example.com/val/web.Routes -> example.com/val/web.App.routes by=receiver
}

// A local named like a package function shadows it: no REFERENCES.
func Shadow() {
	index := 3
	_ = index
}

// @fact no-edge REFERENCES example.com/val/web.Shadow -> example.com/val/web.index

// A package variable holding a function: calling it is a CALLS to the variable.
var hook = func() {}

var hooks = []func(){}

func Fire() {
	hook()     // @fact edge CALLS example.com/val/web.Fire -> example.com/val/web.hook by=package
	hooks[0]() // @fact edge CALLS example.com/val/web.Fire -> ?::web/web.go::hooks[0] reason="dynamic call"
	// @fact no-edge CALLS example.com/val/web.Fire -> example.com/val/web.hooks
}

// Calls in a package-level initialiser belong to the variable.
var table = map[string]int{"a": compute()} // @fact edge CALLS example.com/val/web.table -> example.com/val/web.compute by=package

func compute() int { return 1 }

// Typed by its initialiser in another file: see use.go.
var defaultApp = &App{}
