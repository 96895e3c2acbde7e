def g():  # @fact node rootpkg.top.g Function
    pass
