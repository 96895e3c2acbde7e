import enum
from typing import overload


def describe():
    pass


@overload
def parse(x: int) -> int: ...
@overload
def parse(x: str) -> str: ...
def parse(x):  # the implementation owns the node, not the first @overload stub
    return x


# @fact node lib.core.kinds.parse Function line=13


class Color(enum.Enum):
    RED = 1

    def shade(self):
        pass


def colors():
    Color.RED.shade()  # an Enum member is not the int it was assigned: never builtins.int.shade
    # @fact no-edge CALLS lib.core.kinds.colors -> python:builtins.int.shade
    # @fact edge CALLS lib.core.kinds.colors -> ?::lib/core/kinds.py::Color.RED.shade reason="receiver type unknown"


class Field:
    def __get__(self, obj, owner):
        return 1

    def clean(self):
        pass


class Model:
    name = Field()  # a descriptor: `m.name` is what __get__ returns, not a Field

    def run(self):
        self.name.clean()  # @fact no-edge CALLS lib.core.kinds.Model.run -> lib.core.kinds.Field.clean
        type(self).build()  # @fact edge CALLS lib.core.kinds.Model.run -> lib.core.kinds.Model.build by=self

    @classmethod
    def build(cls):
        pass


class Proxy:
    def __getattr__(self, name):
        return name

    def real(self):
        pass


def proxies(p: Proxy):
    p.real()  # @fact edge CALLS lib.core.kinds.proxies -> lib.core.kinds.Proxy.real by=receiver
    p.anything()  # __getattr__ answers any name: a dynamic call, not a missing member
    # @fact edge CALLS lib.core.kinds.proxies -> ?::lib/core/kinds.py::p.anything reason="dynamic call"


class Pair:
    def __init__(self, a: "Color", b: Model):
        self.left, self.right = a, b  # tuple targets are assignments too

    def go(self):
        self.right.run()  # an unannotated tuple assignment proves nothing
        # @fact edge CALLS lib.core.kinds.Pair.go -> ?::lib/core/kinds.py::self.right.run reason="receiver type unknown"
