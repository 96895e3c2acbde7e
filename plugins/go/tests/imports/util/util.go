// The directory is util, the package clause says helpers: importers use the clause's name.
package helpers

func Slug(s string) string { return s }

func Get(url string) {} // same name as net/http.Get
