def memoized_property(fn):
    return property(fn)


class Result:
    def _fetch(self, n):
        return n

    @memoized_property
    def _getter(self):
        return self._fetch

    @property
    def size(self):
        return 1

    def many(self, n):
        getter = self._getter
        getter(n)  # @fact no-edge CALLS shop.props.Result.many -> shop.props.Result._getter
        self._fetch(n)  # @fact edge CALLS shop.props.Result.many -> shop.props.Result._fetch by=self
        self.size()  # @fact no-edge CALLS shop.props.Result.many -> shop.props.Result.size
