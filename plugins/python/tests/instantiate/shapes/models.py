import external
from dataclasses import dataclass


class Widget:
    def __init__(self, name):
        self.name = name


class Plain:
    pass


class Child(Widget):
    pass


class ExtChild(external.Base):
    pass


@dataclass
class Point:
    x: int = 0


class Outer:
    class Inner:
        def __init__(self):
            pass
