# Methods under `if TYPE_CHECKING:` declare a type for the checker; a call runs what the MRO
# finds after them (the mixin's declared `adapt` is not what `Column().adapt()` reaches).
import typing
from typing import TYPE_CHECKING


class Result:
    def rows(self) -> int:
        return 0


class Engine:
    def adapt(self) -> "Engine":
        return self

    def compile(self) -> str:
        return ""


class EngineMixin:
    if TYPE_CHECKING:

        def adapt(self) -> Result: ...

        def dispatch(self) -> Result: ...


class Column(EngineMixin, Engine):
    def copy(self) -> None:
        self.adapt()  # @fact edge CALLS kit.engines.Column.copy -> kit.engines.Engine.adapt by=self
        # @fact no-edge CALLS kit.engines.Column.copy -> kit.engines.EngineMixin.adapt
        # the declared type still types the result: the mixin says adapt() gives a Result
        self.adapt().rows()  # @fact edge CALLS kit.engines.Column.copy -> kit.engines.Result.rows by=receiver site=33
        # declared only, defined by nothing that runs: left unresolved, typed all the same
        self.dispatch()  # @fact edge CALLS kit.engines.Column.copy -> ?::kit/engines.py::self.dispatch reason="declared only for type checkers (if TYPE_CHECKING)"
        self.dispatch().rows()  # @fact edge CALLS kit.engines.Column.copy -> kit.engines.Result.rows site=36


class Pickled:
    def fallback(self) -> None:
        pass

    if typing.TYPE_CHECKING:

        def load(self) -> None: ...

    else:

        def load(self) -> None:  # what runs, and the node of the key
            self.fallback()

    if not TYPE_CHECKING:

        def reset(self) -> None:  # runs; a type checker never sees it
            pass

    else:

        def reset(self) -> None: ...

    def use(self) -> None:
        self.load()  # @fact edge CALLS kit.engines.Pickled.use -> kit.engines.Pickled.load by=self
        self.reset()  # @fact edge CALLS kit.engines.Pickled.use -> kit.engines.Pickled.reset by=self


# the key's node is the definition that runs: the second `load`, the first `reset`
# @fact node kit.engines.Pickled.load Method line=49
# @fact node kit.engines.Pickled.reset Method line=54
