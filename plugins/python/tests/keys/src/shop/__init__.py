# `src/` is not a package (no __init__.py): the import root, so this module is `shop`.
# @fact node shop Module file=src/shop/__init__.py
# @fact no-node src.shop
# @fact edge CONTAINS shop -> shop.models
# @fact edge CONTAINS shop -> shop.sub
# @fact edge CONTAINS shop.sub -> shop.sub.deep
