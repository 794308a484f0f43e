"""A predicate library with nothing but the standard vocabulary (mate,
stalemate, check, themtomove, ustomove; legal, nomove), for benchmark tables."""

from __future__ import annotations

from al0.lang.library import Library


def library() -> Library:
    """No predicates of its own: the standard ones are merged in on loading."""
    return Library("standard")
