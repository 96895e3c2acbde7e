# No __all__: a star import binds the public top-level names only.
def plain_fn():
    pass


def _hidden():
    pass
