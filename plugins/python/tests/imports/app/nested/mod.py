from ..core import start  # @fact edge IMPORTS app.nested.mod -> app.core.start by=import
from .. import util
from .nope import y
from ....too_far import x


def f():
    start()  # @fact edge CALLS app.nested.mod.f -> app.core.start by=import
    util.tool()  # @fact edge CALLS app.nested.mod.f -> app.util.tool by=import
    y()  # @fact edge CALLS app.nested.mod.f -> ?::app/nested/mod.py::y reason="unresolved import .nope"
    x()  # @fact edge CALLS app.nested.mod.f -> ?::app/nested/mod.py::x reason="unresolved import ....too_far"
