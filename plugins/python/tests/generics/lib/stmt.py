# A method declared `-> Self` gives its receiver's own type: a subclass's instance stays one.
from typing import Self


class Statement:
    def copy(self) -> Self:
        return self

    def finish(self) -> None:
        pass


class Select(Statement):
    def finish(self) -> None:
        pass

    def limit(self) -> None:
        self = self.copy()
        self.finish()  # @fact edge CALLS lib.stmt.Select.limit -> lib.stmt.Select.finish by=self site=19
        s = self.copy()
        s.finish()  # @fact edge CALLS lib.stmt.Select.limit -> lib.stmt.Select.finish site=21
        self.copy().finish()  # @fact edge CALLS lib.stmt.Select.limit -> lib.stmt.Select.finish site=22
        # @fact no-edge CALLS lib.stmt.Select.limit -> lib.stmt.Statement.finish
