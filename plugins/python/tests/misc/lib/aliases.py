from lib.core import kinds

describe = kinds.describe  # an alias through a module attribute (a variable: medium)


def go():
    describe()  # @fact edge CALLS lib.aliases.go -> lib.core.kinds.describe by=alias confidence=medium
