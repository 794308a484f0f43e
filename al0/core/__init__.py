"""The native core: al0's forcing-tree search, its positions, moves,
vocabulary and goals, and the planner's loop around the search (rules,
symmetry, the tree handed back packed) in C (the ``*.c`` files here, one
idea a file, each named after the Python module it mirrors), built by
``pip install`` as an optional extension.

The Python modules stay the reference twin, as ``heapq`` is ``_heapq``'s:
where the extension was not built, or ``AL0_CORE=python`` asks for it, or
a table needs what the core lacks (a Python predicate library), the Python
search runs, with the same results. :func:`status` says which core runs
and why; ``al0 --version`` and ``al0 check`` print it.
"""

from __future__ import annotations

import functools
import os
from types import ModuleType

from al0.errors import AL0Error

ENV = "AL0_CORE"
"""The environment variable that chooses the core: ``python`` forces the
twin; unset (or ``native``) uses the native core where it is built."""
CHOICES = ("native", "python")


def _chosen() -> str:
    """``AL0_CORE`` as ``native`` (also when unset or empty) or ``python``.

    :raises AL0Error: any other value: a typo (``pyhton``) must not run
        the native core while the user believes the twin runs.
    """
    value = os.environ.get(ENV, "").strip().lower()
    if value and value not in CHOICES:
        raise AL0Error(f"{ENV}={os.environ[ENV]!r}: give {' or '.join(CHOICES)} (or leave it unset)")
    return value or "native"


@functools.cache
def _load() -> tuple[ModuleType | None, str]:
    """The built extension, or None and why it cannot be imported (imported once)."""
    try:
        from al0.core import _core  # type: ignore[attr-defined]
    except ImportError as error:
        return None, f"the native core was not built ({error})"
    return _core, ""


def native() -> ModuleType | None:
    """The native core's module when it is to run, else None.

    :raises AL0Error: ``AL0_CORE`` names no core.
    """
    if _chosen() == "python":
        return None
    return _load()[0]


def status() -> str:
    """Which core runs, and why, in one line.

    :raises AL0Error: ``AL0_CORE`` names no core.
    """
    if _chosen() == "python":
        return f"python (the reference twin: {ENV}=python)"
    module, why = _load()
    if module is None:
        return f"python (the reference twin: {why})"
    return "native (C extension al0.core._core)"
