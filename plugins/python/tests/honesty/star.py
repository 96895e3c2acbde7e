from os.path import *  # anything not defined here may come from os.path


def use():
    join("a", "b")  # @fact edge CALLS star.use -> ?::star.py::join reason="star import from external module"
    open("f")  # os.path could shadow the builtin: not bound to it
    # @fact edge CALLS star.use -> ?::star.py::open reason="star import from external module"
    # @fact no-edge CALLS star.use -> python:builtins.open
    local()  # @fact edge CALLS star.use -> star.local by=scope


def local():
    pass
