"""Models of the shop."""
# @fact node shop.models Module doc_comment="\"\"\"Models of the shop.\"\"\"" line=1

MAX_ITEMS = 10  # @fact node shop.models.MAX_ITEMS Const line=4
registry = {}  # @fact node shop.models.registry Var


def build_registry():  # @fact node shop.models.build_registry Function visibility=public
    return {}


def _internal():  # @fact node shop.models._internal Function visibility=private
    pass


registry = build_registry()  # module-level code belongs to the module
# @fact edge CALLS shop.models -> shop.models.build_registry by=scope line=16


class Cart:  # @fact node shop.models.Cart Class line=20 end_line=48
    """A cart."""

    # @fact node shop.models.Cart Class doc_comment="\"\"\"A cart.\"\"\""
    # @fact edge CONTAINS shop.models -> shop.models.Cart
    currency: str = "EUR"  # @fact node shop.models.Cart.currency Field type=str

    def __init__(self):  # @fact node shop.models.Cart.__init__ Method
        self.items = []  # @fact node shop.models.Cart.items Field
        # @fact edge CONTAINS shop.models.Cart -> shop.models.Cart.items

    def add(self, item: "Item", qty: int = 1) -> None:
        """Add an item."""
        # @fact node shop.models.Cart.add Method signature="def add(self, item: \"Item\", qty: int = 1) -> None:"
        # @fact node shop.models.Cart.add Method doc_comment="\"\"\"Add an item.\"\"\"" returns=None
        # @fact edge CONTAINS shop.models.Cart -> shop.models.Cart.add
        self.items.append(item)

    @staticmethod
    @cached
    async def fetch(key):  # @fact node shop.models.Cart.fetch Method is_async=true is_static=true decorators=@staticmethod,@cached
        return key

    def total(self):
        def helper(x):  # @fact node shop.models.Cart.total.helper Function
            return x

        # @fact edge CONTAINS shop.models.Cart.total -> shop.models.Cart.total.helper
        return sum(helper(i) for i in self.items)  # @fact edge CALLS shop.models.Cart.total -> shop.models.Cart.total.helper by=scope


class Outer:
    class Inner:  # @fact node shop.models.Outer.Inner Class
        def method(self):  # @fact node shop.models.Outer.Inner.method Method
            pass


def cached(fn):
    return fn
