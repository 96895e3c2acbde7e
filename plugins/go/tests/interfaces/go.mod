module example.com/geo
