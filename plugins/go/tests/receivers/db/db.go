package db

type Conn struct{}

func (c *Conn) Exec(q string) error { return nil }

func (c *Conn) Close() error { return nil }

func Dial() (*Conn, error) { return &Conn{}, nil }
