# Context managers: a `with` target holds what the manager's __enter__ returns.
import contextlib
from typing import Any, Iterator


class Conn:
    def __enter__(self) -> "Conn":
        return self

    def __exit__(self, *exc: Any) -> None:
        pass

    def run(self) -> None:
        pass


class Tx(Conn):  # __enter__ inherited: declared to give a Conn
    def commit(self) -> None:
        pass


class Selfish:
    def __enter__(self):  # gives the manager itself, whatever its class
        return self

    def __exit__(self, *exc):
        pass

    def go(self) -> None:
        pass


class SubSelfish(Selfish):
    def go(self) -> None:
        pass


class Opener:
    def __enter__(self) -> Conn:
        return Conn()

    def __exit__(self, *exc: Any) -> None:
        pass


class Opaque:
    def __enter__(self):
        return lookup()

    def __exit__(self, *exc):
        pass

    def go(self) -> None:
        pass


class Engine:
    def tx(self) -> Tx:
        return Tx()


def lookup():
    return {}.get("conn")


def connect() -> Conn:
    return Conn()


@contextlib.contextmanager
def session() -> Iterator[Conn]:
    yield Conn()


def stream() -> Iterator[Conn]:  # no context manager: `with` reads its __enter__, not its elements
    yield Conn()
