from typing import Dict, List, Optional, Sequence

from shop.items import Item, Other


def total(items: list[Item], more: List[Item], by: Dict[str, Item], seq: Sequence[Item]) -> int:
    for x in items:
        x.price()  # @fact edge CALLS shop.use.total -> shop.items.Item.price by=receiver
    for y in more:
        y.price()  # @fact edge CALLS shop.use.total -> shop.items.Item.price by=receiver line=8
    for v in by.values():
        v.price()  # @fact edge CALLS shop.use.total -> shop.items.Item.price by=receiver line=8
    first = seq[0]
    first.price()  # @fact edge CALLS shop.use.total -> shop.items.Item.price by=receiver line=8
    return 0


def honest(maybe: Optional[List[Item]], pair: tuple[Item, Other], keys: Dict[Other, Item], rest: list[Item]):
    for a in maybe:  # not a container annotation: a union
        a.price()  # @fact no-edge CALLS shop.use.honest -> shop.items.Item.price site=20
    for b in pair:
        b.price()  # @fact no-edge CALLS shop.use.honest -> shop.items.Other.price site=22
    for k in keys:
        k.price()  # @fact edge CALLS shop.use.honest -> shop.items.Other.price by=receiver
    part = rest[1:]
    part.price()  # @fact no-edge CALLS shop.use.honest -> shop.items.Item.price site=26


def pairs(by: Dict[Other, Item], items: List[Item]):
    for k, v in by.items():
        k.price()  # @fact edge CALLS shop.use.pairs -> shop.items.Other.price by=receiver
        v.price()  # @fact edge CALLS shop.use.pairs -> shop.items.Item.price by=receiver
    for i, x in enumerate(items):
        x.price()  # @fact edge CALLS shop.use.pairs -> shop.items.Item.price by=receiver site=34
    for a, b in items:
        b.price()  # @fact no-edge CALLS shop.use.pairs -> shop.items.Item.price site=36
