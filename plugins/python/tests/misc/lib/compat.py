str = str  # read before bound: the builtin
builtin_run = describe_alias = None


def text(x):
    return str(x)  # @fact edge CALLS lib.compat.text -> python:builtins.str by=builtin
