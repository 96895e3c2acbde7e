def real():
    pass
