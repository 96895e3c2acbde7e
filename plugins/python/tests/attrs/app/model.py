# Attributes typed by class annotations: a container subclass is no descriptor, a long base (over 200 characters)
# list is read whole, and an attribute declared `Type[X]` is not proven to hold X itself.
from typing import Dict, Generic, Type, TypeVar

T = TypeVar("T")


class FrozenMap(Dict[str, int]):
    def union(self, other: "FrozenMap") -> "FrozenMap":
        return self


class ColumnArgumentOrKeyStatementOptionWhereRoleA:
    pass


class ColumnArgumentOrKeyStatementOptionWhereRoleB:
    pass


class ColumnArgumentOrKeyStatementOptionWhereRoleC:
    pass


class ColumnArgumentOrKeyStatementOptionWhereRoleD:
    pass


class ColumnArgumentOrKeyStatementOptionWhereRoleE:
    pass


class Element(
    ColumnArgumentOrKeyStatementOptionWhereRoleA,
    ColumnArgumentOrKeyStatementOptionWhereRoleB,
    ColumnArgumentOrKeyStatementOptionWhereRoleC,
    ColumnArgumentOrKeyStatementOptionWhereRoleD,
    ColumnArgumentOrKeyStatementOptionWhereRoleE,
    Generic[T],
):
    def clone(self) -> "Element[T]":
        return self


class State:
    def froms(self) -> int:
        return 0

    @classmethod
    def create(cls, owner: "Holder") -> "State":
        return cls()


class Base:
    factory = State.create


class Holder(Base):
    hints: FrozenMap = FrozenMap()
    clause: Element[int]
    factory: Type[State]

    def use(self) -> None:
        self.hints.union(self.hints)  # @fact edge CALLS app.model.Holder.use -> app.model.FrozenMap.union by=receiver
        self.clause.clone()  # @fact edge CALLS app.model.Holder.use -> app.model.Element.clone by=receiver
        # declared Type[State], valued State.create by the base: neither is proven to be called
        self.factory(self)  # @fact no-edge INSTANTIATES app.model.Holder.use -> app.model.State
        # @fact no-edge CALLS app.model.Holder.use -> app.model.State.create
        # @fact edge CALLS app.model.Holder.use -> ?::app/model.py::self.factory reason="attribute declared as a class (Type[X]): what it holds is not proven"
        self.factory(self).froms()  # but what it gives is declared: @fact edge CALLS app.model.Holder.use -> app.model.State.froms by=receiver


class Formatter:
    def write(self) -> None:
        pass


class Printer:
    formatter_class: Type[Formatter] = Formatter  # declared and assigned that very class

    def out(self) -> None:
        self.formatter_class().write()  # @fact edge INSTANTIATES app.model.Printer.out -> app.model.Formatter
        # @fact edge CALLS app.model.Printer.out -> app.model.Formatter.write
