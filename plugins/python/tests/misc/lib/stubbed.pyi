# A stub beside its module: the .py keeps the module key, the stub is keyed by its path.
# @fact node lib.stubbed Module file=lib/stubbed.py
# @fact node lib/stubbed.pyi Module file=lib/stubbed.pyi
def real() -> None: ...
