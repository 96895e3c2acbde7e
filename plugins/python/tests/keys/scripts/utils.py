# Two loose `utils.py` under different roots: the shallowest root, then the first path, keeps
# the dotted key; the other is keyed by its path.
# @fact node utils Module file=scripts/utils.py
def util():  # @fact node utils.util Function
    pass
