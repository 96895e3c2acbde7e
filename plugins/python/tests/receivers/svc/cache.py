class Cache:
    def get(self):
        pass

    def save(self):
        pass
