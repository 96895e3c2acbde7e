# Results declared generic: a Column[_T] is a Column whatever _T is; a bare _T is the argument's type.
from typing import Generic, Optional, TypeVar

_T = TypeVar("_T", bound=object)


class Column(Generic[_T]):
    def concat(self, other: object) -> "Column[_T]":
        return self


class Typed:
    def adapt(self) -> None:
        pass


class Sub(Typed):
    def adapt(self) -> None:
        pass


def column(name: str, kind: Optional[_T] = None) -> Column[_T]:
    return Column()


def same(x: _T) -> _T:
    return x
