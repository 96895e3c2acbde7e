from lib.store import Store


def fetch():
    pass


class Panel:
    def helper(self):
        pass

    def clicked(self):
        pass

    def run(self):
        helper()  # a class body's names are not visible inside its methods
        # @fact edge CALLS scopes.Panel.run -> ?::scopes.py::helper reason="not defined in scope"
        # @fact no-edge CALLS scopes.Panel.run -> scopes.Panel.helper
        self.on = self.clicked  # a method used as a value
        # @fact edge REFERENCES scopes.Panel.run -> scopes.Panel.clicked by=self


def outer(s: Store):
    def inner():
        s.append(1)  # the caller is the innermost definition
        fetch()

    # @fact edge CALLS scopes.outer.inner -> lib.store.Store.append by=receiver
    # @fact no-edge CALLS scopes.outer -> lib.store.Store.append
    # @fact edge CALLS scopes.outer.inner -> scopes.fetch by=scope
    register(inner)  # a function passed as a value
    # @fact edge REFERENCES scopes.outer -> scopes.outer.inner by=scope
    sorted([], key=fetch)  # @fact edge REFERENCES scopes.outer -> scopes.fetch by=scope
    list(map(lambda x: fetch(), []))  # a lambda's calls belong to the enclosing function
    # @fact edge CALLS scopes.outer -> scopes.fetch by=scope


def register(fn):
    fn()  # @fact edge CALLS scopes.register -> ?::scopes.py::fn reason="dynamic call"


def shadowed(fetch):
    fetch()  # the parameter, not the module's function
    # @fact no-edge CALLS scopes.shadowed -> scopes.fetch
    # @fact edge CALLS scopes.shadowed -> ?::scopes.py::fetch reason="dynamic call"


def lambdas(x: Store, handlers, obj, k):
    list(map(lambda x: x.append(1), []))  # the lambda's x is not the annotated x
    # @fact no-edge CALLS scopes.lambdas -> lib.store.Store.append
    [y.update({}) for y in [x]]  # @fact edge CALLS scopes.lambdas -> ?::scopes.py::y.update reason="receiver type unknown"
    handlers[k]()  # @fact edge CALLS scopes.lambdas -> ?::scopes.py::handlers[k] reason="dynamic call"
    getattr(obj, "m")()  # @fact edge CALLS scopes.lambdas -> "?::scopes.py::getattr(obj, \"m\")" reason="dynamic call"
    g = fetch
    g()  # a local alias of a module function
    # @fact edge CALLS scopes.lambdas -> scopes.fetch by=alias confidence=medium


fetch()  # module-level code belongs to the module
# @fact edge CALLS scopes -> scopes.fetch by=scope


def setup():
    global Widget  # assigned here, at module level: not a local of setup, and not undefined

    class Widget:
        pass


def use_widget():
    Widget()  # @fact edge CALLS scopes.use_widget -> ?::scopes.py::Widget reason="dynamic call"
