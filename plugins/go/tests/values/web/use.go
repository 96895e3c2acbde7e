package web

func UseDefault() {
	defaultApp.audit() // @fact edge CALLS example.com/val/web.UseDefault -> example.com/val/web.App.audit by=receiver
	// @fact edge REFERENCES example.com/val/web.UseDefault -> example.com/val/web.defaultApp by=package
}
