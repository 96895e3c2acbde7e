def append(x):
    pass


def update(d):
    pass


def open(path):
    pass


def fetch():
    pass


def foo():
    pass


def foo_bar():
    pass


class Store:
    def append(self, x):
        pass

    def update(self, d):
        pass


class A:
    def run(self):
        pass


class B:
    def run(self):
        pass
# Same-named methods of different classes stay apart.
# @fact node lib.store.A.run Method
# @fact node lib.store.B.run Method
