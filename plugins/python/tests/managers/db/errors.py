# A name caught by its exception class, and the elements of an attribute enumerated.
from db import conn
from db.conn import Conn


class Failure(Exception):
    def show(self) -> None:
        pass


def catch() -> None:
    try:
        pass
    except Failure as e:
        e.show()  # @fact edge CALLS db.errors.catch -> db.errors.Failure.show by=receiver site=15


def catch_either() -> None:
    try:
        pass
    except (ValueError, Failure) as err:  # a tuple of classes: not read
        err.show()  # @fact no-edge CALLS db.errors.catch_either -> db.errors.Failure.show


class Batch:
    def __init__(self) -> None:
        self.items: list[Conn] = []
        self.other: list[conn.Opener] = []

    def run_all(self) -> None:
        for i, c in enumerate(self.items):
            c.run()  # @fact edge CALLS db.errors.Batch.run_all -> db.conn.Conn.run by=receiver site=32
