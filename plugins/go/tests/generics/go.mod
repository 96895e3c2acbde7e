module example.com/gen
