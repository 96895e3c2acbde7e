from lib.store import A, foo_bar


def process(items, d, data):
    items.append(1)  # an untyped receiver is unresolved, even though the repo has `append` methods
    # @fact edge CALLS app.process -> ?::app.py::items.append reason="receiver type unknown"
    # @fact no-edge CALLS app.process -> lib.store.Store.append
    # @fact no-edge CALLS app.process -> lib.store.append
    d.update({})  # @fact edge CALLS app.process -> ?::app.py::d.update reason="receiver type unknown"
    # @fact no-edge CALLS app.process -> lib.store.Store.update
    data.fetch()  # @fact no-edge CALLS app.process -> lib.store.fetch


def builtins_first():
    open("f")  # the builtin, never the repo's lib.store.open
    # @fact edge CALLS app.builtins_first -> python:builtins.open by=builtin
    # @fact no-edge CALLS app.builtins_first -> lib.store.open
    print(len([]))  # @fact edge CALLS app.builtins_first -> python:builtins.print by=builtin


def names():
    foo_bar()  # @fact edge CALLS app.names -> lib.store.foo_bar by=import
    # @fact no-edge CALLS app.names -> lib.store.foo
    foo()  # not imported here: never bound by bare name across files
    # @fact edge CALLS app.names -> ?::app.py::foo reason="not defined in scope"
    # @fact no-edge CALLS app.names -> lib.store.foo


def typed(a: A):
    a.run()  # @fact edge CALLS app.typed -> lib.store.A.run by=receiver
    # @fact no-edge CALLS app.typed -> lib.store.B.run
