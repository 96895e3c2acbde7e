module example.com/tt

go 1.21
