package api

import . "example.com/shop/dotb"

// One dot import: its exported names are bare names of this file, bound when exactly one candidate.
func UseDot() {
	Render() // @fact edge CALLS example.com/shop/api.UseDot -> example.com/shop/dotb.Render by=import
}
