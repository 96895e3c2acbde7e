// A repo package with names a dependency also has.
package jsonx

func Marshal(v any) ([]byte, error) { return nil, nil }

func Get(url string) {}
