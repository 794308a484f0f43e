"""A broken predicate library: predicates, but no library() to list them."""


def rookdivides(node, root):
    """Always true."""
    return True
