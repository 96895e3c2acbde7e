package lib

// Repo symbols named like builtins and standard-library members.
func Append(x int) {}

type List struct{}

func (l *List) Add(x int)     {}
func (l *List) append(x int)  {}
func (l *List) Close() error  { return nil }

func Println(a ...any) {}

type Handler struct {
	OnEvent func(string)
}
