"""Collecting garbage less often while al0 holds many objects alive.

A verify run keeps hundreds of thousands of small tuples alive (plans, the
worst case's states, values and lines, segments), and each of CPython's
full collections (thresholds 700, 10, 10) goes through all of them: about
40 % of the worst case's walk of KRK, and 0.4 s of the 2.1 s that
``al0 verify krk_std --defender worst`` took when the thresholds were
raised for the run alone, because the table's loading before it and the
report after it still collected at CPython's pace. Few of al0's objects
make cycles, so collecting less often frees the same garbage a little
later. A process forked meanwhile (a verify worker) keeps the same.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Iterator

THRESHOLDS = (100_000, 20, 100)
"""The garbage collector's thresholds while :func:`fewer_collections` holds."""


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """:data:`THRESHOLDS` while the block runs, then the thresholds as they
    were (so a caller's own, a test runner's among them, are kept)."""
    before = gc.get_threshold()
    gc.set_threshold(*THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)


@contextlib.contextmanager
def settling() -> Iterator[Callable[[], None]]:
    """Yields ``settle``, which leaves every object made so far out of the
    collections (``gc.freeze``) until the block ends, when they are given
    back (``gc.unfreeze``: a test process running many commands frees them
    as before). For what stays: a run's main process settles what each
    answer brought as it comes, and ``al0 verify`` what the run made once
    it is over, so that a collection goes through what came since alone,
    not every record, plan and table again. All of KBBK with two workers
    had a collection of 0.3 s of CPU as the run ended, while both workers'
    cores stood idle."""
    try:
        yield gc.freeze
    finally:
        gc.unfreeze()
