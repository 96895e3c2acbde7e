package server

func listen(addr string) {}

func init() {} // @fact node example.com/acme/server/listen.go.init Function
