# Loop and comprehension variables over attributes a class annotation declares.
from typing import Dict, List


class Key:
    def name(self) -> str:
        return ""


class Col:
    def label(self) -> str:
        return ""


class Table:
    keys: List[Key]
    cols: Dict[str, Col]

    def __init__(self) -> None:
        self.keys = []
        self.cols = {}
        self.rows: List[Col] = []

    def names(self) -> None:
        for k in self.keys:
            k.name()  # @fact edge CALLS app.loops.Table.names -> app.loops.Key.name by=receiver site=26
        for c in self.cols.values():  # a call's result: no element read
            c.label()  # @fact no-edge CALLS app.loops.Table.names -> app.loops.Col.label site=28
        for r in self.rows:
            r.label()  # @fact edge CALLS app.loops.Table.names -> app.loops.Col.label site=30

    def sets(self) -> None:
        a = {e.name() for e in self.keys}  # @fact edge CALLS app.loops.Table.sets -> app.loops.Key.name site=33
        b = [e.label() for e in self.rows]  # the same name over another attribute: @fact edge CALLS app.loops.Table.sets -> app.loops.Col.label site=34
        c = [e.label() for e in self.cols]  # a mapping's keys are str: @fact no-edge CALLS app.loops.Table.sets -> app.loops.Col.label site=35
        e = Col()
        e.label()  # a comprehension binds e in this function too: left unknown (conservative)
        # @fact edge CALLS app.loops.Table.sets -> ?::app/loops.py::e.label reason="receiver type unknown"

    def get_keys(self) -> List[Key]:
        return self.keys

    def untyped(self):
        return self.keys

    def calls(self) -> None:
        for k in self.get_keys():
            k.name()  # @fact edge CALLS app.loops.Table.calls -> app.loops.Key.name by=receiver site=48
        for u in self.untyped():  # no declared return: no element
            u.name()  # @fact no-edge CALLS app.loops.Table.calls -> app.loops.Key.name site=50
        s = [q.name() for q in self.get_keys()]  # @fact edge CALLS app.loops.Table.calls -> app.loops.Key.name site=51
