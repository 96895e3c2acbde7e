from .helpers import *  # binds only what app.helpers exports (its __all__)
# @fact edge IMPORTS app.core -> app.helpers by=import


class Engine:
    def __init__(self):
        pass


def start():
    public_a()  # @fact edge CALLS app.core.start -> app.helpers.public_a by=import
    public_b()  # not in __all__: not bound by the star import
    # @fact edge CALLS app.core.start -> ?::app/core.py::public_b reason="not defined in scope"
