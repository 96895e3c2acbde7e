class Item:
    def price(self) -> int:
        return 0


class Other:
    def price(self) -> int:
        return 1
