module example.com/rx
