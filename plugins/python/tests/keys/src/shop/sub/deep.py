# @fact node shop.sub.deep Module
def dig():  # @fact node shop.sub.deep.dig Function
    pass
