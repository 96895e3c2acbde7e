__all__ = ["public_a"]


def public_a():
    pass


def public_b():
    pass
