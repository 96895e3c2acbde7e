package coll

type T struct{} // a package type named like a type parameter

func (T) Bad() {}

type List[T any] struct {
	items []T
	head  *node[T]
}

type node[T any] struct{ next *node[T] }

func (n *node[T]) Next() *node[T] { return n.next }

func (l *List[T]) Push(v T) {
	v.Bad()        // v is a type parameter, not the package's T: @fact edge CALLS example.com/gen/coll.List.Push -> ?::coll/coll.go::v.Bad reason="receiver type unknown"
	l.head.Next()  // @fact edge CALLS example.com/gen/coll.List.Push -> example.com/gen/coll.node.Next by=receiver
}

// @fact node example.com/gen/coll.List.Push Method receiver=*List[T]
// @fact no-edge CALLS example.com/gen/coll.List.Push -> example.com/gen/coll.T.Bad

func Map[T, U any](xs []T, f func(T) U) []U { return nil }

func New[T any]() *List[T] { return &List[T]{} } // @fact edge INSTANTIATES example.com/gen/coll.New -> example.com/gen/coll.List

func Use() {
	l := New[int]()  // @fact edge CALLS example.com/gen/coll.Use -> example.com/gen/coll.New by=package
	l.Push(1)        // @fact edge CALLS example.com/gen/coll.Use -> example.com/gen/coll.List.Push by=receiver
	_ = Map[int, string](nil, nil) // @fact edge CALLS example.com/gen/coll.Use -> example.com/gen/coll.Map by=package
	var l2 List[string]
	l2.Push("x") // @fact edge CALLS example.com/gen/coll.Use -> example.com/gen/coll.List.Push
}

func Generic[T interface{ Bad() }](x T) {
	x.Bad() // @fact edge CALLS example.com/gen/coll.Generic -> ?::coll/coll.go::x.Bad reason="receiver type unknown"
}
