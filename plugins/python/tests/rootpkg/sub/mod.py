from .. import top  # @fact edge IMPORTS rootpkg.sub.mod -> rootpkg.top by=import


def f():  # @fact node rootpkg.sub.mod.f Function
    top.g()  # @fact edge CALLS rootpkg.sub.mod.f -> rootpkg.top.g by=import
