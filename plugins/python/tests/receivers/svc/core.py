from typing import List, Optional, Union
import typing as t

from .cache import Cache
from . import cache as cache_mod


class Repo:
    def save(self):
        pass

    def load(self) -> "Record":
        pass

    @property
    def conn(self) -> "Conn":
        pass

    @classmethod
    def create(cls) -> "Repo":
        return cls()


class Record:
    def touch(self):
        pass


class Conn:
    def close(self):
        pass


class Other:
    def save(self):
        pass


class Factory:
    @staticmethod
    def build() -> Repo:
        return Repo()


def make() -> Repo:
    return Repo()


def helper_untyped():
    return Repo()


default_repo = Repo()


class Service:
    repo: Repo  # a class-level annotation declares the attribute

    def __init__(self, cache: Cache, alt: "cache_mod.Cache"):
        self.other = Other()  # a constructor in __init__
        self.cache = cache  # a typed parameter
        self.alt = alt
        self.maybe: Optional[Repo] = None  # an annotated attribute
        self.later = None

    def setup(self):
        self.later = Repo()  # not the declaring assignment (that is in __init__)

    def run(self, r: Repo, o: "Other", items: List[Record], u: Union[Repo, Other], n):
        r.save()  # @fact edge CALLS svc.core.Service.run -> svc.core.Repo.save by=receiver line=70
        o.save()  # @fact edge CALLS svc.core.Service.run -> svc.core.Other.save by=receiver line=71
        self.repo.save()  # class-level annotation: same target as line 70
        self.other.save()  # constructor in __init__: same target as line 71
        self.cache.get()  # @fact edge CALLS svc.core.Service.run -> svc.cache.Cache.get by=receiver
        self.alt.save()  # @fact edge CALLS svc.core.Service.run -> svc.cache.Cache.save by=receiver
        self.maybe.save()  # Optional[Repo]: a call on it is on the Repo
        self.later.save()  # @fact edge CALLS svc.core.Service.run -> ?::svc/core.py::self.later.save reason="receiver type unknown"
        items.append(Record())  # a List is a builtins.list, never a repo method named append
        # @fact edge CALLS svc.core.Service.run -> python:builtins.list.append by=builtin confidence=medium
        u.save()  # @fact edge CALLS svc.core.Service.run -> ?::svc/core.py::u.save reason="ambiguous: 2 candidates"
        n.save()  # @fact edge CALLS svc.core.Service.run -> ?::svc/core.py::n.save reason="receiver type unknown"
        self.later()  # calling an attribute's value
        # @fact edge CALLS svc.core.Service.run -> ?::svc/core.py::self.later reason="dynamic call"

    def locals(self, n):
        x = Repo()
        x.save()  # @fact edge CALLS svc.core.Service.locals -> svc.core.Repo.save by=receiver
        y: Record = n
        y.touch()  # @fact edge CALLS svc.core.Service.locals -> svc.core.Record.touch by=receiver
        z = x.load()  # declared return type
        z.close_not_there()  # @fact edge CALLS svc.core.Service.locals -> ?::svc/core.py::z.close_not_there reason="member not found in class hierarchy"
        x.conn.close()  # a property's declared type
        # @fact edge CALLS svc.core.Service.locals -> svc.core.Conn.close by=receiver
        w = Repo() if n else Other()
        w.save()  # @fact edge CALLS svc.core.Service.locals -> ?::svc/core.py::w.save reason="receiver type unknown"
        v = Repo()
        v = Other()
        v.save()  # @fact edge CALLS svc.core.Service.locals -> ?::svc/core.py::v.save reason="ambiguous: 2 candidates"
        default_repo.save()  # a module-level variable assigned a constructor

    def statics(self, n):
        Repo.create()  # @fact edge CALLS svc.core.Service.statics -> svc.core.Repo.create by=class
        Factory.build().save()  # @fact edge CALLS svc.core.Service.statics -> svc.core.Factory.build by=class
        make().touch()  # @fact edge CALLS svc.core.Service.statics -> ?::svc/core.py::make().touch reason="member not found in class hierarchy"
        helper_untyped().save()  # its one return proves a Repo: @fact edge CALLS svc.core.Service.statics -> svc.core.Repo.save by=receiver site=105
        t.cast(Repo, n).save()  # @fact edge CALLS svc.core.Service.statics -> "?::svc/core.py::t.cast(Repo, n).save" reason="receiver type unknown"
        Repo.create().load().touch()  # @fact edge CALLS svc.core.Service.statics -> svc.core.Record.touch by=receiver
        # @fact edge CALLS svc.core.Service.statics -> svc.core.Repo.load by=receiver
        # @fact edge CALLS svc.core.Service.statics -> svc.core.Repo.save by=receiver
