module example.com/emb
