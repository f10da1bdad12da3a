# moved: two lines were inserted above sub
# (see docs/stale.md)
def add(a, b):
    return a + b


def sub(a, b):
    return a - b
