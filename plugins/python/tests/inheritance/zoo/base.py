import external_lib
from typing import Generic, TypeVar

T = TypeVar("T")


class Animal:
    def speak(self):
        pass

    def describe(self):
        self.speak()  # @fact edge CALLS zoo.base.Animal.describe -> zoo.base.Animal.speak by=self line=12
        self.missing()  # nothing in-tree defines it and every base is in the tree
        # @fact edge CALLS zoo.base.Animal.describe -> ?::zoo/base.py::self.missing reason="member not found in class hierarchy"

    @classmethod
    def create(cls):
        cls.registry()  # @fact edge CALLS zoo.base.Animal.create -> zoo.base.Animal.registry by=self
        return cls()  # @fact edge INSTANTIATES zoo.base.Animal.create -> zoo.base.Animal by=self

    @classmethod
    def registry(cls):
        pass

    @staticmethod
    def util(self):
        self.speak()  # a staticmethod's first parameter is not the instance
        # @fact edge CALLS zoo.base.Animal.util -> ?::zoo/base.py::self.speak reason="receiver type unknown"
        # @fact no-edge CALLS zoo.base.Animal.util -> zoo.base.Animal.speak


class Walker(Animal):  # @fact edge EXTENDS zoo.base.Walker -> zoo.base.Animal by=scope
    def move(self):
        pass

    def speak(self):
        pass


class Swimmer(Animal):
    def move(self):
        pass

    def dive(self):
        pass


class Duck(Walker, Swimmer):  # MRO: Duck, Walker, Swimmer, Animal, object
    # @fact edge EXTENDS zoo.base.Duck -> zoo.base.Walker
    # @fact edge EXTENDS zoo.base.Duck -> zoo.base.Swimmer
    def act(self):
        self.move()  # @fact edge CALLS zoo.base.Duck.act -> zoo.base.Walker.move by=self
        # @fact no-edge CALLS zoo.base.Duck.act -> zoo.base.Swimmer.move
        self.dive()  # @fact edge CALLS zoo.base.Duck.act -> zoo.base.Swimmer.dive by=self
        self.describe()  # @fact edge CALLS zoo.base.Duck.act -> zoo.base.Animal.describe by=self
        super().speak()  # @fact edge CALLS zoo.base.Duck.act -> zoo.base.Walker.speak by=super
        super().__init__()  # object.__init__, the end of every MRO
        # @fact edge CALLS zoo.base.Duck.act -> python:builtins.object.__init__ by=builtin


class Plugin(external_lib.Base):  # @fact edge EXTENDS zoo.base.Plugin -> python:external_lib.Base by=import
    def run(self):
        self.helper()  # @fact edge CALLS zoo.base.Plugin.run -> zoo.base.Plugin.helper by=self
        self.setup()  # may come from external_lib.Base: stop
        # @fact edge CALLS zoo.base.Plugin.run -> ?::zoo/base.py::self.setup reason="external or unknown base"
        super().run()  # @fact edge CALLS zoo.base.Plugin.run -> ?::zoo/base.py::super().run reason="external or unknown base"

    def helper(self):
        pass


class Mixed(Animal, external_lib.Mixin):
    def go(self):
        self.speak()  # Animal comes before the external base in the MRO
        # @fact edge CALLS zoo.base.Mixed.go -> zoo.base.Animal.speak by=self
        self.other()  # @fact edge CALLS zoo.base.Mixed.go -> ?::zoo/base.py::self.other reason="external or unknown base"


class Broken(make_base()):
    def go(self):
        self.anything()  # @fact edge CALLS zoo.base.Broken.go -> ?::zoo/base.py::self.anything reason="external or unknown base"


class MyError(Exception):  # @fact edge EXTENDS zoo.base.MyError -> python:builtins.Exception by=builtin
    def __init__(self, msg):
        super().__init__(msg)  # @fact edge CALLS zoo.base.MyError.__init__ -> ?::zoo/base.py::super().__init__ reason="external or unknown base"


class Box(Generic[T]):  # Generic adds no methods: lookups go on to object
    # @fact edge EXTENDS zoo.base.Box -> python:typing.Generic by=import
    def a(self):
        self.b()  # @fact edge CALLS zoo.base.Box.a -> zoo.base.Box.b by=self

    def b(self):
        self.c()  # @fact edge CALLS zoo.base.Box.b -> ?::zoo/base.py::self.c reason="member not found in class hierarchy"


def make_base():
    return object
