module example.com/bv

go 1.21
