# What a decorated function's name holds, as its decorators declare.
from cli import core
from cli.core import Command, Special, command, group, option, pick


@command()
@option("--count", help="how many")
def hello() -> None:
    pass


@command("bye")
def bye() -> None:
    pass


@command
def bare() -> None:
    pass


@command(cls=Special)
def special() -> None:
    pass


@group()
def tool() -> None:
    pass


@tool.command()
def sub() -> None:
    pass


@tool.command
def sub_bare() -> None:
    pass


@core.trace
def traced() -> None:
    pass


@core.loose
def loosely() -> None:
    pass


@option("--x")
@command()
def inner_first() -> None:
    pass


def run(n) -> None:
    hello.main()  # @fact edge CALLS cli.app.run -> cli.core.Command.main by=receiver site=59
    hello()  # @fact edge CALLS cli.app.run -> cli.app.hello site=60
    bye.invoke()  # @fact edge CALLS cli.app.run -> cli.core.Command.invoke by=receiver site=61
    bare.invoke()  # @fact edge CALLS cli.app.run -> cli.core.Command.invoke by=receiver site=62
    # a class chosen by argument: what it gives is the argument's class, not read here
    special.main()  # @fact no-edge CALLS cli.app.run -> cli.core.Special.main
    # @fact no-edge CALLS cli.app.run -> cli.core.Command.main site=64
    sub.main()  # @fact edge CALLS cli.app.run -> cli.core.Command.main by=receiver site=66
    # `@tool.command` bare: the first overload takes the function (the second may too; the first wins)
    sub_bare.main()  # @fact edge CALLS cli.app.run -> cli.core.Command.main by=receiver site=68
    traced.main()  # a function passed on: no member of it is a Command's
    # @fact no-edge CALLS cli.app.run -> cli.core.Command.main site=69
    loosely.main()  # no declared result
    # @fact no-edge CALLS cli.app.run -> cli.core.Command.main site=71
    inner_first.main()  # @fact edge CALLS cli.app.run -> cli.core.Command.main by=receiver site=73


# `@tool.command()` reads tool as the Group it holds
# @fact edge CALLS cli.app -> cli.core.Group.command by=receiver site=32


def overloads(x) -> None:
    @pick(1)
    def one() -> None:
        pass

    @pick(x)  # x may be an int or a str: no overload chosen
    def either() -> None:
        pass

    one.invoke()  # @fact edge CALLS cli.app.overloads -> cli.core.Command.invoke by=receiver site=89
    either.invoke()  # @fact no-edge CALLS cli.app.overloads -> cli.core.Command.invoke site=90
    # @fact no-edge CALLS cli.app.overloads -> cli.core.Group.invoke


def twice() -> None:
    @command()
    def c() -> None:
        pass

    @command("again")
    def c() -> None:
        pass

    c.main()  # @fact edge CALLS cli.app.twice -> cli.core.Command.main by=receiver site=103
