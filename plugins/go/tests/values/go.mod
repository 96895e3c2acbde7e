module example.com/val
