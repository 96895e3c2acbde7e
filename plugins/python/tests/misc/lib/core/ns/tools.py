# `ns` has no __init__.py but sits inside a package: a namespace subpackage, so this is
# `lib.core.ns.tools` (not a loose `tools`).
# @fact node lib.core.ns.tools Module
# @fact no-node tools
from ...core import kinds  # relative imports work from a namespace subpackage


def use():
    kinds.describe()  # @fact edge CALLS lib.core.ns.tools.use -> lib.core.kinds.describe by=import
