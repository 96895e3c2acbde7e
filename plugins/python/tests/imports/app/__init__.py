# Re-exports: `app.Engine` is `app.core.Engine`.
from .core import Engine  # @fact edge IMPORTS app -> app.core.Engine by=import
from . import util  # the submodule app.util
# @fact edge IMPORTS app -> app.util by=import
