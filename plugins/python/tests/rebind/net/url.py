# Names bound more than once in a function: unpacked from a declared tuple, rebound through
# themselves (`u = u.with_query()`), or set to None beside a value.
from typing import Dict, List, Tuple


class Plugin:
    def load(self) -> None:
        pass


class URL:
    def with_query(self) -> "URL":
        return self

    def split(self) -> Tuple["URL", List[Plugin], Dict[str, str]]:
        return self, [], {}

    def pair(self) -> tuple:
        return self, self

    def connect(self) -> None:
        pass


class Other:
    def connect(self) -> None:
        pass


def make() -> URL:
    return URL()


def create() -> None:
    u = make()
    u, plugins, kw = u.split()
    u = u.with_query()
    u.connect()  # @fact edge CALLS net.url.create -> net.url.URL.connect by=receiver
    a, b = u.pair()  # a bare `tuple`: no element type
    a.connect()  # @fact no-edge CALLS net.url.create -> net.url.URL.connect site=40


def drift() -> None:
    x = make()
    x = x.with_query().other()  # @fact edge CALLS net.url.drift -> ?::net/url.py::x.with_query().other reason="receiver type unknown"
    x.connect()  # x is URL or what .other() gives: no binding proven
    # @fact no-edge CALLS net.url.drift -> net.url.URL.connect


def cleared(flag: bool) -> None:
    v = w = None
    if flag:
        v = make()
        w = Other()
    v.connect()  # @fact edge CALLS net.url.cleared -> net.url.URL.connect by=receiver
    w.connect()  # @fact edge CALLS net.url.cleared -> net.url.Other.connect by=receiver


class Node:
    def child(self):  # no annotation: its return statements say what it gives
        return URL()

    def either(self, flag):
        if flag:
            return URL()
        return Other()

    def me(self):  # `self` is a subclass's instance at run time: not read
        return self

    def maybe(self, flag):
        if flag:
            return None
        return make()

    def gen(self):
        yield URL()

    def connect(self) -> None:
        pass


class Leaf(Node):
    def connect(self) -> None:
        pass


def walk(n: Node, leaf: Leaf) -> None:
    n.child().connect()  # @fact edge CALLS net.url.walk -> net.url.URL.connect by=receiver site=89
    n.maybe(True).connect()  # @fact edge CALLS net.url.walk -> net.url.URL.connect site=90
    n.either(True).connect()  # @fact no-edge CALLS net.url.walk -> net.url.URL.connect site=91
    # @fact no-edge CALLS net.url.walk -> net.url.Other.connect
    leaf.me().connect()  # @fact no-edge CALLS net.url.walk -> net.url.Node.connect
    n.gen().connect()  # @fact no-edge CALLS net.url.walk -> net.url.URL.connect site=94
