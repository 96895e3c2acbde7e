import typing
from typing import Generic, TypeVar

from shop.items import Item


class Base:
    def label(self) -> str:
        return ""


_B = TypeVar("_B", bound=Base)
_Q = TypeVar("_Q", bound="Item")
_T = TypeVar("_T")
_U = typing.TypeVar("_U", bound=Base)


class Grouping(Generic[_B]):
    element: _B

    def label(self) -> str:
        return self.element.label()  # @fact edge CALLS shop.typevars.Grouping.label -> shop.typevars.Base.label


def first(x: _Q, y: _T, z: _U) -> None:
    x.price()  # @fact edge CALLS shop.typevars.first -> shop.items.Item.price
    y.price()  # @fact no-edge CALLS shop.typevars.first -> shop.items.Item.price site=27
    z.label()  # @fact edge CALLS shop.typevars.first -> shop.typevars.Base.label


class Chain(Base):
    def chain(self: _B, other: Base) -> _B:
        return self

    def label(self) -> str:
        return "chain"


def chained(c: Chain, b: Base) -> None:
    c.chain(b).label()  # @fact no-edge CALLS shop.typevars.chained -> shop.typevars.Base.label
