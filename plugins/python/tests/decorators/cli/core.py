# Commands and the decorators that make them: each decorator declares what it gives, some through
# overloads chosen by the shape of the call (as a type checker chooses).
from typing import Any, Callable, Optional, TypeVar, Union, overload

F = TypeVar("F", bound=Callable[..., Any])
C = TypeVar("C", bound="Command")
AnyFn = Callable[..., Any]


class Command:
    def main(self) -> None:
        pass

    def invoke(self) -> None:
        pass


class Group(Command):
    @overload
    def command(self, __fn: AnyFn) -> Command: ...

    @overload
    def command(self, *args: Any, **kwargs: Any) -> Callable[[AnyFn], Command]: ...

    def command(self, *args: Any, **kwargs: Any) -> Union[Command, Callable[[AnyFn], Command]]:
        return Command()


class Special(Command):
    def main(self) -> None:
        pass


@overload
def command(name: AnyFn) -> Command: ...


@overload
def command(name: Optional[str], cls: type[C], **attrs: Any) -> Callable[[AnyFn], C]: ...


@overload
def command(name: None = None, *, cls: type[C], **attrs: Any) -> Callable[[AnyFn], C]: ...


@overload
def command(name: Optional[str] = ..., cls: None = None, **attrs: Any) -> Callable[[AnyFn], Command]: ...


def command(name: Any = None, cls: Any = None, **attrs: Any) -> Any:
    return Command()


def group(**attrs: Any) -> Callable[[AnyFn], Group]:
    return lambda f: Group()


def option(*decls: str, **attrs: Any) -> Callable[[F], F]:
    return lambda f: f


def trace(f: F) -> F:
    return f


def loose(f):
    return Command()


@overload
def pick(x: int) -> Callable[[AnyFn], Command]: ...


@overload
def pick(x: str) -> Callable[[AnyFn], Group]: ...


def pick(x: Any) -> Any:
    return group()
