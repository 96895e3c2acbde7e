# What a call gives when its callee's declared result names a type variable, read through a
# property whose body returns it (the callee in another file), and a property declared Type[X].
from typing import Type

from lib import cols


class Compiler:
    @property
    def percent(self):  # no annotation: its return statement says what it gives
        return cols.column("%")

    @property
    def affinity(self) -> Type[cols.Typed]:
        return cols.Sub

    def kind(self) -> Type[cols.Typed]:
        return cols.Sub

    def run(self) -> None:
        p = self.percent
        p.concat(p)  # @fact edge CALLS lib.use.Compiler.run -> lib.cols.Column.concat by=receiver site=22
        cols.column("x").concat(p)  # @fact edge CALLS lib.use.Compiler.run -> lib.cols.Column.concat site=23
        cols.same(p).concat(p)  # _T is the argument's type, not its bound
        # @fact no-edge CALLS lib.use.Compiler.run -> lib.cols.Column.concat site=24
        # a property declared Type[Typed] holds Typed or a subclass: calling it is not proven to make a Typed
        self.affinity()  # @fact no-edge INSTANTIATES lib.use.Compiler.run -> lib.cols.Typed
        # a function declared so still says whose members it has
        self.kind().adapt(self)  # @fact edge CALLS lib.use.Compiler.run -> lib.cols.Typed.adapt site=29
