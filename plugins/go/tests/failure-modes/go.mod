module example.com/fm
