# @fact node tools/utils.py Module file=tools/utils.py
def util():  # @fact node tools/utils.py.util Function
    pass
