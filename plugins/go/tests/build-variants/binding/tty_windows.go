package binding

func ttyName() string { return "con" }
