"""A broken predicate library: it fails as soon as it is imported."""

raise RuntimeError("this library is broken on purpose")
