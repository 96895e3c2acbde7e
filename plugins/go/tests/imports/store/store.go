package store

type DB struct{}

func Open(dsn string) *DB { return &DB{} }

func (db *DB) Query(q string) {}

var Default = Open("") // a package variable

const Version = "1"
