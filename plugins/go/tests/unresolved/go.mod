module example.com/un
