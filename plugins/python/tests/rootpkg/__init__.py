# The tree's top directory is itself a package: its name (the case directory) leads every key.
# @fact node rootpkg Module file=__init__.py
